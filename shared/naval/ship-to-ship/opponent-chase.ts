/**
 * The computer opponent's chase: how many hexes of way a ship needs, its turning circle and the sea's obstacles
 * counted, before it lies pointed at an enemy across one of the enemy's sides other than its bow, ready to ram it
 * with its next hex. Counting only the hexes between the two ships misleads a ship with a turning circle: one
 * facing the board's edge, or with the enemy abeam, is further from a ram than it looks.
 */
import { type Facing, type Hex, fromColumnRow, neighbour, toColumnRow, turn } from '../hex.ts';
import { type Sea, impassable } from '../sea.ts';

/** The sea as a grid of cells (column by column) with the ones no ship may enter marked. */
export interface SeaGrid {
  readonly columns: number;
  readonly rows: number;
  readonly blocked: Uint8Array;
  /** Each cell's hex. */
  readonly hexes: readonly Hex[];
}

export function seaGrid(sea: Sea, wrecks: readonly Hex[]): SeaGrid {
  const blocked = impassable(sea, wrecks);
  const cells = new Uint8Array(sea.columns * sea.rows);
  const hexes: Hex[] = [];
  for (let col = 0; col < sea.columns; col++)
    for (let row = 0; row < sea.rows; row++) {
      const h = fromColumnRow(col, row);
      hexes.push(h);
      cells[col * sea.rows + row] = blocked(h) ? 1 : 0;
    }
  return { columns: sea.columns, rows: sea.rows, blocked: cells, hexes };
}

/** A hex's cell, or -1 off the board. */
function cellOf(grid: SeaGrid, h: Hex): number {
  const { col, row } = toColumnRow(h);
  return col < 0 || row < 0 || col >= grid.columns || row >= grid.rows ? -1 : col * grid.rows + row;
}

const open = (grid: SeaGrid, cell: number) => cell >= 0 && grid.blocked[cell] === 0;

/** Hexes of way to a ramming position, by the ship's hex, facing and hexes gone straight since its last turn. */
export type ChaseMap = (at: Hex, facing: Facing, since: number) => number;

/** Where no ramming position can be reached: as far as a long chase. */
export const OUT_OF_REACH = 30;

/**
 * A breadth-first search backwards from every ramming position on `target` (at `targetFacing`), for a ship of
 * turning circle `circle` (a turn needs `circle` hexes straight since the last one). At most `limit` hexes of
 * way are searched.
 */
export function chaseMap(target: Hex, targetFacing: Facing, circle: number, grid: SeaGrid, limit = 20): ChaseMap {
  const slots = Math.max(0, circle) + 1;
  const c = slots - 1;
  const dist = new Int8Array(grid.columns * grid.rows * 6 * slots).fill(-1);
  let frontier: number[] = [];
  const reach = (cell: number, f: number, s: number, d: number, into: number[]) => {
    const k = (cell * 6 + f) * slots + s;
    if (dist[k] >= 0) return;
    dist[k] = d;
    into.push(k);
  };
  for (let side = 0; side < 6; side++) {
    if (side === targetFacing) continue;
    const cell = cellOf(grid, neighbour(target, side as Facing));
    if (!open(grid, cell)) continue;
    for (let s = 0; s <= c; s++) reach(cell, turn(side as Facing, 3), s, 0, frontier);
  }
  for (let d = 1; d <= limit && frontier.length; d++) {
    const next: number[] = [];
    for (const k of frontier) {
      const s = k % slots;
      const f = Math.floor(k / slots) % 6;
      const cell = Math.floor(k / slots / 6);
      // The hex it came from, going ahead or turning into this one.
      const from = cellOf(grid, neighbour(grid.hexes[cell], turn(f as Facing, 3)));
      if (!open(grid, from)) continue;
      if (s === 0) {
        // It turned into this hex: it faced one hexside the other way, after a full turning circle straight.
        reach(from, turn(f as Facing, 1), c, d, next);
        reach(from, turn(f as Facing, -1), c, d, next);
        if (c === 0) reach(from, f, 0, d, next);
      } else {
        reach(from, f, s - 1, d, next);
        if (s === c) reach(from, f, c, d, next);
      }
    }
    frontier = next;
  }
  return (at, facing, since) => {
    const cell = cellOf(grid, at);
    if (cell < 0) return OUT_OF_REACH;
    const d = dist[(cell * 6 + facing) * slots + Math.min(Math.max(0, since), c)];
    return d < 0 ? OUT_OF_REACH : d;
  };
}
