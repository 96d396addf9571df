/**
 * The `battles`, `battle_actions` and `battle_seeds` tables: a battle row with its JSON columns read by its ruleset's
 * schemas, its actions with their logs, its seed, and a checked record stored as a finished, imported battle (the
 * battle archive's import and a campaign game's import both store them so). A value a schema refuses is a corrupt
 * database (500 `stored_data_invalid` naming the table, column and row).
 */
import { z } from 'zod';
import { BattleRulesetIdSchema } from '../../../shared/api/battles.ts';
import { RULESETS } from '../../../shared/naval/index.ts';
import { type BattleRecord, LogLineSchema, type Replayed } from '../../../shared/naval/record.ts';
import { battleInclude, type LoadedAction, type LoadedBattle } from '../../views/battle.ts';
import type { Db, Prisma, Transaction } from '../database.ts';
import { storedDataInvalid } from './stored.ts';

const LogSchema = z.array(LogLineSchema);
const OutcomeSchema = z.object({ winner: z.string().nullable(), reason: z.string() });

type BattleRow = Prisma.BattleGetPayload<{ include: typeof battleInclude }>;
type ActionRow = Prisma.BattleActionGetPayload<Record<string, never>>;

function parsed<T>(table: string, field: string, id: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw storedDataInvalid(table, field, id, error);
  }
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

/** The battle with its seats (as the views take it), or null when there is none. */
export async function readBattle(db: Db, battleId: string): Promise<LoadedBattle | null> {
  const row = await db.battle.findUnique({ where: { id: battleId }, include: battleInclude });
  return row ? battleOf(row) : null;
}

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

/** The secret seed of a battle's dice: the views reveal it only once the battle is over. */
export async function seedOf(db: Db, battleId: string): Promise<string> {
  const row = await db.battleSeed.findUnique({ where: { battleId } });
  if (!row) throw storedDataInvalid('battle_seeds', 'seed', battleId, new Error('the battle has no seed'));
  return row.seed;
}

/** How an imported battle is stored: whose it is, when it was fought, and who played its sides. */
export interface ImportedBattle {
  title: string;
  createdById: string;
  private: boolean;
  turnSeconds: number;
  /** When it was fought (the import's time when the record does not say). */
  at: Date;
  player: 'human' | 'computer';
}

/** A checked, replayed record stored as a finished battle marked imported, its seat per side; returns its id. */
export async function insertImportedBattle(tx: Transaction, record: BattleRecord, seed: string, replayed: Replayed, imported: ImportedBattle): Promise<string> {
  const json = (value: unknown) => value as Prisma.InputJsonValue;
  const created = await tx.battle.create({
    data: {
      title: imported.title.slice(0, 120),
      ruleset: record.ruleset,
      setup: json(replayed.setup),
      createdById: imported.createdById,
      status: 'finished',
      private: imported.private,
      turnSeconds: imported.turnSeconds,
      commitment: record.commitment,
      salt: record.salt,
      startLog: json(record.start),
      state: json(replayed.state),
      actionCount: record.actions.length,
      nextRoll: replayed.nextRoll,
      outcome: json(replayed.outcome),
      importedAt: new Date(),
      createdAt: imported.at,
      startedAt: imported.at,
      finishedAt: imported.at,
      seed: { create: { seed } },
      seats: { create: RULESETS[record.ruleset].sides(replayed.setup).map((side) => ({ role: 'side' as const, side: side.id, player: imported.player })) },
    },
  });
  await tx.battleAction.createMany({
    data: record.actions.map((entry, i) => ({
      battleId: created.id,
      index: i + 1,
      side: entry.side,
      action: json(entry.action),
      text: replayed.texts[i],
      log: json(entry.log),
      by: imported.player === 'computer' ? ('computer' as const) : ('player' as const),
      createdAt: imported.at,
    })),
  });
  return created.id;
}
