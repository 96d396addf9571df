/**
 * Moves as paths: each leg is a rigid motion (a straight run, a turn in place, a wheel about a front corner, a
 * slant), sampled finely enough that the hull of each base between two samples covers the ground it sweeps.
 * The same legs move one base or a line abreast group as one body; a line ahead column follows its leader's
 * track (`column.ts`). What a move may do (allowances, turn limits) is the ruleset's; this module measures it.
 */
import { type Base, cornersOf } from './base.ts';
import { type Point, add, distance, headingVector, normalizeHeading, rotateAbout, scale } from './vector.ts';

/** One leg of a move, relative to the moving body's heading at the time. */
export type Leg =
  /** Straight ahead. */
  | { readonly kind: 'ahead'; readonly distance: number }
  /** Straight back (backing water), heading kept. */
  | { readonly kind: 'back'; readonly distance: number }
  /** A slant: `degrees` off the heading (+ to starboard), heading kept. */
  | { readonly kind: 'oblique'; readonly degrees: number; readonly distance: number }
  /** A turn in place about the body's centre (+ clockwise, to starboard). */
  | { readonly kind: 'turn'; readonly degrees: number }
  /** A wheel about the front corner on the inside (+ clockwise pivots on the starboard front corner). */
  | { readonly kind: 'wheel'; readonly degrees: number };

/** The absolute motions legs become. */
export type Motion = { readonly kind: 'translate'; readonly by: Point } | { readonly kind: 'rotate'; readonly about: Point; readonly degrees: number };

export function moveBase(b: Base, m: Motion, t = 1): Base {
  if (m.kind === 'translate') return { ...b, x: b.x + m.by.x * t, y: b.y + m.by.y * t };
  const c = rotateAbout({ x: b.x, y: b.y }, m.about, m.degrees * t);
  return { ...b, x: c.x, y: c.y, heading: normalizeHeading(b.heading + m.degrees * t) };
}

/**
 * The frame of a body: its heading, centre and front corners (for a group in line abreast, the outer front
 * corners of its end ships), from which a leg is turned into a motion.
 */
export interface Frame {
  readonly heading: number;
  readonly centre: Point;
  readonly frontLeft: Point;
  readonly frontRight: Point;
}

/** The frame of a body of bases sharing one heading (one base, or a line abreast left to right). */
export function frameOf(bases: readonly Base[]): Frame {
  const heading = bases[0].heading;
  const corners = bases.flatMap((b) => cornersOf(b));
  const right = { x: Math.cos((heading * Math.PI) / 180), y: -Math.sin((heading * Math.PI) / 180) };
  const ahead = headingVector(heading);
  const score = (p: Point, k: number) => (p.x * right.x + p.y * right.y) * k + (p.x * ahead.x + p.y * ahead.y) * 1e-3;
  const frontLeft = corners.reduce((best, p) => (score(p, -1) > score(best, -1) ? p : best));
  const frontRight = corners.reduce((best, p) => (score(p, 1) > score(best, 1) ? p : best));
  const centre = { x: bases.reduce((s, b) => s + b.x, 0) / bases.length, y: bases.reduce((s, b) => s + b.y, 0) / bases.length };
  return { heading, centre, frontLeft, frontRight };
}

export function motionOf(frame: Frame, leg: Leg): Motion {
  switch (leg.kind) {
    case 'ahead':
      return { kind: 'translate', by: scale(headingVector(frame.heading), leg.distance) };
    case 'back':
      return { kind: 'translate', by: scale(headingVector(frame.heading), -leg.distance) };
    case 'oblique':
      return { kind: 'translate', by: scale(headingVector(frame.heading + leg.degrees), leg.distance) };
    case 'turn':
      return { kind: 'rotate', about: frame.centre, degrees: leg.degrees };
    case 'wheel':
      return { kind: 'rotate', about: leg.degrees >= 0 ? frame.frontRight : frame.frontLeft, degrees: leg.degrees };
  }
}

/** What a rigid move measured: how far it went, as the rules count it. */
export interface Measured {
  /** Straight runs and slants (the distance each base moved). */
  readonly ahead: number;
  readonly back: number;
  /** The arc the outside front corner travelled in wheels. */
  readonly wheeled: number;
  /** Degrees turned in place and wheeled, all counted as positive. */
  readonly turned: number;
  /** The largest angle off the heading of any slant. */
  readonly slant: number;
  /** ahead + back + wheeled: the distance the move used. */
  readonly travelled: number;
}

/** A move's positions: `frames[k][i]` is base i at sample k (the first is the start, the last the end). */
export interface Path {
  readonly frames: readonly (readonly Base[])[];
  readonly measured: Measured;
}

