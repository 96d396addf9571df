/**
 * Site administrators (server/admin/admins.ts): set by the server's operator,
 * never through the API. They act as the game master of every game; this is
 * what only they can read.
 */
import { z } from 'zod';
import { IdSchema } from './common.ts';
import { GmActionSchema } from './gm.ts';

export const AuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1, 'must be at least 1').max(200, 'must be at most 200').default(50),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page'),
});

/** Every game's game-master actions, newest first, with every name shown but in an anonymous game the administrator plays in. */
export const AuditLogSchema = z
  .object({
    actions: z.array(GmActionSchema.extend({ gameId: IdSchema, gameName: z.string() })),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'AuditLog' });
