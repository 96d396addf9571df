import { z } from 'zod';
import { ARMY, FLEET, findLocation, findPower, findProvince, unitTypeName, type Variant } from '../variant/load.ts';
import { compileBoard, shortUnit, type Board } from '../state/board.ts';
import type { DislodgedUnit, GameState, GameStateInput, Phase, Unit } from '../state/schema.ts';
import { readState } from '../state/checked.ts';
import { nextYear } from '../state/phase.ts';
import { leadingUnit, parseOrder } from '../orders/parse.ts';
import { formatOrder } from '../orders/format.ts';
import { checkMovementOrder, DESTROY, REBUILD, unitAtRef, type MovementIntent } from '../orders/check.ts';
import type { Order } from '../orders/types.ts';
import { adjudicateMovement, type MovementOutcome } from '../adjudication/movement.ts';
import { explainMovement } from '../adjudication/explain.ts';
import { checkRetreatOrder, resolveRetreats, retreatOptions, type Dislodged, type RetreatIntent } from '../adjudication/retreat.ts';
import { adjudicateAdjustments, type AdjustmentOrder } from '../adjudication/adjustment.ts';
import type { OrderResult } from '../adjudication/results.ts';
import {
  buildSites,
  captureCentres,
  compileEconomy,
  economyToState,
  rebelCentres,
  supplyFor,
  unitCount,
  victors,
  type Economy,
} from './economy.ts';
import { err, ok, type Result } from '../result.ts';

/** An order as submitted: by a power, as text or structured. */
export interface SubmittedOrder {
  power: string;
  order: Order | string;
}

/** An order that could be read, with its power and its canonical text. */
interface ReadOrder {
  power: number;
  order: Order;
  text: string;
}

/** Things that happened at the end of a phase besides the orders' own results. */
export const PhaseEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('centre-destroyed'), province: z.string(), by: z.string() }),
  z.object({ kind: z.literal('centre-rebuilt'), province: z.string(), by: z.string() }),
  z.object({ kind: z.literal('centre-captured'), province: z.string(), from: z.string().nullable(), to: z.string() }),
  z.object({ kind: z.literal('centre-rebelled'), province: z.string(), from: z.string() }),
  z.object({ kind: z.literal('loan-ended'), centre: z.string(), from: z.string(), to: z.string() }),
  z.object({ kind: z.literal('victory'), powers: z.array(z.string()) }),
]);
export type PhaseEvent = z.infer<typeof PhaseEventSchema>;

export interface PhaseOutcome {
  /** One result per distinct order given, plus one for each unit that had no order. */
  results: OrderResult[];
  /** The next phase to be played (empty retreat and adjustment phases are skipped). */
  next: GameState;
  events: PhaseEvent[];
  /** Dislodged units disbanded at once because they had nowhere to retreat. */
  disbanded: Unit[];
}

/**
 * Adjudicate one phase: the orders given (in any order: the result does not
 * depend on it, except that adjustment orders count first-come as DATC
 * 4.D.4 prefers) produce results and the next state. Units without orders
 * hold, dislodged units without orders disband, powers that leave removals
 * out lose units by the civil-disorder rule.
 */
export function adjudicate(variant: Variant, input: GameStateInput, orders: readonly SubmittedOrder[]): Result<PhaseOutcome, string[]> {
  const parsed = readState(input);
  if (!parsed.success) return err(parsed.error.issues.map((i) => `state.${i.path.join('.')}: ${i.message}`));
  const state = parsed.data;
  if (state.variant !== variant.id) return err([`state is for variant "${state.variant}", not "${variant.id}"`]);
  if (state.winners) return err(['The game is over: it has been won.']);
  const board = compileBoard(variant, state.units);
  if (!board.ok) return err(board.error.map((e) => `state.units: ${e}`));
  const eco = compileEconomy(variant, state);
  if (!eco.ok) return err(eco.error.map((e) => `state: ${e}`));

  const results: OrderResult[] = [];
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
        const u = ref ? unitAtRef(board.value, ref) : -1;
        const mine = u >= 0 && board.value.power[u] === w;
        results.push({
          power: variant.powers[w],
          order: text,
          ...(mine ? { unit: variant.locationIds[board.value.location[u]] } : {}),
          success: false,
          code: 'illegal',
          reason: mine ? `${p.error} The unit holds.` : p.error,
        });
        continue;
      }
      readable.push({ power: w, order: p.value, text: formatOrder(p.value) });
    } else readable.push({ power: w, order: s.order, text });
  }

  let outcome: PhaseOutcome;
  switch (state.phase.type) {
    case 'movement':
      outcome = inStableOrder(movementPhase(variant, state, board.value, eco.value, readable, results));
      break;
    case 'retreat': {
      const r = retreatPhase(variant, state, board.value, eco.value, readable, results);
      if (!r.ok) return r;
      outcome = inStableOrder(r.value);
      break;
    }
    case 'adjustment':
      outcome = adjustmentPhase(variant, state, board.value, eco.value, readable, results);
  }
  withStructuredOrders(variant, state, outcome.results, readable);
  return ok(outcome);
}

