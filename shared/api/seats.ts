/**
 * Seats that find new players: a seat the game master (or civil disorder) offers for replacement, the lobby's list
 * of them with the power's position, and the requests of users who would take one.
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';
import { GameIdParamsSchema, PhaseKindSchema, PowerIdSchema } from './games.ts';

export const OPEN_SEATS_PER_PAGE = 20;
export const MOST_OPEN_SEATS_PER_PAGE = 100;
/** Requests shown per offered seat (the newest; older ones are decided or withdrawn long since). */
export const MOST_REQUESTS_SHOWN = 50;

export const SeatParamsSchema = GameIdParamsSchema.extend({ power: PowerIdSchema });
export const SeatRequestParamsSchema = SeatParamsSchema.extend({ requestId: IdSchema });

export const OpenSeatsQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(MOST_OPEN_SEATS_PER_PAGE, `must be at most ${MOST_OPEN_SEATS_PER_PAGE}`)
    .default(OPEN_SEATS_PER_PAGE),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page'),
  inviteCode: z.string().max(64).optional().describe('Also lists the offered seats of the private game with this invite code'),
});

export const GameSeatsQuerySchema = z.object({
  inviteCode: z.string().max(64).optional().describe('Lets a non-member see the offered seats of a private game'),
});

export const TakeSeatRequestSchema = z
  .object({ inviteCode: z.string().max(64).optional().describe('Required for a private game you are not a member of') })
  .meta({ id: 'TakeSeatRequest' });

export const SeatRequestStatusSchema = z.enum(['pending', 'approved', 'declined', 'withdrawn']);
export type SeatRequestStatus = z.infer<typeof SeatRequestStatusSchema>;

/** Where the power stands, as the engine counts it in the game's current phase. */
export const SeatPositionSchema = z.object({
  /** The current phase's name, e.g. "Fall 238 BC Movement". */
  phase: z.string(),
  phaseKind: PhaseKindSchema,
  /** The year as the variant writes it, e.g. "238 BC". */
  year: z.string(),
  /** Supply centres it owns. */
  centres: z.number().int(),
  /** Units its centres support now (Diadochi V: double and triple centres count more). */
  supply: z.number().int(),
  units: z.number().int(),
});

/** The seat rules a user must meet to take a seat (or join the game). */
export const SeatRulesSchema = z.object({
  /** Percentage of deadlines kept, 0 to 100. */
  minDeadlinesKept: z.number().int(),
  minFinishedGames: z.number().int(),
});

/** The caller's own request for a seat, when they made one. */
export const OwnSeatRequestSchema = z.object({ id: IdSchema, status: SeatRequestStatusSchema, createdAt: TimestampSchema });

export const OpenSeatSchema = z
  .object({
    gameId: IdSchema,
    gameName: z.string(),
    variant: z.string(),
    power: z.string(),
    offeredAt: TimestampSchema,
    private: z.boolean(),
    anonymous: z.boolean(),
    /** Null before the game has a phase (never for an offered seat of a game under way). */
    position: SeatPositionSchema.nullable(),
    /** The current phase's deadline; null when the game has none (or it is paused). */
    deadlineAt: TimestampSchema.nullable(),
    paused: z.boolean(),
    /** Whether the game master approves who takes it (otherwise it is handed over at once). */
    approvalNeeded: z.boolean(),
    rules: SeatRulesSchema,
    /** Who holds the seat now (in civil disorder, or leaving): null in an anonymous game, and when nobody does. */
    heldBy: UserRefSchema.nullable(),
    yourRequest: OwnSeatRequestSchema.nullable(),
  })
  .meta({ id: 'OpenSeat' });
export type OpenSeat = z.infer<typeof OpenSeatSchema>;

export const OpenSeatListSchema = z.object({ seats: z.array(OpenSeatSchema), nextCursor: z.string().nullable() }).meta({ id: 'OpenSeatList' });
export type OpenSeatList = z.infer<typeof OpenSeatListSchema>;

/** A request to take a seat, as the game master (every one, with names) or the requester (their own) sees it. */
export const SeatRequestSchema = z
  .object({
    id: IdSchema,
    power: z.string(),
    /** Null where the viewer may not see who asked. */
    user: UserRefSchema.nullable(),
    status: SeatRequestStatusSchema,
    createdAt: TimestampSchema,
    decidedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'SeatRequest' });
export type SeatRequest = z.infer<typeof SeatRequestSchema>;

/** The game's offered seats, with the requests the viewer may see (the game master: all; a user: their own). */
export const GameSeatOffersSchema = z
  .object({
    gameId: IdSchema,
    approvalNeeded: z.boolean(),
    rules: SeatRulesSchema,
    offers: z.array(z.object({ power: z.string(), offeredAt: TimestampSchema, position: SeatPositionSchema.nullable() })),
    requests: z.array(SeatRequestSchema),
  })
  .meta({ id: 'GameSeatOffers' });
export type GameSeatOffers = z.infer<typeof GameSeatOffersSchema>;

/** What asking for, approving, declining or withdrawing a request did: the request, and whether the seat changed hands. */
export const SeatRequestOutcomeSchema = z.object({ request: SeatRequestSchema, handedOver: z.boolean() }).meta({ id: 'SeatRequestOutcome' });
export type SeatRequestOutcome = z.infer<typeof SeatRequestOutcomeSchema>;
