/**
 * Classis v3.0 (George Arnold), hex ancient galley fleet rules, as a naval battle ruleset: set-up, chit-cup
 * activation, actions, resolution, victory, what the board shows and the computer opponent. Nothing in
 * Classis is hidden, so `redact` gives the state unchanged. Decisions where the rules are silent: README.md.
 */
import type { Ruleset } from '../ruleset.ts';
import { type Action, ActionSchema } from './actions.ts';
import { applyAction } from './apply.ts';
import { check, legalActions } from './legal.ts';
import { classisOpponent } from './opponent.ts';
import { type Setup, SetupSchema } from './setup.ts';
import { startBattle } from './start.ts';
import { type State, StateSchema } from './state.ts';
import { boardOf, describeAction, turnOf } from './view.ts';

export const classis: Ruleset<Setup, State, Action> = {
  id: 'classis',
  title: 'Classis v3.0 (George Arnold): ancient galley fleets on hexes',
  setupSchema: SetupSchema,
  actionSchema: ActionSchema,
  stateSchema: StateSchema,
  sides: (setup) => setup.sides.map((x) => ({ id: x.id, name: x.name })),
  start: startBattle,
  turn: turnOf,
  legalActions,
  check,
  apply: applyAction,
  outcome: (s) => s.outcome,
  // No hidden information in Classis: everyone sees the whole board.
  redact: (s) => s,
  board: boardOf,
  describe: describeAction,
  // Each activation of a squadron (all its actions). A squadron has a chit per point of its commander's rating and
  // may be drawn again in a turn: the chits left in the cup tell one drawing from the next.
  decision: (s) => `turn ${s.turn}, ${s.activation?.squadron ?? 'none'}, ${s.cup.length} chits left`,
  opponent: classisOpponent,
};

export type { Action as ClassisAction, Setup as ClassisSetup, State as ClassisState };
export { classisScenarios } from './scenarios.ts';
