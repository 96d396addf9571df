import { findPower, type Variant } from '../variant/load.ts';
import type { GameState } from '../state/schema.ts';
import { positionOf } from '../phases/phase.ts';
import { legalMovementOrders } from '../phases/movement/legal.ts';
import { retreatOrderOptions } from '../phases/retreat/index.ts';
import { adjustmentOptions } from '../phases/adjustment/index.ts';
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
  const position = positionOf(v, state);
  if (power < 0 || !position.ok) return { byUnit: {}, adjustment: 0 };
  const pos = position.value;
  if (state.phase.type === 'movement') {
    const byUnit: Record<string, Order[]> = {};
    const b = pos.board;
    for (let u = 0; u < b.count; u++) if (b.power[u] === power) byUnit[v.locationIds[b.location[u]]] = legalMovementOrders(b, pos.eco, u);
    return { byUnit, adjustment: 0 };
  }
  if (state.phase.type === 'retreat') return { byUnit: retreatOrderOptions(pos, power), adjustment: 0 };
  return adjustmentOptions(pos, power);
}
