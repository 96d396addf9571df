/**
 * Polygons: the convex ones (bases, and the hull a base sweeps between two positions of a move) by the
 * separating-axis test and nearest edges; the simple ones (land, islands) by exact orientation tests.
 */
import { type Point, cross, distance, dot, leftOf, length, sub } from './vector.ts';

export type Polygon = readonly Point[];

/** The least overlap of two convex polygons' projections on the normals of `edges`' sides (written out: the inner loop of every sweep). */
function leastOverlap(edges: Polygon, a: Polygon, b: Polygon, least: number): number {
  const n = edges.length;
  for (let i = 0; i < n; i++) {
    const p = edges[i];
    const q = edges[i + 1 === n ? 0 : i + 1];
    const ex = q.x - p.x;
    const ey = q.y - p.y;
    const len = Math.hypot(ex, ey);
    if (len === 0) continue;
    const ax = -ey / len;
    const ay = ex / len;
    let a0 = Number.POSITIVE_INFINITY;
    let a1 = Number.NEGATIVE_INFINITY;
    for (const v of a) {
      const d = v.x * ax + v.y * ay;
      if (d < a0) a0 = d;
      if (d > a1) a1 = d;
    }
    let b0 = Number.POSITIVE_INFINITY;
    let b1 = Number.NEGATIVE_INFINITY;
    for (const v of b) {
      const d = v.x * ax + v.y * ay;
      if (d < b0) b0 = d;
      if (d > b1) b1 = d;
    }
    const o = Math.min(a1, b1) - Math.max(a0, b0);
    if (o < least) {
      least = o;
      // Separated: no need to look further for the yes/no the callers ask.
      if (least < -1e-3) return least;
    }
  }
  return least;
}

/**
 * How far two convex polygons overlap along the axis where they overlap least: positive when their insides
 * overlap, 0 when they only touch, negative when some axis separates them (then only a lower bound of the gap).
 */
export function overlapDepth(a: Polygon, b: Polygon): number {
  const least = leastOverlap(a, a, b, Number.POSITIVE_INFINITY);
  if (least < -1e-3) return least;
  return leastOverlap(b, a, b, least);
}

/** The nearest distance between a point and a segment (written out: the inner loop of every distance). */
export function pointSegmentDistance(p: Point, a: Point, b: Point): number {
  const abx = b.x - a.x;
  const aby = b.y - a.y;
  const l2 = abx * abx + aby * aby;
  const t = l2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * abx + (p.y - a.y) * aby) / l2));
  return Math.hypot(p.x - (a.x + abx * t), p.y - (a.y + aby * t));
}

/** Whether segments ab and cd cross at a point inside both (touching or running along each other does not count). */
export function segmentsCross(a: Point, b: Point, c: Point, d: Point): boolean {
  const d1 = leftOf(a, b, c);
  const d2 = leftOf(a, b, d);
  const d3 = leftOf(c, d, a);
  const d4 = leftOf(c, d, b);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** Whether segments ab and cd meet at all (touching included). */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  if (segmentsCross(a, b, c, d)) return true;
  const onSegment = (p: Point, q: Point, r: Point) =>
    leftOf(p, q, r) === 0 && Math.min(p.x, q.x) <= r.x && r.x <= Math.max(p.x, q.x) && Math.min(p.y, q.y) <= r.y && r.y <= Math.max(p.y, q.y);
  return onSegment(a, b, c) || onSegment(a, b, d) || onSegment(c, d, a) || onSegment(c, d, b);
}

/** The nearest distance between two segments. */
export function segmentDistance(a: Point, b: Point, c: Point, d: Point): number {
  if (segmentsMeet(a, b, c, d)) return 0;
  return Math.min(pointSegmentDistance(a, c, d), pointSegmentDistance(b, c, d), pointSegmentDistance(c, a, b), pointSegmentDistance(d, a, b));
}

/**
 * The nearest distance between the outlines of two convex polygons, 0 when they touch or overlap. Once an axis
 * separates them, the nearest points are a corner of one and an edge of the other, so only those pairs are
 * measured (no crossing tests).
 */
export function polygonDistance(a: Polygon, b: Polygon): number {
  if (overlapDepth(a, b) >= 0) return 0;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < a.length; i++) {
    const p = a[i];
    const q = a[i + 1 === a.length ? 0 : i + 1];
    for (let j = 0; j < b.length; j++) {
      const d = Math.min(pointSegmentDistance(b[j], p, q), pointSegmentDistance(p, b[j], b[j + 1 === b.length ? 0 : j + 1]));
      if (d < best) best = d;
    }
  }
  return best;
}

/** The points of each convex polygon's outline that lie within `tolerance` of the other's: where they touch. */
export function touchingPoints(a: Polygon, b: Polygon, tolerance: number): Point[] {
  const out: Point[] = [];
  const near = (p: Point, poly: Polygon) => {
    for (let i = 0; i < poly.length; i++) if (pointSegmentDistance(p, poly[i], poly[(i + 1) % poly.length]) <= tolerance) return true;
    return insideConvex(poly, p);
  };
  for (const p of a) if (near(p, b)) out.push(p);
  for (const p of b) if (near(p, a)) out.push(p);
  // Crossing edges (corners overlapping by less than the tolerance) touch where they cross.
  for (let i = 0; i < a.length; i++)
    for (let j = 0; j < b.length; j++) {
      const p = crossingPoint(a[i], a[(i + 1) % a.length], b[j], b[(j + 1) % b.length]);
      if (p) out.push(p);
    }
  return out;
}

