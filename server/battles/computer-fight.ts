/**
 * A battle the computer opponents fight to its end by themselves (a contested sea auto-resolved): run in a worker
 * thread of the computer's pool (computer-worker.ts), never on the event loop, a stretch of moves a job (a big fleet
 * of the table rulesets may fight for minutes; no job may think longer than the pool allows): the caller hands the
 * battle as each stretch left it to the next. Where the stretches end changes nothing: each move's numbers depend on
 * the battle and the move's count only. Each move is made as the server makes
 * a computer's move in a battle being fought (play.ts): the ruleset's opponent with the computer's own random numbers
 * for that battle and move (computer-random.ts), the first legal action the rules accept should they refuse its
 * choice; the dice are the battle's committed stream from `nextRoll`. What it gives back is stored as the battle's
 * actions, so the finished battle verifies like any other (shared/naval/record.ts).
 */
import { streamDice } from '../../shared/naval/dice.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { MAX_ACTIONS } from '../../shared/naval/record.ts';
import type { LogLine, Outcome } from '../../shared/naval/ruleset.ts';
import type { FightRequest } from './computer-jobs.ts';
import { computerRandom } from './computer-random.ts';

/** Legal actions tried, in order, when the opponent's own choice is refused (as play.ts does). */
const FALLBACK_TRIES = 50;

export type FoughtAction = { side: string; action: unknown; text: string; log: LogLine[]; secret: boolean };
/** The moves of a stretch and where they left the battle: its outcome once it is over, null while it goes on. */
export type FoughtStretch = { actions: FoughtAction[]; state: unknown; nextRoll: number; outcome: Outcome | null };
export type FoughtBattle = FoughtStretch & { outcome: Outcome };

/**
 * Fights a started battle on from `request.state` until it ends or the stretch's time is up; throws when it does not
 * end within the record's limit.
 */
export function fightOn(request: FightRequest): FoughtStretch {
  const ruleset = RULESETS[request.ruleset];
  const stopAt = performance.now() + request.budgetMs;
  let nextRoll = request.nextRoll;
  let state = ruleset.stateSchema.parse(request.state);
  const actions: FoughtAction[] = [];
  while (actions.length + request.actionCount < MAX_ACTIONS) {
    const outcome = ruleset.outcome(state);
    if (outcome !== null) return { actions, state, nextRoll, outcome };
    if (actions.length > 0 && performance.now() >= stopAt) return { actions, state, nextRoll, outcome: null };
    const turn = ruleset.turn(state);
    if (turn.kind === 'over') break;
    const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
    const count = request.actionCount + actions.length;
    const before = state;
    // Each try on a fresh stream from the last kept roll: a refused action's dice are not kept (play.ts takeAction).
    const tryAction = (action: unknown) => {
      const dice = streamDice(request.seed, request.salt, nextRoll);
      const applied = ruleset.apply(before, side, action, dice);
      if (!applied.ok) return false;
      actions.push({ side, action, text: ruleset.describe(before, action), log: applied.log, secret: turn.kind === 'simultaneous' });
      state = applied.state;
      nextRoll = dice.next;
      return true;
    };
    if (tryAction(ruleset.opponent(before, side, computerRandom(request.battleId, count)))) continue;
    // Only when the opponent's choice is refused (a fault of the opponent's): the list costs as much as a move.
    if (!ruleset.legalActions(before, side).slice(0, FALLBACK_TRIES).some(tryAction))
      throw new Error(`the computer found no action the rules accept for ${side}`);
  }
  const outcome = ruleset.outcome(state);
  if (outcome !== null) return { actions, state, nextRoll, outcome };
  throw new Error(`the battle did not end within ${MAX_ACTIONS} actions`);
}
