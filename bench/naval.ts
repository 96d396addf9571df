/**
 * Naval battles: per ruleset, its own figures (listing the legal actions of the side to act, one turn of play,
 * battles of the computer against random legal play; bench/naval-<ruleset>.ts), and 1,000 whole battles of the
 * computer opponent against itself on the ruleset's smallest shipped scenario, with the real dice stream; and
 * how often the computer beats a player of random legal actions over 1,000 battles of each shipped scenario,
 * taking each side in turn (the target: at least 90 %); the table rulesets' figures (bench/naval-table.ts); and the
 * battle page's size (bench/naval-page.ts).
 */
import { streamDice } from '../shared/naval/dice.ts';
import { RULESETS, type RULESET_IDS, SCENARIOS } from '../shared/naval/index.ts';
import { randomPlayer as shipToShipRandom } from '../shared/naval/ship-to-ship/play.ts';
import { benchClassis } from './naval-classis.ts';
import { benchBattlePages } from './naval-page.ts';
import { benchShipToShip } from './naval-ship-to-ship.ts';
import { benchNavalTable } from './naval-table.ts';

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

type Player = (state: unknown, side: string, random: () => number) => unknown;

/**
 * The ship-to-ship opponent looks a turn ahead over every plot of every ship (milliseconds a decision in a fleet
 * battle), so its battles against random play are counted over fewer battles unless NAVAL_BATTLES asks for more.
 */
const SHIP_TO_SHIP_BATTLES = Number(process.env.NAVAL_BATTLES ?? 200);

/** A player of random legal actions. The ship-to-ship rules list each ship's plots apart: its own random player composes one of each. */
const RANDOM_PLAYERS: Partial<Record<(typeof RULESET_IDS)[number], Player>> = {
  classis: (state, side, random) => {
    const legal = RULESETS.classis.legalActions(state, side);
    return legal[Math.floor(random() * legal.length)];
  },
  'ship-to-ship': shipToShipRandom as Player,
};

/** Wins, draws and losses of the computer against random legal play, `battles` battles, the computer's side alternating. */
function againstRandom(id: (typeof RULESET_IDS)[number], scenarioId: string, battles: number): { won: number; drawn: number; lost: number } {
  const ruleset = RULESETS[id];
  const randomPlayer = RANDOM_PLAYERS[id];
  if (!randomPlayer) throw new Error(`${id}: no random player for the benchmark`);
  const setup = ruleset.setupSchema.parse(SCENARIOS[id].find((s) => s.id === scenarioId)!.setup);
  const sides = ruleset.sides(setup).map((side) => side.id);
  const tally = { won: 0, drawn: 0, lost: 0 };
  for (let n = 0; n < battles; n++) {
    const computer = sides[n % sides.length];
    const dice = streamDice(`bench-naval-vs-random-${n}-padding`, `bench:${id}:${scenarioId}:${n}`);
    const random = xorshift(7919 * (n + 1));
    let state = ruleset.start(setup, dice).state;
    for (let step = 0; step < 100_000; step++) {
      const turn = ruleset.turn(state);
      if (turn.kind === 'over') break;
      const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
      const action = side === computer ? ruleset.opponent(state, side, random) : randomPlayer(state, side, random);
      const applied = ruleset.apply(state, side, action, dice);
      if (!applied.ok) throw new Error(`${id}: an action was refused: ${applied.error.message}`);
      state = applied.state;
    }
    const outcome = ruleset.outcome(state);
    if (outcome?.winner === computer) tally.won++;
    else if (!outcome?.winner) tally.drawn++;
    else tally.lost++;
  }
  return tally;
}

export async function navalBenchmarks(): Promise<NavalFigure[]> {
  const figures: NavalFigure[] = [];
  const own = { classis: await benchClassis(), 'ship-to-ship': await benchShipToShip(SHIP_TO_SHIP_BATTLES) };
  // The rulesets with benchmarks of their own (a ruleset still being built joins when it has them).
  for (const id of Object.keys(own) as (keyof typeof own)[]) {
    figures.push({ ruleset: id, name: 'legal actions of the side to act', value: own[id].legalActionsMicros, unit: 'µs' });
    figures.push({ ruleset: id, name: 'one turn of play (opponent chooses, engine applies)', value: own[id].turnMicros, unit: 'µs' });
    figures.push({ ruleset: id, name: 'battles, computer against random legal play', value: own[id].battlesPerSecond, unit: '/s' });
    const self = computerAgainstItself(id, 1_000);
    figures.push({ ruleset: id, name: `1,000 battles, computer against computer (${self.scenario})`, value: self.perSecond, unit: '/s' });
    for (const scenario of SCENARIOS[id]) {
      const battles = id === 'ship-to-ship' ? SHIP_TO_SHIP_BATTLES : 1_000;
      const tally = againstRandom(id, scenario.id, battles);
      figures.push({
        ruleset: id,
        name: `computer beats random play, ${scenario.id}, ${battles} battles (${tally.drawn} drawn, ${tally.lost} lost)`,
        value: (100 * tally.won) / battles,
        unit: '%',
      });
    }
  }
  // The rulesets on a measured table: legality checks on a crowded table, a turn's resolution, the computer against random play.
  figures.push(...benchNavalTable());
  figures.push(...(await benchBattlePages()));
  return figures;
}

export function printNavalFigures(figures: NavalFigure[]): void {
  const w = Math.max(...figures.map((f) => f.ruleset.length + f.name.length + 2));
  for (const f of figures) console.log(`${`${f.ruleset}: ${f.name}`.padEnd(w)}  ${f.value.toFixed(f.value < 100 ? 1 : 0).padStart(9)} ${f.unit}`);
  for (const f of figures) console.log(JSON.stringify({ bench: 'naval', ...f, value: Math.round(f.value * 10) / 10 }));
}
