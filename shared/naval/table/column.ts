/**
 * A column (line ahead) moving "in succession": the leader runs straight legs and turns in place where it
 * chooses; every other ship's centre follows the same track the same distance, turning where the leader
 * turned. A follower that would run into the ship ahead at a bend stops where it just touches it (the bend
 * closes on the inner corners, which the rules' "at least one corner touching" allows), so a column never
 * interpenetrates itself.
 */
import { type Base, bowPoint, sternPoint } from './base.ts';
import type { Path } from './motion.ts';
import { overlapping } from './relations.ts';
import { type Point, distance, headingOf, headingVector, lerp, normalizeHeading, turnBetween } from './vector.ts';

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
 * Where the column is after its leader has gone `run` along its legs (and made the turns met by then, the turn
 * at the run's end by `turnDone` of its degrees). `column[0]` is the leader.
 */
function columnAt(column: readonly Base[], legs: readonly ColumnLeg[], run: number, turnDone: number): Base[] {
  const leader = column[0];
  // The track: the last ship's stern, each joint between two ships (the middle of one's bow and the next one's
  // stern: the same point in a straight column), then the leader's centre and its path.
  const points: Point[] = [sternPoint(column[column.length - 1])];
  for (let i = column.length - 1; i >= 1; i--) points.push(lerp(bowPoint(column[i]), sternPoint(column[i - 1]), 0.5));
  points.push({ x: leader.x, y: leader.y });
  let heading = leader.heading;
  let at: Point = { x: leader.x, y: leader.y };
  let left = run;
  let pendingTurn = 0;
  for (const leg of legs) {
    if (leg.kind === 'turn') {
      heading = normalizeHeading(heading + leg.degrees);
      continue;
    }
    const d = Math.min(left, leg.distance);
    at = { x: at.x + headingVector(heading).x * d, y: at.y + headingVector(heading).y * d };
    points.push(at);
    left -= d;
    if (left <= 0 && d < leg.distance) break;
  }
  // The leader's heading: the turns it has reached. A turn is reached when no more than its place's run is left.
  let leaderHeading = leader.heading;
  let travelled = 0;
  for (const leg of legs) {
    if (leg.kind === 'ahead') {
      travelled += leg.distance;
      if (travelled > run + 1e-12) break;
      continue;
    }
    if (travelled < run - 1e-12) leaderHeading = normalizeHeading(leaderHeading + leg.degrees);
    else pendingTurn += leg.degrees;
  }
  leaderHeading = normalizeHeading(leaderHeading + pendingTurn * turnDone);
  // Extend the track past the leader a little so a follower's heading at the end is defined.
  points.push({ x: at.x + headingVector(heading).x * 1e-6, y: at.y + headingVector(heading).y * 1e-6 });
  const track = trackOf(points);
  const out: Base[] = [{ ...leader, x: at.x, y: at.y, heading: leaderHeading }];
  for (let i = 1; i < column.length; i++) {
    const ship = column[i];
    const start = arcAt(track, { x: ship.x, y: ship.y });
    const place = (s: number): Base => {
      const p = along(track, s);
      return { ...ship, x: p.at.x, y: p.at.y, heading: s <= start + 1e-12 ? ship.heading : p.heading };
    };
    let placedShip = place(start + run);
    if (overlapping(placedShip, out[i - 1])) {
      // Back off along the track until it just touches the ship ahead.
      let lo = start;
      let hi = start + run;
      for (let k = 0; k < 60 && hi - lo > 1e-10; k++) {
        const mid = (lo + hi) / 2;
        if (overlapping(place(mid), out[i - 1])) hi = mid;
        else lo = mid;
      }
      placedShip = place(lo);
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
