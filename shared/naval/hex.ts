/**
 * The hex sea both hex rulesets are played on.
 *
 * Flat-topped hexes in axial coordinates (q, r); the third cube coordinate is s = -q - r. A ship faces one of
 * the six hexsides: 0 north, 1 north-east, 2 south-east, 3 south, 4 south-west, 5 north-west. The board is a
 * rectangle of columns and rows as printed hex maps number them (odd columns shifted half a hex down).
 *
 * Hand-made rather than from a hex library: the arithmetic is a few lines of the standard cube-coordinate
 * formulas, states must stay plain JSON for storage and replay (the libraries model hexes as class instances),
 * and facing and angle of attack, which the rules need most, are ours anyway.
 */
import { z } from 'zod';

export const HexSchema = z.object({ q: z.number().int().min(-100).max(200), r: z.number().int().min(-200).max(200) }).strict();
export type Hex = z.infer<typeof HexSchema>;

/** A hexside a ship faces or moves through: 0 north, then clockwise. */
export const FacingSchema = z.number().int().min(0).max(5);
export type Facing = 0 | 1 | 2 | 3 | 4 | 5;

const DIRECTIONS: readonly Hex[] = [
  { q: 0, r: -1 },
  { q: 1, r: -1 },
  { q: 1, r: 0 },
  { q: 0, r: 1 },
  { q: -1, r: 1 },
  { q: -1, r: 0 },
];

export const FACING_NAMES = ['north', 'north-east', 'south-east', 'south', 'south-west', 'north-west'] as const;

export const hexKey = (h: Hex): string => `${h.q},${h.r}`;
export const sameHex = (a: Hex, b: Hex): boolean => a.q === b.q && a.r === b.r;

/** The facing `steps` hexsides clockwise (negative: anticlockwise) of `f`. */
export const turn = (f: Facing, steps: number): Facing => ((((f + steps) % 6) + 6) % 6) as Facing;

/** The hex across hexside `f`. */
export const neighbour = (h: Hex, f: Facing, distance = 1): Hex => ({
  q: h.q + DIRECTIONS[f].q * distance,
  r: h.r + DIRECTIONS[f].r * distance,
});

export const neighbours = (h: Hex): Hex[] => DIRECTIONS.map((_, f) => neighbour(h, f as Facing));

export function distance(a: Hex, b: Hex): number {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

/** The hexside of `from` that `to` lies across, when they are adjacent; otherwise null. */
export function directionTo(from: Hex, to: Hex): Facing | null {
  const dq = to.q - from.q;
  const dr = to.r - from.r;
  const i = DIRECTIONS.findIndex((d) => d.q === dq && d.r === dr);
  return i < 0 ? null : (i as Facing);
}

/** Hexsides between two facings, 0 to 3, whichever way round is shorter. */
export function turnDistance(a: Facing, b: Facing): number {
  const d = Math.abs(a - b) % 6;
  return Math.min(d, 6 - d);
}

/**
 * Where an attack strikes a ship, judged by the hexside of the target it comes across, counted from the
 * target's bow: the bow hexside is the bow, the two beside it the bow beam, the next two the quarter beam,
 * and the one behind the stern.
 */
export type Aspect = 'bow' | 'bow-beam' | 'quarter-beam' | 'stern';

export function aspectOf(target: Hex, targetFacing: Facing, attacker: Hex): Aspect | null {
  const side = directionTo(target, attacker);
  if (side === null) return null;
  return (['bow', 'bow-beam', 'quarter-beam', 'stern'] as const)[turnDistance(side, targetFacing)];
}

/** The hexes from a to b, both included, as a straight line drawn between their centres crosses them. */
export function line(a: Hex, b: Hex): Hex[] {
  const n = distance(a, b);
  if (n === 0) return [{ ...a }];
  // Nudged off the exact centres so that a line along a hexside picks one side consistently.
  const ax = a.q + 1e-6;
  const az = a.r + 1e-6;
  const bx = b.q + 1e-6;
  const bz = b.r + 1e-6;
  const out: Hex[] = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    out.push(roundHex(ax + (bx - ax) * t, az + (bz - az) * t));
  }
  return out;
}

/** The hex a point between hex centres (fractional axial coordinates) lies in. */
export function roundHex(fq: number, fr: number): Hex {
  const fs = -fq - fr;
  let q = Math.round(fq);
  let r = Math.round(fr);
  const s = Math.round(fs);
  const dq = Math.abs(q - fq);
  const dr = Math.abs(r - fr);
  const ds = Math.abs(s - fs);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return { q: q + 0, r: r + 0 };
}

/** Whether nothing that blocks stands strictly between a and b. */
export function lineOfSight(a: Hex, b: Hex, blocks: (h: Hex) => boolean): boolean {
  const path = line(a, b);
  return path.slice(1, -1).every((h) => !blocks(h));
}

/** Board columns and rows (as printed, from 0) to axial coordinates, and back. */
export function fromColumnRow(col: number, row: number): Hex {
  return { q: col, r: row - (col - (col & 1)) / 2 };
}

export function toColumnRow(h: Hex): { col: number; row: number } {
  return { col: h.q, row: h.r + (h.q - (h.q & 1)) / 2 };
}

/** The centre of a hex in drawing units, for hexes of circumradius `size`. */
export function centre(h: Hex, size: number): { x: number; y: number } {
  return { x: size * 1.5 * h.q, y: size * Math.sqrt(3) * (h.r + h.q / 2) };
}
