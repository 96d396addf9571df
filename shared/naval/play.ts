/**
 * A battle played through to its end outside the server, for tests, benchmarks and the measurement of computer
 * opponents: any ruleset, its players chosen per side, the dice from a seed and salt. The players' own random numbers
 * come from small seeded generators, never from the battle's dice: one stream per side, so that a player drawing more
 * or fewer numbers (a changed computer opponent) leaves the other side's choices as they were, and two opponents
 * measured on the same seeds meet the same play.
 */
import { streamDice } from './dice.ts';
import type { LogLine, Opponent, Ruleset } from './ruleset.ts';
import { mulberry32 } from '../random.ts';

export interface PlayedBattle<State, Action> {
  readonly state: State;
  readonly start: LogLine[];
  readonly actions: { side: string; action: Action; log: LogLine[] }[];
}

/**
 * Plays a set-up to its end (or `maxActions`): `players` by side id, each seeing the state as its side may; the side
 * to act is the one whose turn it is, or the first still waiting when sides act together. An illegal choice throws.
 */
export function playRuleset<Setup, State, Action>(
  ruleset: Ruleset<Setup, State, Action>,
  setup: Setup,
  seed: string,
  salt: string,
  players: Record<string, Opponent<State, Action>>,
  playerSeed: number,
  maxActions: number,
): PlayedBattle<State, Action> {
  const dice = streamDice(seed, salt);
  const randoms = new Map<string, () => number>(ruleset.sides(setup).map((side) => [side.id, mulberry32(sideSeed(playerSeed, side.id))]));
  const started = ruleset.start(setup, dice);
  let state = started.state;
  const actions: PlayedBattle<State, Action>['actions'] = [];
  for (let n = 0; n < maxActions; n++) {
    const turn = ruleset.turn(state);
    if (turn.kind === 'over') break;
    const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
    const random = randoms.get(side);
    if (!random) throw new Error(`${side} is not a side of this battle`);
    const action = players[side](ruleset.redact(state, side), side, random);
    const applied = ruleset.apply(state, side, action, dice);
    if (!applied.ok) throw new Error(`${side}'s player chose an illegal action: ${applied.error.message}`);
    actions.push({ side, action, log: applied.log });
    state = applied.state;
  }
  return { state, start: started.log, actions };
}

/**
 * A side's stream's seed: the player seed and the side's id hashed (FNV-1a), so that no two sides' streams are the
 * same sequence a few numbers apart, as seeds that differ by the generator's step would be.
 */
function sideSeed(playerSeed: number, side: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${playerSeed}:${side}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}
