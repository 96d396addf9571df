/**
 * The retreat phase: a dislodged unit retreats to an adjacent province that is empty, was not left empty by a
 * standoff, and is not where its attacker came from (check.ts); two retreats to one province both fail, and an
 * unordered dislodged unit disbands (resolve.ts). Then the season ends.
 */
import { ARMY, FLEET, findLocation, findProvince, unitTypeName } from '../../variant/load.ts';
import { compileBoard, shortUnit, unitRefOf, type Board } from '../../state/board.ts';
import type { Economy } from '../../game/economy.ts';
import { stateWith } from '../../state/copy.ts';
import type { Order } from '../../orders/types.ts';
import { err, ok, type Result } from '../../result.ts';
import type { OrderResult } from '../results.ts';
import type { PhaseEvent } from '../events.ts';
import type { PhaseOutcome, Position, ReadOrder } from '../phase.ts';
import { afterRetreats } from '../year.ts';
import { checkRetreatOrder, retreatOptions, type Dislodged, type RetreatIntent } from './check.ts';
import { resolveRetreats } from './resolve.ts';

/** The dislodged units of the position, as the checks need them; an error when the state's list of them is invalid. */
export function dislodgedOf(pos: Position): Result<Dislodged, string[]> {
  const { v, state } = pos;
  const board = compileBoard(v, state.dislodged);
  if (!board.ok) return err(board.error.map((e) => `state.dislodged: ${e}`));
  const attackerFrom = Int16Array.from(state.dislodged, (d) => (d.attackerFrom === null ? -1 : findProvince(v, d.attackerFrom)));
  return ok({ board: board.value, attackerFrom });
}

/** Provinces left empty by a standoff, where no unit may retreat. */
export function standoffsOf(pos: Position): number[] {
  // A plain array: a typed array this long would be allocated outside V8's heap, which costs more than the phase's checks.
  const standoff: number[] = new Array(pos.v.provinceCount).fill(0);
  for (const id of pos.state.standoffs) {
    const p = findProvince(pos.v, id);
    if (p >= 0) standoff[p] = 1;
  }
  return standoff;
}

export function retreatPhase(pos: Position, orders: readonly ReadOrder[], results: OrderResult[]): Result<PhaseOutcome, string[]> {
  const { v, state, board } = pos;
  const found = dislodgedOf(pos);
  if (!found.ok) return found;
  const dislodged = found.value;
  const standoff = standoffsOf(pos);

  const intents: RetreatIntent[] = [];
  const texts: string[] = [];
  const given: Order[] = [];
  const ordered = new Map<number, number>();
  for (const o of orders) {
    const c = checkRetreatOrder(dislodged, board, standoff, o.power, o.order);
    if (!c.ok) {
      results.push({ power: v.powers[o.power], order: o.text, success: false, code: 'illegal', reason: `${c.error}`, parsed: o.order });
      continue;
    }
    const prev = ordered.get(c.value.unit);
    if (prev !== undefined) {
      if (texts[prev] === o.text) continue;
      // Two different orders for one dislodged unit: it disbands (DATC 4.D.3 by analogy).
      intents[prev] = { unit: c.value.unit, to: -1 };
      results.push({
        power: v.powers[o.power],
        order: o.text,
        success: false,
        code: 'illegal',
        reason: 'The unit was given more than one retreat order, so it disbands.',
        parsed: o.order,
      });
      continue;
    }
    ordered.set(c.value.unit, intents.length);
    intents.push(c.value);
    texts.push(o.text);
    given.push(o.order);
  }
  const succeeded = resolveRetreats(v, intents);
  const d = dislodged.board;
  const units = [...state.units];
  const byUnit = intents.map((_, i) => i).sort((a, b) => intents[a].unit - intents[b].unit);
  for (const i of byUnit) {
    const it = intents[i];
    const power = v.powers[d.power[it.unit]];
    const unit = v.locationIds[d.location[it.unit]];
    // The order as given (for a unit given two, the first: it disbands).
    const parsed = given[i];
    // Each result written out in full: spreading a common part into each costs more than the rest of the phase.
    if (it.to < 0) results.push({ power, order: texts[i], unit, success: true, code: 'disbanded', reason: 'Disbanded.', parsed });
    else if (succeeded[i]) {
      const reason = `Retreated to ${v.provinceNames[v.locationProvince[it.to]]}.`;
      results.push({ power, order: texts[i], unit, success: true, code: 'retreated', reason, parsed });
      units.push({ power, type: unitTypeName(d.type[it.unit]), at: v.locationIds[it.to] });
    } else {
      const reason = `Another unit retreated to ${v.provinceNames[v.locationProvince[it.to]]} too, so both disband.`;
      results.push({ power, order: texts[i], unit, success: false, code: 'retreat-bounced', reason, parsed });
    }
  }
  for (let u = 0; u < d.count; u++) {
    if (ordered.has(u)) continue;
    results.push({
      power: v.powers[d.power[u]],
      order: `${shortUnit(d, u)} disband`,
      unit: v.locationIds[d.location[u]],
      success: true,
      code: 'unordered',
      reason: 'No retreat ordered: disbanded.',
      parsed: { kind: 'disband', unit: unitRefOf(d, u) },
    });
  }
  const events: PhaseEvent[] = [];
  const after = stateWith(state, undefined, units, [], []);
  // After the Fall retreats, the Winter count: from the new board and the economy at hand (retreats change no centre).
  let known: { board: Board; eco: Economy } | undefined;
  if (state.phase.season !== 'spring') {
    const afterBoard = compileBoard(v, units);
    if (!afterBoard.ok) throw new Error(`internal: positions after the retreats are invalid: ${afterBoard.error.join('; ')}`);
    known = { board: afterBoard.value, eco: pos.eco };
  }
  return ok({ results, events, disbanded: [], next: afterRetreats(v, after, events, known) });
}

/** Every retreat a power could order now, per dislodged unit (by location id), and the disband. */
export function retreatOrderOptions(pos: Position, power: number): Record<string, Order[]> {
  const { v, state, board } = pos;
  const standoff = standoffsOf(pos);
  const byUnit: Record<string, Order[]> = {};
  for (const d of state.dislodged) {
    if (d.power !== v.powers[power]) continue;
    const unit = { type: d.type, at: d.at };
    const from = d.attackerFrom === null ? -1 : findProvince(v, d.attackerFrom);
    const targets = retreatOptions(board, d.type === 'army' ? ARMY : FLEET, findLocation(v, d.at), from, standoff);
    byUnit[d.at] = [...targets.map((l): Order => ({ kind: 'retreat', unit, to: v.locationIds[l] })), { kind: 'disband', unit }];
  }
  return byUnit;
}
