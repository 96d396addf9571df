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

/** A reusable index of the bases a move must keep clear of. */
export class ObstacleIndex {
  private readonly index: Flatbush | null;
  private readonly corners: Point[][];

  constructor(readonly obstacles: readonly Obstacle[]) {
    this.corners = obstacles.map((o) => cornersOf(o.base));
    if (obstacles.length === 0) {
      this.index = null;
      return;
    }
    this.index = new Flatbush(obstacles.length);
    for (const c of this.corners) this.index.add(...box(c));
    this.index.finish();
  }

  /** The first obstacle a convex shape's inside overlaps, or null. */
  hit(shape: readonly Point[]): Obstacle | null {
    if (!this.index) return null;
    const [x0, y0, x1, y1] = box(shape);
    for (const i of this.index.search(x0 - TOUCH, y0 - TOUCH, x1 + TOUCH, y1 + TOUCH))
      if (overlapDepth(shape, this.corners[i]) > TOUCH) return this.obstacles[i];
    return null;
  }
}

/** Checks a path against the table, its terrain and the obstacles (the movers themselves left out by the caller). */
export function checkPath(table: Table, path: Path, obstacles: readonly Obstacle[] | ObstacleIndex, options: SweepOptions = {}): Clear {
  const index = obstacles instanceof ObstacleIndex ? obstacles : new ObstacleIndex(obstacles);
  const name = (i: number) => options.names?.[i] ?? `base ${i + 1}`;
  const frames = path.frames;
  for (let k = 1; k < frames.length; k++)
    for (let i = 0; i < frames[k].length; i++) {
      const hull = convexHull([...cornersOf(frames[k - 1][i]), ...cornersOf(frames[k][i])]);
      if (!options.offTable && hull.some((p) => p.x < -TOUCH || p.y < -TOUCH || p.x > table.width + TOUCH || p.y > table.depth + TOUCH))
        return { ok: false, reason: `${name(i)} would leave the table`, mover: i, frame: k, blocker: 'table' };
      const land = terrainUnderShape(table, hull);
      if (land.length) return { ok: false, reason: `${name(i)} would run onto ${land[0].name || land[0].id}`, mover: i, frame: k, blocker: land[0].id };
      const hit = index.hit(hull);
      if (hit) return { ok: false, reason: `${name(i)} would run into ${hit.id}`, mover: i, frame: k, blocker: hit.id };
    }
  return { ok: true };
}

/** Two bases of one body that overlap at the end of a move (a formation change that does not fit), or null. */
export function selfOverlap(bases: readonly Base[]): [number, number] | null {
  for (let i = 0; i < bases.length; i++) for (let j = i + 1; j < bases.length; j++) if (overlapping(bases[i], bases[j])) return [i, j];
  return null;
}
