import { ARMY, FLEET, findLocation, findPower, findProvince, type Variant } from '../variant/load.ts';
import { compileBoard } from '../state/board.ts';
import type { GameState } from '../state/schema.ts';
import { retreatOptions } from '../adjudication/retreat.ts';
import { buildSites, compileEconomy, supplyFor, unitCount } from '../game/economy.ts';
import { legalBuilds, legalMovementOrders } from './legal.ts';
import type { Order } from './types.ts';

/**
 * Every legal order a power could give now, per unit (by location id), for
 * order-entry interfaces: the engine decides what is highlighted. In an
 * adjustment phase the orders are listed under the key "" (builds, removals
 * and the waive), with how many the power must or may give.
 */
export interface OrderOptions {
  byUnit: Record<string, Order[]>;
  /** Adjustment phase: builds allowed (positive) or removals required (negative); 0 otherwise. */
  adjustment: number;
}

export function orderOptions(v: Variant, state: GameState, powerName: string): OrderOptions {
  const power = findPower(v, powerName);
  const byUnit: Record<string, Order[]> = {};
  const board = compileBoard(v, state.units);
  if (power < 0 || !board.ok) return { byUnit, adjustment: 0 };
  const b = board.value;

  if (state.phase.type === 'movement') {
    const destroyed = new Set(state.destroyed.map((id) => findProvince(v, id)));
    for (let u = 0; u < b.count; u++) if (b.power[u] === power) byUnit[v.locationIds[b.location[u]]] = legalMovementOrders(b, u, { destroyed });
    return { byUnit, adjustment: 0 };
  }

  if (state.phase.type === 'retreat') {
    const standoff = new Uint8Array(v.provinceCount);
    for (const id of state.standoffs) standoff[findProvince(v, id)] = 1;
    for (const d of state.dislodged) {
      if (d.power !== v.powers[power]) continue;
      const unit = { type: d.type, at: d.at };
      const from = d.attackerFrom === null ? -1 : findProvince(v, d.attackerFrom);
      const targets = retreatOptions(b, d.type === 'army' ? ARMY : FLEET, findLocation(v, d.at), from, standoff);
      byUnit[d.at] = [...targets.map((l): Order => ({ kind: 'retreat', unit, to: v.locationIds[l] })), { kind: 'disband', unit }];
    }
    return { byUnit, adjustment: 0 };
  }

  const eco = compileEconomy(v, state);
  if (!eco.ok) return { byUnit, adjustment: 0 };
  const adjustment = supplyFor(v, eco.value, power) - unitCount(b, power);
  if (adjustment > 0) byUnit[''] = [...legalBuilds(v, buildSites(v, eco.value, b, power)), { kind: 'waive' }];
  else if (adjustment < 0)
    for (let u = 0; u < b.count; u++)
      if (b.power[u] === power) byUnit[v.locationIds[b.location[u]]] = [{ kind: 'remove', unit: { type: b.type[u] === ARMY ? 'army' : 'fleet', at: v.locationIds[b.location[u]] } }];
  return { byUnit, adjustment };
}
