/** How the log and the buttons name places and facings: hexes as printed maps number them (column, row from 01). */
import { FACING_NAMES, type Facing, type Hex, toColumnRow } from '../hex.ts';

const two = (n: number) => String(n).padStart(2, '0');

export function hexName(h: Hex): string {
  const { col, row } = toColumnRow(h);
  return `${two(col + 1)}${two(row + 1)}`;
}

export const facingName = (f: Facing): string => FACING_NAMES[f];
