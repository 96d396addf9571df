import { ARMY } from '../../variant/load.ts';
import { describeUnit, shortUnit, type Board } from '../../state/board.ts';
import type { Order } from '../../orders/types.ts';
import { CONVOY, MOVE, SUPPORT } from './check.ts';
import { DECIDED_STANDOFF, UNDECIDED, type MovementOutcome } from './resolve.ts';
import type { OrderResult, ResultCode } from '../results.ts';

/**
 * Turns the adjudicator's integer outcome for one unit into a result a player
 * can read. Strings are only made here, at the edge.
 *
 * `parsed`: the structured order, set last on the result. `noOrder`: the unit had no order and held; its
 * explanation says so, and a hold that stood is `unordered`.
 */
export function explainMovement(out: MovementOutcome, u: number, order: string, parsed?: Order, noOrder = false): OrderResult {
  const { board } = out;
  const v = board.variant;
  const by = out.dislodgedBy[u];
  const dislodgedText = by >= 0 ? ` It was dislodged by ${describeUnit(board, by)}${out.viaConvoy[by] ? ' (by convoy)' : ''}.` : '';
  // What happened, decided first; the result is built once at the end (see movementResult).
  let success = false;
  let code: ResultCode;
  let reason: string;
  let strength: OrderResult['strength'];
  let against: string[] | undefined;

  const intent = out.intent[u];
  switch (out.kind[u]) {
    case MOVE: {
      const dest = intent!.dest;
      code = 'bounced';
      if (out.success[u]) {
        const victim = board.unitAt[dest];
        const took = victim >= 0 && out.dislodgedBy[victim] === u ? `, dislodging ${describeUnit(board, victim)}` : '';
        const won = out.decided !== undefined && out.decided.outcome[dest] === board.power[u] ? `, winning the battle for it` : '';
        success = true;
        code = 'moved';
        reason = `Moved to ${v.provinceNames[dest]}${out.viaConvoy[u] ? ' by convoy' : ''}${won}${took}.`;
        break;
      }
      if (!out.path[u]) {
        code = 'no-route';
        reason = `No convoy carried it to ${v.provinceNames[dest]}: no unbroken chain of convoying fleets.${dislodgedText}`;
        break;
      }
      const decided = out.decided === undefined ? undefined : decidedBounce(out, u);
      if (decided !== undefined) {
        reason = decided + dislodgedText;
        break;
      }
      const d = out.moveDetail(u);
      const resident = board.unitAt[dest];
      if (d.attack === 0 && resident >= 0 && board.power[resident] === board.power[u])
        reason = `A unit cannot dislodge a unit of its own power (${describeUnit(board, resident)}).`;
      else if (d.against.length > 0) reason = `Bounced: attack strength ${d.attack} against ${d.opposition} from ${describeUnits(board, d.against)}.`;
      else reason = `Bounced: attack strength ${d.attack} against ${d.opposition}.`;
      reason += dislodgedText;
      strength = { attack: d.attack, opposition: d.opposition };
      against = shortUnits(board, d.against);
      break;
    }
    case SUPPORT: {
      const t = intent!.target;
      if (!out.valid[u]) {
        const what =
          intent!.dest < 0
            ? `${describeUnit(board, t)} did not hold: it was ordered to move`
            : `${describeUnit(board, t)} was not ordered to move to ${v.provinceNames[intent!.dest]}`;
        code = 'support-void';
        reason = `No support given: ${what}.${dislodgedText}`;
      } else if (!out.success[u]) {
        const cut = out.cutters(u);
        const cutBy = by >= 0 && !cut.includes(by) ? [by, ...cut] : cut;
        code = 'support-cut';
        reason = `Support cut by ${cutBy.length > 0 ? describeUnits(board, cutBy) : 'an attack'}.${dislodgedText}`;
        against = shortUnits(board, cutBy);
      } else {
        success = true;
        code = 'supported';
        reason =
          intent!.dest < 0 ? `Supported ${describeUnit(board, t)} in holding.` : `Supported ${describeUnit(board, t)} into ${v.provinceNames[intent!.dest]}.`;
      }
      break;
    }
    case CONVOY: {
      const t = intent!.target;
      if (out.paradox[u]) {
        code = 'convoy-paradox';
        reason = `The convoy failed: it was part of a convoy paradox, resolved by the Szykman rule (the convoy is ignored).${dislodgedText}`;
      } else if (!out.valid[u]) {
        code = 'convoy-void';
        reason = `Nothing to convoy: ${describeUnit(board, t)} was not ordered to move to ${v.provinceNames[intent!.dest]} by convoy.${dislodgedText}`;
      } else if (by >= 0) {
        code = 'convoy-disrupted';
        reason = `The convoy was disrupted.${dislodgedText}`;
      } else {
        success = true;
        code = 'convoyed';
        reason = `Convoyed ${board.type[t] === ARMY ? 'the army' : 'the unit'} from ${v.provinceNames[board.province[t]]} towards ${v.provinceNames[intent!.dest]}.`;
      }
      break;
    }
    default:
      code = 'held';
      if (by >= 0) reason = `Held, but was dislodged by ${describeUnit(board, by)}${out.viaConvoy[by] ? ' (by convoy)' : ''}.`;
      else {
        success = true;
        reason = 'Held.';
      }
  }
  if (noOrder) {
    if (success) code = 'unordered';
    reason = `No order: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  }
  const dislodgedBy = by >= 0 ? { from: out.viaConvoy[by] ? null : v.provinceIds[board.province[by]], unit: shortUnit(board, by) } : undefined;
  return movementResult(v.powers[board.power[u]], order, v.locationIds[board.location[u]], success, code, reason, dislodgedBy, strength, against, parsed);
}

/**
 * One result object with its fields in their one order (power, order, unit, success, code, reason, dislodgedBy,
 * strength, against, parsed; absent ones left out). Each shape is written as one object literal: a property added
 * to an object after it is made costs V8 a new hidden class and a separate property store, every time.
 */
function movementResult(
  power: string,
  order: string,
  unit: string,
  success: boolean,
  code: ResultCode,
  reason: string,
  dislodgedBy: OrderResult['dislodgedBy'],
  strength: OrderResult['strength'],
  against: string[] | undefined,
  parsed: Order | undefined,
): OrderResult {
  if (dislodgedBy === undefined && strength === undefined && against === undefined) {
    return parsed === undefined ? { power, order, unit, success, code, reason } : { power, order, unit, success, code, reason, parsed };
  }
  // The rarer shapes: a dislodged unit, a bounce's strengths, a cut support's cutters.
  const r: OrderResult = { power, order, unit, success, code, reason };
  if (dislodgedBy) r.dislodgedBy = dislodgedBy;
  if (strength) r.strength = strength;
  if (against) r.against = against;
  if (parsed) r.parsed = parsed;
  return r;
}

/** Units as a sentence lists them: "X", "X and Y", "X and Y and Z". */
function describeUnits(board: Board, units: readonly number[]): string {
  let s = describeUnit(board, units[0]);
  for (let i = 1; i < units.length; i++) s += ` and ${describeUnit(board, units[i])}`;
  return s;
}

function shortUnits(board: Board, units: readonly number[]): string[] {
  const out = new Array<string>(units.length);
  for (let i = 0; i < units.length; i++) out[i] = shortUnit(board, units[i]);
  return out;
}

/** Why a move failed when a decided province stopped it (not strengths), or undefined when the ordinary rules did. */
function decidedBounce(out: MovementOutcome, u: number): string | undefined {
  const { board } = out;
  const v = board.variant;
  const decided = out.decided!;
  const dest = out.intent[u]!.dest;
  const winner = decided.outcome[dest];
  if (winner === DECIDED_STANDOFF) return `The battle for ${v.provinceNames[dest]} was drawn: no move into it succeeds.`;
  if (winner !== UNDECIDED && winner !== board.power[u]) return `${v.powers[winner]} won the battle for ${v.provinceNames[dest]}: the move fails.`;
  if (winner !== UNDECIDED && decided.unit[dest] >= 0 && decided.unit[dest] !== u)
    return `The battle for ${v.provinceNames[dest]} was won by ${describeUnit(board, decided.unit[dest])}, not by this unit.`;
  if (winner === board.power[u])
    return `${v.powers[winner]} won the battle for ${v.provinceNames[dest]}, but its own units there or moving there kept this one out.`;
  const here = board.province[u];
  const o = out.headToHead[u];
  const heldBy = decided.outcome[here];
  if (heldBy >= 0 && heldBy !== board.power[u] && o >= 0 && board.power[o] === heldBy && out.success[o])
    return `${v.powers[heldBy]} won the battle for ${v.provinceNames[here]}: ${describeUnit(board, o)} came in head-to-head, so this unit could not leave.`;
  return undefined;
}