/** Give every result the structured form of its order, so clients draw it without parsing text. */
function withStructuredOrders(v: Variant, state: GameState, results: OrderResult[], readable: readonly ReadOrder[]): void {
  const given = new Map(readable.map((r) => [`${v.powers[r.power]}\u0000${r.text}`, r.order]));
  for (const r of results) {
    const known = given.get(`${r.power}\u0000${r.order}`);
    if (known) r.parsed = known;
    else {
      // Orders the engine wrote itself: holds of unordered units, disbands, civil-disorder removals, waives.
      const p = parseOrder(v, r.order, state.phase.type);
      if (p.ok) r.parsed = p.value;
    }
  }
}

function movementPhase(
  v: Variant,
  state: GameState,
  board: Board,
  eco: Economy,
  orders: ReadOrder[],
  results: OrderResult[],
): PhaseOutcome {
  const destroyedSet = new Set<number>();
  for (let p = 0; p < v.provinceCount; p++) if (eco.destroyed[p]) destroyedSet.add(p);

  // Check each order; a unit given two different legal orders holds (DATC 4.D.3).
  const byUnit = new Map<number, { intent: MovementIntent; text: string }[]>();
  // Results of units that hold because their orders were illegal or contradictory: they get no separate "no order" line.
  const heldByRule = new Map<number, OrderResult[]>();
  const holdFor = (u: number, r: OrderResult) => heldByRule.set(u, [...(heldByRule.get(u) ?? []), r]);
  // Unreadable orders already known as a unit's (adjudicate).
  for (const r of results) if (r.code === 'illegal' && r.unit) holdFor(unitAtRef(board, { at: r.unit }), r);
  for (const o of orders) {
    const c = checkMovementOrder(board, o.power, o.order, { destroyed: destroyedSet });
    if (!c.ok) {
      const r: OrderResult = { power: v.powers[o.power], order: o.text, success: false, code: 'illegal', reason: `${c.error} The unit holds.` };
      const u = 'unit' in o.order ? unitAtRef(board, o.order.unit) : -1;
      if (u >= 0 && board.power[u] === o.power) {
        r.unit = v.locationIds[board.location[u]];
        holdFor(u, r);
      }
      results.push(r);
      continue;
    }
    const list = byUnit.get(c.value.unit) ?? [];
    if (!list.some((x) => x.text === o.text)) list.push({ intent: c.value, text: o.text });
    byUnit.set(c.value.unit, list);
  }
  const intents: MovementIntent[] = [];
  const textOf: string[] = [];
  for (const [u, list] of byUnit) {
    if (list.length === 1) {
      intents.push(list[0].intent);
      textOf[u] = list[0].text;
      continue;
    }
    for (const x of list) {
      const r: OrderResult = {
        power: v.powers[board.power[u]],
        order: x.text,
        unit: v.locationIds[board.location[u]],
        success: false,
        code: 'illegal',
        reason: 'The unit was given more than one order, so it holds.',
      };
      holdFor(u, r);
      results.push(r);
    }
  }

  const out = adjudicateMovement(board, intents, v.options);

  // Destroy and rebuild (Diadochi V rules 7, 8) take effect for units not dislodged.
  const events: PhaseEvent[] = [];
  const previouslyRebuilding = new Set(state.rebuilding.map((id) => findProvince(v, id)));
  const rebuilding: string[] = [];
  for (let u = 0; u < board.count; u++) {
    const it = out.intent[u];
    if (textOf[u] !== undefined) {
      const r = explainMovement(out, u, textOf[u]);
      if (it && (it.kind === DESTROY || it.kind === REBUILD) && out.dislodgedBy[u] < 0) {
        const p = board.province[u];
        const id = v.provinceIds[p];
        if (it.kind === DESTROY) {
          eco.destroyed[p] = 1;
          events.push({ kind: 'centre-destroyed', province: id, by: v.powers[board.power[u]] });
          Object.assign(r, { code: 'destroyed-centre', reason: `Destroyed the supply centre in ${v.provinceNames[p]}.` });
        } else if (previouslyRebuilding.has(p)) {
          eco.destroyed[p] = 0;
          events.push({ kind: 'centre-rebuilt', province: id, by: v.powers[board.power[u]] });
          Object.assign(r, { code: 'rebuilt-centre', reason: `Rebuilt the supply centre in ${v.provinceNames[p]}; it supplies again from the next adjustment.` });
        } else {
          rebuilding.push(id);
          Object.assign(r, { code: 'rebuilding', reason: `Began rebuilding ${v.provinceNames[p]}: order R again next movement phase to finish.` });
        }
      } else if (it && (it.kind === DESTROY || it.kind === REBUILD)) {
        Object.assign(r, { reason: `${r.reason} The ${it.kind === DESTROY ? 'destruction' : 'rebuilding'} did not happen.` });
      }
      results.push(r);
    } else if (!heldByRule.has(u)) {
      const r = explainMovement(out, u, `${shortUnit(board, u)} H`);
      results.push({ ...r, code: r.success ? 'unordered' : r.code, reason: `No order: ${r.reason.charAt(0).toLowerCase()}${r.reason.slice(1)}` });
    } else {
      const r = explainMovement(out, u, `${shortUnit(board, u)} H`);
      if (r.dislodgedBy)
        for (const held of heldByRule.get(u)!) Object.assign(held, { dislodgedBy: r.dislodgedBy, reason: `${held.reason} ${r.reason}` });
    }
  }

  const { units, dislodged: allDislodged } = positionsAfterMovement(v, board, out);
  const standoffs: string[] = [];
  for (let p = 0; p < v.provinceCount; p++) if (out.standoff[p]) standoffs.push(v.provinceIds[p]);

  // A dislodged unit with nowhere to go is disbanded now, so no one waits on a retreat without a choice.
  const after = compileBoard(v, units);
  if (!after.ok) throw new Error(`internal: positions after movement are invalid: ${after.error.join('; ')}`);
  const dislodged: DislodgedUnit[] = [];
  const disbanded: Unit[] = [];
  for (const d of allDislodged) {
    const l = findLocation(v, d.at);
    const options = retreatOptions(after.value, d.type === 'army' ? ARMY : FLEET, l, d.attackerFrom === null ? -1 : findProvince(v, d.attackerFrom), out.standoff);
    if (options.length > 0) dislodged.push(d);
    else {
      disbanded.push({ power: d.power, type: d.type, at: d.at });
      const r = results.find((x) => x.unit === d.at && x.power === d.power && x.dislodgedBy);
      if (r) r.reason += ' It had nowhere to retreat and was disbanded.';
    }
  }

  const next: GameState = {
    ...state,
    ...economyToState(v, eco),
    units,
    dislodged: [],
    standoffs: [],
    rebuilding,
  };
  if (dislodged.length > 0) {
    return { results, events, disbanded, next: { ...next, phase: { ...state.phase, type: 'retreat' }, dislodged, standoffs } };
  }
  return { results, events, disbanded, next: afterRetreats(v, next, events) };
}

