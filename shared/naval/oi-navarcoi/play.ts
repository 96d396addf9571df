/**
 * Whole battles without a server: a random legal player and a loop that plays a set-up to its end with the
 * seeded dice. The tests, the benchmark and the opponent's measure use them.
 */
import { streamDice } from '../dice.ts';
import type { LogLine } from '../ruleset.ts';
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
export function playBattle(setup: Setup, seed: string, salt: string, players: Record<string, Player>, playerSeed = 1, maxActions = 3_000): PlayedBattle {
  const dice = streamDice(seed, salt);
  const random = mulberry32(playerSeed);
  const started = oiNavarcoi.start(setup, dice);
  let state = started.state;
  const actions: PlayedBattle['actions'] = [];
  for (let n = 0; n < maxActions; n++) {
    const turn = oiNavarcoi.turn(state);
    if (turn.kind === 'over') break;
    const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
    const action = players[side](oiNavarcoi.redact(state, side), side, random);
    const applied = oiNavarcoi.apply(state, side, action, dice);
    if (!applied.ok) throw new Error(`${side}'s player chose an illegal action: ${applied.error.message}`);
    actions.push({ side, action, log: applied.log });
    state = applied.state;
  }
  return { state, start: started.log, actions };
}
