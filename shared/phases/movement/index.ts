/**
 * The movement phase: each order checked (check.ts), the whole set resolved
 * by the DATC's equations (resolve.ts), each result explained (explain.ts),
 * orders a variant's rules add carried out by those rules, then the units'
 * new positions: dislodged units retreat, or are disbanded at once when they
 * have nowhere to go; a phase with no retreat goes on to the next season.
 */
import { ARMY, FLEET, findLocation, findProvince, unitTypeName, type Variant } from '../../variant/load.ts';
import { boardBytes, shortUnit, unitAtRef, unitRefOf, type Board } from '../../state/board.ts';
import { Tables } from '../../state/tables.ts';
import { stateWith, unitOf } from '../../state/copy.ts';
import type { DislodgedUnit, Unit } from '../../state/schema.ts';
import type { Order } from '../../orders/types.ts';
import { copyEconomy, economyToState } from '../../game/economy.ts';
import type { Economy, RuledOrderStep } from '../../model.ts';
import type { OrderResult } from '../results.ts';
import type { PhaseEvent } from '../events.ts';
import type { PhaseOutcome, Position, ReadOrder } from '../phase.ts';
import { afterRetreats } from '../year.ts';
import { retreatOptions } from '../retreat/check.ts';
import { checkMovementOrder, MOVE, type MovementIntent } from './check.ts';
import { adjudicateMovement, type MovementOutcome } from './resolve.ts';
import { explainMovement } from './explain.ts';
import { decideMovement, lostUnits, type DecidedProvince } from './decided.ts';
import { contestedProvinces, describeContested, type ContestedProvince } from './contested.ts';
import { ok, type Result } from '../../result.ts';
import { resultRank, resultRanks, sortedResults } from '../../game/result-order.ts';

/**
 * Adjudicates a movement phase. `results` may already hold the results of orders that could not be read (those
 * naming one of the power's units are that unit's: it holds, with no second "no order" line). The outcome's
 * results are listed in stable order (result-order.ts).
 */
export function movementPhase(pos: Position, orders: readonly ReadOrder[], results: OrderResult[]): PhaseOutcome {
  const read = readMovementOrders(pos, orders, results);
  return movementResults(pos, read, adjudicateMovement(pos.board, read.intents, pos.v.options), results);
}

/** The same with some provinces' outcomes fixed from outside (decided.ts); decisions that cannot apply are named. */
export function decidedMovementPhase(
  pos: Position,
  orders: readonly ReadOrder[],
  results: OrderResult[],
  decided: readonly DecidedProvince[],
): Result<PhaseOutcome, string[]> {
  const read = readMovementOrders(pos, orders, results);
  const out = decideMovement(pos.board, read.intents, pos.v.options, decided);
  if (!out.ok) return out;
  const lost = lostUnits(out.value, decided);
  return lost.ok ? ok(movementResults(pos, read, out.value, results, lost.value)) : lost;
}

/**
 * Where units of two or more powers met (contested.ts), in the phase adjudicated with `decided` (none: the
 * ordinary adjudication). Only the provinces `which` accepts.
 */
export function movementContested(
  pos: Position,
  orders: readonly ReadOrder[],
  decided: readonly DecidedProvince[],
  which: (p: number) => boolean,
): Result<ContestedProvince[], string[]> {
  const read = readMovementOrders(pos, orders, []);
  const out = decideMovement(pos.board, read.intents, pos.v.options, decided);
  if (!out.ok) return out;
  const orderOf = (u: number) => read.givenText[u] ?? `${shortUnit(pos.board, u)} H`;
  return ok(
    contestedProvinces(out.value)
      .filter(which)
      .map((p) => describeContested(out.value, p, orderOf)),
  );
}

type Given = { intent: MovementIntent; text: string; order: Order };
interface MovementOrders {
  intents: MovementIntent[];
  /** Per unit: the text and the order of its one legal order, if it had one. */
  givenText: (string | undefined)[];
  givenOrder: (Order | undefined)[];
  /** Results of units that hold because their orders were illegal or contradictory (null: none). */
  heldByRule: Map<number, OrderResult[]> | null;
}

