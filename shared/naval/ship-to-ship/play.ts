/**
 * Whole battles without a server: a random player (a legal plot for each ship, with random orders, and a
 * random choice after a repulse) and a loop that plays a set-up to its end with the seeded dice. The tests,
 * the benchmark and the opponent's measure use them.
 */
import { streamDice } from '../dice.ts';
import type { LogLine } from '../ruleset.ts';
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

/** A small deterministic generator for the players' own choices (never the battle's dice). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PlayedBattle {
  readonly state: State;
  readonly start: LogLine[];
  readonly actions: { side: string; action: Action; log: LogLine[] }[];
}

/** Plays a set-up to its end: `players` by side id, the dice from the seed and salt. */
export function playBattle(setup: Setup, seed: string, salt: string, players: Record<string, Player>, playerSeed = 1, maxActions = 2_000): PlayedBattle {
  const dice = streamDice(seed, salt);
  const random = mulberry32(playerSeed);
  const started = shipToShip.start(setup, dice);
  let state = started.state;
  const actions: PlayedBattle['actions'] = [];
  for (let n = 0; n < maxActions; n++) {
    const turn = shipToShip.turn(state);
    if (turn.kind === 'over') break;
    const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
    const action = players[side](shipToShip.redact(state, side), side, random);
    const applied = shipToShip.apply(state, side, action, dice);
    if (!applied.ok) throw new Error(`${side}'s player chose an illegal action: ${applied.error.message}`);
    actions.push({ side, action, log: applied.log });
    state = applied.state;
  }
  return { state, start: started.log, actions };
}
