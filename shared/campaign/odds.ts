/**
 * The odds of a sea battle before it is auto-resolved: the computer opponents fight it out many times on seeded dice
 * (never the battle's own), and the share each side won is what the game master is shown before deciding.
 */
import { RULESETS } from '../naval/index.ts';
import { playRuleset } from '../naval/play.ts';
import type { RulesetId } from '../naval/ruleset.ts';

/** The most battles one estimate may fight, and the most actions one battle may take. */
export const MAX_ODDS_BATTLES = 1_000;
const MAX_ACTIONS = 20_000;

export interface Odds {
  readonly battles: number;
  /** Battles won, by side id. */
  readonly won: Readonly<Record<string, number>>;
  /** Battles nobody won. */
  readonly drawn: number;
}

export function battleOdds(ruleset: RulesetId, setup: unknown, battles: number, seed: string): Odds {
  if (!Number.isInteger(battles) || battles < 1 || battles > MAX_ODDS_BATTLES) throw new RangeError(`battles must be 1 to ${MAX_ODDS_BATTLES}`);
  const rules = RULESETS[ruleset];
  const read = rules.setupSchema.parse(setup);
  const sides = rules.sides(read).map((s) => s.id);
  const won: Record<string, number> = Object.fromEntries(sides.map((s) => [s, 0]));
  let drawn = 0;
  const players = Object.fromEntries(sides.map((s) => [s, rules.opponent]));
  for (let n = 0; n < battles; n++) {
    const played = playRuleset(rules, read, `${seed}:${n}`, 'odds', players, n + 1, MAX_ACTIONS);
    const winner = rules.outcome(played.state)?.winner ?? null;
    if (winner === null) drawn++;
    else won[winner]++;
  }
  return { battles, won, drawn };
}
