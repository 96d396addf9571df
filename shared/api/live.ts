import { z } from 'zod';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';
import { GameOutcomeSchema, PhaseRefSchema, PlayerStatusSchema } from './games.ts';
import { BattleChangedEventSchema } from './battles.ts';
import { SeaBattleSchema } from './campaign.ts';

export { LIVE_CLOSE } from './live-close.ts';

/**
 * The websocket at /api/live. Text frames carry one JSON object each.
 * The client subscribes to channels; the server pushes events on them.
 * Events say what changed; fetch the details over HTTP.
 *
 * Resuming: every event carries `seq`, its number on its channel (1, 2, 3 …
 * in commit order, without gaps: whoever may watch a channel gets all of its
 * events, so the numbers tell nobody of events meant for others). A
 * client that reconnects subscribes with `after`, the last `seq` it saw on
 * that channel, and first gets the events it missed, then `subscribed`; if
 * the server can no longer replay them (more than a few hundred, or older
 * than the replay window) it sends `resync` for the channel instead: refetch
 * over HTTP. `subscribed.seq` is where the channel stands.
 */
export const LIVE_LIMITS = {
  /** Largest client frame; the socket is closed (1009) above it. */
  maxMessageBytes: 4096,
  maxSubscriptionsPerSocket: 100,
  maxSocketsPerUser: 20,
  /** Client messages per socket and window; one more closes the socket (1008). */
  maxMessagesPerWindow: 200,
  messageWindowMs: 10_000,
  /** Unsent data the server holds for a socket; a client that far behind is closed (1013) and should refetch. */
  maxBufferedBytes: 1024 * 1024,
  /**
   * The server pings at this interval and closes sockets that missed the previous pong. It also checks
   * then that each socket's session still holds, and closes those whose session ended (`LIVE_CLOSE.sessionEnded`).
   */
  heartbeatMs: 30_000,
} as const;

/**
 * `lobby` (public games appear, fill up, start, pause and resume their clocks, finish), `game:<id>` (one game:
 * what everyone who may see it may know), or `user:<your id>` (what is for you alone, in any game: private press
 * you send or receive), or `battle:<id>` (one naval battle: that it changed, for whoever may see it). Only you may
 * watch your own user channel.
 */
export const LiveChannelSchema = z.union(
  [z.literal('lobby'), z.templateLiteral(['game:', IdSchema]), z.templateLiteral(['user:', IdSchema]), z.templateLiteral(['battle:', IdSchema])],
  {
    error: 'must be "lobby", "game:<game id>", "user:<your user id>" or "battle:<battle id>"',
  },
);
export type LiveChannel = z.infer<typeof LiveChannelSchema>;

export const ClientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('subscribe'),
    channel: LiveChannelSchema,
    /** The last `seq` seen on this channel: the events after it are replayed first. */
    after: z.number().int().min(0).optional(),
    /** A private game's or battle's invite code: lets one who holds it but has no seat watch, as it lets them read it over HTTP. */
    inviteCode: z.string().max(64).optional(),
  }),
  z.object({ type: z.literal('unsubscribe'), channel: LiveChannelSchema }),
  /** For browsers, which cannot send protocol-level pings. */
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

const LobbyGameFields = { gameId: IdSchema, playerCount: z.number().int(), seats: z.number().int() };

/**
 * Events. They obey the REST visibility rules: no orders before a phase is
 * processed, private press only to its sender and recipients, no user names
 * in anonymous games.
 */
