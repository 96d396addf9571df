/**
 * How two bases stand to each other: the distance between their nearest points, whether one is in the other's
 * forward arc, whether they overlap (interpenetrate) or touch, which sides touch (bow to bow, a beam, a
 * stern), and whether a third base blocks the line between their centres.
 */
import { type Base, type Side, centreOf, cornersOf, sideAt, toLocal } from './base.ts';
import { centroid, lengthInsideConvex, polygonDistance, touchingPoints } from './polygon.ts';

/**
 * Bases this close count as touching (in contact), and insides overlapping by no more than this do not count
 * as interpenetrating: a millionth of a base's size is below any table's precision and far above rounding.
 */
export const TOUCH = 1e-6;

const RAD = Math.PI / 180;

/**
 * How far two bases overlap along the axis where they overlap least (positive: their insides overlap; 0: they
 * touch; negative: separated, by at least that much). The separating-axis test of `overlapDepth` written for
 * two rectangles: the four axes are their headings and beams, each base's extent on an axis is its half-sizes
 * projected, so no corners are made (the inner loop of a column's closing up and of every distance).
 */
export function baseOverlapDepth(a: Base, b: Base): number {
  const ha = a.heading * RAD;
  const hb = b.heading * RAD;
  const ax = Math.sin(ha);
  const ay = Math.cos(ha);
  const bx = Math.sin(hb);
  const by = Math.cos(hb);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  // Cosine and sine of the angle between the headings: how each base's sides project on the other's axes.
  const c = Math.abs(ax * bx + ay * by);
  const s = Math.abs(ax * by - ay * bx);
  const la = a.length / 2;
  const wa = a.width / 2;
  const lb = b.length / 2;
  const wb = b.width / 2;
  const along = (own: number, other: number, d: number) => Math.min(own, d + other) - Math.max(-own, d - other);
  return Math.min(
    along(la, lb * c + wb * s, dx * ax + dy * ay),
    along(wa, lb * s + wb * c, dx * ay - dy * ax),
    along(lb, la * c + wa * s, -(dx * bx + dy * by)),
    along(wb, la * s + wa * c, -(dx * by - dy * bx)),
  );
}

/** The distance between the nearest points of two bases (0 when they touch or overlap). */
export const distanceBetween = (a: Base, b: Base): number => (baseOverlapDepth(a, b) >= 0 ? 0 : polygonDistance(cornersOf(a), cornersOf(b)));

/** Whether two bases' insides overlap by more than the tolerance: interpenetration, which no rule allows. */
export const overlapping = (a: Base, b: Base, tolerance = TOUCH): boolean => baseOverlapDepth(a, b) > tolerance;

/** Whether two bases touch (their outlines within the tolerance of each other). */
export const touching = (a: Base, b: Base, tolerance = TOUCH): boolean => distanceBetween(a, b) <= tolerance;

/**
 * Whether `target`'s centre is forward of the line along `viewer`'s rear base edge: the forward arc of the
 * Diadochi Naval Rules (all that lies ahead of the stern edge, so a little over a half-plane).
 */
export const inForwardArc = (viewer: Base, target: Base): boolean => toLocal(viewer, centreOf(target)).ahead > -viewer.length / 2;

/**
 * Whether `target`'s centre is ahead of `viewer`'s bow edge and between the lines extending its flanks: the
 * narrow "straight ahead" strip (contact forward, what a ship faces).
 */
export function straightAhead(viewer: Base, target: Base): boolean {
  const p = toLocal(viewer, centreOf(target));
  return p.ahead > viewer.length / 2 && Math.abs(p.right) < viewer.width / 2;
}

export interface Contact {
  /** The side of `a` that touches `b`, and of `b` that touches `a`. */
  readonly aSide: Side;
  readonly bSide: Side;
  /** Both bows: a head-on meeting. */
  readonly bowToBow: boolean;
}

/**
 * Which sides of two touching bases meet, or null if they do not touch. The place they touch is the middle of
 * the points of each outline within the tolerance of the other (the flush stretch, or the corner); each base
 * names its side from where that place lies (`sideAt`). Symmetric: contactOf(b, a) swaps the two sides.
 */
export function contactOf(a: Base, b: Base, tolerance = TOUCH): Contact | null {
  // Separated along an axis by more than the tolerance: farther apart than that, so not touching.
  if (baseOverlapDepth(a, b) < -tolerance) return null;
  const pa = cornersOf(a);
  const pb = cornersOf(b);
  if (polygonDistance(pa, pb) > tolerance) return null;
  const points = touchingPoints(pa, pb, tolerance);
  if (points.length === 0) return null;
  const at = centroid(points);
  const aSide = sideAt(a, at);
  const bSide = sideAt(b, at);
  return { aSide, bSide, bowToBow: aSide === 'front' && bSide === 'front' };
}

/** Whether `a`'s bow touches `b` (b is "in contact forward" of a). */
export const inContactForward = (a: Base, b: Base, tolerance = TOUCH): boolean => contactOf(a, b, tolerance)?.aSide === 'front';

/**
 * Whether any of `others` blocks the line from `a`'s centre to `b`'s: the line runs through the inside of that
 * base (grazing its outline does not block). The caller leaves `a` and `b` out of `others`.
 */
export function lineOfSightBlocked(a: Base, b: Base, others: readonly Base[], tolerance = TOUCH): boolean {
  const from = centreOf(a);
  const to = centreOf(b);
  return others.some((o) => lengthInsideConvex(cornersOf(o), from, to) > tolerance);
}
