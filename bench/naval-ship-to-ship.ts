/**
 * The ship-to-ship engine's speed: listing a side's legal plots, resolving one turn of a fleet battle, the
 * computer opponent's decision for a side, and 1,000 whole battles of the computer opponent against a random
 * legal player on the Ptolemy II scenario (the computer's side alternating): how fast they go and how many the
 * computer wins.
 */
import { streamDice } from '../shared/naval/dice.ts';
import { shipToShip } from '../shared/naval/ship-to-ship/index.ts';
import { opponent } from '../shared/naval/ship-to-ship/opponent.ts';
import { mulberry32 } from '../shared/random.ts';
import { playBattle, randomPlayer } from '../shared/naval/ship-to-ship/play.ts';
import { scenarios } from '../shared/naval/ship-to-ship/scenarios.ts';
import type { State } from '../shared/naval/ship-to-ship/state.ts';

const SCENARIO = 'ptolemy-246';

export interface ShipToShipFigures {
  legalActionsMicros: number;
  turnMicros: number;
  /** The computer opponent's plot for a side, on average over the sample states. */
  opponentMillis: number;
  battlesPerSecond: number;
  /** Of 1,000 battles against random legal play, sides alternating: the computer's wins, draws and losses. */
  battles: number;
  won: number;
  drawn: number;
  lost: number;
  /** Wins in percent. */
  winRate: number;
}

export async function benchShipToShip(battles = 1_000): Promise<ShipToShipFigures> {
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

  // The opponent's decision for the side of each sample state, both sides in turn.
  t0 = performance.now();
  n = 0;
  while (performance.now() - t0 < 1_000) {
    for (const s of states) {
      opponent(shipToShip.redact(s, a), a, random);
      opponent(shipToShip.redact(s, b), b, random);
      n += 2;
    }
  }
  const opponentMillis = (performance.now() - t0) / n;

  const tally = { won: 0, drawn: 0, lost: 0 };
  t0 = performance.now();
  for (let i = 0; i < battles; i++) {
    const computer = i % 2 === 0 ? a : b;
    const other = computer === a ? b : a;
    const played = playBattle(setup, `bench-battle-${i}`, 'bench', { [computer]: opponent, [other]: randomPlayer }, i + 1);
    const winner = played.state.outcome?.winner;
    if (winner === computer) tally.won++;
    else if (winner) tally.lost++;
    else tally.drawn++;
  }
  const battlesPerSecond = battles / ((performance.now() - t0) / 1_000);
  return { legalActionsMicros, turnMicros, opponentMillis, battlesPerSecond, battles, ...tally, winRate: (100 * tally.won) / battles };
}
