/**
 * The rulesets played on a measured table (the Diadochi Naval Rules, Oi Navarcoi!; shared/naval/table/): how many
 * moves' legality the engine checks a second on a crowded table, how long one whole turn takes to resolve, and how
 * often the computer opponent beats the ruleset's own random legal player on every shipped scenario, the
 * computer's side alternating (NAVAL_TABLE_BATTLES battles a scenario).
 */
import { streamDice } from '../shared/naval/dice.ts';
import { diadochiNaval } from '../shared/naval/diadochi-naval/engine.ts';
import { randomPlayer as diadochiRandom } from '../shared/naval/diadochi-naval/play.ts';
import { scenarios as diadochiScenarios } from '../shared/naval/diadochi-naval/scenarios.ts';
import type { State as DiadochiState } from '../shared/naval/diadochi-naval/state.ts';
import { oiNavarcoi } from '../shared/naval/oi-navarcoi/engine.ts';
import { randomPlayer as oiRandom } from '../shared/naval/oi-navarcoi/play.ts';
import { scenarios as oiScenarios } from '../shared/naval/oi-navarcoi/scenarios.ts';
import { type State as OiState, stands } from '../shared/naval/oi-navarcoi/state.ts';
import { type PlayedBattle, playRuleset } from '../shared/naval/play.ts';
import type { AnyRuleset } from '../shared/naval/ruleset.ts';

/** Computer-against-random battles a scenario: the fleets' opponents take a good part of a second a decision. */
const BATTLES = Number(process.env.NAVAL_TABLE_BATTLES ?? 2);

/** One figure, as bench/naval.ts prints it. */
export interface TableFigure {
  ruleset: string;
  name: string;
  value: number;
  unit: string;
}

type Player = (state: unknown, side: string, random: () => number) => unknown;

interface TableRuleset {
  readonly ruleset: AnyRuleset;
  readonly scenarios: readonly { id: string; setup: unknown }[];
  readonly random: Player;
  /** The crowded table: a shipped scenario's set-up (Oi Navarcoi!'s full-size squadrons, eight stands each). */
  readonly crowded: { id: string; setup: unknown };
  /** Bases on the table. */
  bases(state: unknown): number;
  /** The turn, and whether the side to act is moving (its actions are moves whose paths are checked). */
  turnOf(state: unknown): number;
  moving(state: unknown): boolean;
}

const biggest = <T extends { setup: unknown }>(list: readonly T[]): T =>
  [...list].sort((a, b) => JSON.stringify(b.setup).length - JSON.stringify(a.setup).length)[0];

/**
 * Oi Navarcoi!'s crowded table: the shipped scenario with the most stands in its full-size version (eight stands a
 * squadron) that both sides can still deploy, else the biggest as shipped.
 */
function oiCrowded(): { id: string; setup: unknown } {
  const tried = oiScenarios.map((s) => ({ id: `${s.id}, full size`, setup: oiNavarcoi.setupSchema.parse({ ...s.setup, fullSize: true }) }));
  const playable = tried.filter(({ setup }) => {
    const state = oiNavarcoi.start(setup, streamDice('bench-naval-table-crowded-padding', 'bench:table')).state;
    return oiNavarcoi.sides(setup).every((side) => oiNavarcoi.legalActions(state, side.id).length > 0);
  });
  const stood = (setup: unknown): number => (setup as { squadrons: unknown[] }).squadrons.length;
  const best = [...playable].sort((a, b) => stood(b.setup) - stood(a.setup))[0];
  return best ?? biggest(oiScenarios);
}

const TABLE_RULESETS: Record<'diadochi-naval' | 'oi-navarcoi', TableRuleset> = {
  'diadochi-naval': {
    ruleset: diadochiNaval as AnyRuleset,
    scenarios: diadochiScenarios,
    random: diadochiRandom as Player,
    crowded: biggest(diadochiScenarios),
    bases: (s) => (s as DiadochiState).ships.filter((x) => x.status !== 'sunk').length,
    turnOf: (s) => (s as DiadochiState).turn,
    moving: (s) => (s as DiadochiState).stage === 'orders',
  },
  'oi-navarcoi': {
    ruleset: oiNavarcoi as AnyRuleset,
    scenarios: oiScenarios,
    random: oiRandom as Player,
    crowded: oiCrowded(),
    bases: (s) => (s as OiState).squadrons.reduce((n, q) => n + stands(q).length, 0),
    turnOf: (s) => (s as OiState).turn,
    moving: (s) => (s as OiState).phase === 'move',
  },
};

/** A battle of random legal play on the crowded table, with the state before each action. */
function randomBattle(t: TableRuleset, n: number): { states: unknown[]; played: PlayedBattle<unknown, unknown> } {
  const setup = t.ruleset.setupSchema.parse(t.crowded.setup);
  const sides = t.ruleset.sides(setup).map((s) => s.id);
  const players = Object.fromEntries(sides.map((side) => [side, t.random]));
  const played = playRuleset(t.ruleset, setup, `bench-naval-table-${n}-padding`, `bench:table:${n}`, players, n + 1, 20_000);
  const dice = streamDice(`bench-naval-table-${n}-padding`, `bench:table:${n}`);
  let state = t.ruleset.start(setup, dice).state;
  const states: unknown[] = [];
  for (const a of played.actions) {
    states.push(state);
    const applied = t.ruleset.apply(state, a.side, a.action, dice);
    if (!applied.ok) throw new Error(applied.error.message);
    state = applied.state;
  }
  return { states, played };
}

