import { ARMY, findPower, findProvince, type Variant } from '../variant/load.ts';
import type { Board } from '../state/board.ts';
import type { GameState } from '../state/schema.ts';
import { parseOrder } from '../orders/parse.ts';
import { formatOrder } from '../orders/format.ts';
import type { Order, UnitRef } from '../orders/types.ts';
import { positionOf } from '../phases/phase.ts';
import { checkMovementOrder } from '../phases/movement/check.ts';
import { checkRetreatOrder } from '../phases/retreat/check.ts';
import { dislodgedOf, standoffsOf } from '../phases/retreat/index.ts';
import { AdjustmentLedger } from '../phases/adjustment/ledger.ts';
import { err, ok, type Result } from '../result.ts';

/** One submitted order after checking: accepted in canonical form, or rejected with the reason. */
export type CheckedOrder = { accepted: true; input: string; order: Order; text: string; unit?: string } | { accepted: false; input: string; reason: string };

/**
 * Check a power's order set as it is submitted, before the deadline: each
 * order is parsed and judged legal or not on the current board, and a set
 * that gives one unit two orders, or more builds or removals than allowed,
 * has the extra ones rejected. The adjudicator applies the same rules; this
 * is what lets a player fix mistakes in time.
 *
 * `state` is a position as its type describes it, as `orderOptions` takes one:
 * validated at the boundary (`frozenState`, `readState`) or sent by the server,
 * which validated it. The order-entry client calls this on every keystroke, and
 * without the schema at all (zod stays out of the game page's first load).
 */
export function checkOrders(v: Variant, state: GameState, powerName: string, orders: readonly (Order | string)[]): Result<CheckedOrder[]> {
  const power = findPower(v, powerName);
  if (power < 0) return err(`"${powerName}" is not a power in this game.`);
  const position = positionOf(v, state);
  if (!position.ok) return err(position.error.map((e) => e.replace(/^state(\.units)?: /, '')).join('; '));
  const pos = position.value;
  const b = pos.board;
  const phase = state.phase.type;

  const out: CheckedOrder[] = [];
  const unitsOrdered = new Set<number>();
  const ledger = phase === 'adjustment' ? new AdjustmentLedger(v, b, pos.eco, power) : undefined;
  // Retreat bookkeeping.
  const dislodged = phase === 'retreat' ? dislodgedOf(pos) : undefined;
  const standoff = phase === 'retreat' ? standoffsOf(pos) : new Uint8Array(0);

  for (const raw of orders) {
    const inputText = typeof raw === 'string' ? raw.trim() : formatOrder(raw);
    const reject = (reason: string) => out.push({ accepted: false, input: inputText, reason });
    let order: Order;
    if (typeof raw === 'string') {
      const p = parseOrder(v, raw, phase);
      if (!p.ok) {
        reject(p.error);
        continue;
      }
      order = p.value;
    } else order = raw;

    if (phase === 'movement') {
      const c = checkMovementOrder(b, pos.eco, power, order);
      if (!c.ok) {
        reject(c.error);
        continue;
      }
      if (unitsOrdered.has(c.value.unit)) {
        reject(`The unit in ${v.provinceNames[b.province[c.value.unit]]} already has an order in this set.`);
        continue;
      }
      unitsOrdered.add(c.value.unit);
      // A move is recorded to where it goes: the coast the fleet can reach when the order named none ("F Lus - Aqu/wc").
      const typed = withBoardTypes(v, b, order);
      const placed = typed.kind === 'move' && c.value.destLoc >= 0 ? { ...typed, to: v.locationIds[c.value.destLoc] } : typed;
      out.push({ accepted: true, input: inputText, order: placed, text: formatOrder(placed), unit: v.locationIds[b.location[c.value.unit]] });
      continue;
    }

    if (phase === 'retreat') {
      if (!dislodged?.ok) {
        reject('There are no dislodged units.');
        continue;
      }
      const c = checkRetreatOrder(dislodged.value, b, standoff, power, order);
      if (!c.ok) {
        reject(c.error);
        continue;
      }
      if (unitsOrdered.has(c.value.unit)) {
        reject('That dislodged unit already has an order in this set.');
        continue;
      }
      unitsOrdered.add(c.value.unit);
      const typed = withBoardTypes(v, dislodged.value.board, order);
      out.push({ accepted: true, input: inputText, order: typed, text: formatOrder(typed), unit: v.locationIds[dislodged.value.board.location[c.value.unit]] });
      continue;
    }

    // Adjustment phase: the same ledger the adjudicator uses.
    const r = ledger!.take(order);
    if (!r.ok) {
      reject(r.error);
      continue;
    }
    const a = r.value;
    out.push({
      accepted: true,
      input: inputText,
      order,
      text: formatOrder(order),
      ...(a.kind === 'build' ? { unit: v.locationIds[a.location] } : a.kind === 'remove' ? { unit: v.locationIds[b.location[a.unit]] } : {}),
    });
  }
  return ok(out);
}

/**
 * The order with each unit it names (the ordered unit, and the one supported or convoyed) given the
 * type of the unit that is there. A missing or wrong A/F does not spoil an order (DATC 4.C.1, 4.C.2),
 * and what is recorded, shown and adjudicated is then what the unit really is: "F Kor - AEG", not the
 * "A Kor - AEG" typed.
 */
function withBoardTypes(v: Variant, board: Board, order: Order): Order {
  const typed = (ref: UnitRef): UnitRef => {
    const u = board.unitAt[findProvince(v, ref.at.split('/')[0])];
    if (u === undefined || u < 0) return ref;
    const type = board.type[u] === ARMY ? 'army' : 'fleet';
    return ref.type === type ? ref : { ...ref, type };
  };
  switch (order.kind) {
    case 'support':
      return { ...order, unit: typed(order.unit), supported: typed(order.supported) };
    case 'convoy':
      return { ...order, unit: typed(order.unit), army: typed(order.army) };
    case 'hold':
    case 'move':
    case 'destroy':
    case 'rebuild':
    case 'retreat':
    case 'disband':
      return { ...order, unit: typed(order.unit) };
    default:
      return order;
  }
}
