import { ARMY, FLEET, IMPASSABLE, LAND, SEA, findLocation, findPower, type Variant } from '../variant/load.ts';
import { err, ok, type Result } from '../result.ts';
import type { Unit } from './schema.ts';

/**
 * Units compiled into integer arrays for the engine's hot paths. Built once
 * per phase from the JSON units; never mutated after construction.
 */
export interface Board {
  readonly variant: Variant;
  readonly count: number;
  readonly province: Int16Array;
  readonly location: Int16Array;
  readonly power: Int8Array;
  readonly type: Uint8Array;
  /** Unit index standing in each province, or -1. */
  readonly unitAt: Int16Array;
}

export function compileBoard(variant: Variant, units: readonly Unit[]): Result<Board, string[]> {
  const n = units.length;
  const province = new Int16Array(n);
  const location = new Int16Array(n);
  const power = new Int8Array(n);
  const type = new Uint8Array(n);
  const unitAt = new Int16Array(variant.provinceCount).fill(-1);
  const errors: string[] = [];
  units.forEach((u, i) => {
    const what = `${u.power} ${u.type} at ${u.at}`;
    const l = findLocation(variant, u.at);
    const w = findPower(variant, u.power);
    if (w < 0) errors.push(`${what}: unknown power "${u.power}"`);
    if (l < 0) {
      errors.push(`${what}: unknown location "${u.at}"`);
      return;
    }
    const p = variant.locationProvince[l];
    const kind = variant.provinceKind[p];
    const t = u.type === 'army' ? ARMY : FLEET;
    if (kind === IMPASSABLE) errors.push(`${what}: ${variant.provinceNames[p]} is impassable`);
    if (t === ARMY && kind === SEA) errors.push(`${what}: an army cannot be at sea`);
    if (t === FLEET && kind === LAND) errors.push(`${what}: a fleet cannot be inland`);
    if (t === FLEET && variant.coasts[p].length > 0 && l === p) errors.push(`${what}: a fleet there must be on a named coast`);
    if (t === ARMY && l !== p) errors.push(`${what}: an army does not stand on a coast`);
    if (unitAt[p] >= 0) errors.push(`${what}: two units in ${variant.provinceNames[p]}`);
    unitAt[p] = i;
    province[i] = p;
    location[i] = t === ARMY ? p : l;
    power[i] = w;
    type[i] = t;
  });
  if (errors.length > 0) return err(errors);
  return ok({ variant, count: n, province, location, power, type, unitAt });
}

/** "the army in Paris", "the fleet in Spain (north coast)": how results name a unit. */
export function describeUnit(board: Board, u: number): string {
  const v = board.variant;
  return `${v.powers[board.power[u]]}'s ${board.type[u] === ARMY ? 'army' : 'fleet'} in ${locationName(v, board.location[u])}`;
}

export function locationName(v: Variant, l: number): string {
  const p = v.locationProvince[l];
  if (l === p) return v.provinceNames[p];
  const id = v.locationIds[l];
  const coast = id.slice(id.indexOf('/') + 1);
  const prov = v.data.provinces[p];
  return `${v.provinceNames[p]} (${prov.coasts?.[coast]?.name ?? coast})`;
}

/** Short form used in order text: `A par`, `F spa/nc`. */
export function shortUnit(board: Board, u: number): string {
  return `${board.type[u] === ARMY ? 'A' : 'F'} ${board.variant.locationIds[board.location[u]]}`;
}
