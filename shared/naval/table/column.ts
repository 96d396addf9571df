/**
 * A column (line ahead) moving "in succession": the leader runs straight legs and turns in place where it
 * chooses (pivoting on its inside rear corner); every other ship's centre follows the same track as far as the
 * leader's went, turning where the leader turned. A follower that would run into the ship ahead at a bend stops where it just touches it (the bend
 * closes on the inner corners, which the rules' "at least one corner touching" allows), so a column never
 * interpenetrates itself.
 */
import { type Base, bowPoint, cornersOf, sternPoint } from './base.ts';
import type { Path } from './motion.ts';
import { distanceBetween, overlapping } from './relations.ts';
import { type Point, distance, headingOf, headingVector, lerp, normalizeHeading, rotateAbout, turnBetween } from './vector.ts';

/** A leader's leg in line ahead: straight on, or a turn in place (+ clockwise). */
export type ColumnLeg = { readonly kind: 'ahead'; readonly distance: number } | { readonly kind: 'turn'; readonly degrees: number };

interface Track {
  readonly points: Point[];
  /** Arc length at each point. */
  readonly arcs: number[];
}

function trackOf(points: Point[]): Track {
  // Drop repeated points (a straight, closed-up column's bow and next stern coincide).
  const kept: Point[] = [];
  for (const p of points) if (kept.length === 0 || distance(kept[kept.length - 1], p) > 1e-12) kept.push(p);
  const arcs = [0];
  for (let i = 1; i < kept.length; i++) arcs.push(arcs[i - 1] + distance(kept[i - 1], kept[i]));
  return { points: kept, arcs };
}

/** The point at arc `s` and the heading of the segment it lies on (the next one at a vertex). */
function along(track: Track, s: number): { at: Point; heading: number } {
  const { points, arcs } = track;
  let i = 0;
  while (i < points.length - 2 && arcs[i + 1] <= s) i++;
  const len = arcs[i + 1] - arcs[i];
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, (s - arcs[i]) / len));
  return { at: lerp(points[i], points[i + 1], t), heading: headingOf({ x: points[i + 1].x - points[i].x, y: points[i + 1].y - points[i].y }) };
}

/** The arc position of a point known to lie on the track at or after segment `from`. */
function arcAt(track: Track, p: Point): number {
  let best = 0;
  let bestD = Number.POSITIVE_INFINITY;
  for (let i = 0; i < track.points.length - 1; i++) {
    const a = track.points[i];
    const b = track.points[i + 1];
    const len = track.arcs[i + 1] - track.arcs[i];
    if (len === 0) continue;
    const t = Math.max(0, Math.min(1, ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / (len * len)));
    const q = lerp(a, b, t);
    const d = distance(p, q);
    if (d < bestD - 1e-12) {
      bestD = d;
      best = track.arcs[i] + t * len;
    }
  }
  return best;
}

/**
 * The leader after `run` of straight legs (a turn met where the run ends made by `turnDone` of its degrees), and
 * the track its followers take: through the leader's centre, turning where it turned. The leader itself turns in
 * place pivoting on its rear corner on the inside of the turn, so its stern never swings into the ship behind
 * it (which it keeps touching at that corner); the followers turn where its centre was.
 */
function leaderTrack(leader: Base, legs: readonly ColumnLeg[], run: number, turnDone: number): { points: Point[]; at: Base; extra: number } {
  let at: Base = leader;
  // How far the pivots carried the leader along its new course: its followers go that much further to keep closed up.
  let extra = 0;
  let track: Point = { x: leader.x, y: leader.y };
  const points: Point[] = [track];
  let left = run;
  for (const leg of legs) {
    if (leg.kind === 'ahead') {
      if (left <= 1e-12 && leg.distance > 0) break;
      const d = Math.min(left, leg.distance);
      const v = headingVector(at.heading);
      at = { ...at, x: at.x + v.x * d, y: at.y + v.y * d };
      track = { x: track.x + v.x * d, y: track.y + v.y * d };
      points.push(track);
      left -= d;
      if (d < leg.distance) break;
      continue;
    }
    const fraction = left <= 1e-12 ? turnDone : 1;
    const degrees = leg.degrees * fraction;
    const corners = cornersOf(at);
    // Rear-right for a turn to starboard, rear-left to port.
    const pivot = leg.degrees >= 0 ? corners[2] : corners[3];
    const centre = rotateAbout({ x: at.x, y: at.y }, pivot, degrees);
    const heading = normalizeHeading(at.heading + degrees);
    const v = headingVector(heading);
    extra += (centre.x - at.x) * v.x + (centre.y - at.y) * v.y;
    at = { ...at, x: centre.x, y: centre.y, heading };
    if (fraction < 1) break;
  }
  return { points, at, extra };
}

