/**
 * The battle as drawn. `tableView` is the exact picture for a table board: each base's corners, centre,
 * heading, size and marks, the terrain, the edges, the deployment zones. `boardOf` fits the same picture to the
 * framework's hex `BoardView` (one hex a cable, the nearest of six facings), so the hex board shows where the
 * ships are until a table board draws `tableView`.
 */
import { type Facing, type Hex, fromColumnRow } from '../hex.ts';
import type { BoardView, Counter } from '../ruleset.ts';
import { MAX_COLUMNS, MAX_ROWS } from '../sea.ts';
import { type Point, cornersOf, insideSimple } from '../table/index.ts';
import { RULES } from './rules.ts';
import { type ShipState, type State, baseOf, isFlagship, sideName } from './state.ts';

export interface TableShip {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly squadron: string;
  readonly type: string;
  readonly x: number;
  readonly y: number;
  readonly heading: number;
  readonly width: number;
  readonly length: number;
  readonly corners: readonly Point[];
  readonly marks: readonly string[];
  readonly flagship: boolean;
  readonly status: ShipState['status'];
}

export interface TableView {
  readonly unit: string;
  readonly width: number;
  readonly depth: number;
  readonly terrain: State['table']['terrain'];
  readonly edges: State['table']['edges'];
  readonly ships: readonly TableShip[];
  /** Ranges a board shows around a ship while a move is planned (missile range, crossing-the-front strip, command distance). */
  readonly ranges: { readonly missile: number; readonly crossingFront: number; readonly command: number };
}

export function marksOf(state: State, s: ShipState): string[] {
  const marks: string[] = [`combat value ${RULES.shipTypes[s.type].combatValue}`];
  if (isFlagship(state, s)) marks.push('flagship');
  if (s.crippled) marks.push('crippled');
  if (s.status === 'captured') marks.push(`captured by ${sideName(state, s.capturedBy ?? '')}`);
  if (s.status === 'sunk') marks.push('sunk');
  if (s.grappledWith) marks.push(`grappled with ${state.ships.find((x) => x.id === s.grappledWith)?.name ?? s.grappledWith}`);
  if (s.outOfFormation) marks.push('out of formation');
  if (s.ordered && state.stage === 'orders') marks.push('ordered');
  return marks;
}

export function tableView(state: State): TableView {
  return {
    unit: state.table.unit,
    width: state.table.width,
    depth: state.table.depth,
    terrain: state.table.terrain,
    edges: state.table.edges,
    ships: state.ships.map((s) => {
      const b = baseOf(s);
      return {
        id: s.id,
        name: s.name,
        side: s.side,
        squadron: s.squadron,
        type: RULES.shipTypes[s.type].name,
        x: s.x,
        y: s.y,
        heading: s.heading,
        width: b.width,
        length: b.length,
        corners: cornersOf(b),
        marks: marksOf(state, s),
        flagship: isFlagship(state, s),
        status: s.status,
      };
    }),
    ranges: { missile: RULES.missileRange, crossingFront: RULES.movement.crossingFront, command: RULES.command.flagshipDistance },
  };
}

/** The hex board's approximation: a hex a cable (fewer if the table is larger than the hex board allows). */
export function boardOf(state: State): BoardView {
  const perHex = Math.max(1, state.table.width / MAX_COLUMNS, state.table.depth / MAX_ROWS);
  const columns = Math.max(4, Math.min(MAX_COLUMNS, Math.ceil(state.table.width / perHex)));
  const rows = Math.max(4, Math.min(MAX_ROWS, Math.ceil(state.table.depth / perHex)));
  const hexOf = (x: number, y: number): Hex => {
    const col = Math.max(0, Math.min(columns - 1, Math.floor(x / perHex)));
    const row = Math.max(0, Math.min(rows - 1, Math.floor((state.table.depth - y) / perHex)));
    return fromColumnRow(col, row);
  };
  const counters: Counter[] = state.ships.map((s) => ({
    id: s.id,
    name: s.name,
    side: s.side,
    type: RULES.shipTypes[s.type].name,
    hex: hexOf(s.x, s.y),
    facing: (Math.round(s.heading / 60) % 6) as Facing,
    marks: marksOf(state, s),
    squadron: s.squadron,
    flagship: isFlagship(state, s),
    ...(s.status === 'sunk' ? { sunk: true } : {}),
  }));
  // Land: the hexes whose middle lies on a piece of terrain.
  const land: Hex[] = [];
  for (let col = 0; col < columns; col++)
    for (let row = 0; row < rows; row++) {
      const p = { x: (col + 0.5) * perHex, y: state.table.depth - (row + 0.5) * perHex };
      if (state.table.terrain.some((t) => insideSimple(t.outline, p))) land.push(fromColumnRow(col, row));
    }
  return { sea: { columns, rows, land, reefs: [] }, counters, wrecks: [] };
}
