/**
 * Where a squadron's stands lie: its body (the rectangle its formation covers, with the squadron's centre and
 * heading) and each stand's base within it, for the five formations; and the formation changes of Annex I as
 * new bodies. Stands are 5 × 3.5 cm, the 5 cm edge the frontage (two hulls abreast); in a column each stand
 * is turned 90°, so the column is 3.5 cm wide and 5 cm a stand long.
 */
import type { Base } from '../table/base.ts';
import { fromLocal } from '../table/base.ts';
import { normalizeHeading } from '../table/vector.ts';
import { type Formation, INCHES_PER_CM, RULES } from './rules.ts';

/** A stand's frontage and depth, in inches. */
export const STAND_FRONTAGE = RULES.stand.frontageCm * INCHES_PER_CM;
export const STAND_DEPTH = RULES.stand.depthCm * INCHES_PER_CM;

/** Where a squadron is: its body's centre and heading. */
export interface Frame {
  readonly x: number;
  readonly y: number;
  readonly heading: number;
}

/** Stands in the front rank of a two-rank block (epi pollon, unformed). */
const ranksWide = (stands: number) => Math.max(1, Math.ceil(stands / 2));

/** The ring's radius that keeps outward-facing stands from overlapping. */
function ringRadius(stands: number): number {
  const n = Math.max(4, stands);
  return STAND_FRONTAGE / 2 / Math.tan(Math.PI / n) + STAND_DEPTH / 2;
}

/** The body's frontage and length for a formation of so many stands. */
export function bodySize(formation: Formation, stands: number): { width: number; length: number } {
  const n = Math.max(1, stands);
  switch (formation) {
    case 'epi-mias':
      return { width: n * STAND_FRONTAGE, length: STAND_DEPTH };
    case 'epi-pollon':
    case 'unformed':
      return { width: ranksWide(n) * STAND_FRONTAGE, length: (n > 1 ? 2 : 1) * STAND_DEPTH };
    case 'epi-keras':
      return { width: STAND_DEPTH, length: n * STAND_FRONTAGE };
    case 'kyklos': {
      const side = 2 * (ringRadius(n) + STAND_DEPTH / 2);
      return { width: side, length: side };
    }
  }
}

export const bodyOf = (formation: Formation, stands: number, frame: Frame): Base => ({
  x: frame.x,
  y: frame.y,
  heading: normalizeHeading(frame.heading),
  ...bodySize(formation, stands),
});

/** Each stand's base, front rank first from the left; in a column the lead stand first. */
export function standsOf(formation: Formation, stands: number, frame: Frame): Base[] {
  const body = bodyOf(formation, stands, frame);
  const n = Math.max(1, stands);
  const out: Base[] = [];
  const at = (ahead: number, right: number, heading = body.heading, turned = false): Base => {
    const p = fromLocal(body, ahead, right);
    return {
      x: p.x,
      y: p.y,
      heading: normalizeHeading(heading),
      width: turned ? STAND_DEPTH : STAND_FRONTAGE,
      length: turned ? STAND_FRONTAGE : STAND_DEPTH,
    };
  };
  switch (formation) {
    case 'epi-mias':
      for (let i = 0; i < n; i++) out.push(at(0, -body.width / 2 + STAND_FRONTAGE / 2 + i * STAND_FRONTAGE));
      break;
    case 'epi-pollon':
    case 'unformed': {
      const wide = ranksWide(n);
      for (let i = 0; i < n; i++) {
        const rank = Math.floor(i / wide);
        const file = i % wide;
        out.push(at(body.length / 2 - STAND_DEPTH / 2 - rank * STAND_DEPTH, -body.width / 2 + STAND_FRONTAGE / 2 + file * STAND_FRONTAGE));
      }
      break;
    }
    case 'epi-keras':
      for (let i = 0; i < n; i++) out.push(at(body.length / 2 - STAND_FRONTAGE / 2 - i * STAND_FRONTAGE, 0, body.heading, true));
      break;
    case 'kyklos': {
      const r = ringRadius(n);
      for (let i = 0; i < n; i++) {
        const turn = (360 * i) / n;
        const rad = ((body.heading + turn) * Math.PI) / 180;
        out.push({
          x: body.x + Math.sin(rad) * r,
          y: body.y + Math.cos(rad) * r,
          heading: normalizeHeading(body.heading + turn),
          width: STAND_FRONTAGE,
          length: STAND_DEPTH,
        });
      }
      break;
    }
  }
  return out;
}

export type Toward = 'left' | 'right';

/**
 * The body after a change of formation (Annex I), the squadron not moving otherwise:
 * - epi mias ⇄ epi keras (`turn`): every stand turns 90° in place, to the left or right; the body keeps its centre.
 * - epi mias → epi pollon: the two stands at the right (or left) end fall in behind the other two; the front
 *   edge stays. Epi pollon → epi mias: the rear rank comes up on the right (or left) of the front rank.
 * - epi keras → epi mias or epi pollon (`deploy`, the variant; signals 3 and 4): the stands deploy to the right (or left)
 *   of the lead stand, facing the column's way, the lead stand's front edge the new front edge.
 * - epi pollon → epi keras: the stands fall in behind the front stand on the left (or right), same heading.
 * - anything → kyklos, and kyklos or unformed → anything: about the same centre, same heading.
 */
export function changedFrame(from: Formation, to: Formation, stands: number, frame: Frame, toward: Toward, method: 'turn' | 'deploy' = 'deploy'): Frame {
  const old = bodyOf(from, stands, frame);
  const next = bodySize(to, stands);
  const sign = toward === 'right' ? 1 : -1;
  const place = (ahead: number, right: number, heading: number): Frame => {
    const p = fromLocal(old, ahead, right);
    return { x: p.x, y: p.y, heading: normalizeHeading(heading) };
  };
  if ((from === 'epi-mias' && to === 'epi-keras') || (from === 'epi-keras' && to === 'epi-mias' && method === 'turn'))
    return place(0, 0, old.heading + sign * 90);
  if (from === 'epi-mias' && to === 'epi-pollon') {
    // The stands on the `toward` end go behind: the block keeps the other end.
    const keptRight = -sign * (old.width / 2 - next.width / 2);
    return place(old.length / 2 - next.length / 2, keptRight, old.heading);
  }
  if (from === 'epi-pollon' && to === 'epi-mias') {
    const shift = sign * (next.width / 2 - old.width / 2);
    return place(old.length / 2 - next.length / 2, shift, old.heading);
  }
  if (from === 'epi-keras' && (to === 'epi-mias' || to === 'epi-pollon')) {
    // The lead stand keeps its place; the rest deploy beside it on the `toward` side.
    const leadRight = sign * (next.width / 2 - STAND_FRONTAGE / 2);
    return place(old.length / 2 - next.length / 2, leadRight, old.heading);
  }
  if (from === 'epi-pollon' && to === 'epi-keras') {
    const leadFile = sign * (old.width / 2 - STAND_FRONTAGE / 2);
    return place(old.length / 2 - next.length / 2, leadFile, old.heading);
  }
  return { x: old.x, y: old.y, heading: old.heading };
}

/** The turn of every stand 90° together (signals 1 and 2, and the same as a change of formation): epi mias and epi keras swap, epi pollon changes front. */
export function turnedTogether(formation: Formation): Formation {
  if (formation === 'epi-mias') return 'epi-keras';
  if (formation === 'epi-keras') return 'epi-mias';
  return formation;
}
