/**
 * Points and directions on the table. x runs east (to the right of the table as drawn), y north (away from the
 * south edge); headings are degrees clockwise from north, so 0 is north and 90 east. Lengths are in whatever unit
 * the ruleset measures in (cables, inches): nothing here knows or cares.
 */
import { orient2d } from 'robust-predicates';

export interface Point {
  readonly x: number;
  readonly y: number;
}

export const add = (a: Point, b: Point): Point => ({ x: a.x + b.x, y: a.y + b.y });
export const sub = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y });
export const scale = (a: Point, k: number): Point => ({ x: a.x * k, y: a.y * k });
export const dot = (a: Point, b: Point): number => a.x * b.x + a.y * b.y;
/** z of a × b: positive when b is counter-clockwise (to the left) of a. */
export const cross = (a: Point, b: Point): number => a.x * b.y - a.y * b.x;
export const length = (a: Point): number => Math.hypot(a.x, a.y);
export const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
export const lerp = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });

const RAD = Math.PI / 180;

/** The unit vector of a heading (0 north, 90 east). */
export const headingVector = (heading: number): Point => ({ x: Math.sin(heading * RAD), y: Math.cos(heading * RAD) });

/** The unit vector to the right (starboard) of a heading. */
export const rightVector = (heading: number): Point => ({ x: Math.cos(heading * RAD), y: -Math.sin(heading * RAD) });

/** The heading of a direction vector. */
export const headingOf = (v: Point): number => normalizeHeading(Math.atan2(v.x, v.y) / RAD);

/** A heading in [0, 360). */
export function normalizeHeading(h: number): number {
  const r = h % 360;
  const n = r < 0 ? r + 360 : r;
  return n >= 360 ? 0 : n;
}

/** The signed turn from heading a to heading b, in (-180, 180]: positive is clockwise (to starboard). */
export function turnBetween(a: number, b: number): number {
  const d = normalizeHeading(b - a);
  return d > 180 ? d - 360 : d;
}

/** `p` turned clockwise by `degrees` about `centre` (a heading turns the same way). */
export function rotateAbout(p: Point, centre: Point, degrees: number): Point {
  const c = Math.cos(degrees * RAD);
  const s = Math.sin(degrees * RAD);
  const dx = p.x - centre.x;
  const dy = p.y - centre.y;
  // Clockwise in a y-up frame.
  return { x: centre.x + dx * c + dy * s, y: centre.y - dx * s + dy * c };
}

/**
 * Which side of the directed line a→b the point c lies: positive left, negative right, exactly 0 on it
 * (Shewchuk's adaptive exact predicate, so a point on a shared edge is never judged on both sides).
 */
export const leftOf = (a: Point, b: Point, c: Point): number => -orient2d(a.x, a.y, b.x, b.y, c.x, c.y);
