/**
 * Whether a move's path is clear: between each two samples, the hull of each moving base (the ground it
 * swept) must stay on the table, off the land, and clear of every other base (touching is allowed). Other
 * bases go into a static spatial index (flatbush) once per check, so each hull is tested only against the
 * few bases near it.
 */
import Flatbush from 'flatbush';
import { type Base, cornersOf } from './base.ts';
import type { Path } from './motion.ts';
import { convexHull, overlapDepth } from './polygon.ts';
import { TOUCH, overlapping } from './relations.ts';
import { type Table, terrainUnderShape } from './table.ts';
import type { Point } from './vector.ts';

export interface Obstacle {
  readonly id: string;
  /** What a refusal calls it ("Nike"); its id when it has no name. */
  readonly name?: string;
  readonly base: Base;
}

export type Clear =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** Why, in words ("it would run into Nike"). */
      readonly reason: string;
      /** The mover (its index in the path's frames) and the sample where it is blocked. */
      readonly mover: number;
      readonly frame: number;
      /** The base or terrain in the way, or "table" for the edge. */
      readonly blocker: string;
    };

export interface SweepOptions {
  /** The movers' ids, for the words. */
  readonly names?: readonly string[];
  /** Obstacles of the index to leave out (the movers themselves, when the index holds every base). */
  readonly except?: ReadonlySet<string>;
  /** Allow the movers off the table (a column at set-up, a ship leaving the battle). */
  readonly offTable?: boolean;
}

function box(points: readonly Point[]): [number, number, number, number] {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return [x0, y0, x1, y1];
}

/** Whether two boxes (x0, y0, x1, y1) come within the tolerance of each other. */
const boxesMeet = (a: readonly number[], b: readonly number[]): boolean =>
  a[0] <= b[2] + TOUCH && b[0] <= a[2] + TOUCH && a[1] <= b[3] + TOUCH && b[1] <= a[3] + TOUCH;

/** A reusable index of the bases a move must keep clear of. */
export class ObstacleIndex {
  private readonly index: Flatbush | null;
  private readonly corners: Point[][];
  private readonly boxes: [number, number, number, number][];

  constructor(readonly obstacles: readonly Obstacle[]) {
    this.corners = obstacles.map((o) => cornersOf(o.base));
    this.boxes = this.corners.map((c) => box(c));
    if (obstacles.length === 0) {
      this.index = null;
      return;
    }
    this.index = new Flatbush(obstacles.length);
    for (const b of this.boxes) this.index.add(...b);
    this.index.finish();
  }

  /**
   * The obstacles whose boxes come within the tolerance of a box (the only ones a shape inside it can hit), less
   * those `except` names (the movers, when one index of every base serves many moves).
   */
  near(x0: number, y0: number, x1: number, y1: number, except?: ReadonlySet<string>): number[] {
    if (!this.index) return [];
    // In the order the obstacles were given, so that of two hit at one sample the first listed is named.
    const found = this.index.search(x0 - TOUCH, y0 - TOUCH, x1 + TOUCH, y1 + TOUCH).sort((a, b) => a - b);
    return except?.size ? found.filter((i) => !except.has(this.obstacles[i].id)) : found;
  }

  /** Whether obstacle `i`'s box comes within the tolerance of a box. */
  boxMeets(i: number, b: readonly number[]): boolean {
    return boxesMeet(this.boxes[i], b);
  }

  /** The first obstacle a convex shape's inside overlaps, or null; `among` narrows the search to those indices. */
  hit(shape: readonly Point[], among?: readonly number[], except?: ReadonlySet<string>): Obstacle | null {
    if (!this.index) return null;
    const [x0, y0, x1, y1] = box(shape);
    for (const i of among ?? this.near(x0, y0, x1, y1, except)) {
      const b = this.boxes[i];
      if (b[0] > x1 + TOUCH || b[2] < x0 - TOUCH || b[1] > y1 + TOUCH || b[3] < y0 - TOUCH) continue;
      if (overlapDepth(shape, this.corners[i]) > TOUCH) return this.obstacles[i];
    }
    return null;
  }
}

/**
 * Checks a path against the table, its terrain and the obstacles (the movers themselves left out by the caller).
 * Each mover's whole path is boxed first: the obstacles and terrain near that box are the only ones any sample
 * can meet, and a sample whose box is clear of them all and inside the table needs no hull (the hull lies in the
 * box), so a move in open water costs little more than its samples.
 */
export function checkPath(table: Table, path: Path, obstacles: readonly Obstacle[] | ObstacleIndex, options: SweepOptions = {}): Clear {
  const index = obstacles instanceof ObstacleIndex ? obstacles : new ObstacleIndex(obstacles);
  const name = (i: number) => options.names?.[i] ?? `base ${i + 1}`;
  const frames = path.frames;
  if (frames.length < 2) return { ok: true };
  const movers = frames[0].length;
  // Each sample's corners, and each mover's box over the whole path.
  const corners: Point[][][] = frames.map((f) => f.map((b) => cornersOf(b)));
  const near: number[][] = [];
  const terrainBoxes = table.terrain.map((t) => ({ t, b: box(t.outline) }));
  const land: { t: Table['terrain'][number]; b: number[] }[][] = [];
  for (let i = 0; i < movers; i++) {
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    for (const f of corners)
      for (const p of f[i]) {
        if (p.x < x0) x0 = p.x;
        if (p.y < y0) y0 = p.y;
        if (p.x > x1) x1 = p.x;
        if (p.y > y1) y1 = p.y;
      }
    near.push(index.near(x0, y0, x1, y1, options.except));
    land.push(terrainBoxes.filter((t) => boxesMeet(t.b, [x0, y0, x1, y1])));
  }
  for (let k = 1; k < frames.length; k++)
    for (let i = 0; i < movers; i++) {
      const points = [...corners[k - 1][i], ...corners[k][i]];
      const b = box(points);
      const onTable = options.offTable || (b[0] >= -TOUCH && b[1] >= -TOUCH && b[2] <= table.width + TOUCH && b[3] <= table.depth + TOUCH);
      const lands = land[i].length ? land[i].filter((t) => boxesMeet(t.b, b)).map((t) => t.t) : [];
      if (onTable && lands.length === 0 && !near[i].some((j) => index.boxMeets(j, b))) continue;
      const hull = convexHull(points);
      if (!onTable) return { ok: false, reason: `${name(i)} would leave the table`, mover: i, frame: k, blocker: 'table' };
      const under = lands.length ? terrainUnderShape({ terrain: lands }, hull) : lands;
      if (under.length) return { ok: false, reason: `${name(i)} would run onto ${under[0].name || under[0].id}`, mover: i, frame: k, blocker: under[0].id };
      const hit = index.hit(hull, near[i]);
      if (hit) return { ok: false, reason: `${name(i)} would run into ${hit.name ?? hit.id}`, mover: i, frame: k, blocker: hit.id };
    }
  return { ok: true };
}

/** Two bases of one body that overlap at the end of a move (a formation change that does not fit), or null. */
export function selfOverlap(bases: readonly Base[]): [number, number] | null {
  for (let i = 0; i < bases.length; i++) for (let j = i + 1; j < bases.length; j++) if (overlapping(bases[i], bases[j])) return [i, j];
  return null;
}