/**
 * Where the column is after its leader has gone `run` along its straight legs (and made the turns met by then,
 * the turn at the run's end by `turnDone` of its degrees). `column[0]` is the leader. Every follower goes the
 * same `run` along the track.
 */
function columnAt(column: readonly Base[], legs: readonly ColumnLeg[], run: number, turnDone: number): Base[] {
  const leader = column[0];
  // The track: the last ship's stern, each joint between two ships (the middle of one's bow and the next one's
  // stern: the same point in a straight column), then the leader's centre and its path.
  const points: Point[] = [sternPoint(column[column.length - 1])];
  for (let i = column.length - 1; i >= 1; i--) points.push(lerp(bowPoint(column[i]), sternPoint(column[i - 1]), 0.5));
  const { points: path, at, extra } = leaderTrack(leader, legs, run, turnDone);
  const advanced = run + Math.max(0, extra);
  points.push(...path);
  // Extend the track past the leader a little so a follower's heading at the end is defined.
  const v = headingVector(at.heading);
  points.push({ x: at.x + v.x * 1e-6, y: at.y + v.y * 1e-6 });
  const track = trackOf(points);
  const out: Base[] = [at];
  for (let i = 1; i < column.length; i++) {
    const ship = column[i];
    const start = arcAt(track, { x: ship.x, y: ship.y });
    const place = (s: number): Base => {
      const p = along(track, s);
      return { ...ship, x: p.at.x, y: p.at.y, heading: s <= start + 1e-12 ? ship.heading : p.heading };
    };
    let placedShip = place(start + advanced);
    if (overlapping(placedShip, out[i - 1])) {
      // Back off along the track until it just touches the ship ahead.
      let lo = start;
      let hi = start + advanced;
      for (let k = 0; k < 60 && hi - lo > 1e-10; k++) {
        const mid = (lo + hi) / 2;
        if (overlapping(place(mid), out[i - 1])) hi = mid;
        else lo = mid;
      }
      placedShip = place(lo);
    }
    if (distanceBetween(placedShip, out[i - 1]) > 1e-9) {
      // A turn can open a gap (the ship ahead pivoted on its corner, or this one waits at the turning point): it
      // closes up, straight towards the stern of the ship ahead, until it touches — keeping station in the column.
      const from = bowPoint(placedShip);
      const to = sternPoint(out[i - 1]);
      const shifted = (t: number): Base => ({ ...placedShip, x: placedShip.x + (to.x - from.x) * t, y: placedShip.y + (to.y - from.y) * t });
      let lo = 0;
      let hi = 1;
      if (!overlapping(shifted(1), out[i - 1])) lo = 1;
      else
        for (let k = 0; k < 60 && hi - lo > 1e-12; k++) {
          const mid = (lo + hi) / 2;
          if (overlapping(shifted(mid), out[i - 1])) hi = mid;
          else lo = mid;
        }
      placedShip = shifted(lo);
    }
    out.push(placedShip);
  }
  return out;
}

/** The total bend of a column: the turns from each ship to the next, all counted positive. */
export function columnBend(column: readonly Base[]): number {
  let bend = 0;
  for (let i = 1; i < column.length; i++) bend += Math.abs(turnBetween(column[i].heading, column[i - 1].heading));
  return bend;
}

/**
 * The path of a column following its leader's legs: sampled along the run, and through each turn in place of
 * the leader. `measured.travelled` is the leader's run; `turned` the leader's turns, all counted positive.
 */
export function columnPath(column: readonly Base[], legs: readonly ColumnLeg[]): Path {
  const step = Math.min(...column.map((b) => Math.min(b.width, b.length))) / 8;
  const frames: Base[][] = [[...column]];
  let run = 0;
  let turned = 0;
  for (const leg of legs) {
    if (leg.kind === 'ahead') {
      const n = Math.max(1, Math.ceil(leg.distance / step));
      for (let k = 1; k <= n; k++) frames.push(columnAt(column, legs, run + (leg.distance * k) / n, 0));
      run += leg.distance;
    } else {
      const reach = (Math.hypot(column[0].width, column[0].length) / 2) * ((Math.abs(leg.degrees) * Math.PI) / 180);
      const n = Math.max(1, Math.ceil(reach / step));
      for (let k = 1; k <= n; k++) frames.push(columnAt(column, legs, run, k / n));
      turned += Math.abs(leg.degrees);
    }
  }
  const last = frames[frames.length - 1];
  const end = columnAt(column, legs, run, 1);
  frames[frames.length - 1] = end.length === last.length ? end : last;
  return { frames, measured: { ahead: run, back: 0, wheeled: 0, turned, slant: 0, travelled: run } };
}
