/**
 * A finished battle checked in the browser, from its record alone: the revealed seed against the commitment
 * published when the battle was created, every logged die re-derived from the seed and the salt (`rollAt`), and
 * the whole battle replayed by the engine (`verify`), which must give the same log roll for roll.
 */
import type { BattleRecord } from '../../../shared/naval/record.ts';
import { verify } from '../../../shared/naval/record.ts';
import { commitmentOf, rollAt } from '../../../shared/naval/dice.ts';
import type { AnyRuleset } from '../../../shared/naval/ruleset.ts';

export interface RollCheck {
  /** "start", or "action 12". */
  readonly where: string;
  readonly index: number;
  readonly sides: number;
  readonly label: string;
  readonly logged: number;
  /** The value the seed gives; null when no seed is revealed. */
  readonly derived: number | null;
  readonly ok: boolean;
}

export interface BattleCheck {
  /** The commitment published at creation, and the SHA-256 of the revealed seed. */
  readonly published: string;
  readonly computed: string | null;
  readonly seedMatches: boolean;
  readonly rolls: RollCheck[];
  readonly rollsOk: boolean;
  /** The engine's replay: its problems, each naming where. */
  readonly replayOk: boolean;
  readonly replayProblems: readonly string[];
  readonly ok: boolean;
}

/** Checks the record; `published` is the commitment the battle showed from its creation (the record's own when absent). */
export function checkBattle(ruleset: AnyRuleset, record: BattleRecord, published = record.commitment): BattleCheck {
  const seed = record.seed ?? null;
  const computed = seed === null ? null : commitmentOf(seed);
  const seedMatches = computed !== null && computed === published && record.commitment === published;
  const rolls: RollCheck[] = [];
  const check = (where: string, lines: BattleRecord['start']) => {
    for (const line of lines)
      for (const r of line.rolls) {
        const derived = seed === null ? null : rollAt(seed, record.salt, r.index, r.sides);
        rolls.push({ where, index: r.index, sides: r.sides, label: r.label, logged: r.value, derived, ok: derived === r.value });
      }
  };
  check('start', record.start);
  record.actions.forEach((a, i) => check(`action ${i + 1}`, a.log));
  const rollsOk = seed !== null && rolls.every((r) => r.ok);
  const replay = verify(ruleset, record);
  return {
    published,
    computed,
    seedMatches,
    rolls,
    rollsOk,
    replayOk: replay.ok,
    replayProblems: replay.problems,
    ok: seedMatches && rollsOk && replay.ok,
  };
}
