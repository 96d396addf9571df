/**
 * Battles as the battles' domain changes them: the row lock every change to a battle takes, a ruleset's log and JSON
 * values as the columns take them. Reading a battle row, its actions and its seed: server/db/tables/battles.ts.
 */
import { RULESETS } from '../../shared/naval/index.ts';
import type { AnyRuleset, LogLine, RulesetId } from '../../shared/naval/ruleset.ts';
import type { Prisma, Transaction } from '../db/database.ts';
import { readBattle } from '../db/tables/battles.ts';
import { notFound } from '../errors.ts';
import type { LoadedBattle, StoredLog } from '../views/battle.ts';

export function rulesetOf(battle: { ruleset: RulesetId }): AnyRuleset {
  return RULESETS[battle.ruleset];
}

/** The battle, its row locked for the rest of the transaction (every change to a battle takes this lock first); 404 when there is none. */
export async function lockBattle(tx: Transaction, battleId: string): Promise<LoadedBattle> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text AS id FROM battles WHERE id = ${battleId}::uuid FOR UPDATE`;
  if (locked.length === 0) throw notFound('no battle with that id');
  const battle = await readBattle(tx, battleId);
  if (!battle) throw notFound('no battle with that id');
  return battle;
}

/** A ruleset's log lines as stored (plain arrays for the JSON column and the wire). */
export function storedLog(lines: readonly LogLine[]): StoredLog {
  return lines.map((line) => ({ text: line.text, rolls: line.rolls.map((roll) => ({ ...roll })), ...(line.table ? { table: { ...line.table } } : {}) }));
}

/**
 * A ruleset's set-up, state, action or log as a JSON column takes it: the ruleset interface keeps them plain JSON
 * (shared/naval/ruleset.ts), which is what Prisma's JSON input type describes.
 */
export function asJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}
