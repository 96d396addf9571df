/**
 * Formations of bases: whether some bases stand in line abreast (side by side, same heading, touching, fronts
 * even) or in line ahead (bow to stern, touching, a limited bend), in which order, and the moves that change
 * one into the other by turning each base 90° in place.
 */
import { type Base, bowPoint, toLocal } from './base.ts';
import { columnBend } from './column.ts';
import { type Path, joinPaths, slidePath, turnEachPath } from './motion.ts';
import { contactOf, inForwardArc, touching } from './relations.ts';
import { type Point, rightVector, scale, turnBetween } from './vector.ts';

/** Headings this close are the same (what rounding leaves after a rigid move). */
export const SAME_HEADING = 1e-6;

/**
 * Bases this close count as touching for a formation: a twentieth of the unit (2 mm at 40 mm a cable), what a
 * player would call touching on a table. A column following its leader round a turn keeps its ships within it
 * (their centres follow the chords of the leader's turn, which can open a sliver of a gap at a bend).
 */
export const FORMATION_TOUCH = 0.05;

export type Formed = { ok: true; order: Base[]; indices: number[] } | { ok: false; reason: string };

/** Whether bases stand in line abreast; if so, their order from left to right. */
export function lineAbreast(bases: readonly Base[], tolerance = FORMATION_TOUCH): Formed {
  if (bases.length < 2) return { ok: false, reason: 'a line needs two ships or more' };
  const first = bases[0];
  if (bases.some((b) => Math.abs(turnBetween(first.heading, b.heading)) > SAME_HEADING))
    return { ok: false, reason: 'the ships of a line abreast must all face the same way' };
  const indices = bases.map((_, i) => i).sort((i, j) => toLocal(first, bases[i]).right - toLocal(first, bases[j]).right);
  const order = indices.map((i) => bases[i]);
  const front = toLocal(first, bowPoint(first)).ahead;
  for (let k = 0; k < order.length; k++) {
    if (Math.abs(toLocal(first, bowPoint(order[k])).ahead - front) > tolerance) return { ok: false, reason: 'the fronts of a line abreast must be even' };
    if (k > 0) {
      const c = contactOf(order[k - 1], order[k], tolerance);
      if (c?.aSide !== 'right' || c.bSide !== 'left') return { ok: false, reason: 'the ships of a line abreast must stand side by side, touching' };
    }
  }
  return { ok: true, order, indices };
}

/**
 * Whether bases, leader first, stand in line ahead: each touching the one ahead, bow to stern (the one ahead in
 * its forward arc, its centre behind the other's centre), and the turns from ship to ship adding up to no more
 * than `maxBend` degrees.
 */
export function lineAhead(bases: readonly Base[], maxBend = 90, tolerance = FORMATION_TOUCH): Formed {
  if (bases.length < 2) return { ok: false, reason: 'a column needs two ships or more' };
  for (let k = 1; k < bases.length; k++) {
    const ahead = bases[k - 1];
    const ship = bases[k];
    if (!touching(ahead, ship, tolerance)) return { ok: false, reason: 'the ships of a line ahead must touch, bow to stern' };
    // Behind the ship ahead by more than the tolerance: side by side (a line abreast, whose centres rounding may
    // put a hair astern of each other) is not bow to stern.
    if (!inForwardArc(ship, ahead) || toLocal(ahead, ship).ahead >= -tolerance) return { ok: false, reason: 'the ships of a line ahead must be bow to stern' };
  }
  const bend = columnBend(bases);
  if (bend > maxBend + SAME_HEADING) return { ok: false, reason: `the line ahead would bend ${Math.round(bend)}° in total, more than ${maxBend}°` };
  return { ok: true, order: [...bases], indices: bases.map((_, i) => i) };
}

/** Whether a column is straight: every ship on the leader's heading and on its centre line. */
export function straightColumn(column: readonly Base[]): boolean {
  const leader = column[0];
  return column.every((b) => Math.abs(turnBetween(leader.heading, b.heading)) <= SAME_HEADING && Math.abs(toLocal(leader, b).right) <= 1e-6);
}

/**
 * A line abreast (left to right) turning 90° each in place to form a column: turning right (+90) makes the
 * right-hand ship the leader. The caller checks the result for overlaps (long bases overlap, which is why the
 * rules make them fall out of formation to do it).
 */
export function abreastToAhead(line: readonly Base[], degrees: 90 | -90): { path: Path; column: Base[] } {
  const path = turnEachPath(line, degrees);
  const end = path.frames[path.frames.length - 1];
  const column = degrees > 0 ? [...end].reverse() : [...end];
  return { path, column };
}

/**
 * A straight column (leader first) turning 90° each in place to form a line abreast; long bases then close up
 * sideways towards the leader until they touch ("reducing their frontage"). Returns the line left to right.
 */
export function aheadToAbreast(column: readonly Base[], degrees: 90 | -90): { path: Path; line: Base[] } {
  const turned = turnEachPath(column, degrees);
  const end = turned.frames[turned.frames.length - 1];
  // Turning right puts the leader on the new line's left end (the rest to its right), turning left on its right.
  const leader = end[0];
  const towardsLeader: Point = scale(rightVector(leader.heading), degrees > 0 ? -1 : 1);
  let offset = 0;
  const offsets: Point[] = [{ x: 0, y: 0 }];
  for (let k = 1; k < end.length; k++) {
    // Gap between ship k and ship k−1 along the line once turned: centre spacing less half-widths.
    const spacing = Math.abs(toLocal(leader, end[k]).right - toLocal(leader, end[k - 1]).right);
    offset += Math.max(0, spacing - (end[k].width + end[k - 1].width) / 2);
    offsets.push(scale(towardsLeader, offset));
  }
  const closing = offset > 0 ? slidePath(end, offsets) : null;
  const path = closing ? joinPaths(turned, closing) : turned;
  const final = path.frames[path.frames.length - 1];
  const line = [...final].sort((a, b) => toLocal(leader, a).right - toLocal(leader, b).right);
  return { path, line };
}
