/**
 * Where a hex battle's two sides open: side one's line across the north of the sea facing south, side two's across
 * the south facing north, each centred, its fleets side by side with a hex between fleets, the lines nine rows
 * apart (more than a move, as the hex rulesets ask of an opening).
 */
import { type Facing, type Hex, fromColumnRow } from '../../naval/hex.ts';
import type { MusteredSide } from '../muster.ts';

export const ROWS = 12;
const NORTH_ROW = 1;
const SOUTH_ROW = ROWS - 2;

/** The hexes across a side's line: its ships, plus a hex between fleets. */
const lineLength = (side: MusteredSide) => side.fleets.reduce((n, f) => n + f.ships.length, 0) + side.fleets.length - 1;

/** Columns for two lines with room at each end to manoeuvre round a flank. */
export function columnsFor(sides: readonly [MusteredSide, MusteredSide], min: number, max: number): number {
  return Math.max(min, Math.min(max, Math.max(lineLength(sides[0]), lineLength(sides[1])) + 6));
}

/** Each ship's opening hex and facing, by ship id. */
export function openingLine(sides: readonly [MusteredSide, MusteredSide], columns: number): Map<string, { hex: Hex; facing: Facing }> {
  const at = new Map<string, { hex: Hex; facing: Facing }>();
  sides.forEach((side, i) => {
    const row = i === 0 ? NORTH_ROW : SOUTH_ROW;
    const facing: Facing = i === 0 ? 3 : 0;
    let col = Math.floor((columns - lineLength(side)) / 2);
    for (const fleet of side.fleets) {
      for (const ship of fleet.ships) at.set(ship.id, { hex: fromColumnRow(col++, row), facing });
      col++;
    }
  });
  return at;
}
