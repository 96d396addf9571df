import { z } from 'zod';
import { TimestampSchema, UserRefSchema } from './common.ts';
import { UsernameSchema } from './accounts.ts';
import { GameSummarySchema, PlayerStatusSchema } from './games.ts';

/** A username as sign-up allows them (so a name no one could have is refused before the database is asked), in any case. */
export const UsernameParamsSchema = z.object({ username: UsernameSchema.describe('A username, in any case') });

/** What became of the player in a game that has ended; null while it goes on. */
export const GameResultSchema = z.enum(['won', 'drew', 'lost']).meta({ id: 'GameResult' });
export type GameResult = z.infer<typeof GameResultSchema>;

export const ProfileGameSchema = z
  .object({
    game: GameSummarySchema,
    /** `player`: holds a seat; `game-master`: runs the game without one. */
    role: z.enum(['player', 'game-master']),
    /** The power played; null for the game master, and before powers are assigned. */
    power: z.string().nullable(),
    /** The seat's standing now: a player in civil disorder, or eliminated. Null for the game master, and for a seat handed on. */
    playerStatus: PlayerStatusSchema.nullable(),
    /** The game master handed this player's seat to another player: the game went on without them. */
    replaced: z.boolean(),
    /** Null while the game goes on, and for a seat handed on. */
    result: GameResultSchema.nullable(),
  })
  .meta({ id: 'ProfileGame' });
export type ProfileGame = z.infer<typeof ProfileGameSchema>;

export const UserProfileSchema = z
  .object({
    user: UserRefSchema,
    memberSince: TimestampSchema,
    /**
     * The games the viewer may know this user is in: public ones, private ones the viewer may see, and anonymous
     * ones once they have ended (or to the user themself, the game master and an administrator); newest first.
     */
    games: z.array(ProfileGameSchema),
    /** Over the games listed where the user holds a seat. */
    totals: z.object({
      playing: z.number().int(),
      finished: z.number().int(),
      won: z.number().int(),
      drawn: z.number().int(),
      lost: z.number().int(),
      eliminated: z.number().int(),
      /** Seats the game master handed to another player. */
      replaced: z.number().int(),
    }),
    /**
     * Deadlines kept: over the phases of the games listed in which this user held a seat whose power had to order
     * and which were processed (since the server kept count), how many of those deadlines passed without the
     * player's orders; seats since handed on included. A phase processed early, with everyone ready or by the
     * game master, is kept by all.
     */
    reliability: z.object({ phases: z.number().int(), missed: z.number().int() }),
  })
  .meta({ id: 'UserProfile' });
export type UserProfile = z.infer<typeof UserProfileSchema>;