/** Check each order; a unit given two different legal orders holds (DATC 4.D.3). Units in the order they were first ordered. */
function readMovementOrders(pos: Position, orders: readonly ReadOrder[], results: OrderResult[]): MovementOrders {
  const { v, board } = pos;
  // Each unit's first order, in lists by unit rather than an object per order; its other distinct orders apart
  // (rare), and the maps made only when needed, so that the usual call costs neither.
  const givenIntent: (MovementIntent | undefined)[] = new Array(board.count);
  const givenText: (string | undefined)[] = new Array(board.count);
  const givenOrder: (Order | undefined)[] = new Array(board.count);
  let others: Map<number, Given[]> | null = null;
  const ordered: number[] = [];
  // Results of units that hold because their orders were illegal or contradictory: they get no separate "no order" line.
  let heldByRule: Map<number, OrderResult[]> | null = null;
  const holdFor = (u: number, r: OrderResult) => {
    heldByRule ??= new Map();
    const list = heldByRule.get(u);
    if (list) list.push(r);
    else heldByRule.set(u, [r]);
  };
  for (const r of results) if (r.code === 'illegal' && r.unit) holdFor(unitAtRef(board, { at: r.unit }), r);
  for (const o of orders) {
    const c = checkMovementOrder(board, pos.eco, o.power, o.order);
    if (!c.ok) {
      const r: OrderResult = { power: v.powers[o.power], order: o.text, success: false, code: 'illegal', reason: `${c.error} The unit holds.` };
      const u = 'unit' in o.order ? unitAtRef(board, o.order.unit) : -1;
      if (u >= 0 && board.power[u] === o.power) {
        r.unit = v.locationIds[board.location[u]];
        holdFor(u, r);
      }
      r.parsed = o.order;
      results.push(r);
      continue;
    }
    const u = c.value.unit;
    const first = givenText[u];
    if (first === undefined) {
      givenIntent[u] = c.value;
      givenText[u] = o.text;
      givenOrder[u] = o.order;
      ordered.push(u);
      continue;
    }
    if (first === o.text) continue;
    others ??= new Map();
    const more = others.get(u);
    if (!more) others.set(u, [{ intent: c.value, text: o.text, order: o.order }]);
    else if (!more.some((x) => x.text === o.text)) more.push({ intent: c.value, text: o.text, order: o.order });
  }
  const intents: MovementIntent[] = [];
  for (const u of ordered) {
    const more = others === null ? undefined : others.get(u);
    if (more === undefined) {
      intents.push(givenIntent[u]!);
      continue;
    }
    // Two different orders: the unit holds, and neither order counts.
    const list = [{ text: givenText[u]!, order: givenOrder[u]! }, ...more];
    givenText[u] = undefined;
    givenOrder[u] = undefined;
    for (const x of list) {
      const r: OrderResult = {
        power: v.powers[board.power[u]],
        order: x.text,
        unit: v.locationIds[board.location[u]],
        success: false,
        code: 'illegal',
        reason: 'The unit was given more than one order, so it holds.',
        parsed: x.order,
      };
      holdFor(u, r);
      results.push(r);
    }
  }
  return { intents, givenText, givenOrder, heldByRule };
}

/**
 * Every unit's result from the resolved orders, and the next position. `lost`: units lost in a decided province's
 * battle (unit → province), removed from the board after the moves, dislodged or not.
 */
function movementResults(pos: Position, read: MovementOrders, out: MovementOutcome, results: OrderResult[], lost?: ReadonlyMap<number, number>): PhaseOutcome {
  const { v, state, board } = pos;
  const { givenText, givenOrder, heldByRule } = read;
  // The rules' orders may change the economy (a centre destroyed): then a copy, the position's stays as it was.
  let changed: Economy | null = null;
  const economy = () => (changed ??= copyEconomy(pos.eco));

  // Every unit's result; the variant's rules carry out their orders (the unit held) unless the unit was dislodged.
  // Their ranks in the listing are known here, from the indices at hand (result-order.ts).
  const events: PhaseEvent[] = [];
  // Units lost in a battle: the event says so, and each of the unit's results ends saying so.
  const lostIn = (r: OrderResult, u: number): OrderResult => {
    const p = lost?.get(u);
    if (p !== undefined) r.reason += ` The ${unitTypeName(board.type[u])} was lost with all its ships in the battle for ${v.provinceNames[p]}.`;
    return r;
  };
  if (lost)
    for (const [u, p] of lost)
      events.push({
        kind: 'unit-lost',
        power: v.powers[board.power[u]],
        unit: shortUnit(board, u),
        at: v.locationIds[board.location[u]],
        battle: v.provinceIds[p],
      });
  const carried: RuledOrderStep[] = [];
  const from = results.length;
  const ranks: number[] = [];
  const idRanks = resultRanks(v);
  for (let u = 0; u < board.count; u++) {
    const ruled = out.intent[u]?.ruled;
    const text = givenText[u];
    if (text !== undefined) {
      const result = explainMovement(out, u, text, givenOrder[u]);
      if (ruled) {
        const step: RuledOrderStep = { v, state, board, eco: economy(), unit: u, order: ruled.order, result, events };
        if (out.dislodgedBy[u] < 0) {
          ruled.rule.carryOut(step);
          carried.push(step);
        } else ruled.rule.failed(step);
      }
      results.push(lostIn(result, u));
      ranks.push(resultRank(idRanks, v, board.power[u], board.location[u]));
    } else if (heldByRule === null || !heldByRule.has(u)) {
      results.push(lostIn(explainMovement(out, u, `${shortUnit(board, u)} H`, { kind: 'hold', unit: unitRefOf(board, u) }, true), u));
      ranks.push(resultRank(idRanks, v, board.power[u], board.location[u]));
    } else {
      const r = explainMovement(out, u, `${shortUnit(board, u)} H`);
      if (r.dislodgedBy) for (const held of heldByRule.get(u)!) Object.assign(held, { dislodgedBy: r.dislodgedBy, reason: `${held.reason} ${r.reason}` });
      for (const held of heldByRule.get(u)!) lostIn(held, u);
    }
  }

  const { units, dislodged: allDislodged } = positionsAfterMovement(v, board, out, lost);
  const standoffs: string[] = [];
  for (let p = 0; p < v.provinceCount; p++) if (out.standoff[p]) standoffs.push(v.provinceIds[p]);

  // The board after the moves, for retreats and the Winter count (when there are any).
  const fall = state.phase.season !== 'spring';
  const after = allDislodged.length > 0 || fall ? boardAfterMoves(board, out, units.length, lost) : null;
  // A dislodged unit with nowhere to go is disbanded now, so no one waits on a retreat without a choice.
  const dislodged: DislodgedUnit[] = [];
  const disbanded: Unit[] = [];
  for (const d of allDislodged) {
    const l = findLocation(v, d.at);
    const options = retreatOptions(after!, d.type === 'army' ? ARMY : FLEET, l, d.attackerFrom === null ? -1 : findProvince(v, d.attackerFrom), out.standoff);
    if (options.length > 0) dislodged.push(d);
    else {
      disbanded.push({ power: d.power, type: d.type, at: d.at });
      const r = results.find((x) => x.unit === d.at && x.power === d.power && x.dislodgedBy);
      if (r) r.reason += ' It had nowhere to retreat and was disbanded.';
    }
  }

  // The economy's fields, when the rules changed it, are written into the copy after: the same keys in the same
  // order as spreading them in between, without spreading a second object (V8's slow path).
  const next = stateWith(state, undefined, units, [], []);
  if (changed) Object.assign(next, economyToState(v, changed));
  for (const rule of v.rules.movementOrders) rule.after?.({ v, state, next, carried: carried.filter((step) => rule.kinds.includes(step.order.kind)) });
  // Movement results do not depend on the order the orders came in, so neither does their listing.
  const listed = sortedResults(results, v, ranks, from);
  if (dislodged.length > 0)
    return { results: listed, events, disbanded, next: stateWith(next, { ...state.phase, type: 'retreat' }, undefined, dislodged, standoffs) };
  // The season ends here: the count (in Fall) starts from the board and economy already at hand.
  return {
    results: listed,
    events,
    disbanded,
    next: afterRetreats(v, next, events, fall ? { board: after!, eco: changed ?? pos.eco } : undefined),
  };
}

