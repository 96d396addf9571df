/**
 * The contested seas of a movement phase, for campaign games whose sea
 * fights are fought out as naval battles: every sea where fleets of two or
 * more powers met once the phase is adjudicated (a fleet moved against a sea
 * another power's fleet stayed in, or fleets of different powers moved to the
 * same sea), with the fleets, their orders and the supports given there.
 * Land provinces are never listed. See shared/phases/movement/contested.ts.
 */
import { SEA, type Variant } from '../variant/load.ts';
import type { GameState } from '../state/schema.ts';
import type { OrderResult } from '../phases/results.ts';
import { positionOf } from '../phases/phase.ts';
import { movementContested } from '../phases/movement/index.ts';
import type { ContestedProvince } from '../phases/movement/contested.ts';
import { err, type Result } from '../result.ts';
import { readSubmittedOrders, type AdjudicateOptions, type SubmittedOrder } from './process.ts';

export type { ContestedProvince as ContestedSea, ContestedSupport, ContestedUnit } from '../phases/movement/contested.ts';

/**
 * The contested seas of a movement phase with these orders. With `options.decided`, those of the phase
 * adjudicated with the decisions: the decided seas are marked `decided`, and any other sea listed is one where
 * fleets met only because of them (a fleet that lost a battle stayed to meet another), still to be fought.
 */
export function contestedSeas(
  variant: Variant,
  state: GameState,
  orders: readonly SubmittedOrder[],
  options?: AdjudicateOptions,
): Result<ContestedProvince[], string[]> {
  if (state.variant !== variant.id) return err([`state is for variant "${state.variant}", not "${variant.id}"`]);
  if (state.phase.type !== 'movement') return err(['Only a movement phase has contested seas.']);
  const position = positionOf(variant, state);
  if (!position.ok) return position;
  const pos = position.value;
  const unreadable: OrderResult[] = [];
  const readable = readSubmittedOrders(pos, orders, unreadable);
  return movementContested(pos, readable, options?.decided ?? [], (p) => variant.provinceKind[p] === SEA);
}
