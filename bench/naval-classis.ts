/**
 * Classis engine speed: the legal actions of the side to act (µs, mean over positions of real battles), one
 * turn of play, the computer opponent choosing and the engine applying its action (µs, mean), and whole
 * battles of the training duel, the computer against a player of random legal actions (per second).
 */
import { classis, classisScenarios } from '../shared/naval/classis/index.ts';
import type { State } from '../shared/naval/classis/state.ts';
import { streamDice } from '../shared/naval/dice.ts';

function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

const duel = classis.setupSchema.parse(classisScenarios['training-duel']);
const cyprus = classis.setupSchema.parse(classisScenarios['cyprus-306bc']);

/** Plays one battle, the computer on `computerSide`, random legal actions on the other; calls `each` before every action. */
function battle(setup: typeof duel, n: number, computerSide: string, each?: (s: State, side: string) => void): State {
  const dice = streamDice(`bench-seed-${n}-xxxxxxxxxx`, `bench:${n}`);
  const random = rng(n + 1);
  let state = classis.start(setup, dice).state;
  for (;;) {
    const t = classis.turn(state);
    if (t.kind !== 'side') return state;
    each?.(state, t.side);
    let action: ReturnType<typeof classis.opponent>;
    if (t.side === computerSide) action = classis.opponent(state, t.side, random);
    else {
      const legal = classis.legalActions(state, t.side);
      action = legal[Math.floor(random() * legal.length)];
    }
    const applied = classis.apply(state, t.side, action, dice);
    if (!applied.ok) throw new Error(applied.error.message);
    state = applied.state;
  }
}

export async function benchClassis(): Promise<{ legalActionsMicros: number; turnMicros: number; battlesPerSecond: number }> {
  // Positions from the big scenario and the duel.
  const positions: [State, string][] = [];
  for (let n = 0; n < 4; n++)
    battle(n % 2 ? duel : cyprus, n, n % 2 ? 'rhodes' : 'demetrius', (s, side) => {
      if (positions.length < 400) positions.push([s, side]);
    });
  let t0 = performance.now();
  let calls = 0;
  while (performance.now() - t0 < 1_000) for (const [s, side] of positions) classis.legalActions(s, side), calls++;
  const legalActionsMicros = ((performance.now() - t0) * 1000) / calls;

  // A turn of play: the opponent's choice and the engine applying it.
  t0 = performance.now();
  let turns = 0;
  const dice = streamDice('bench-turn-seed-xxxxxxxx', 'bench:turns');
  const random = rng(99);
  while (performance.now() - t0 < 1_000)
    for (const [s, side] of positions) {
      const applied = classis.apply(s, side, classis.opponent(s, side, random), dice);
      if (!applied.ok) throw new Error(applied.error.message);
      turns++;
    }
  const turnMicros = ((performance.now() - t0) * 1000) / turns;

  t0 = performance.now();
  let battles = 0;
  while (performance.now() - t0 < 2_000) battle(duel, 1000 + battles, battles % 2 ? 'rhodes' : 'cilicia'), battles++;
  const battlesPerSecond = battles / ((performance.now() - t0) / 1000);
  return { legalActionsMicros, turnMicros, battlesPerSecond };
}
