/**
 * Ending a game by agreement. A draw includes every surviving power (DIAS) and
 * needs the vote of each of them; a concession to one power needs every other
 * survivor to concede to it. Votes are public.
 */
import { z } from 'zod';
import { GameOutcomeSchema, PowerIdSchema } from './games.ts';

export const CastVoteRequestSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('draw') }),
    z.object({ kind: z.literal('concede'), to: PowerIdSchema.describe('The power you concede the game to') }),
  ])
  .meta({ id: 'CastVoteRequest' });
export type CastVoteRequest = z.infer<typeof CastVoteRequestSchema>;

export const VotesSchema = z
  .object({
    /** Powers still in the game (with a unit or a centre): a draw is shared by all of them. */
    survivors: z.array(z.string()),
    /** Powers that vote for a draw of all survivors. */
    draw: z.array(z.string()),
    concessions: z.array(z.object({ power: z.string(), to: z.string() })),
    /** Set when the votes ended the game. */
    outcome: GameOutcomeSchema.nullable(),
  })
  .meta({ id: 'Votes' });

export const VoteKindParamsSchema = z.object({
  gameId: z.uuid({ error: 'must be an id (a UUID)' }),
  kind: z.enum(['draw', 'concede'], { error: 'must be "draw" or "concede"' }),
});
