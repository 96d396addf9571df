/**
 * Game-master tools. Every action is written to the game's log, which the
 * players (and, once the game has ended, everyone) can read. A game master who
 * also plays a power needs the other players' consent for some of them
 * (CONSENT_TOOLS): those answer 202 with the request put to the players.
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';
import { UsernameSchema } from './accounts.ts';
import { PowerIdSchema } from './games.ts';
import { PhaseIndexSchema } from './play.ts';
import { CONSENT_TOOLS, GM_ACTIONS } from './gm-actions.ts';

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

export const RollbackRequestSchema = z.object({ phase: PhaseIndexSchema.describe('Index of the phase to re-open') }).meta({ id: 'RollbackRequest' });

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

/**
 * A game master who also plays asks the other active players' consent for a tool (CONSENT_TOOLS): it acts once
 * every power in `needed` has agreed, and not at all if one refuses. It lapses when the game moves on first.
 */
export const GmProposalSchema = z
  .object({
    id: IdSchema,
    action: z.enum(CONSENT_TOOLS),
    /** The tool's request as the game master sent it (a user name only where the game shows names). */
    request: z.record(z.string(), z.unknown()),
    /** The phase the game was in when asked. */
    phaseIndex: z.number().int(),
    needed: z.array(z.string()).describe('The powers whose players must agree'),
    agreed: z.array(z.string()),
    status: z.enum(['open', 'agreed', 'refused', 'withdrawn', 'lapsed']),
    refusedBy: z.string().nullable(),
    /** Why it lapsed, when the tool could no longer be carried out. */
    note: z.string().nullable(),
    createdAt: TimestampSchema,
    decidedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'GmProposal' });
export type GmProposal = z.infer<typeof GmProposalSchema>;

export const GmProposalListSchema = z.object({ proposals: z.array(GmProposalSchema) }).meta({ id: 'GmProposalList' });
/** What a tool answers a game master who plays: 202, the players are asked (the action follows their consent). */
export const GmProposalResponseSchema = z.object({ proposal: GmProposalSchema }).meta({ id: 'GmProposalResponse' });
export const ProposalParamsSchema = z.object({ gameId: IdSchema, proposalId: IdSchema });
export const AnswerProposalRequestSchema = z
  .object({ agree: z.boolean().describe('true: go ahead; false: refuse (the request is then closed)') })
  .meta({ id: 'AnswerProposalRequest' });
/** What answering says: the request as it now stands, and the game master's action when your consent completed it. */
export const ProposalAnsweredSchema = z.object({ proposal: GmProposalSchema, action: GmActionSchema.nullable() }).meta({ id: 'ProposalAnswered' });

export const InviteGameMasterRequestSchema = z
  .object({ username: UsernameSchema.describe('The user asked to take over as game master; they must accept') })
  .meta({ id: 'InviteGameMasterRequest' });
