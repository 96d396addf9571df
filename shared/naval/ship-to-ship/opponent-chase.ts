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

/** Hexes of way one hex astern counts as: it takes a whole turn, when a turn ahead makes two or three. */
export const ASTERN_COST = 3;

/**
 * A breadth-first search backwards from every ramming position on `target` (at `targetFacing`), for a ship of
 * turning circle `circle` (a turn needs `circle` hexes straight since the last one). At most `limit` hexes of
 * way are searched going ahead. Where going ahead cannot get there within it (a ship with a wide turning circle
 * boxed in by land, a reef or the edge), going astern one hex (a whole turn's move, facing and straight run
 * kept) counts too, as `asternCost` hexes of way, up to just short of out of reach, but only for a ship that
 * would meet an obstacle ahead before its turning circle lets it turn: without it such a ship finds every place
 * out of reach and never backs out; elsewhere a ship going stern first is slow and open to a ram.
 */
export function chaseMap(target: Hex, targetFacing: Facing, circle: number, grid: SeaGrid, limit = 20, asternCost = ASTERN_COST): ChaseMap {
  const slots = Math.max(0, circle) + 1;
  const c = slots - 1;
  const dist = new Int8Array(grid.columns * grid.rows * 6 * slots).fill(-1);
  /** Places settled going ahead alone: going astern never changes their way. */
  const ahead = new Uint8Array(dist.length);
  const longest = OUT_OF_REACH - 1;
  // Steps cost one hex of way, going astern more: the frontier is kept by distance, one list for each.
  const buckets: number[][] = Array.from({ length: longest + 1 }, () => []);
  const reach = (cell: number, f: number, s: number, d: number) => {
    const k = (cell * 6 + f) * slots + s;
    if (ahead[k] || (dist[k] >= 0 && dist[k] <= d)) return;
    dist[k] = d;
    buckets[d].push(k);
  };
  /** Whether a ship there (`s` hexes straight) meets land, a reef or the edge ahead before its turning circle lets it turn. */
  const boxedIn = (at: Hex, f: Facing, s: number) => {
    let hex = at;
    for (let i = 0; i <= c - s; i++) {
      hex = neighbour(hex, f);
      if (!open(grid, cellOf(grid, hex))) return true;
    }
    return false;
  };
  /** The states one step before `k` (d its distance, at most `cap`): backing into it (if `astern`), going ahead or turning into it (if `forward`). */
  const before = (k: number, d: number, astern: boolean, cap: number, forward = true) => {
    const s = k % slots;
    const f = Math.floor(k / slots) % 6;
    const cell = Math.floor(k / slots / 6);
    const hex = grid.hexes[cell];
    if (astern && d + asternCost <= cap) {
      // It backed into this hex from the one its bow points at, facing the same way: only a ship boxed in there.
      const bow = neighbour(hex, f as Facing);
      const bowCell = cellOf(grid, bow);
      if (open(grid, bowCell) && boxedIn(bow, f as Facing, s)) reach(bowCell, f, s, d + asternCost);
    }
    if (!forward || d + 1 > cap) return;
    // The hex it came from, going ahead or turning into this one.
    const from = cellOf(grid, neighbour(hex, turn(f as Facing, 3)));
    if (!open(grid, from)) return;
    if (s === 0) {
      // It turned into this hex: it faced one hexside the other way, after a full turning circle straight.
      reach(from, turn(f as Facing, 1), c, d + 1);
      reach(from, turn(f as Facing, -1), c, d + 1);
      if (c === 0) reach(from, f, 0, d + 1);
    } else {
      reach(from, f, s - 1, d + 1);
      if (s === c) reach(from, f, c, d + 1);
    }
  };
  for (let side = 0; side < 6; side++) {
    if (side === targetFacing) continue;
    const cell = cellOf(grid, neighbour(target, side as Facing));
    if (!open(grid, cell)) continue;
    for (let s = 0; s <= c; s++) reach(cell, turn(side as Facing, 3), s, 0);
  }
  // Going ahead only, up to the limit; those places are settled.
  const settled: number[][] = Array.from({ length: longest + 1 }, () => []);
  for (let d = 0; d <= Math.min(limit, longest); d++)
    for (const k of buckets[d]) {
      if (dist[k] !== d) continue;
      settled[d].push(k);
      before(k, d, false, limit);
    }
  for (let d = 0; d <= longest; d++) for (const k of settled[d]) ahead[k] = 1;
  // Then the rest, astern counted, from every settled place: searched only when a boxed-in place out of reach
  // going ahead is asked about (most plots of most turns never do).
  let asternSearched = false;
  const searchAstern = () => {
    asternSearched = true;
    for (let d = 0; d <= longest; d++) buckets[d] = settled[d];
    // From a settled place only a step astern leads anywhere new (its ways ahead were searched already).
    for (let d = 0; d <= longest; d++) for (const k of buckets[d]) if (dist[k] === d) before(k, d, true, longest, !ahead[k]);
  };
  return (at, facing, since) => {
    const cell = cellOf(grid, at);
    if (cell < 0) return OUT_OF_REACH;
    const k = (cell * 6 + facing) * slots + Math.min(Math.max(0, since), c);
    if (dist[k] < 0 && !asternSearched && boxedIn(at, facing, Math.min(Math.max(0, since), c))) searchAstern();
    return dist[k] < 0 ? OUT_OF_REACH : dist[k];
  };
}
