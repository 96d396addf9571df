/**
 * Adjudicating a phase: the orders given are read, the phase's own module
 * (shared/phases/movement, retreat, adjustment) checks, resolves and explains
 * them, and the results come back with the next position.
 */
import { findPower, findProvince, type Variant } from '../variant/load.ts';
import type { GameState } from '../state/schema.ts';
import { leadingUnit, parseOrder } from '../orders/parse.ts';
import { formatOrder } from '../orders/format.ts';
import type { Order } from '../orders/types.ts';
import { unitAtRef } from '../state/board.ts';
import { withScratchTables } from '../state/tables.ts';
import type { OrderResult } from '../phases/results.ts';
import { positionOf, type PhaseOutcome, type Position, type ReadOrder } from '../phases/phase.ts';
import { decidedMovementPhase, movementPhase } from '../phases/movement/index.ts';
import type { DecidedProvince } from '../phases/movement/decided.ts';
import { retreatPhase } from '../phases/retreat/index.ts';
import { adjustmentPhase } from '../phases/adjustment/index.ts';
import { err, ok, type Result } from '../result.ts';
import { sortedResults } from './result-order.ts';

export { PhaseEventSchema, type PhaseEvent } from '../phases/events.ts';
export type { PhaseOutcome } from '../phases/phase.ts';
export type { DecidedOutcome, DecidedProvince } from '../phases/movement/decided.ts';

/** An order as submitted: by a power, as text or structured. */
export interface SubmittedOrder {
  power: string;
  order: Order | string;
}

/**
 * Adjudicate one phase: the orders given (in any order: the result does not
 * depend on it, except that adjustment orders count first-come as DATC
 * 4.D.4 prefers) produce results and the next state. Units without orders
 * hold, dislodged units without orders disband, powers that leave removals
 * out lose units by the civil-disorder rule.
 *
 * `state` is a position as its type describes it: validated where it came in
 * (`readState`, `frozenState`), as `checkOrders` takes one. What the type
 * cannot say (unknown provinces, two units in one place, a broken loan chain)
 * is checked here, and named.
 *
 * `options.decided` fixes the outcome of contested provinces of a movement
 * phase (decided.ts); decisions that cannot apply make the whole call an
 * error naming them.
 */
export function adjudicate(variant: Variant, state: GameState, orders: readonly SubmittedOrder[], options?: AdjudicateOptions): Result<PhaseOutcome, string[]> {
  // The call's tables (positions, the resolver's) are all dropped when it returns plain data: they are cut from the
  // scratch buffer (state/tables.ts) instead of new slabs.
  return withScratchTables(() => adjudicateIn(variant, state, orders, options));
}

function adjudicateIn(variant: Variant, state: GameState, orders: readonly SubmittedOrder[], options?: AdjudicateOptions): Result<PhaseOutcome, string[]> {
  if (state.variant !== variant.id) return err([`state is for variant "${state.variant}", not "${variant.id}"`]);
  if (state.winners) return err(['The game is over: it has been won.']);
  const decided = options?.decided;
  if (decided !== undefined && !Array.isArray(decided)) return err(['The decided provinces must be a list.']);
  if (decided && decided.length > 0 && state.phase.type !== 'movement') return err(['Provinces can be decided only in a movement phase.']);
  const position = positionOf(variant, state);
  if (!position.ok) return position;
  const pos = position.value;

  const results: OrderResult[] = [];
  const readable = readSubmittedOrders(pos, orders, results);

  let outcome: PhaseOutcome;
  switch (state.phase.type) {
    case 'movement': {
      if (decided && decided.length > 0) {
        // Listed in stable order by the movement module (it knows each result's indices).
        const r = decidedMovementPhase(pos, readable, results, decided);
        if (!r.ok) return r;
        outcome = r.value;
      } else outcome = movementPhase(pos, readable, results);
      break;
    }
    case 'retreat': {
      const r = retreatPhase(pos, readable, results);
      if (!r.ok) return r;
      outcome = inStableOrder(r.value, variant);
      break;
    }
    case 'adjustment':
      outcome = adjustmentPhase(pos, readable, results);
  }
  return ok(outcome);
}

/** What `adjudicate` may be told besides the orders. */
export interface AdjudicateOptions {
  /**
   * Movement phases: provinces whose outcome was fixed from outside (a sea battle fought out), the rest
   * adjudicated by the ordinary rules around them (shared/phases/movement/decided.ts).
   */
  decided?: readonly DecidedProvince[];
}

/**
 * The submitted orders read: those that can be read, with the power's index and the canonical text; a result
 * for each that cannot (an unreadable movement order naming one of the power's units is that unit's).
 */
export function readSubmittedOrders(pos: Position, orders: readonly SubmittedOrder[], results: OrderResult[]): ReadOrder[] {
  const { v: variant, state } = pos;
  const readable: ReadOrder[] = [];
  for (const s of orders) {
    const w = findPower(variant, s.power);
    const text = typeof s.order === 'string' ? s.order.trim() : formatOrder(s.order);
    if (w < 0) {
      results.push({ power: s.power, order: text, success: false, code: 'illegal', reason: `"${s.power}" is not a power in this game.` });
      continue;
    }
    if (typeof s.order === 'string') {
      const p = parseOrder(variant, s.order, state.phase.type);
      if (!p.ok) {
        // In a movement phase, an unreadable order that names one of the power's units is that unit's: it holds,
        // and gets no second "no order" line (movementPhase).
        const ref = state.phase.type === 'movement' ? leadingUnit(variant, s.order) : null;
        const u = ref ? unitAtRef(pos.board, ref) : -1;
        const mine = u >= 0 && pos.board.power[u] === w;
        results.push({
          power: variant.powers[w],
          order: text,
          ...(mine ? { unit: variant.locationIds[pos.board.location[u]] } : {}),
          success: false,
          code: 'illegal',
          reason: mine ? `${p.error} The unit holds.` : p.error,
        });
        continue;
      }
      readable.push({ power: w, order: p.value, text: formatOrder(p.value) });
    } else readable.push({ power: w, order: s.order, text });
  }
  return readable;
}

/** Movement and retreat results do not depend on the order the orders came in, so neither does their listing. */
function inStableOrder(o: PhaseOutcome, v: Variant): PhaseOutcome {
  o.results = sortedResults(o.results, v);
  return o;
}

/** The position a new game starts from: the map's starting units and owners, and each rule's part. */
export function initialState(v: Variant): GameState {
  const state: GameState = {
    variant: v.id,
    phase: { season: 'spring', year: v.data.rules.calendar.startYear, type: 'movement' },
    units: v.data.start.units.map((u) => ({ ...u })),
    dislodged: [],
    standoffs: [],
    owners: Object.fromEntries(Object.entries(v.data.start.owners).filter(([p]) => v.isCentre[findProvince(v, p)])),
    // The state's fields that rules use, empty unless a rule starts them otherwise.
    control: {},
    destroyed: [],
    rebuilding: [],
    loans: [],
  };
  for (const part of v.rules.stateParts) Object.assign(state, part.initial?.(v));
  return state;
}
