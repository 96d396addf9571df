/**
 * Contact between squadrons: where an attacker's straight run first touches its target, which side of the
 * target it meets (a flank or the rear counts only if the attacker was already behind the target's front before
 * it moved; a kyklos has no flanks or rear), and the attacker conformed to the side it met, its stands moved
 * straight on to put as many as possible against the enemy's.
 */
import { type Base, type Side, TOUCH, contactOf, distanceBetween, fromLocal, normalizeHeading, overlapping, toLocal } from '../table/index.ts';
import { type Frame, bodySize } from './layout.ts';
import type { Formation } from './rules.ts';

/** The body moved `run` straight ahead. */
export const aheadBy = (b: Base, run: number): Base => {
  const rad = (b.heading * Math.PI) / 180;
  return { ...b, x: b.x + Math.sin(rad) * run, y: b.y + Math.cos(rad) * run };
};

/** How far `body` runs straight ahead before it first touches `target`, if it does within `maxRun`. */
export function firstContact(body: Base, target: Base, maxRun: number): number | null {
  // A quarter inch: far less than any stand's depth, so no contact is stepped over.
  const step = 0.25;
  let before = 0;
  if (distanceBetween(body, target) <= TOUCH) return 0;
  const steps = Math.max(1, Math.ceil(maxRun / step - 1e-9));
  for (let k = 1; k <= steps; k++) {
    const run = Math.min(k * step, maxRun);
    if (distanceBetween(aheadBy(body, run), target) <= TOUCH || overlapping(aheadBy(body, run), target)) {
      let lo = before;
      let hi = run;
      for (let k = 0; k < 40; k++) {
        const mid = (lo + hi) / 2;
        if (distanceBetween(aheadBy(body, mid), target) <= TOUCH / 2) hi = mid;
        else lo = mid;
      }
      return hi;
    }
    before = run;
  }
  return null;
}

/** Whether `attacker` stands behind the line of `target`'s front (so it may come at a flank or the rear). */
export const behindFront = (attacker: Base, target: Base): boolean => toLocal(target, attacker).ahead < target.length / 2 - TOUCH;

/** The side of `target` an attacker touching it meets, with the rule on flank and rear applied. */
export function sideMet(attackerBefore: Base, attackerAtContact: Base, target: Base, targetFormation: Formation): Side {
  if (targetFormation === 'kyklos') return 'front';
  const contact = contactOf(attackerAtContact, target, TOUCH * 10);
  const side = contact?.bSide ?? 'front';
  if (side !== 'front' && !behindFront(attackerBefore, target)) return 'front';
  return side;
}

/** Facing the side of the target it attacks; its place along that side from where it touched, clamped to the side. */
export function conform(attacker: Base, formation: Formation, stands: number, target: Base, side: Side, slide = 0): Frame {
  const size = bodySize(formation, stands);
  const local = toLocal(target, attacker);
  const clamp = (v: number, half: number) => {
    const room = half - size.width / 2;
    if (room <= 0) return 0;
    return Math.max(-room, Math.min(room, v));
  };
  let ahead: number;
  let right: number;
  let heading: number;
  if (side === 'front' || side === 'rear') {
    const sign = side === 'front' ? 1 : -1;
    ahead = sign * (target.length / 2 + size.length / 2);
    right = clamp(local.right + slide, target.width / 2);
    heading = side === 'front' ? target.heading + 180 : target.heading;
  } else {
    const sign = side === 'right' ? 1 : -1;
    right = sign * (target.width / 2 + size.length / 2);
    ahead = clamp(local.ahead + slide, target.length / 2);
    heading = side === 'right' ? target.heading - 90 : target.heading + 90;
  }
  const p = fromLocal(target, ahead, right);
  return { x: p.x, y: p.y, heading: normalizeHeading(heading) };
}