/** The finest step a sample may take: an eighth of the smallest base's smaller side. */
export const sampleStep = (bases: readonly Base[]): number => Math.min(...bases.map((b) => Math.min(b.width, b.length))) / 8;

/** The path of a body of bases moving rigidly by `legs`, each leg's frame taken from where the body then is. */
export function rigidPath(bases: readonly Base[], legs: readonly Leg[]): Path {
  const step = sampleStep(bases);
  let current: readonly Base[] = bases;
  const frames: Base[][] = [[...bases]];
  let ahead = 0;
  let back = 0;
  let wheeled = 0;
  let turned = 0;
  let slant = 0;
  for (const leg of legs) {
    const frame = frameOf(current);
    const m = motionOf(frame, leg);
    // The farthest any corner travels decides how many samples keep each within a step.
    let reach = 0;
    if (m.kind === 'translate') reach = Math.hypot(m.by.x, m.by.y);
    else {
      const radius = Math.max(...current.flatMap((b) => cornersOf(b).map((p) => distance(p, m.about))));
      reach = (radius * Math.abs(m.degrees) * Math.PI) / 180;
    }
    const n = Math.max(1, Math.ceil(reach / step));
    for (let k = 1; k <= n; k++) frames.push(current.map((b) => moveBase(b, m, k / n)));
    current = frames[frames.length - 1];
    if (leg.kind === 'ahead') ahead += leg.distance;
    else if (leg.kind === 'back') back += leg.distance;
    else if (leg.kind === 'oblique') {
      ahead += leg.distance;
      slant = Math.max(slant, Math.abs(leg.degrees));
    } else if (leg.kind === 'turn') turned += Math.abs(leg.degrees);
    else {
      turned += Math.abs(leg.degrees);
      // The outside corner: the far front corner from the pivot.
      const outside = leg.degrees >= 0 ? frame.frontLeft : frame.frontRight;
      const pivot = leg.degrees >= 0 ? frame.frontRight : frame.frontLeft;
      wheeled += (distance(outside, pivot) * Math.abs(leg.degrees) * Math.PI) / 180;
    }
  }
  return { frames, measured: { ahead, back, wheeled, turned, slant, travelled: ahead + back + wheeled } };
}

/** The end of a rigid move without its samples. */
export function rigidEnd(bases: readonly Base[], legs: readonly Leg[]): Base[] {
  let current: Base[] = [...bases];
  for (const leg of legs) {
    const m = motionOf(frameOf(current), leg);
    current = current.map((b) => moveBase(b, m));
  }
  return current;
}

/** Every base turned in place about its own centre by `degrees` (a group's formation change by turning). */
export function turnEachPath(bases: readonly Base[], degrees: number): Path {
  const step = sampleStep(bases);
  const radius = Math.max(...bases.map((b) => Math.hypot(b.width, b.length) / 2));
  const n = Math.max(1, Math.ceil((radius * Math.abs(degrees) * Math.PI) / 180 / step));
  const frames: Base[][] = [];
  for (let k = 0; k <= n; k++) frames.push(bases.map((b) => moveBase(b, { kind: 'rotate', about: { x: b.x, y: b.y }, degrees }, k / n)));
  return { frames, measured: { ahead: 0, back: 0, wheeled: 0, turned: Math.abs(degrees), slant: 0, travelled: 0 } };
}

/** A straight slide of each base by its own offset (closing up a line), sampled. */
export function slidePath(bases: readonly Base[], offsets: readonly Point[]): Path {
  const step = sampleStep(bases);
  const reach = Math.max(0, ...offsets.map((o) => Math.hypot(o.x, o.y)));
  const n = Math.max(1, Math.ceil(reach / step));
  const frames: Base[][] = [];
  for (let k = 0; k <= n; k++) frames.push(bases.map((b, i) => ({ ...b, x: b.x + offsets[i].x * (k / n), y: b.y + offsets[i].y * (k / n) })));
  return { frames, measured: { ahead: reach, back: 0, wheeled: 0, turned: 0, slant: 0, travelled: reach } };
}

/** Two paths one after the other (the second must start where the first ends). */
export function joinPaths(a: Path, b: Path): Path {
  const m = (k: keyof Measured) => a.measured[k] + b.measured[k];
  return {
    frames: [...a.frames, ...b.frames.slice(1)],
    measured: {
      ahead: m('ahead'),
      back: m('back'),
      wheeled: m('wheeled'),
      turned: m('turned'),
      slant: Math.max(a.measured.slant, b.measured.slant),
      travelled: m('travelled'),
    },
  };
}

export const pointAhead = (p: Point, heading: number, d: number): Point => add(p, scale(headingVector(heading), d));