/** Checks a second of every legal action of the moving side, in the movement phases of random battles on the crowded table. */
function checksPerSecond(t: TableRuleset, battles: ReturnType<typeof randomBattle>[]): { perSecond: number; bases: number } {
  const samples: { state: unknown; side: string; actions: unknown[] }[] = [];
  let bases = 0;
  for (const { states, played } of battles)
    states.forEach((state, i) => {
      if (!t.moving(state) || samples.length >= 40 || i % 3) return;
      const side = played.actions[i].side;
      samples.push({ state, side, actions: t.ruleset.legalActions(state, side) });
      bases = Math.max(bases, t.bases(state));
    });
  let checks = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 1_000)
    for (const { state, side, actions } of samples)
      for (const a of actions) {
        t.ruleset.check(state, side, a);
        checks++;
      }
  return { perSecond: checks / ((performance.now() - t0) / 1_000), bases };
}

/** The time to resolve one whole turn: every action of both sides applied (each checked as it is). */
function turnMillis(t: TableRuleset, battles: ReturnType<typeof randomBattle>[]): number {
  let turns = 0;
  let ms = 0;
  for (const { states, played } of battles) {
    const dice = streamDice('bench-naval-table-turn-padding', 'bench:table:turn');
    const first = t.turnOf(states[0]);
    const last = t.turnOf(states[states.length - 1]);
    const t0 = performance.now();
    states.forEach((state, i) => {
      // Each action from the state it was chosen in (legal there whatever the dice): the rolls may differ from the battle's.
      t.ruleset.apply(state, played.actions[i].side, played.actions[i].action, dice);
    });
    ms += performance.now() - t0;
    turns += Math.max(1, last - first + 1);
  }
  return ms / turns;
}

/**
 * Wins, draws and losses of the computer against the ruleset's random player on one scenario, sides alternating,
 * and its wins by the side it took (a scenario's sides have different goals: the one that must force a result
 * before the turn limit is the harder to play).
 */
function againstRandom(
  t: TableRuleset,
  scenario: { id: string; setup: unknown },
  battles: number,
): {
  won: number;
  drawn: number;
  lost: number;
  bySide: Record<string, { won: number; drawn: number; played: number }>;
  /** The computer's decisions: how many, and their CPU time in all (ms). */
  decisions: { count: number; cpuMs: number };
} {
  const setup = t.ruleset.setupSchema.parse(scenario.setup);
  const sides = t.ruleset.sides(setup).map((s) => s.id);
  const tally = {
    won: 0,
    drawn: 0,
    lost: 0,
    bySide: Object.fromEntries(sides.map((s) => [s, { won: 0, drawn: 0, played: 0 }])),
    decisions: { count: 0, cpuMs: 0 },
  };
  const opponent = t.ruleset.opponent as Player;
  // CPU rather than wall time: the machine the bench runs on is often shared.
  const timed: Player = (state, side, random) => {
    const before = process.cpuUsage();
    const action = opponent(state, side, random);
    const used = process.cpuUsage(before);
    tally.decisions.count++;
    tally.decisions.cpuMs += (used.user + used.system) / 1_000;
    return action;
  };
  for (let n = 0; n < battles; n++) {
    const computer = sides[n % 2];
    const other = sides[1 - (n % 2)];
    const played = playRuleset(
      t.ruleset,
      setup,
      `bench-naval-table-vs-random-${n}-padding`,
      `bench:${t.ruleset.id}:${scenario.id}:${n}`,
      { [computer]: timed, [other]: t.random },
      7919 * (n + 1),
      20_000,
    );
    const winner = t.ruleset.outcome(played.state)?.winner;
    tally.bySide[computer].played++;
    if (winner === computer) tally.bySide[computer].won++;
    else if (!winner) tally.bySide[computer].drawn++;
    if (winner === computer) tally.won++;
    else if (!winner) tally.drawn++;
    else tally.lost++;
  }
  return tally;
}

export function benchNavalTable(battles = BATTLES): TableFigure[] {
  const figures: TableFigure[] = [];
  for (const [id, t] of Object.entries(TABLE_RULESETS)) {
    const played = [randomBattle(t, 0), randomBattle(t, 1)];
    const checks = checksPerSecond(t, played);
    figures.push({
      ruleset: id,
      name: `move legality checks, crowded table (${t.crowded.id}, up to ${checks.bases} bases)`,
      value: checks.perSecond,
      unit: '/s',
    });
    figures.push({ ruleset: id, name: `one turn's resolution, random legal play (${t.crowded.id})`, value: turnMillis(t, played), unit: 'ms' });
    for (const scenario of t.scenarios) {
      const tally = againstRandom(t, scenario, battles);
      figures.push({
        ruleset: id,
        name: `computer beats random play, ${scenario.id}, ${battles} battles (${tally.drawn} drawn, ${tally.lost} lost; ${Object.entries(tally.bySide)
          .map(([side, s]) => `as ${side} ${s.won} of ${s.played}${s.drawn ? `, ${s.drawn} drawn` : ''}`)
          .join('; ')}; a decision ${(tally.decisions.cpuMs / Math.max(1, tally.decisions.count)).toFixed(1)} ms CPU on average)`,
        value: (100 * tally.won) / battles,
        unit: '%',
      });
    }
  }
  return figures;
}
