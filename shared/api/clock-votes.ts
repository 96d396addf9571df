/**
 * Players' votes on the game's clock: pause it, resume it, or extend the open phase's deadline. A player proposes
 * (their own ballot agrees); every power still in the game with an active player may vote once. It passes when
 * the game's vote rule is met (`unanimous`: all of them agree; `majority`: more than half) before it closes (a day
 * after it was proposed, or the phase's deadline if sooner), and the clock changes at once exactly as the game
 * master's tool would. It fails when it can no longer pass, on expiry, or when its phase ends. One open vote per
 * game. Ballots name powers; players only where the game shows names.
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';

export const CLOCK_VOTE_LIMITS = {
  minExtendSeconds: 3600,
  maxExtendSeconds: 7 * 24 * 3600,
  /** How long a vote stays open at most (less when the phase's deadline comes first). */
  openSeconds: 24 * 3600,
} as const;

export const ClockVoteKindSchema = z.enum(['pause', 'resume', 'extend']);
export const ClockVoteStatusSchema = z.enum(['open', 'passed', 'failed', 'withdrawn']);

const hours = (seconds: number) => `${seconds / 3600} h`;

export const ProposeClockVoteRequestSchema = z
  .discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('pause') }),
      z.object({ kind: z.literal('resume') }),
      z.object({
        kind: z.literal('extend'),
        extendSeconds: z
          .number()
          .int('must be a whole number of seconds')
          .min(CLOCK_VOTE_LIMITS.minExtendSeconds, `must be at least ${hours(CLOCK_VOTE_LIMITS.minExtendSeconds)} (3600 seconds)`)
          .max(CLOCK_VOTE_LIMITS.maxExtendSeconds, `must be at most 7 days (${CLOCK_VOTE_LIMITS.maxExtendSeconds} seconds)`)
          .describe('How much later the deadline should be'),
      }),
    ],
    { error: 'kind must be "pause", "resume" or "extend"' },
  )
  .meta({ id: 'ProposeClockVoteRequest' });
export type ProposeClockVoteRequest = z.infer<typeof ProposeClockVoteRequestSchema>;

export const ClockBallotRequestSchema = z.object({ agree: z.boolean().describe('true: agree; false: disagree') }).meta({ id: 'ClockBallotRequest' });

export const ClockVoteSchema = z
  .object({
    id: IdSchema,
    kind: ClockVoteKindSchema,
    /** extend: by how long. */
    extendSeconds: z.number().int().nullable(),
    phaseIndex: z.number().int(),
    proposedBy: z.string().describe('The proposing power'),
    status: ClockVoteStatusSchema,
    createdAt: TimestampSchema,
    closesAt: TimestampSchema,
    decidedAt: TimestampSchema.nullable(),
    /** Why it failed, in words (null otherwise). */
    reason: z.string().nullable(),
    /** Ballots by power; `user` only where the game shows names. */
    ballots: z.array(z.object({ power: z.string(), agree: z.boolean(), user: UserRefSchema.nullable() })),
  })
  .meta({ id: 'ClockVote' });
export type ClockVote = z.infer<typeof ClockVoteSchema>;

export const ClockVotesSchema = z
  .object({
    rule: z.enum(['unanimous', 'majority']),
    /** Powers that vote now: still in the game, with an active player. */
    voters: z.array(z.string()),
    /** Agreeing ballots a vote needs to pass now. */
    needed: z.number().int(),
    /** The vote now open, if any. */
    open: ClockVoteSchema.nullable(),
    /** The latest decided votes, newest first (at most 10). */
    recent: z.array(ClockVoteSchema),
    /** Your power, when you may vote in this game. */
    yourPower: z.string().nullable(),
  })
  .meta({ id: 'ClockVotes' });
export type ClockVotes = z.infer<typeof ClockVotesSchema>;

export const ClockVoteParamsSchema = z.object({
  gameId: z.uuid({ error: 'must be an id (a UUID)' }),
  voteId: z.uuid({ error: 'must be an id (a UUID)' }),
});
