import { ARMY } from '../../variant/load.ts';
import { describeUnit, shortUnit } from '../../state/board.ts';
import { CONVOY, MOVE, SUPPORT } from './check.ts';
import { DECIDED_STANDOFF, UNDECIDED, type MovementOutcome } from './resolve.ts';
import type { OrderResult, ResultCode } from '../results.ts';

/**
 * Turns the adjudicator's integer outcome for one unit into a result a player
 * can read. Strings are only made here, at the edge.
 */
export function explainMovement(out: MovementOutcome, u: number, order: string): OrderResult {
  const { board } = out;
  const v = board.variant;
  const name = (p: number) => v.provinceNames[p];
  const unitName = (x: number) => describeUnit(board, x);
  const intent = out.intent[u];
  const power = v.powers[board.power[u]];
  const unit = v.locationIds[board.location[u]];
  const by = out.dislodgedBy[u];
  const dislodgedBy = by >= 0 ? { from: out.viaConvoy[by] ? null : v.provinceIds[board.province[by]], unit: shortUnit(board, by) } : undefined;
  const dislodgedText = by >= 0 ? ` It was dislodged by ${unitName(by)}${out.viaConvoy[by] ? ' (by convoy)' : ''}.` : '';
  const result = (success: boolean, code: ResultCode, reason: string, extra?: Pick<OrderResult, 'strength' | 'against'>): OrderResult => {
    const r: OrderResult = { power, order, unit, success, code, reason };
    if (dislodgedBy) r.dislodgedBy = dislodgedBy;
    if (extra?.strength) r.strength = extra.strength;
    if (extra?.against) r.against = extra.against;
    return r;
  };

  switch (out.kind[u]) {
    case MOVE: {
      const dest = intent!.dest;
      if (out.success[u]) {
        const victim = board.unitAt[dest];
        const took = victim >= 0 && out.dislodgedBy[victim] === u ? `, dislodging ${unitName(victim)}` : '';
        const won = out.decided !== undefined && out.decided.outcome[dest] === board.power[u] ? `, winning the battle for it` : '';
        return result(true, 'moved', `Moved to ${name(dest)}${out.viaConvoy[u] ? ' by convoy' : ''}${won}${took}.`);
      }
      if (!out.path[u]) {
        return result(false, 'no-route', `No convoy carried it to ${name(dest)}: no unbroken chain of convoying fleets.${dislodgedText}`);
      }
      const decided = out.decided === undefined ? undefined : decidedBounce(out, u);
      if (decided !== undefined) return result(false, 'bounced', decided + dislodgedText);
      const d = out.moveDetail(u);
      const names = d.against.map(unitName);
      const resident = board.unitAt[dest];
      let why: string;
      if (d.attack === 0 && resident >= 0 && board.power[resident] === board.power[u])
        why = `A unit cannot dislodge a unit of its own power (${unitName(resident)}).`;
      else if (names.length > 0) why = `Bounced: attack strength ${d.attack} against ${d.opposition} from ${names.join(' and ')}.`;
      else why = `Bounced: attack strength ${d.attack} against ${d.opposition}.`;
      return result(false, 'bounced', why + dislodgedText, {
        strength: { attack: d.attack, opposition: d.opposition },
        against: d.against.map((x) => shortUnit(board, x)),
      });
    }
    case SUPPORT: {
      const t = intent!.target;
      if (!out.valid[u]) {
        const what =
          intent!.dest < 0 ? `${unitName(t)} did not hold: it was ordered to move` : `${unitName(t)} was not ordered to move to ${name(intent!.dest)}`;
        return result(false, 'support-void', `No support given: ${what}.${dislodgedText}`);
      }
      if (!out.success[u]) {
        const cut = out.cutters(u);
        const cutBy = by >= 0 && !cut.includes(by) ? [by, ...cut] : cut;
        return result(false, 'support-cut', `Support cut by ${cutBy.map(unitName).join(' and ') || 'an attack'}.${dislodgedText}`, {
          against: cutBy.map((x) => shortUnit(board, x)),
        });
      }
      return result(true, 'supported', intent!.dest < 0 ? `Supported ${unitName(t)} in holding.` : `Supported ${unitName(t)} into ${name(intent!.dest)}.`);
    }
    case CONVOY: {
      const t = intent!.target;
      if (out.paradox[u])
        return result(
          false,
          'convoy-paradox',
          `The convoy failed: it was part of a convoy paradox, resolved by the Szykman rule (the convoy is ignored).${dislodgedText}`,
        );
      if (!out.valid[u])
        return result(false, 'convoy-void', `Nothing to convoy: ${unitName(t)} was not ordered to move to ${name(intent!.dest)} by convoy.${dislodgedText}`);
      if (by >= 0) return result(false, 'convoy-disrupted', `The convoy was disrupted.${dislodgedText}`);
      return result(
        true,
        'convoyed',
        `Convoyed ${board.type[t] === ARMY ? 'the army' : 'the unit'} from ${name(board.province[t])} towards ${name(intent!.dest)}.`,
      );
    }
    default:
      if (by >= 0) return result(false, 'held', `Held, but was dislodged by ${unitName(by)}${out.viaConvoy[by] ? ' (by convoy)' : ''}.`);
      return result(true, 'held', 'Held.');
  }
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
