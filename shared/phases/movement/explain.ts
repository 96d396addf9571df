import { ARMY } from '../../variant/load.ts';
import { describeUnit, shortUnit } from '../../state/board.ts';
import { CONVOY, MOVE, SUPPORT } from './check.ts';
import type { MovementOutcome } from './resolve.ts';
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
        return result(true, 'moved', `Moved to ${name(dest)}${out.viaConvoy[u] ? ' by convoy' : ''}${took}.`);
      }
      if (!out.path[u]) {
        return result(false, 'no-route', `No convoy carried it to ${name(dest)}: no unbroken chain of convoying fleets.${dislodgedText}`);
      }
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
