/**
 * The computer's moves after a change, thought out in a worker thread (computer-worker.ts) with no database
 * transaction open and no lock held: from a battle's state at a known count of actions, a player's action first if
 * there is one, then the moves the computer makes for a late side (until the decision it owed is taken) and for its
 * own seats, until nobody the computer plays must act, the battle ends, or it has thought for the budget. The
 * server then locks the battle, checks it is still at that count, and applies the same moves with the same dice
 * (play.ts `planThenSettle`): the rules check each again, so a plan can never store what they would refuse. A battle that
 * moved on meanwhile (a player acted, it was called off) gets none of it.
 */
import { streamDice } from '../../shared/naval/dice.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import type { Turn } from '../../shared/naval/ruleset.ts';
import type { PlanRequest } from './computer-jobs.ts';
import { computerRandom } from './computer-random.ts';

/** Legal actions tried, in order, when the opponent's own choice is refused (a fault of the opponent, reported). */
const FALLBACK_TRIES = 50;

export type PlannedMove = { side: string; action: unknown; by: 'player' | 'computer' | 'deadline' };
/**
 * The moves in order; `owes`: the computer still has moves to make after them (the budget ran out); `stuck`: it
 * found no action the rules accept; `faults`: the opponent's refused choices (logged by the server).
 */
export type Plan = { moves: PlannedMove[]; owes: boolean; stuck: boolean; faults: string[] };

/** As play.ts `sidesToAct` (not imported: the worker loads no database code). */
function sidesToAct(turn: Turn): string[] {
  if (turn.kind === 'side') return [turn.side];
  if (turn.kind === 'simultaneous') return [...turn.waiting];
  return [];
}

export function planMoves(request: PlanRequest): Plan {
  const ruleset = RULESETS[request.ruleset];
  let state = ruleset.stateSchema.parse(request.state);
  let nextRoll = request.nextRoll;
  const moves: PlannedMove[] = [];
  const faults: string[] = [];
  const started = performance.now();
  const tryAction = (side: string, action: unknown, by: PlannedMove['by']) => {
    // Each try on a fresh stream from the last kept roll: a refused action's dice are not kept (play.ts takeAction).
    const dice = streamDice(request.seed, request.salt, nextRoll);
    const applied = ruleset.apply(state, side, action, dice);
    if (!applied.ok) return false;
    moves.push({ side, action, by });
    state = applied.state;
    nextRoll = dice.next;
    return true;
  };
  if (request.first && !tryAction(request.first.side, request.first.action, 'player')) return { moves: [], owes: false, stuck: false, faults };
  const humanLate = (side: string) => request.late !== undefined && !request.computerSides.includes(side) && ruleset.decision(state) === request.late.decision;
  const computerPlays = (side: string) => request.computerSides.includes(side);
  const nextSide = () => {
    if (ruleset.outcome(state) !== null) return undefined;
    const pending = sidesToAct(ruleset.turn(state));
    return pending.find(humanLate) ?? pending.find(computerPlays);
  };
  for (let side = nextSide(); side !== undefined; side = nextSide()) {
    // The late side's move is what the expiry is for: made even past the budget.
    const late = humanLate(side);
    if (!late && (moves.length >= request.maxMoves || performance.now() - started >= request.budgetMs)) return { moves, owes: true, stuck: false, faults };
    const by = late ? 'deadline' : 'computer';
    const choice = ruleset.opponent(state, side, computerRandom(request.battleId, request.actionCount + moves.length));
    if (tryAction(side, choice, by)) continue;
    faults.push(`the computer opponent chose an action the rules refuse for ${side}`);
    if (
      !ruleset
        .legalActions(state, side)
        .slice(0, FALLBACK_TRIES)
        .some((action) => tryAction(side, action, by))
    )
      return { moves, owes: false, stuck: true, faults };
  }
  return { moves, owes: false, stuck: false, faults };
}
