/**
 * A ship's (or a stand's) base: a rectangle with its centre, heading, width (its frontage) and length (bow to
 * stern), in the ruleset's unit. Its sides are named from the ship: front (the bow edge), rear, left (port),
 * right (starboard).
 */
import { z } from 'zod';
import { type Point, add, dot, headingVector, normalizeHeading, rightVector, scale, sub } from './vector.ts';

export interface Base {
  readonly x: number;
  readonly y: number;
  /** Degrees clockwise from north. */
  readonly heading: number;
  readonly width: number;
  readonly length: number;
}

export type Side = 'front' | 'rear' | 'left' | 'right';

const coordinate = z.number().finite().min(-10_000).max(10_000);

/** A base as a set-up or a state holds it. */
export const BaseSchema = z
  .object({
    x: coordinate,
    y: coordinate,
    heading: z.number().finite().min(0).lt(360),
    width: z.number().finite().positive().max(100),
    length: z.number().finite().positive().max(100),
  })
  .strict();

/** Where a base stands and which way it points, without its size. */
export const PlacementSchema = z.object({ x: coordinate, y: coordinate, heading: z.number().finite().min(0).lt(360) }).strict();
export type Placement = z.infer<typeof PlacementSchema>;

export const centreOf = (b: Base): Point => ({ x: b.x, y: b.y });

/** The corners in order front-left, front-right, rear-right, rear-left (clockwise seen from above). */
export function cornersOf(b: Base): [Point, Point, Point, Point] {
  // Written out (no helper calls): every sweep sample asks for corners.
  const h = (b.heading * Math.PI) / 180;
  const sin = Math.sin(h);
  const cos = Math.cos(h);
  const fx = sin * (b.length / 2);
  const fy = cos * (b.length / 2);
  const rx = cos * (b.width / 2);
  const ry = -sin * (b.width / 2);
  return [
    { x: b.x - rx + fx, y: b.y - ry + fy },
    { x: b.x + rx + fx, y: b.y + ry + fy },
    { x: b.x + rx - fx, y: b.y + ry - fy },
    { x: b.x - rx - fx, y: b.y - ry - fy },
  ];
}

/** A point in the base's own frame: `ahead` along its heading, `right` to its starboard, from its centre. */
export function toLocal(b: Base, p: Point): { ahead: number; right: number } {
  const d = sub(p, centreOf(b));
  return { ahead: dot(d, headingVector(b.heading)), right: dot(d, rightVector(b.heading)) };
}

/** The point at (`ahead`, `right`) in the base's frame. */
export function fromLocal(b: Base, ahead: number, right: number): Point {
  return add(add(centreOf(b), scale(headingVector(b.heading), ahead)), scale(rightVector(b.heading), right));
}

/**
 * Which side of the base a point on (or near) its outline belongs to: the sector between the diagonals through
 * the centre that holds it. A point exactly on a diagonal (a corner) counts to the front or rear.
 */
export function sideAt(b: Base, p: Point): Side {
  const { ahead, right } = toLocal(b, p);
  const u = Math.abs(ahead) / (b.length / 2);
  const v = Math.abs(right) / (b.width / 2);
  if (u >= v - 1e-9) return ahead >= 0 ? 'front' : 'rear';
  return right >= 0 ? 'right' : 'left';
}

/** The base moved to a new placement, its size kept. */
export const placed = (b: Base, p: Placement): Base => ({ ...b, x: p.x, y: p.y, heading: normalizeHeading(p.heading) });

/** The middle of its bow edge and of its stern edge. */
export const bowPoint = (b: Base): Point => fromLocal(b, b.length / 2, 0);
export const sternPoint = (b: Base): Point => fromLocal(b, -b.length / 2, 0);
