/**
 * Naval battles: per ruleset, its own figures (listing the legal actions of the side to act, one turn of play,
 * battles of the computer against random legal play; bench/naval-<ruleset>.ts), and 1,000 whole battles of the
 * computer opponent against itself on the ruleset's smallest shipped scenario, with the real dice stream.
 */
import { streamDice } from '../shared/naval/dice.ts';
import { RULESETS, RULESET_IDS, SCENARIOS } from '../shared/naval/index.ts';
import { benchClassis } from './naval-classis.ts';
import { benchShipToShip } from './naval-ship-to-ship.ts';

export interface NavalFigure {
  ruleset: string;
  name: string;
  value: number;
  unit: string;
}

/** A small deterministic random source for the opponents (theirs, never the battle's dice). */
function xorshift(seed: number): () => number {
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

/** The shipped scenario with the fewest ships. */
function smallestScenario(id: (typeof RULESET_IDS)[number]) {
  const ships = (setup: unknown) => JSON.stringify(setup).split('"type"').length;
  return [...SCENARIOS[id]].sort((a, b) => ships(a.setup) - ships(b.setup))[0];
}

function computerAgainstItself(id: (typeof RULESET_IDS)[number], battles: number): { perSecond: number; scenario: string; actions: number } {
  const ruleset = RULESETS[id];
  const scenario = smallestScenario(id);
  const setup = ruleset.setupSchema.parse(scenario.setup);
  let actions = 0;
  const t0 = performance.now();
  for (let n = 0; n < battles; n++) {
    const dice = streamDice(`bench-naval-seed-${n}-padding`, `bench:${id}:${n}`);
    const random = xorshift(n + 1);
    let state = ruleset.start(setup, dice).state;
    for (let step = 0; step < 100_000; step++) {
      const turn = ruleset.turn(state);
      if (turn.kind === 'over') break;
      const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
      const applied = ruleset.apply(state, side, ruleset.opponent(state, side, random), dice);
      if (!applied.ok) throw new Error(`${id}: the opponent's action was refused: ${applied.error.message}`);
      state = applied.state;
      actions++;
    }
  }
  return { perSecond: battles / ((performance.now() - t0) / 1000), scenario: scenario.id, actions };
}

export async function navalBenchmarks(): Promise<NavalFigure[]> {
  const figures: NavalFigure[] = [];
  const own = { classis: await benchClassis(), 'ship-to-ship': await benchShipToShip() };
  for (const id of RULESET_IDS) {
    figures.push({ ruleset: id, name: 'legal actions of the side to act', value: own[id].legalActionsMicros, unit: 'µs' });
    figures.push({ ruleset: id, name: 'one turn of play (opponent chooses, engine applies)', value: own[id].turnMicros, unit: 'µs' });
    figures.push({ ruleset: id, name: 'battles, computer against random legal play', value: own[id].battlesPerSecond, unit: '/s' });
    const self = computerAgainstItself(id, 1_000);
    figures.push({ ruleset: id, name: `1,000 battles, computer against computer (${self.scenario})`, value: self.perSecond, unit: '/s' });
  }
  return figures;
}

export function printNavalFigures(figures: NavalFigure[]): void {
  const w = Math.max(...figures.map((f) => f.ruleset.length + f.name.length + 2));
  for (const f of figures) console.log(`${`${f.ruleset}: ${f.name}`.padEnd(w)}  ${f.value.toFixed(f.value < 100 ? 1 : 0).padStart(9)} ${f.unit}`);
  for (const f of figures) console.log(JSON.stringify({ bench: 'naval', ...f, value: Math.round(f.value * 10) / 10 }));
}
