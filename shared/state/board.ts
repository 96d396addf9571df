import { ARMY, FLEET, IMPASSABLE, LAND, SEA, findLocation, findPower, type Variant } from '../variant/load.ts';
import { err, ok, type Result } from '../result.ts';
import type { UnitRef } from '../orders/types.ts';
import type { Unit } from './schema.ts';
import { Tables } from './tables.ts';
import type { Board } from '../model.ts';

export type { Board } from '../model.ts';

/** The bytes a board of `units` units takes in `Tables`. */
export const boardBytes = (variant: Variant, units: number): number => 2 * (2 * units + variant.provinceCount) + 2 * units;

/** The units as a board; its tables cut from `tables` when the caller shares a buffer among several structures. */
export function compileBoard(variant: Variant, units: readonly Unit[], tables = new Tables(boardBytes(variant, units.length))): Result<Board, string[]> {
  const n = units.length;
  const province = tables.int16(n);
  const location = tables.int16(n);
  const unitAt = tables.int16(variant.provinceCount, -1);
  const power = tables.int8(n);
  const type = tables.uint8(n);
  const errors: string[] = [];
  const what = (u: Unit) => `${u.power} ${u.type} at ${u.at}`;
  for (let i = 0; i < n; i++) {
    const u = units[i];
    const l = findLocation(variant, u.at);
    const w = findPower(variant, u.power);
    if (w < 0) errors.push(`${what(u)}: unknown power "${u.power}"`);
    if (l < 0) {
      errors.push(`${what(u)}: unknown location "${u.at}"`);
      continue;
    }
    const p = variant.locationProvince[l];
    const kind = variant.provinceKind[p];
    const t = u.type === 'army' ? ARMY : FLEET;
    if (kind === IMPASSABLE) errors.push(`${what(u)}: ${variant.provinceNames[p]} is impassable`);
    if (t === ARMY && kind === SEA) errors.push(`${what(u)}: an army cannot be at sea`);
    if (t === FLEET && kind === LAND) errors.push(`${what(u)}: a fleet cannot be inland`);
    if (t === FLEET && variant.coasts[p].length > 0 && l === p) errors.push(`${what(u)}: a fleet there must be on a named coast`);
    if (t === ARMY && l !== p) errors.push(`${what(u)}: an army does not stand on a coast`);
    if (unitAt[p] >= 0) errors.push(`${what(u)}: two units in ${variant.provinceNames[p]}`);
    unitAt[p] = i;
    province[i] = p;
    location[i] = t === ARMY ? p : l;
    power[i] = w;
    type[i] = t;
  }
  if (errors.length > 0) return err(errors);
  return ok({ variant, count: n, province, location, power, type, unitAt });
}

/** "the army in Paris", "the fleet in Spain (north coast)": how results name a unit. */
export function describeUnit(board: Board, u: number): string {
  const v = board.variant;
  const names = unitNames(v);
  const key = (board.power[u] * 2 + board.type[u]) * v.locationCount + board.location[u];
  return (names.described[key] ??= `${v.powers[board.power[u]]}'s ${board.type[u] === ARMY ? 'army' : 'fleet'} in ${locationName(v, board.location[u])}`);
}

export function locationName(v: Variant, l: number): string {
  const p = v.locationProvince[l];
  if (l === p) return v.provinceNames[p];
  const id = v.locationIds[l];
  const coast = id.slice(id.indexOf('/') + 1);
  const prov = v.data.provinces[p];
  return `${v.provinceNames[p]} (${prov.coasts?.[coast]?.name ?? coast})`;
}

/**
 * Every result names units, and building the same few names again costs more than the rest of an explanation:
 * each is made once per variant (by power, type and location for `describeUnit`, type and location for `shortUnit`).
 */
const names = new WeakMap<Variant, { described: string[]; short: string[] }>();
function unitNames(v: Variant): { described: string[]; short: string[] } {
  let n = names.get(v);
  if (!n) names.set(v, (n = { described: new Array(v.powers.length * 2 * v.locationCount), short: new Array(2 * v.locationCount) }));
  return n;
}

/** The unit as an order names it: `{ type: 'army', at: 'par' }`. */
export function unitRefOf(board: Board, u: number): UnitRef {
  return { type: board.type[u] === ARMY ? 'army' : 'fleet', at: board.variant.locationIds[board.location[u]] };
}

/** Short form used in order text: `A par`, `F spa/nc`. */
export function shortUnit(board: Board, u: number): string {
  const v = board.variant;
  const key = board.type[u] * v.locationCount + board.location[u];
  return (unitNames(v).short[key] ??= `${board.type[u] === ARMY ? 'A' : 'F'} ${v.locationIds[board.location[u]]}`);
}

/** A location id, tolerating an unknown coast (treated as no coast, DATC 4.B.6). */
export function resolveLocation(v: Variant, id: string): number {
  const l = findLocation(v, id);
  if (l >= 0) return l;
  const slash = id.indexOf('/');
  return slash > 0 ? findLocation(v, id.slice(0, slash)) : -1;
}

/** The unit standing where an order says (any coast of the province), or -1. */
export function unitAtRef(board: Board, ref: UnitRef): number {
  const l = resolveLocation(board.variant, ref.at);
  return l < 0 ? -1 : board.unitAt[board.variant.locationProvince[l]];
}

/** The unit an order addresses, which must exist and belong to the power. Type and coast mistakes are ignored (DATC 4.B.5, 4.C.2). */
export function ownUnit(board: Board, power: number, ref: UnitRef): Result<number> {
  const u = unitAtRef(board, ref);
  return u >= 0 && board.power[u] === power ? ok(u) : err(notOwnUnit(board, ref, u));
}

/** Why `ownUnit` refused: `u` is the unit at `ref` (-1: none). */
export function notOwnUnit(board: Board, ref: UnitRef, u: number): string {
  const v = board.variant;
  if (u < 0) return `There is no unit in ${placeName(v, ref.at)}.`;
  return `The ${unitWord(board, u)} in ${v.provinceNames[board.province[u]]} belongs to ${v.powers[board.power[u]]}.`;
}

/** A place as a sentence names it: the province's name, or the text as typed when it is no place. */
export function placeName(v: Variant, id: string): string {
  const l = resolveLocation(v, id);
  return l < 0 ? `"${id}"` : v.provinceNames[v.locationProvince[l]];
}

export const unitWord = (board: Board, u: number): string => (board.type[u] === ARMY ? 'army' : 'fleet');

/** Can unit u move into province p (any coast)? Used for supports (DATC 6.B.4, 6.B.5). */
export function canReach(board: Board, u: number, p: number): boolean {
  const v = board.variant;
  if (board.type[u] === ARMY) return v.armyMatrix[board.province[u] * v.provinceCount + p] === 1;
  const from = board.location[u];
  const L = v.locationCount;
  if (v.fleetMatrix[from * L + p]) return true;
  for (const c of v.coasts[p]) if (v.fleetMatrix[from * L + c]) return true;
  return false;
}
