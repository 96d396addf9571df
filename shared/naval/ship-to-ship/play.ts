/**
 * Whole battles without a server: a random player (a legal plot for each ship, with random orders, and a
 * random choice after a repulse) and a loop that plays a set-up to its end with the seeded dice. The tests,
 * the benchmark and the opponent's measure use them.
 */
import { type PlayedBattle as Played, playRuleset } from '../play.ts';
import type { Action } from './actions.ts';
import { shipToShip } from './engine.ts';
import { legalPlots } from './plot.ts';
import type { Setup } from './setup.ts';
import { type ShipPlot, type State, active } from './state.ts';

export type Player = (state: State, side: string, random: () => number) => Action;

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)];

/** Any legal action, chosen at random: each ship a random legal plot and random fire and boarding orders. */
export const randomPlayer: Player = (state, side, random) => {
  if (state.stage === 'repulse') return pick(shipToShip.legalActions(state, side), random);
  const enemies = state.ships.filter((s) => s.side !== side && active(s)).map((s) => s.id);
  const plots: ShipPlot[] = state.ships
    .filter((s) => s.side === side && active(s))
    .map((ship) => ({
      ...pick(legalPlots(state, ship), random),
      fire: pick(['first', 'close', 'hold'] as const, random),
      targets: enemies.length && random() < 0.5 ? [pick(enemies, random)] : [],
      board: random() < 0.5,
      rake: random() < 0.5,
    }));
  return { kind: 'plot', plots };
};

export type PlayedBattle = Played<State, Action>;

/** Plays a set-up to its end (shared/naval/play.ts): `players` by side id, the dice from the seed and salt. */
export function playBattle(setup: Setup, seed: string, salt: string, players: Record<string, Player>, playerSeed = 1, maxActions = 2_000): PlayedBattle {
  return playRuleset(shipToShip, setup, seed, salt, players, playerSeed, maxActions);
}
