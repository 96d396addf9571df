/**
 * How strong each ruleset's computer opponent is, measured as the naval issues ask: over 1,000 seeded battles a
 * ruleset against a player of random legal actions, spread evenly over the ruleset's shipped scenarios, the
 * computer's side alternating. Each side draws its own random numbers (shared/naval/play.ts), so two opponents
 * measured here meet the same random play on the same seeds. Not part of a plain `npm run bench`: the table
 * rulesets' fleets take the better part of an hour here. `npm run bench -- naval-strength`;
 * NAVAL_STRENGTH_BATTLES (1,000) and NAVAL_STRENGTH_RULESETS (a comma-separated list of ids, all by default).
 */
import { RULESETS, RULESET_IDS, SCENARIOS, type RulesetId } from '../shared/naval/index.ts';
import { randomPlayer as diadochiRandom } from '../shared/naval/diadochi-naval/play.ts';
import { randomPlayer as oiRandom } from '../shared/naval/oi-navarcoi/play.ts';
import { playRuleset } from '../shared/naval/play.ts';
import type { Opponent } from '../shared/naval/ruleset.ts';
import { randomPlayer as shipToShipRandom } from '../shared/naval/ship-to-ship/play.ts';

type Player = Opponent<unknown, unknown>;

/** Each ruleset's random legal player (Classis lists whole actions, so one of its legal actions will do). */
const RANDOM_PLAYERS: Record<RulesetId, Player> = {
  classis: (state, side, random) => {
    const legal = RULESETS.classis.legalActions(state, side);
    return legal[Math.floor(random() * legal.length)];
  },
  'ship-to-ship': shipToShipRandom as Player,
  'diadochi-naval': diadochiRandom as Player,
  'oi-navarcoi': oiRandom as Player,
};

/** Far more than any shipped battle takes: a battle still going after it counts as drawn. */
const MAX_ACTIONS = 20_000;

export interface SideTally {
  scenario: string;
  side: string;
  played: number;
  won: number;
  drawn: number;
  lost: number;
  /** Seconds of wall time for this scenario's battles (both sides'). */
  seconds: number;
}

export interface RulesetStrength {
  ruleset: RulesetId;
  battles: number;
  won: number;
  drawn: number;
  lost: number;
  sides: SideTally[];
}

/** `battles` spread over the scenarios: each gets an even share, the first ones one more while any are left over. */
export function shares(battles: number, scenarios: number): number[] {
  return Array.from({ length: scenarios }, (_, i) => Math.floor(battles / scenarios) + (i < battles % scenarios ? 1 : 0));
}

export function measureStrength(id: RulesetId, battles: number, progress: (line: string) => void = () => {}): RulesetStrength {
  const ruleset = RULESETS[id];
  const scenarios = SCENARIOS[id];
  const result: RulesetStrength = { ruleset: id, battles, won: 0, drawn: 0, lost: 0, sides: [] };
  shares(battles, scenarios.length).forEach((count, index) => {
    const scenario = scenarios[index];
    const setup = ruleset.setupSchema.parse(scenario.setup);
    const sides = ruleset.sides(setup).map((side) => side.id);
    const tallies = sides.map((side): SideTally => ({ scenario: scenario.id, side, played: 0, won: 0, drawn: 0, lost: 0, seconds: 0 }));
    const started = performance.now();
    for (let n = 0; n < count; n++) {
      const computerIndex = n % sides.length;
      const computer = sides[computerIndex];
      const players = Object.fromEntries(sides.map((side) => [side, side === computer ? ruleset.opponent : RANDOM_PLAYERS[id]]));
      const played = playRuleset(ruleset, setup, `naval-strength-${n}-padding`, `strength:${id}:${scenario.id}:${n}`, players, 104_729 * (n + 1), MAX_ACTIONS);
      const winner = ruleset.outcome(played.state)?.winner;
      const tally = tallies[computerIndex];
      tally.played++;
      if (winner === computer) tally.won++;
      else if (!winner) tally.drawn++;
      else tally.lost++;
    }
    const seconds = (performance.now() - started) / 1000;
    for (const tally of tallies) {
      tally.seconds = seconds;
      result.won += tally.won;
      result.drawn += tally.drawn;
      result.lost += tally.lost;
      result.sides.push(tally);
      progress(`${id} ${scenario.id} as ${tally.side}: ${tally.won} won, ${tally.drawn} drawn, ${tally.lost} lost of ${tally.played}`);
    }
  });
  return result;
}

export function strengthRulesets(): RulesetId[] {
  const asked = process.env.NAVAL_STRENGTH_RULESETS?.split(',').map((id) => id.trim());
  if (!asked) return RULESET_IDS;
  const unknown = asked.filter((id) => !RULESET_IDS.includes(id as RulesetId));
  if (unknown.length > 0) throw new Error(`NAVAL_STRENGTH_RULESETS: no ruleset ${unknown.join(', ')} (there are ${RULESET_IDS.join(', ')})`);
  return asked as RulesetId[];
}

export function strengthBattles(): number {
  const battles = Number(process.env.NAVAL_STRENGTH_BATTLES ?? 1_000);
  if (!Number.isInteger(battles) || battles < 1 || battles > 100_000) throw new Error('NAVAL_STRENGTH_BATTLES: a whole number from 1 to 100000');
  return battles;
}

export function printStrength(result: RulesetStrength): void {
  const percent = (won: number, of: number) => `${((100 * won) / of).toFixed(1)} %`;
  console.log(`${result.ruleset}: ${result.won} won, ${result.drawn} drawn, ${result.lost} lost of ${result.battles} (${percent(result.won, result.battles)})`);
  console.table(
    result.sides.map((tally) => ({
      scenario: tally.scenario,
      'computer as': tally.side,
      won: tally.won,
      drawn: tally.drawn,
      lost: tally.lost,
      of: tally.played,
      share: percent(tally.won, tally.played),
    })),
  );
  console.log(JSON.stringify({ bench: 'naval-strength', ...result }));
}