/** Movement and retreat results do not depend on the order the orders came in, so neither does their listing. */
function inStableOrder(o: PhaseOutcome): PhaseOutcome {
  const keyed = o.results.map((r) => ({ r, k: `${r.power}\u0000${r.unit ?? ''}\u0000${r.order}\u0000${r.code}` }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  o.results = keyed.map((x) => x.r);
  return o;
}

function positionsAfterMovement(v: Variant, board: Board, out: MovementOutcome): { units: Unit[]; dislodged: DislodgedUnit[] } {
  const units: Unit[] = [];
  const dislodged: DislodgedUnit[] = [];
  for (let u = 0; u < board.count; u++) {
    const power = v.powers[board.power[u]];
    const type = unitTypeName(board.type[u]);
    const by = out.dislodgedBy[u];
    if (by >= 0) {
      dislodged.push({ power, type, at: v.locationIds[board.location[u]], attackerFrom: out.viaConvoy[by] ? null : v.provinceIds[board.province[by]] });
    } else if (out.kind[u] === 1 && out.success[u]) {
      units.push({ power, type, at: v.locationIds[out.intent[u]!.destLoc] });
    } else units.push({ power, type, at: v.locationIds[board.location[u]] });
  }
  return { units, dislodged };
}

function retreatPhase(
  v: Variant,
  state: GameState,
  board: Board,
  eco: Economy,
  orders: ReadOrder[],
  results: OrderResult[],
): Result<PhaseOutcome, string[]> {
  const dBoard = compileBoard(v, state.dislodged);
  if (!dBoard.ok) return err(dBoard.error.map((e) => `state.dislodged: ${e}`));
  const attackerFrom = Int16Array.from(state.dislodged, (d) => (d.attackerFrom === null ? -1 : findProvince(v, d.attackerFrom)));
  const dislodged: Dislodged = { board: dBoard.value, attackerFrom };
  const standoff = new Uint8Array(v.provinceCount);
  for (const id of state.standoffs) {
    const p = findProvince(v, id);
    if (p >= 0) standoff[p] = 1;
  }

  const intents: RetreatIntent[] = [];
  const texts: string[] = [];
  const ordered = new Map<number, number>();
  for (const o of orders) {
    const c = checkRetreatOrder(dislodged, board, standoff, o.power, o.order);
    if (!c.ok) {
      results.push({ power: v.powers[o.power], order: o.text, success: false, code: 'illegal', reason: `${c.error}` });
      continue;
    }
    const prev = ordered.get(c.value.unit);
    if (prev !== undefined) {
      if (texts[prev] === o.text) continue;
      // Two different orders for one dislodged unit: it disbands (DATC 4.D.3 by analogy).
      intents[prev] = { unit: c.value.unit, to: -1 };
      results.push({ power: v.powers[o.power], order: o.text, success: false, code: 'illegal', reason: 'The unit was given more than one retreat order, so it disbands.' });
      continue;
    }
    ordered.set(c.value.unit, intents.length);
    intents.push(c.value);
    texts.push(o.text);
  }
  const succeeded = resolveRetreats(v, intents);
  const d = dBoard.value;
  const units = [...state.units];
  const byUnit = intents.map((it, i) => i).sort((a, b) => intents[a].unit - intents[b].unit);
  byUnit.forEach((i) => {
    const it = intents[i];
    const base = { power: v.powers[d.power[it.unit]], order: texts[i], unit: v.locationIds[d.location[it.unit]] };
    if (it.to < 0) results.push({ ...base, success: true, code: 'disbanded', reason: 'Disbanded.' });
    else if (succeeded[i]) {
      results.push({ ...base, success: true, code: 'retreated', reason: `Retreated to ${v.provinceNames[v.locationProvince[it.to]]}.` });
      units.push({ power: base.power, type: unitTypeName(d.type[it.unit]), at: v.locationIds[it.to] });
    } else
      results.push({ ...base, success: false, code: 'retreat-bounced', reason: `Another unit retreated to ${v.provinceNames[v.locationProvince[it.to]]} too, so both disband.` });
  });
  for (let u = 0; u < d.count; u++) {
    if (ordered.has(u)) continue;
    results.push({ power: v.powers[d.power[u]], order: `${shortUnit(d, u)} disband`, unit: v.locationIds[d.location[u]], success: true, code: 'unordered', reason: 'No retreat ordered: disbanded.' });
  }
  const events: PhaseEvent[] = [];
  const after: GameState = { ...state, units, dislodged: [], standoffs: [] };
  return ok({ results, events, disbanded: [], next: afterRetreats(v, after, events) });
}

function adjustmentPhase(
  v: Variant,
  state: GameState,
  board: Board,
  eco: Economy,
  orders: ReadOrder[],
  results: OrderResult[],
): PhaseOutcome {
  const adj: AdjustmentOrder[] = orders.map((o) => ({ power: o.power, order: o.order, text: o.text }));
  const out = adjudicateAdjustments(v, board, eco, adj);
  results.push(...out.results);
  const units: Unit[] = [];
  for (let u = 0; u < board.count; u++) if (!out.removed.has(u)) units.push(state.units[u]);
  for (const b of out.builds) units.push({ power: v.powers[b.power], type: b.type === ARMY ? 'army' : 'fleet', at: v.locationIds[b.location] });
  const events: PhaseEvent[] = [];
  const next = startOfYear(v, { ...state, units }, events);
  return { results, events, disbanded: [], next };
}

/** After the movement and retreats of a season: Fall, then the Winter count. */
function afterRetreats(v: Variant, state: GameState, events: PhaseEvent[]): GameState {
  if (state.phase.season === 'spring') return { ...state, phase: { season: 'fall', year: state.phase.year, type: 'movement' } };
  const board = compileBoard(v, state.units);
  const eco = compileEconomy(v, state);
  if (!board.ok || !eco.ok) throw new Error('internal: state became invalid after adjudication');
  const b = board.value;
  const e = eco.value;
  const loansBefore = e.loans;
  const ownersBefore = Int8Array.from(e.owner);
  for (const p of captureCentres(v, e, b)) {
    if (!v.isCentre[p]) continue;
    events.push({ kind: 'centre-captured', province: v.provinceIds[p], from: ownersBefore[p] < 0 ? null : v.powers[ownersBefore[p]], to: v.powers[e.owner[p]] });
  }
  const ownersAfterCapture = Int8Array.from(e.owner);
  for (const p of rebelCentres(v, e, b)) events.push({ kind: 'centre-rebelled', province: v.provinceIds[p], from: v.powers[ownersAfterCapture[p]] });
  for (const l of loansBefore)
    if (!e.loans.includes(l)) events.push({ kind: 'loan-ended', centre: v.provinceIds[l.centre], from: v.powers[l.from], to: v.powers[l.to] });

  const counted: GameState = { ...state, ...economyToState(v, e) };
  const winter: Phase = { season: 'winter', year: state.phase.year, type: 'adjustment' };
  if (v.data.rules.victory.type === 'centres') {
    const won = victors(v, e, b);
    if (won.length > 0) return declareVictory(v, { ...counted, phase: winter }, won, events);
  }
  if (adjustmentNeeded(v, e, b)) return { ...counted, phase: winter };
  return startOfYear(v, { ...counted, phase: winter }, events);
}

/** Whether any power has a build it could place or a unit it must remove. */
function adjustmentNeeded(v: Variant, eco: Economy, board: Board): boolean {
  for (let w = 0; w < v.powers.length; w++) {
    const diff = supplyFor(v, eco, w) - unitCount(board, w);
    if (diff < 0) return true;
    if (diff > 0 && buildSites(v, eco, board, w).length > 0) return true;
  }
  return false;
}

/** After the (possibly skipped) adjustment phase: the victory check of rule 13, then Spring. */
function startOfYear(v: Variant, state: GameState, events: PhaseEvent[]): GameState {
  const phase: Phase = { season: 'spring', year: nextYear(v, state.phase.year), type: 'movement' };
  if (v.data.rules.victory.type === 'self-supporting-units') {
    const board = compileBoard(v, state.units);
    const eco = compileEconomy(v, state);
    if (board.ok && eco.ok) {
      const won = victors(v, eco.value, board.value);
      if (won.length > 0) return declareVictory(v, state, won, events);
    }
  }
  return { ...state, phase };
}

function declareVictory(v: Variant, state: GameState, won: number[], events: PhaseEvent[]): GameState {
  const powers = won.map((w) => v.powers[w]);
  events.push({ kind: 'victory', powers });
  return { ...state, winners: powers };
}

/** The position a new game starts from. */
export function initialState(v: Variant): GameState {
  return {
    variant: v.id,
    phase: { season: 'spring', year: v.data.rules.calendar.startYear, type: 'movement' },
    units: v.data.start.units.map((u) => ({ ...u })),
    dislodged: [],
    standoffs: [],
    owners: Object.fromEntries(Object.entries(v.data.start.owners).filter(([p]) => v.isCentre[findProvince(v, p)])),
    control: Object.fromEntries(Object.entries(v.data.start.owners).filter(([p]) => v.isBuildCentre[findProvince(v, p)])),
    destroyed: [],
    rebuilding: [],
    loans: [],
  };
}
