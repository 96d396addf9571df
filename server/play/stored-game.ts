/**
 * A game with its seats as plain SQL reads it (the order submissions' hot path reads without Prisma): one JSON
 * object per game, named as Prisma names its fields (`GAME_JSON_SQL`), checked and turned into the same shape
 * Prisma gives (`LoadedGame`, play/context.ts) by a schema, so that nothing downstream can tell the two apart.
 */
import { z } from 'zod';
import { GameOutcomeSchema } from '../../shared/api/games.ts';
import { storedDataInvalid } from '../db/tables/stored.ts';
import type { LoadedGame } from './context.ts';

const date = z.iso.datetime({ offset: true }).transform((text) => new Date(text));
const user = z.object({ id: z.string(), username: z.string() });

const StoredSeatSchema = z.object({
  id: z.string(),
  gameId: z.string(),
  userId: z.string().nullable(),
  power: z.string().nullable(),
  // Prisma's names for the enum's values (the database's "civil-disorder" is civil_disorder).
  status: z.enum(['active', 'civil_disorder', 'eliminated']),
  missedDeadlines: z.number().int(),
  powerPreferences: z.array(z.string()),
  joinedAt: date,
  formerUserIds: z.array(z.string()),
  user: user.nullable(),
});

export const StoredGameSchema = z.object({
  id: z.string(),
  name: z.string(),
  variantId: z.string(),
  status: z.enum(['forming', 'active', 'finished', 'cancelled']),
  createdById: z.string(),
  gameMasterId: z.string(),
  invitedGameMasterId: z.string().nullable(),
  movementDeadlineSeconds: z.number().int(),
  retreatDeadlineSeconds: z.number().int(),
  adjustmentDeadlineSeconds: z.number().int(),
  pressKind: z.enum(['full', 'public', 'none']),
  anonymous: z.boolean(),
  private: z.boolean(),
  inviteCode: z.string().nullable(),
  maxMissedDeadlines: z.number().int(),
  powerAssignment: z.enum(['random', 'preferences']),
  rules: z.string(),
  autoStart: z.boolean(),
  seats: z.number().int(),
  // As the games table's repository reads it (db/tables/games.ts).
  outcome: GameOutcomeSchema.nullable(),
  pausedAt: date.nullable(),
  importedAt: date.nullable(),
  createdAt: date,
  startedAt: date.nullable(),
  finishedAt: date.nullable(),
  finalAt: date.nullable(),
  players: z.array(StoredSeatSchema),
  gameMaster: user,
});

/**
 * The game as the schema checked it, typed as Prisma types it (the schema's enums are Prisma's enums' values, which
 * TypeScript cannot see: hence the cast). A value the schema refuses is a corrupt database, named as such.
 */
export function loadedGameOf(json: unknown): LoadedGame {
  const game = StoredGameSchema.safeParse(json);
  if (!game.success) throw storedDataInvalid('games', String(game.error.issues[0]?.path[0] ?? 'row'), String((json as { id?: unknown }).id), game.error);
  return game.data as LoadedGame;
}

/** One JSON object per game row `g`: its fields as Prisma names them, its seats (by id, as play/context.ts orders them) and their users, its game master. */
export const GAME_JSON_SQL = (g: string) => `json_build_object(
  'id', ${g}.id, 'name', ${g}.name, 'variantId', ${g}.variant_id, 'status', ${g}.status, 'createdById', ${g}.created_by_id,
  'gameMasterId', ${g}.game_master_id, 'invitedGameMasterId', ${g}.invited_game_master_id,
  'movementDeadlineSeconds', ${g}.movement_deadline_seconds, 'retreatDeadlineSeconds', ${g}.retreat_deadline_seconds,
  'adjustmentDeadlineSeconds', ${g}.adjustment_deadline_seconds, 'pressKind', ${g}.press_kind, 'anonymous', ${g}.anonymous,
  'private', ${g}.private, 'inviteCode', ${g}.invite_code, 'maxMissedDeadlines', ${g}.max_missed_deadlines,
  'powerAssignment', ${g}.power_assignment, 'rules', ${g}.rules, 'autoStart', ${g}.auto_start, 'seats', ${g}.seats,
  'outcome', ${g}.outcome, 'pausedAt', ${g}.paused_at, 'importedAt', ${g}.imported_at, 'createdAt', ${g}.created_at,
  'startedAt', ${g}.started_at, 'finishedAt', ${g}.finished_at, 'finalAt', ${g}.final_at,
  'players', (SELECT coalesce(json_agg(json_build_object(
      'id', p.id, 'gameId', p.game_id, 'userId', p.user_id, 'power', p.power,
      'status', CASE p.status WHEN 'civil-disorder' THEN 'civil_disorder' ELSE p.status::text END,
      'missedDeadlines', p.missed_deadlines, 'powerPreferences', p.power_preferences, 'joinedAt', p.joined_at,
      'formerUserIds', p.former_user_ids,
      'user', CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'username', u.username) END) ORDER BY p.id), '[]'::json)
    FROM players p LEFT JOIN users u ON u.id = p.user_id WHERE p.game_id = ${g}.id),
  'gameMaster', (SELECT json_build_object('id', m.id, 'username', m.username) FROM users m WHERE m.id = ${g}.game_master_id))`;
