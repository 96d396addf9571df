/**
 * Whole battles without a server: a random player (any legal choice: random orders until one is legal or it
 * ends its movement, random fire and combat choices) and a loop that plays a set-up to its end with the seeded
 * dice. The tests, the benchmark and the opponent's measure use them.
 */
import { type PlayedBattle as Played, playRuleset } from '../play.ts';
import type { Action } from './actions.ts';
import { candidateOrders, combatChoices, defaultFire } from './choices.ts';
import { diadochiNaval } from './engine.ts';
import type { Setup } from './setup.ts';
import type { State } from './state.ts';

export type Player = (state: State, side: string, random: () => number) => Action;

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)];

/** A random legal choice (the orders drawn until one passes the engine's check; a fifth of the time it ends its movement). */
export const randomPlayer: Player = (state, side, random) => {
  if (state.stage === 'deploy') return diadochiNaval.legalActions(state, side)[0];
  if (state.stage === 'orders') {
    const orders = candidateOrders(state, side);
    for (let tries = 0; tries < 12 && orders.length && random() > 0.2; tries++) {
      const order = pick(orders, random);
      if (diadochiNaval.check(state, side, order) === null) return order;
    }
    return { kind: 'end-movement' };
  }
  if (state.stage === 'fire') {
    const all = defaultFire(state, side);
    return { kind: 'fire', attacks: all.attacks.filter(() => random() < 0.7) };
  }
  const choices = combatChoices(state, side).filter((c) => diadochiNaval.check(state, side, c) === null);
  return choices.length ? pick(choices, random) : { kind: 'combat', attacks: [] };
};

export type PlayedBattle = Played<State, Action>;

/** Plays a set-up to its end (shared/naval/play.ts): `players` by side id, the dice from the seed and salt. */
export function playBattle(setup: Setup, seed: string, salt: string, players: Record<string, Player>, playerSeed = 1, maxActions = 5_000): PlayedBattle {
  return playRuleset(diadochiNaval, setup, seed, salt, players, playerSeed, maxActions);
}