function crossingPoint(a: Point, b: Point, c: Point, d: Point): Point | null {
  if (!segmentsCross(a, b, c, d)) return null;
  const r = sub(b, a);
  const s = sub(d, c);
  const den = cross(r, s);
  // Edges along each other (their crossing found exact by the predicates, but no single point in floating point).
  if (Math.abs(den) <= 1e-12 * length(r) * length(s)) return null;
  const t = Math.max(0, Math.min(1, cross(sub(c, a), s) / den));
  return { x: a.x + r.x * t, y: a.y + r.y * t };
}

/** Whether a point lies inside or on a convex polygon given clockwise or counter-clockwise. */
export function insideConvex(poly: Polygon, p: Point): boolean {
  let sign = 0;
  for (let i = 0; i < poly.length; i++) {
    const s = Math.sign(leftOf(poly[i], poly[(i + 1) % poly.length], p));
    if (s === 0) continue;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

/** The length of the part of segment pq strictly inside a convex polygon (Cyrus–Beck clipping). */
export function lengthInsideConvex(poly: Polygon, p: Point, q: Point): number {
  const clockwise = signedArea(poly) < 0;
  let t0 = 0;
  let t1 = 1;
  const d = sub(q, p);
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const e = sub(poly[(i + 1) % poly.length], a);
    // Inward normal.
    const n = clockwise ? { x: e.y, y: -e.x } : { x: -e.y, y: e.x };
    const num = dot(n, sub(p, a));
    const den = dot(n, d);
    if (den === 0) {
      if (num <= 0) return 0;
      continue;
    }
    const t = -num / den;
    if (den > 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 >= t1) return 0;
  }
  return (t1 - t0) * length(d);
}

/** Twice the signed area: positive counter-clockwise. */
export function signedArea(poly: Polygon): number {
  let s = 0;
  for (let i = 0; i < poly.length; i++) s += cross(poly[i], poly[(i + 1) % poly.length]);
  return s / 2;
}

/** The convex hull (Andrew's monotone chain), counter-clockwise. */
export function convexHull(points: readonly Point[]): Point[] {
  const pts = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length < 3) return pts;
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && leftOf(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && leftOf(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return [...lower, ...upper];
}

/** Whether a point lies strictly inside a simple polygon (even-odd rule; on the outline is outside). */
export function insideSimple(poly: Polygon, p: Point): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (pointSegmentDistance(p, a, b) === 0) return false;
    if (a.y > p.y !== b.y > p.y) {
      // Which side of the edge (oriented upwards) p lies, exactly.
      const up = a.y < b.y ? leftOf(a, b, p) : leftOf(b, a, p);
      if (up > 0) inside = !inside;
    }
  }
  return inside;
}

/**
 * Whether a convex polygon's inside overlaps a simple polygon's (land): an edge of one crosses an edge of the
 * other, or a corner or the middle of one lies strictly inside the other. Lying along the shore is no overlap.
 */
export function convexOverlapsSimple(convex: Polygon, simple: Polygon): boolean {
  for (let i = 0; i < convex.length; i++)
    for (let j = 0; j < simple.length; j++)
      if (segmentsCross(convex[i], convex[(i + 1) % convex.length], simple[j], simple[(j + 1) % simple.length])) return true;
  for (const p of convex) if (insideSimple(simple, p)) return true;
  for (const p of simple) if (insideConvex(convex, p) && !onOutline(convex, p)) return true;
  return insideSimple(simple, centroid(convex));
}

function onOutline(poly: Polygon, p: Point): boolean {
  for (let i = 0; i < poly.length; i++) if (pointSegmentDistance(p, poly[i], poly[(i + 1) % poly.length]) === 0) return true;
  return false;
}

export const centroid = (poly: Polygon): Point => ({
  x: poly.reduce((s, p) => s + p.x, 0) / poly.length,
  y: poly.reduce((s, p) => s + p.y, 0) / poly.length,
});

/** The nearest distance from a convex polygon to a simple polygon's outline (0 when they touch or overlap). */
export function distanceToSimple(convex: Polygon, simple: Polygon): number {
  if (convexOverlapsSimple(convex, simple)) return 0;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < convex.length; i++)
    for (let j = 0; j < simple.length; j++) {
      const d = segmentDistance(convex[i], convex[(i + 1) % convex.length], simple[j], simple[(j + 1) % simple.length]);
      if (d < best) best = d;
    }
  return best;
}

/** A convex polygon drawn in by `d` towards its centroid at every corner: so a shore touched is not crossed by rounding. */
export function shrunk(poly: Polygon, d: number): Point[] {
  const c = centroid(poly);
  return poly.map((p) => {
    const r = distance(p, c);
    if (r <= d) return c;
    const k = (r - d) / r;
    return { x: c.x + (p.x - c.x) * k, y: c.y + (p.y - c.y) * k };
  });
}
