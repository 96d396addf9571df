/** The sea a battle is fought on: a rectangle of hexes with land, reefs and the wrecks the battle leaves. */
import { z } from 'zod';
import { type Hex, HexSchema, fromColumnRow, hexKey, toColumnRow } from './hex.ts';

/** The largest sea a battle may have, in columns and rows (Classis's big board is 29 by 10). */
export const MAX_COLUMNS = 40;
export const MAX_ROWS = 30;

export const SeaSchema = z
  .object({
    columns: z.number().int().min(4).max(MAX_COLUMNS),
    rows: z.number().int().min(4).max(MAX_ROWS),
    land: z
      .array(HexSchema)
      .max(MAX_COLUMNS * MAX_ROWS)
      .default([]),
    reefs: z
      .array(HexSchema)
      .max(MAX_COLUMNS * MAX_ROWS)
      .default([]),
  })
  .strict();
export type Sea = z.infer<typeof SeaSchema>;

export function onBoard(sea: Pick<Sea, 'columns' | 'rows'>, h: Hex): boolean {
  const { col, row } = toColumnRow(h);
  return col >= 0 && col < sea.columns && row >= 0 && row < sea.rows;
}

/** Every hex of the board, column by column. */
export function allHexes(sea: Pick<Sea, 'columns' | 'rows'>): Hex[] {
  const out: Hex[] = [];
  for (let col = 0; col < sea.columns; col++) for (let row = 0; row < sea.rows; row++) out.push(fromColumnRow(col, row));
  return out;
}

/** A lookup of the hexes no ship may enter: off the board, land, reefs, and what the caller adds (wrecks). */
export function impassable(sea: Sea, extra: readonly Hex[] = []): (h: Hex) => boolean {
  const blocked = new Set([...sea.land, ...sea.reefs, ...extra].map(hexKey));
  return (h) => !onBoard(sea, h) || blocked.has(hexKey(h));
}
