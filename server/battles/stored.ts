/**
 * Battles as stored: a battle row and its actions read with their JSON columns parsed by the ruleset's schemas (a
 * value a schema refuses is a corrupt database: 500 `stored_data_invalid` naming the table, column and row), the
 * row lock every change to a battle takes, and JSON values as Prisma takes them.
 */
import { z } from 'zod';
import { BattleRulesetIdSchema } from '../../shared/api/battles.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { LogLineSchema } from '../../shared/naval/record.ts';
import type { AnyRuleset, LogLine, RulesetId } from '../../shared/naval/ruleset.ts';
import type { Db, Prisma, Transaction } from '../db/database.ts';
import { storedDataInvalid } from '../db/tables/stored.ts';
import { notFound } from '../errors.ts';
import { battleInclude, type LoadedAction, type LoadedBattle, type StoredLog } from '../views/battle.ts';

const LogSchema = z.array(LogLineSchema);
const OutcomeSchema = z.object({ winner: z.string().nullable(), reason: z.string() });

type BattleRow = Prisma.BattleGetPayload<{ include: typeof battleInclude }>;

function parsed<T>(table: string, field: string, id: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw storedDataInvalid(table, field, id, error);
  }
}

export function rulesetOf(battle: { ruleset: RulesetId }): AnyRuleset {
  return RULESETS[battle.ruleset];
}

/** A battle row as the views and the rules read it. */
export function battleOf(row: BattleRow): LoadedBattle {
  const id = row.id;
  const rulesetId = parsed('battles', 'ruleset', id, () => BattleRulesetIdSchema.parse(row.ruleset));
  const ruleset = RULESETS[rulesetId];
  return {
    ...row,
    ruleset: rulesetId,
    setup: parsed('battles', 'setup', id, () => ruleset.setupSchema.parse(row.setup)),
    state: row.state === null ? null : parsed('battles', 'state', id, () => ruleset.stateSchema.parse(row.state)),
    startLog: row.startLog === null ? null : parsed('battles', 'startLog', id, () => LogSchema.parse(row.startLog)),
    outcome: row.outcome === null ? null : parsed('battles', 'outcome', id, () => OutcomeSchema.parse(row.outcome)),
  };
}

export async function readBattle(db: Db, battleId: string): Promise<LoadedBattle | null> {
  const row = await db.battle.findUnique({ where: { id: battleId }, include: battleInclude });
  return row ? battleOf(row) : null;
}

/** The battle, its row locked for the rest of the transaction (every change to a battle takes this lock first); 404 when there is none. */
export async function lockBattle(tx: Transaction, battleId: string): Promise<LoadedBattle> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text AS id FROM battles WHERE id = ${battleId}::uuid FOR UPDATE`;
  if (locked.length === 0) throw notFound('no battle with that id');
  const battle = await readBattle(tx, battleId);
  if (!battle) throw notFound('no battle with that id');
  return battle;
}

/** The secret seed of a battle's dice. */
export async function seedOf(db: Db, battleId: string): Promise<string> {
  const row = await db.battleSeed.findUnique({ where: { battleId } });
  if (!row) throw storedDataInvalid('battle_seeds', 'seed', battleId, new Error('the battle has no seed'));
  return row.seed;
}

type ActionRow = Prisma.BattleActionGetPayload<Record<string, never>>;

export function actionOf(row: ActionRow): LoadedAction {
  return {
    index: row.index,
    side: row.side,
    action: row.action,
    text: row.text,
    log: parsed('battle_actions', 'log', row.id, () => LogSchema.parse(row.log)),
    by: row.by,
    secret: row.secret,
    revealed: row.revealed,
    createdAt: row.createdAt,
  };
}

/** Actions `after` < index ≤ `after + limit`, in order (all of them when no limit). */
export async function readActions(db: Db, battleId: string, after = 0, limit?: number): Promise<LoadedAction[]> {
  const rows = await db.battleAction.findMany({ where: { battleId, index: { gt: after } }, orderBy: { index: 'asc' }, take: limit });
  return rows.map(actionOf);
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
