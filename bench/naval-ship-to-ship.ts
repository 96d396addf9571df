/**
 * The ship-to-ship engine's speed: listing a side's legal plots, resolving one turn of a fleet battle, and
 * whole battles of the computer opponent against a random legal player, on the Ptolemy II scenario.
 */
import { streamDice } from '../shared/naval/dice.ts';
import { shipToShip } from '../shared/naval/ship-to-ship/index.ts';
import { opponent } from '../shared/naval/ship-to-ship/opponent.ts';
import { mulberry32, playBattle, randomPlayer } from '../shared/naval/ship-to-ship/play.ts';
import { scenarios } from '../shared/naval/ship-to-ship/scenarios.ts';
import type { State } from '../shared/naval/ship-to-ship/state.ts';

const SCENARIO = 'ptolemy-246';

export async function benchShipToShip(): Promise<{ legalActionsMicros: number; turnMicros: number; battlesPerSecond: number }> {
  const found = scenarios.find((s) => s.id === SCENARIO);
  if (!found) throw new Error(`no scenario ${SCENARIO}`);
  const setup = found.setup;
  const [a, b] = setup.sides.map((s) => s.id);

  // States of a few battles at the start of each turn's plotting.
  const states: State[] = [];
  for (let i = 0; i < 4; i++) {
    const played = playBattle(setup, `bench-seed-${i}`, 'bench', { [a]: opponent, [b]: randomPlayer }, i + 1);
    const dice = streamDice(`bench-seed-${i}`, 'bench');
    let s = shipToShip.start(setup, dice).state;
    for (const act of played.actions) {
      if (s.stage === 'plot' && s.plotted.length === 0) states.push(s);
      const applied = shipToShip.apply(s, act.side, act.action, dice);
      if (!applied.ok) throw new Error(applied.error.message);
      s = applied.state;
    }
  }

  let t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 1_000) {
    for (const s of states) {
      shipToShip.legalActions(s, a);
      shipToShip.legalActions(s, b);
      n += 2;
    }
  }
  const legalActionsMicros = ((performance.now() - t0) * 1_000) / n;

  // One turn: both sides plot (random legal plots, chosen beforehand), the last plot resolves it.
  const random = mulberry32(9);
  const turns = states.map((s) => ({ s, pa: randomPlayer(s, a, random), pb: randomPlayer(s, b, random) }));
  t0 = performance.now();
  n = 0;
  while (performance.now() - t0 < 1_000) {
    for (const { s, pa, pb } of turns) {
      const dice = streamDice('bench-turn-seed', 'bench', s.rolls);
      const first = shipToShip.apply(s, a, pa, dice);
      if (!first.ok) throw new Error(first.error.message);
      const second = shipToShip.apply(first.state, b, pb, dice);
      if (!second.ok) throw new Error(second.error.message);
      n++;
    }
  }
  const turnMicros = ((performance.now() - t0) * 1_000) / n;

  t0 = performance.now();
  n = 0;
  while (performance.now() - t0 < 2_000) {
    playBattle(setup, `bench-battle-${n}`, 'bench', { [a]: opponent, [b]: randomPlayer }, n + 1);
    n++;
  }
  const battlesPerSecond = n / ((performance.now() - t0) / 1_000);
  return { legalActionsMicros, turnMicros, battlesPerSecond };
}