/**
 * The board of the units that stayed (`positionsAfterMovement`'s units, in the same order), made from their indices:
 * what compiling those units would give, without looking their ids up again.
 */
function boardAfterMoves(board: Board, out: MovementOutcome, count: number, lost?: ReadonlyMap<number, number>): Board {
  const v = board.variant;
  const tables = new Tables(boardBytes(v, count));
  const province = tables.int16(count);
  const location = tables.int16(count);
  const unitAt = tables.int16(v.provinceCount, -1);
  const power = tables.int8(count);
  const type = tables.uint8(count);
  let i = 0;
  for (let u = 0; u < board.count; u++) {
    if (out.dislodgedBy[u] >= 0 || lost?.has(u)) continue;
    const l = out.kind[u] === MOVE && out.success[u] ? out.intent[u]!.destLoc : board.location[u];
    const p = v.locationProvince[l];
    if (unitAt[p] >= 0) throw new Error(`internal: positions after movement are invalid: two units in ${v.provinceNames[p]}`);
    unitAt[p] = i;
    province[i] = p;
    location[i] = l;
    power[i] = board.power[u];
    type[i] = board.type[u];
    i++;
  }
  return { variant: v, count, province, location, power, type, unitAt };
}

function positionsAfterMovement(
  v: Variant,
  board: Board,
  out: MovementOutcome,
  lost?: ReadonlyMap<number, number>,
): { units: Unit[]; dislodged: DislodgedUnit[] } {
  // The units that stay counted first, so that their list is made at its length rather than grown.
  let staying = 0;
  for (let u = 0; u < board.count; u++) if (out.dislodgedBy[u] < 0 && !lost?.has(u)) staying++;
  const units = new Array<Unit>(staying);
  const dislodged: DislodgedUnit[] = [];
  let i = 0;
  for (let u = 0; u < board.count; u++) {
    // A unit lost in a battle leaves the board: it neither stays nor retreats.
    if (lost?.has(u)) continue;
    const power = v.powers[board.power[u]];
    const type = unitTypeName(board.type[u]);
    const by = out.dislodgedBy[u];
    if (by >= 0)
      dislodged.push({ power, type, at: v.locationIds[board.location[u]], attackerFrom: out.viaConvoy[by] ? null : v.provinceIds[board.province[by]] });
    else units[i++] = unitOf(power, type, v.locationIds[out.kind[u] === MOVE && out.success[u] ? out.intent[u]!.destLoc : board.location[u]]);
  }
  return { units, dislodged };
}
