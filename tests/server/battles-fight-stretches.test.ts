/**
 * An auto-resolved battle is fought stretch by stretch, each a job of the computer's pool well within its time limit
 * (a big fleet of the table rulesets may fight for minutes). Where the stretches end changes nothing: a battle fought
 * one move a stretch is, move for move and die for die, the battle fought in one go.
 */
import { describe, expect, test } from 'vitest';
import { type FoughtAction, fightOn } from '../../server/battles/computer-fight.ts';
import type { FightRequest } from '../../server/battles/computer-jobs.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { RULESETS, SCENARIOS } from '../../shared/naval/index.ts';
import type { RulesetId } from '../../shared/naval/ruleset.ts';

function started(ruleset: RulesetId, scenario: string) {
  const setup = SCENARIOS[ruleset].find((s) => s.id === scenario)!.setup;
  const seed = 'a-seed-of-sixteen-or-more';
  const salt = `battle-${ruleset}`;
  const dice = streamDice(seed, salt);
  const { state } = RULESETS[ruleset].start(RULESETS[ruleset].setupSchema.parse(setup), dice);
  return { ruleset, state, seed, salt, nextRoll: dice.next, battleId: `fight-${ruleset}`, actionCount: 0 };
}

function fightInStretches(request: Omit<FightRequest, 'budgetMs'>, budgetMs: number) {
  const actions: FoughtAction[] = [];
  let at = { state: request.state, nextRoll: request.nextRoll };
  for (let stretches = 1; ; stretches++) {
    const stretch = fightOn({ ...request, ...at, actionCount: actions.length, budgetMs });
    expect(stretch.actions.length).toBeGreaterThan(0);
    actions.push(...stretch.actions);
    at = { state: stretch.state, nextRoll: stretch.nextRoll };
    if (stretch.outcome !== null) return { actions, outcome: stretch.outcome, state: stretch.state, stretches };
  }
}

describe('a battle the computer fights out by itself', () => {
  test.each([
    ['classis', 'training-duel'],
    ['ship-to-ship', 'duel'],
  ] as const)('%s: fought one move a stretch, it is the battle fought in one go', (ruleset, scenario) => {
    const request = started(ruleset, scenario);
    const whole = fightInStretches(request, 600_000);
    const moveByMove = fightInStretches(request, 0);
    expect(whole.stretches).toBe(1);
    expect(moveByMove.stretches).toBe(moveByMove.actions.length);
    expect(moveByMove.actions).toEqual(whole.actions);
    expect(moveByMove.outcome).toEqual(whole.outcome);
    expect(moveByMove.state).toEqual(whole.state);
  });
});