export const LiveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('game.created'), ...LobbyGameFields, name: z.string(), variant: z.string() }),
  /** `user` is null in anonymous games. */
  z.object({ type: z.literal('player.joined'), ...LobbyGameFields, user: UserRefSchema.nullable() }),
  z.object({ type: z.literal('player.left'), ...LobbyGameFields, user: UserRefSchema.nullable() }),
  z.object({ type: z.literal('game.started'), ...LobbyGameFields }),
  /** A phase opened for orders (the first one when the game starts). */
  z.object({ type: z.literal('phase.started'), gameId: IdSchema, phase: PhaseRefSchema }),
  /** A phase was adjudicated: fetch GET /api/games/{id}/phases/{index}. `next` is null when the game ended. */
  z.object({ type: z.literal('phase.processed'), gameId: IdSchema, phase: PhaseRefSchema, next: PhaseRefSchema.nullable() }),
  /**
   * A campaign movement phase's orders are final and its results wait for its contested seas (`seas`, their province
   * ids): fetch GET /api/games/{id}/phases/{index}. `phase.processed` follows once every sea is decided or waived.
   */
  z.object({ type: z.literal('phase.held'), gameId: IdSchema, phase: PhaseRefSchema, seas: z.array(z.string()).max(200) }),
  /** A held phase's contested sea changed: sides set, a battle opened, odds estimated, decided or waived. */
  z.object({ type: z.literal('sea.changed'), gameId: IdSchema, phaseIndex: z.number().int(), sea: SeaBattleSchema }),
  /** The open phase's deadline moved (game master), or the clock was paused or resumed. */
  z.object({
    type: z.literal('deadline.changed'),
    gameId: IdSchema,
    phaseIndex: z.number().int(),
    deadlineAt: TimestampSchema.nullable(),
    paused: z.boolean(),
    /**
     * Why, when not the game master's doing: `grace`, the deadline passed while `powers` had sent nothing (play/grace.ts);
     * `vacation`, it fell in a player's declared absence (play/deadlines.ts).
     */
    reason: z.enum(['grace', 'vacation']).optional(),
    powers: z.array(z.string()).max(24).optional(),
  }),
  /** A power submitted orders or changed its ready flag (never what it ordered). */
  z.object({ type: z.literal('orders.status'), gameId: IdSchema, phaseIndex: z.number().int(), power: z.string(), submitted: z.boolean(), ready: z.boolean() }),
  /** A message you may read (public ones on the game's channel, private ones on your user channel): fetch GET /api/games/{id}/press. */
  z.object({
    type: z.literal('press.message'),
    gameId: IdSchema,
    messageId: IdSchema,
    fromPower: z.string().nullable(),
    gameMaster: z.boolean(),
    to: z.union([z.literal('all'), z.array(z.string())]),
  }),
  /** A Diadochi V loan was made or ended (by a power, or by a capture). */
  z.object({
    type: z.literal('loan.changed'),
    gameId: IdSchema,
    action: z.enum(['lend', 'end']),
    centre: z.string(),
    lender: z.string(),
    borrower: z.string(),
    /** The power that made or ended it; null when the adjustment ended it (a capture or a rebellion). */
    by: z.string().nullable(),
  }),
  /** A power cast or withdrew a draw vote or concession. */
  z.object({ type: z.literal('votes.changed'), gameId: IdSchema, power: z.string(), kind: z.enum(['draw', 'concede']), cast: z.boolean() }),
  /** A vote to pause, resume or extend the clock was proposed, voted on, passed, failed or withdrawn (shared/api/clock-votes.ts). */
  z.object({
    type: z.literal('clock-vote.changed'),
    gameId: IdSchema,
    voteId: IdSchema,
    status: z.enum(['open', 'passed', 'failed', 'withdrawn']),
  }),
  /** A seat changed: missed deadlines, civil disorder, elimination, or a new player (never named here). */
  z.object({
    type: z.literal('player.status'),
    gameId: IdSchema,
    power: z.string(),
    status: PlayerStatusSchema.nullable(),
    missedDeadlines: z.number().int(),
    replaced: z.boolean(),
  }),
  /** The game master did something: fetch GET /api/games/{id}/gm/log. */
  z.object({ type: z.literal('gm.action'), gameId: IdSchema, actionId: IdSchema, action: z.string() }),
  /** Someone was asked to take over as game master (`pending`), or the invitation was declined or withdrawn. */
  z.object({ type: z.literal('gm.invitation'), gameId: IdSchema, pending: z.boolean() }),
  /** A game master who plays asked the players' consent for a tool, or the request was answered, withdrawn or lapsed: fetch GET /api/games/{id}/gm/proposals. */
  z.object({
    type: z.literal('gm.proposal'),
    gameId: IdSchema,
    proposalId: IdSchema,
    action: z.string(),
    status: z.enum(['open', 'agreed', 'refused', 'withdrawn', 'lapsed']),
  }),
  z.object({ type: z.literal('game.finished'), gameId: IdSchema, outcome: GameOutcomeSchema }),
  /** A seat was offered to new players, or the offer ended (taken or withdrawn): fetch GET /api/seats/open or …/seats. */
  z.object({ type: z.literal('seat.offer'), gameId: IdSchema, power: z.string(), offered: z.boolean() }),
  /** A request to take a seat was made or decided (to the game master and the requester, on their own channels; never a name). */
  z.object({
    type: z.literal('seat.request'),
    gameId: IdSchema,
    power: z.string(),
    requestId: IdSchema,
    status: z.enum(['pending', 'approved', 'declined', 'withdrawn']),
  }),
  /** A naval battle changed (created, a seat taken or left, an action, the end; on `lobby` too, except an action, when not private): fetch GET /api/battles/{id}. Never what a plot holds. */
  BattleChangedEventSchema,
]);
export type LiveEvent = z.infer<typeof LiveEventSchema>;

export const ServerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('welcome'),
    user: UserRefSchema,
    limits: z.object({
      maxMessageBytes: z.number(),
      maxSubscriptionsPerSocket: z.number(),
      maxSocketsPerUser: z.number(),
      heartbeatMs: z.number(),
      maxMessagesPerWindow: z.number(),
      messageWindowMs: z.number(),
      maxBufferedBytes: z.number(),
    }),
  }),
  /** `seq`: the channel's latest event number; later events follow. */
  z.object({ type: z.literal('subscribed'), channel: LiveChannelSchema, seq: z.number().int().optional() }),
  /** `reason` when the server ended the subscription (you may no longer watch the channel: you left the game, or your seat was handed on). */
  z.object({ type: z.literal('unsubscribed'), channel: LiveChannelSchema, reason: z.string().optional() }),
  z.object({ type: z.literal('event'), channel: LiveChannelSchema, seq: z.number().int().optional(), event: LiveEventSchema }),
  /** Events may have been missed and cannot be replayed: refetch what you show (of `channel`, or of every channel). */
  z.object({ type: z.literal('resync'), channel: LiveChannelSchema.optional() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
