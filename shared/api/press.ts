/**
 * Press: messages between powers. Public messages go to everyone; private ones
 * (press kind `full` only) to the powers named. The game master may post as GM
 * whatever the press kind. In anonymous games senders are shown by power, not
 * by name, until the game ends; once it ends every message is public.
 *
 * The game master is addressed in `to` as {@link GAME_MASTER_RECIPIENT}
 * (`"@gm"`), alone or beside powers: such a message is read by its sender, the
 * powers named and the game master (and site administrators, who act as game
 * master). A message to the game master alone is a private line, not diplomacy:
 * players may send it whatever the press kind (as the game master may write
 * privately to a power whatever the press kind); one that also names a power
 * follows the press kind.
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';
import { PowerIdSchema } from './games.ts';
import { GAME_MASTER_RECIPIENT } from './press-recipients.ts';

export { GAME_MASTER_RECIPIENT };

export const PRESS_LIMITS = { maxBodyChars: 4000, maxRecipients: 24 } as const;

/** A power (as PowerIdSchema) or the game master. */
const RecipientSchema = z
  .string()
  .max(24)
  .refine((to) => to === GAME_MASTER_RECIPIENT || PowerIdSchema.safeParse(to).success, {
    error: `must be a power name such as "England", or "${GAME_MASTER_RECIPIENT}" for the game master`,
  })
  .describe(`A power, or "${GAME_MASTER_RECIPIENT}" for the game master`);

export const SendPressRequestSchema = z
  .object({
    to: z
      .union([
        z.literal('all'),
        z
          .array(RecipientSchema)
          .min(1, 'must name at least one power')
          .max(PRESS_LIMITS.maxRecipients)
          .refine((list) => new Set(list).size === list.length, 'must not name a power twice'),
      ])
      .describe(`"all" for a public message, or the powers a private one is for ("${GAME_MASTER_RECIPIENT}" for the game master)`),
    body: z.string().trim().min(1, 'is required').max(PRESS_LIMITS.maxBodyChars, `must be at most ${PRESS_LIMITS.maxBodyChars} characters`),
    asGameMaster: z.boolean().default(false).describe('Post as the game master (game master only)'),
  })
  .meta({ id: 'SendPressRequest' });
export type SendPressRequest = z.input<typeof SendPressRequestSchema>;

export const PressMessageSchema = z
  .object({
    id: IdSchema,
    /** Name of the phase it was sent in (null if that phase was rolled back). */
    phase: z.string().nullable(),
    from: z.object({
      /** Null when the game master sent it. */
      power: z.string().nullable(),
      gameMaster: z.boolean(),
      /** Null in anonymous games until they end (except for your own messages), and for imported messages. */
      user: UserRefSchema.nullable(),
    }),
    /** "all", or the powers it is for; "@gm" (GAME_MASTER_RECIPIENT) is the game master. */
    to: z.union([z.literal('all'), z.array(z.string())]),
    body: z.string(),
    sentAt: TimestampSchema,
  })
  .meta({ id: 'PressMessage' });
export type PressMessage = z.infer<typeof PressMessageSchema>;

export const ListPressQuerySchema = z.object({
  limit: z.coerce.number().int().min(1, 'must be at least 1').max(200, 'must be at most 200').default(50),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page'),
});

/** Newest first. */
export const PressListSchema = z.object({ messages: z.array(PressMessageSchema), nextCursor: z.string().nullable() }).meta({ id: 'PressList' });

/**
 * Read marks: how far the caller has read each conversation of a game, kept per user on the server so that every
 * browser and device of theirs agrees. A conversation is named as the web client names it: "public", or its
 * members sorted and joined by "+", each a power or "Game master" (PRESS_GAME_MASTER_MEMBER).
 */
export const PRESS_PUBLIC_CONVERSATION = 'public';
export const PRESS_GAME_MASTER_MEMBER = 'Game master';
export const PRESS_READ_LIMITS = { maxConversationChars: 200 } as const;

export const PressConversationSchema = z
  .string()
  .min(1, 'is required')
  .max(PRESS_READ_LIMITS.maxConversationChars, `must be at most ${PRESS_READ_LIMITS.maxConversationChars} characters`)
  .describe(`"${PRESS_PUBLIC_CONVERSATION}", or the conversation's members sorted and joined by "+" (powers, and "${PRESS_GAME_MASTER_MEMBER}")`);

export const PressReadMarksSchema = z
  .object({
    readUntil: z
      .record(PressConversationSchema, TimestampSchema)
      .describe('Per conversation, the time of the last message you have read in it (none: nothing read)'),
  })
  .meta({ id: 'PressReadMarks' });
export type PressReadMarks = z.infer<typeof PressReadMarksSchema>;

export const MarkPressReadRequestSchema = z
  .object({
    conversation: PressConversationSchema,
    until: TimestampSchema.describe('The time of the last message read (a mark never moves back, nor past now)'),
  })
  .meta({ id: 'MarkPressReadRequest' });
export type MarkPressReadRequest = z.infer<typeof MarkPressReadRequestSchema>;
