/**
 * Game-master tools. Every action is written to the game's log, which the
 * players (and, once the game has ended, everyone) can read.
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';
import { UsernameSchema } from './accounts.ts';
import { PowerIdSchema } from './games.ts';
import { PhaseIndexSchema } from './play.ts';
import { GM_ACTIONS } from './gm-actions.ts';

/** A deadline is never moved further than this from now. */
export const MAX_DEADLINE_SECONDS = 30 * 24 * 3600;

export const ChangeDeadlineRequestSchema = z
  .object({
    extendBySeconds: z
      .number()
      .int('must be a whole number of seconds')
      .min(-MAX_DEADLINE_SECONDS, `a deadline can move at most ${MAX_DEADLINE_SECONDS / 86400} days (${MAX_DEADLINE_SECONDS} seconds)`)
      .max(MAX_DEADLINE_SECONDS, `a deadline can move at most ${MAX_DEADLINE_SECONDS / 86400} days (${MAX_DEADLINE_SECONDS} seconds)`)
      .refine((seconds) => seconds !== 0, 'must not be 0: the deadline would not move')
      .optional()
      .describe('Positive extends, negative shortens (not before now)'),
    deadlineAt: z.iso.datetime({ offset: true }).optional().describe('The new deadline'),
  })
  .refine((body) => (body.extendBySeconds === undefined) !== (body.deadlineAt === undefined), {
    message: 'give exactly one of extendBySeconds and deadlineAt',
  })
  .meta({ id: 'ChangeDeadlineRequest' });

export const ReplacePlayerRequestSchema = z
  .object({ power: PowerIdSchema, username: UsernameSchema.describe('The user who takes the seat') })
  .meta({ id: 'ReplacePlayerRequest' });

export const PowerRequestSchema = z.object({ power: PowerIdSchema }).meta({ id: 'PowerRequest' });

export const RollbackRequestSchema = z
  .object({ phase: PhaseIndexSchema.describe('Index of the phase to re-open') })
  .meta({ id: 'RollbackRequest' });

export const EndGameRequestSchema = z
  .object({
    outcome: z.enum(['draw', 'concession']).describe('draw: shared by the powers named; concession: to the one power named'),
    powers: z
      .array(PowerIdSchema)
      .min(1, 'name at least one power')
      .optional()
      .describe('Surviving powers. draw: those sharing it (default: every survivor); concession: exactly one, the power conceded to'),
  })
  .refine((body) => body.outcome !== 'concession' || body.powers?.length === 1, {
    message: 'a concession names exactly one power, the one conceded to',
    path: ['powers'],
  })
  .meta({ id: 'EndGameRequest' });
export type EndGameRequest = z.infer<typeof EndGameRequestSchema>;

export const GmActionSchema = z
  .object({
    id: IdSchema,
    action: z.string().describe(`One of ${GM_ACTIONS.join(', ')}; entries imported from another server's log keep its names`),
    /** Null for actions imported from another server. */
    actor: UserRefSchema.nullable(),
    /** What was done (powers, phases, deadlines). User names appear only where the game reveals them. */
    details: z.record(z.string(), z.unknown()),
    at: TimestampSchema,
  })
  .meta({ id: 'GmAction' });
export type GmAction = z.infer<typeof GmActionSchema>;

export const GmLogSchema = z.object({ actions: z.array(GmActionSchema) }).meta({ id: 'GmLog' });

/** What a game-master action answers: the action as logged. */
export const GmActionResponseSchema = z.object({ action: GmActionSchema }).meta({ id: 'GmActionResponse' });
