/**
 * The `battles`, `battle_actions` and `battle_seeds` tables as the core reads them: a battle row with its JSON
 * columns read by its ruleset's schemas, its actions with their logs, its seed. For a domain other than the battles'
 * own that must read a battle through the views (the archive's export of a campaign game's battles); a value a schema
 * refuses is a corrupt database (500 `stored_data_invalid` naming the table, column and row).
 */
import { z } from 'zod';
import { BattleRulesetIdSchema } from '../../../shared/api/battles.ts';
import { RULESETS } from '../../../shared/naval/index.ts';
import { LogLineSchema } from '../../../shared/naval/record.ts';
import { battleInclude, type LoadedAction, type LoadedBattle } from '../../views/battle.ts';
import type { Db } from '../database.ts';
import { storedDataInvalid } from './stored.ts';

const LogSchema = z.array(LogLineSchema);
const OutcomeSchema = z.object({ winner: z.string().nullable(), reason: z.string() });

function parsed<T>(table: string, field: string, id: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw storedDataInvalid(table, field, id, error);
  }
}

/** The battle with its seats (as the views take it), or null when there is none. */
export async function readBattleRow(db: Db, battleId: string): Promise<LoadedBattle | null> {
  const row = await db.battle.findUnique({ where: { id: battleId }, include: battleInclude });
  if (!row) return null;
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

/** Every action of the battle, in order. */
export async function readBattleActions(db: Db, battleId: string): Promise<LoadedAction[]> {
  const rows = await db.battleAction.findMany({ where: { battleId }, orderBy: { index: 'asc' } });
  return rows.map((row) => ({
    index: row.index,
    side: row.side,
    action: row.action,
    text: row.text,
    log: parsed('battle_actions', 'log', row.id, () => LogSchema.parse(row.log)),
    by: row.by,
    secret: row.secret,
    revealed: row.revealed,
    createdAt: row.createdAt,
  }));
}

/** The battle's secret seed: the views reveal it only once the battle is over. */
export async function readBattleSeed(db: Db, battleId: string): Promise<string> {
  const row = await db.battleSeed.findUnique({ where: { battleId } });
  if (!row) throw storedDataInvalid('battle_seeds', 'seed', battleId, new Error('the battle has no seed'));
  return row.seed;
}
