/**
 * The table as drawn: every stand's base (x east, y north, inches; heading clockwise from north), the terrain,
 * the flotsam, the land forces, and each squadron's marks. `boardOf` also fills the framework's hex-shaped
 * BoardView (a counter per squadron in the hex its centre is in, a hex an inch) until a table board draws `tableView`.
 */
import { type Facing, type Hex, fromColumnRow } from '../hex.ts';
import type { BoardView, Counter } from '../ruleset.ts';
import { MAX_COLUMNS, MAX_ROWS } from '../sea.ts';
import { type Base, insideSimple } from '../table/index.ts';
import { standsText } from './log.ts';
import { RULES } from './rules.ts';
import { type Squadron, type State, stands } from './state.ts';

export interface TableView {
  readonly width: number;
  readonly depth: number;
  readonly terrain: State['table']['terrain'];
  readonly squadrons: readonly {
    readonly id: string;
    readonly name: string;
    readonly side: string;
    readonly stands: readonly Base[];
    readonly marks: readonly string[];
  }[];
  readonly flotsam: readonly Base[];
  readonly phalanxes: State['phalanxes'];
  readonly positions: State['positions'];
  readonly wind: number | null;
}

export function marksOf(q: Squadron): string[] {
  const marks = [RULES.formations[q.formation].name, standsText(q.halves)];
  if (q.status !== 'afloat') marks.push(q.status === 'anchored' ? 'at anchor' : q.status);
  if (q.disordered) marks.push('disordered');
  if (q.engaged.length) marks.push('in melee');
  if (q.strategos) marks.push('strategos');
  if (q.freighters) marks.push('freighters');
  marks.push(q.quality.replace('-', ' '), q.morale.replace('-', ' '), `${q.ships} ships`);
  return marks;
}

export function tableView(state: State): TableView {
  return {
    width: state.table.width,
    depth: state.table.depth,
    terrain: state.table.terrain,
    squadrons: state.squadrons
      .filter((q) => q.status !== 'gone' && q.status !== 'destroyed' && q.status !== 'chasing')
      .map((q) => ({ id: q.id, name: q.name, side: q.side, stands: stands(q), marks: marksOf(q) })),
    flotsam: state.flotsam,
    phalanxes: state.phalanxes,
    positions: state.positions,
    wind: state.wind,
  };
}

/** The hex board's approximation: a hex an inch (more if the table is larger than the hex board allows). */
export function boardOf(state: State): BoardView {
  const perHex = Math.max(1, state.table.width / MAX_COLUMNS, state.table.depth / MAX_ROWS);
  const columns = Math.max(4, Math.min(MAX_COLUMNS, Math.ceil(state.table.width / perHex)));
  const rows = Math.max(4, Math.min(MAX_ROWS, Math.ceil(state.table.depth / perHex)));
  const hexOf = (x: number, y: number): Hex => {
    const col = Math.max(0, Math.min(columns - 1, Math.floor(x / perHex)));
    const row = Math.max(0, Math.min(rows - 1, Math.floor((state.table.depth - y) / perHex)));
    return fromColumnRow(col, row);
  };
  const land: Hex[] = [];
  for (let col = 0; col < columns; col++)
    for (let row = 0; row < rows; row++) {
      const p = { x: (col + 0.5) * perHex, y: state.table.depth - (row + 0.5) * perHex };
      if (state.table.terrain.some((t) => insideSimple(t.outline, p))) land.push(fromColumnRow(col, row));
    }
  const counters: Counter[] = state.squadrons.map((q) => ({
    id: q.id,
    name: q.name,
    side: q.side,
    type: q.freighters ? 'freighters' : 'squadron',
    hex: hexOf(q.x, q.y),
    facing: (Math.round(q.heading / 60) % 6) as Facing,
    marks: marksOf(q),
    squadron: q.id,
    ...(q.strategos ? { flagship: true } : {}),
    ...(q.status === 'destroyed' || q.status === 'gone' ? { sunk: true } : {}),
  }));
  return { sea: { columns, rows, land, reefs: [] }, counters, wrecks: [] };
}
