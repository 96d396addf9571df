/**
 * Whole battles without a server: a random legal player and a loop that plays a set-up to its end with the
 * seeded dice. The tests, the benchmark and the opponent's measure use them.
 */
import { type PlayedBattle as Played, playRuleset } from '../play.ts';
import type { Action } from './actions.ts';
import { oiNavarcoi } from './engine.ts';
import type { Setup } from './setup.ts';
import type { State } from './state.ts';

export type Player = (state: State, side: string, random: () => number) => Action;

/** Any legal action, chosen at random. */
export const randomPlayer: Player = (state, side, random) => {
  const legal = oiNavarcoi.legalActions(state, side);
  if (legal.length === 0) throw new Error(`no legal action for ${side} in phase ${state.phase}`);
  return legal[Math.floor(random() * legal.length)];
};

export type PlayedBattle = Played<State, Action>;

/** Plays a set-up to its end (shared/naval/play.ts): `players` by side id, the dice from the seed and salt. */
export function playBattle(setup: Setup, seed: string, salt: string, players: Record<string, Player>, playerSeed = 1, maxActions = 3_000): PlayedBattle {
  return playRuleset(oiNavarcoi, setup, seed, salt, players, playerSeed, maxActions);
}
