/**
 * Seats that find new players. The game master offers a seat for replacement (civil disorder offers it by itself:
 * play/process.ts); the lobby lists offered seats with the power's position as the engine counts it; a user who
 * meets the game's seat rules (deadlines kept, finished games) asks to take one, and gets it at once or once the
 * game master approves (games.seat_approval). The seat changes hands through the game master's own hand-on tool
 * (gm/tools.ts), so former holders, civil disorder, missed deadlines and the log stay as a replacement leaves them.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { powerSummary, yearName, type Variant } from '../../shared/index.ts';
import type { LiveChannel } from '../../shared/api/live.ts';
import type { GameSeatOffers, OpenSeat, OpenSeatList, SeatRequestOutcome, SeatRequestStatus } from '../../shared/api/seats.ts';
import { MOST_REQUESTS_SHOWN } from '../../shared/api/seats.ts';
import { actsAsGameMaster, mayView } from '../access/policy.ts';
import type { Auth } from '../auth/caller.ts';
import type { Db, Prisma, Transaction } from '../db/database.ts';
import { gameOf } from '../db/tables/games.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { decodeCursor, olderThan, pageOf } from '../keyset.ts';
import {
  gameContextInclude,
  makeContext,
  requireActive,
  requireGameMaster,
  seatOf,
  withLockedGame,
  type GameContext,
  type LoadedGame,
  type LoadedPlayer,
  type Viewer,
} from '../play/context.ts';
import { logGmAction } from '../play/gm-log.ts';
import { positionOf } from '../play/phases.ts';
import { playableVariant } from '../play/variants.ts';
import { checkSeatRules } from '../play/seat-rules.ts';
import { TOOLS } from '../play/gm-tools.ts';
import { notifySeatOpened, notifySeatTaken } from '../notify/game-events.ts';
import { gameSeatOffersView, openSeatListView, openSeatView, seatRequestOutcomeView, type SeatPosition, type SeatRequestRow } from '../views/seat.ts';

type User = Auth['user'];

const requestInclude = { user: { select: { id: true, username: true } } } satisfies Prisma.SeatRequestInclude;

// ───────────────────────────── positions ─────────────────────────────

type OpenPhase = { name: string; kind: 'movement' | 'retreat' | 'adjustment'; deadlineAt: Date | null; position: ReturnType<typeof positionOf> };

/** Each game's open phase with its position as the engine has it (loan actions applied). */
async function openPhasesOf(db: Db, games: ReadonlyArray<{ id: string; variant: Variant }>): Promise<Map<string, OpenPhase>> {
  if (games.length === 0) return new Map();
  const variants = new Map(games.map((game) => [game.id, game.variant]));
  const rows = await db.phase.findMany({ where: { gameId: { in: [...variants.keys()] }, status: 'open' } });
  const open = new Map<string, OpenPhase>();
  for (const row of rows) {
    const phase = phaseOf(row);
    const variant = variants.get(phase.gameId);
    if (!variant) continue;
    open.set(phase.gameId, { name: phase.name, kind: phase.kind, deadlineAt: phase.deadlineAt, position: positionOf(variant, phase) });
  }
  return open;
}

/** The power's centres, supply and units in the phase, as the engine's supply table counts them. */
function seatPosition(variant: Variant, phase: OpenPhase | undefined, power: string): SeatPosition {
  if (!phase) return null;
  const standing = powerSummary(variant, phase.position).find((entry) => entry.power === power);
  return {
    phase: phase.name,
    phaseKind: phase.kind,
    year: yearName(variant, phase.position.phase.year),
    centres: standing?.centres.length ?? 0,
    supply: standing?.supply ?? 0,
    units: standing?.units ?? 0,
  };
}

// ───────────────────────────── the lobby's list ─────────────────────────────

/**
 * Offered seats in games under way that the viewer may see: public games, those they belong to (or run, or all for
 * an administrator), and the private game whose invite code they give; newest offer first, by keyset.
 */
export async function listOpenSeats(
  app: FastifyInstance,
  viewer: Viewer,
  query: { limit: number; cursor?: string; inviteCode?: string },
): Promise<OpenSeatList> {
  const visible: Prisma.GameWhereInput[] = [{ private: false }];
  if (query.inviteCode) visible.push({ inviteCode: query.inviteCode });
  if (viewer) visible.push({ gameMasterId: viewer.id }, { players: { some: { userId: viewer.id } } });
  const where: Prisma.PlayerWhereInput[] = [
    { replacementWantedAt: { not: null }, power: { not: null }, game: { status: 'active', ...(viewer?.isAdmin ? {} : { OR: visible }) } },
  ];
  if (query.cursor) where.push(olderThan('replacementWantedAt', decodeCursor(query.cursor)));
  const rows = await app.prisma.player.findMany({
    where: { AND: where },
    include: { user: { select: { id: true, username: true } }, game: { include: gameContextInclude } },
    orderBy: [{ replacementWantedAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, query.limit, (row) => row.replacementWantedAt ?? new Date(0));
  // The policy has the last word on every game (the query only narrows the search).
  const shown = page.flatMap((row) => {
    const game = gameOf(row.game);
    const variant = playableVariant(game.variantId, game.rules);
    return variant && mayView(game, viewer, query.inviteCode) ? [{ seat: row, game, variant }] : [];
  });
  const phases = await openPhasesOf(
    app.prisma,
    shown.map(({ game, variant }) => ({ id: game.id, variant })),
  );
  const mine = viewer
    ? await app.prisma.seatRequest.findMany({
        where: { userId: viewer.id, playerId: { in: shown.map(({ seat }) => seat.id) } },
        include: requestInclude,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      })
    : [];
  const seats: OpenSeat[] = shown.map(({ seat, game, variant }) => {
    const phase = phases.get(game.id);
    const yours = mine.find((request) => request.playerId === seat.id) ?? null;
    return openSeatView(game, seat, seatPosition(variant, phase, seat.power ?? ''), phase?.deadlineAt ?? null, yours, viewer);
  });
  return openSeatListView(seats, nextCursor);
}

// ───────────────────────────── one game's offers ─────────────────────────────

/** The game's offered seats, and the requests to take them: every one for the game master, one's own for anyone else. */
async function offersOf(db: Db, context: GameContext): Promise<GameSeatOffers> {
  const { game, variant, viewer } = context;
  const offered = game.players.filter((seat) => seat.power && seat.replacementWantedAt);
  const phase = (await openPhasesOf(db, [{ id: game.id, variant }])).get(game.id);
  const offers = offered.map((seat) => ({
    power: seat.power!,
    offeredAt: seat.replacementWantedAt!,
    position: seatPosition(variant, phase, seat.power!),
  }));
  const powerOf = new Map(game.players.map((seat) => [seat.id, seat.power ?? '']));
  const requests = viewer
    ? await db.seatRequest.findMany({
        where: { player: { gameId: game.id }, ...(actsAsGameMaster(game, viewer) ? {} : { userId: viewer.id }) },
        include: requestInclude,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: MOST_REQUESTS_SHOWN,
      })
    : [];
  return gameSeatOffersView(
    game,
    offers,
    requests.map((row) => ({ power: powerOf.get(row.playerId) ?? '', row })),
    viewer,
  );
}

/** Loads the game for `viewer`, who may give its invite code; 404 when they may not see it. */
async function gameFor(db: Db, gameId: string, viewer: Viewer, inviteCode?: string): Promise<GameContext> {
  const game = gameOf(await db.game.findUnique({ where: { id: gameId }, include: gameContextInclude }));
  if (!game || !mayView(game, viewer, inviteCode)) throw notFound('no game with that id');
  return makeContext(game, viewer);
}

export async function gameSeatOffers(app: FastifyInstance, viewer: Viewer, gameId: string, inviteCode?: string): Promise<GameSeatOffers> {
  return offersOf(app.prisma, await gameFor(app.prisma, gameId, viewer, inviteCode));
}

// ───────────────────────────── live events ─────────────────────────────

/** The offer made or ended: the game's watchers hear it, and the lobby too for a public game. */
async function announceOffer(app: FastifyInstance, tx: Transaction, game: LoadedGame, power: string, offered: boolean) {
  const event = { type: 'seat.offer', gameId: game.id, power, offered } as const;
  await app.bus.publishAll(tx, [{ channel: `game:${game.id}`, event }, ...(game.private ? [] : [{ channel: 'lobby' as const, event }])]);
}

/** A request made or decided: the game master and the requester hear it on their own channels (no name in the event). */
async function announceRequest(
  app: FastifyInstance,
  tx: Transaction,
  game: LoadedGame,
  power: string,
  request: { id: string; userId: string; status: SeatRequestStatus },
) {
  const event = { type: 'seat.request', gameId: game.id, power, requestId: request.id, status: request.status } as const;
  const users = new Set([game.gameMasterId, request.userId]);
  await app.bus.publishAll(
    tx,
    [...users].map((id) => ({ channel: `user:${id}` as LiveChannel, event })),
  );
}

// ───────────────────────────── the game master's offers ─────────────────────────────

/** The game master offers a seat to new players (a power in civil disorder, or one whose player wants to leave). */
export async function offerSeat(app: FastifyInstance, user: User, gameId: string, power: string): Promise<GameSeatOffers> {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireGameMaster(context);
    requireActive(context);
    const seat = seatOf(context, power);
    if (seat.status === 'eliminated') throw conflict('conflict', `${power} has been eliminated: there is no seat to take`);
    if (seat.replacementWantedAt) throw conflict('conflict', `${power}'s seat has been offered since ${seat.replacementWantedAt.toISOString()}`);
    seat.replacementWantedAt = (await tx.player.update({ where: { id: seat.id }, data: { replacementWantedAt: new Date() } })).replacementWantedAt;
    await announceOffer(app, tx, context.game, power, true);
    // Mail and push to the game's members (not the player leaving it), as each of them chose.
    if (app.play.notify) await notifySeatOpened(tx, app.play.notify, gameId, power);
    return offersOf(tx, context);
  });
}

/** Declines every request still waiting for the seat (the offer ended, or the seat went to someone else). */
async function declinePending(app: FastifyInstance, tx: Transaction, game: LoadedGame, seat: LoadedPlayer, decidedById: string | null, except?: string) {
  const pending = await tx.seatRequest.findMany({ where: { playerId: seat.id, status: 'pending', ...(except ? { id: { not: except } } : {}) } });
  if (pending.length === 0) return;
  await tx.seatRequest.updateMany({ where: { id: { in: pending.map((row) => row.id) } }, data: { status: 'declined', decidedAt: new Date(), decidedById } });
  for (const row of pending) await announceRequest(app, tx, game, seat.power ?? '', { id: row.id, userId: row.userId, status: 'declined' });
}

/** The game master withdraws the offer; requests waiting for it are declined. */
export async function withdrawOffer(app: FastifyInstance, user: User, gameId: string, power: string): Promise<GameSeatOffers> {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireGameMaster(context);
    const seat = seatOf(context, power);
    if (!seat.replacementWantedAt) throw conflict('seat_not_offered', `${power}'s seat is not offered to new players`);
    await tx.player.update({ where: { id: seat.id }, data: { replacementWantedAt: null } });
    seat.replacementWantedAt = null;
    await declinePending(app, tx, context.game, seat, user.id);
    await announceOffer(app, tx, context.game, power, false);
    return offersOf(tx, context);
  });
}

// ───────────────────────────── requests and the hand-over ─────────────────────────────

/**
 * Hands the seat to the request's user with the game master's hand-on tool (the holder kept as a former one, the
 * seat active with no missed deadline, the game told), logged as a replacement: by the game master who approved,
 * or by nobody when the game needs no approval. The offer ends and the other requests for the seat are declined.
 */
async function handOver(
  app: FastifyInstance,
  tx: Transaction,
  context: GameContext,
  seat: LoadedPlayer,
  request: SeatRequestRow,
  approvedBy: string | null,
): Promise<SeatRequestRow> {
  const power = seat.power ?? '';
  const actionId = randomUUID();
  const done = await TOOLS['replace-player'](app, tx, context, actionId, { power, username: request.user.username });
  await tx.player.update({ where: { id: seat.id }, data: { replacementWantedAt: null } });
  const approved = await tx.seatRequest.update({
    where: { id: request.id },
    data: { status: 'approved', decidedAt: new Date(), decidedById: approvedBy },
    include: requestInclude,
  });
  await declinePending(app, tx, context.game, seat, approvedBy, request.id);
  await logGmAction(
    tx,
    app.bus,
    context.game.id,
    approvedBy,
    done.action,
    { ...done.details, seatRequest: request.id, approved: approvedBy !== null },
    actionId,
  );
  await announceOffer(app, tx, context.game, power, false);
  await announceRequest(app, tx, context.game, power, { id: approved.id, userId: approved.userId, status: 'approved' });
  // Those not watching hear it by mail and push: the new player which power is theirs, the others that it has a player.
  if (app.play.notify) await notifySeatTaken(tx, app.play.notify, context.game.id, power);
  return approved;
}

/** Locks the game and loads it for `user`, who may give its invite code. */
async function lockedFor(tx: Transaction, gameId: string, user: User, inviteCode?: string): Promise<GameContext> {
  await tx.$queryRaw`SELECT id FROM games WHERE id = ${gameId}::uuid FOR UPDATE`;
  const game = gameOf(await tx.game.findUnique({ where: { id: gameId }, include: gameContextInclude }));
  if (!game || !mayView(game, user)) {
    // As joining a private game: without a code it does not exist for you; with a wrong one you are told so.
    if (!game || !inviteCode) throw notFound('no game with that id');
    if (!mayView(game, user, inviteCode)) throw forbidden('invalid_invite_code', 'the invite code is wrong');
  }
  return makeContext(game, user);
}

/** A user asks to take an offered seat: handed over at once when the game needs no approval, else waiting for it. */
export async function requestSeat(app: FastifyInstance, user: User, gameId: string, power: string, inviteCode?: string): Promise<SeatRequestOutcome> {
  return app.prisma.$transaction(async (tx) => {
    const context = await lockedFor(tx, gameId, user, inviteCode);
    const { game } = context;
    requireActive(context);
    const seat = seatOf(context, power);
    if (!seat.replacementWantedAt) throw conflict('seat_not_offered', `${power}'s seat is not offered to new players`);
    if (game.gameMasterId === user.id) throw forbidden('forbidden', 'you run this game: its game master cannot take a seat in it through the lobby');
    if (context.seat) throw forbidden('forbidden', `you already play ${context.seat.power ?? 'a power'} in this game`);
    await checkSeatRules(tx, game, user, 'take a seat in this game');
    const waiting = await tx.seatRequest.findFirst({ where: { playerId: seat.id, userId: user.id, status: 'pending' } });
    if (waiting) throw conflict('conflict', `you asked for ${power}'s seat already; the game master has not answered yet`);
    const created = await tx.seatRequest.create({ data: { playerId: seat.id, userId: user.id }, include: requestInclude });
    if (!game.seatApproval) {
      const approved = await handOver(app, tx, context, seat, created, null);
      return seatRequestOutcomeView(game, power, approved, true, user);
    }
    await announceRequest(app, tx, game, power, { id: created.id, userId: created.userId, status: 'pending' });
    // The game master is told by mail and push too (named where the policy shows names).
    if (app.play.notify) await notifySeatOpened(tx, app.play.notify, gameId, power, { requestedBy: user });
    return seatRequestOutcomeView(game, power, created, false, user);
  });
}

/** The request named, for the seat named; 404 when the seat has no such request. */
async function requestOf(tx: Transaction, seat: LoadedPlayer, requestId: string): Promise<SeatRequestRow> {
  const row = await tx.seatRequest.findFirst({ where: { id: requestId, playerId: seat.id }, include: requestInclude });
  if (!row) throw notFound(`no request with that id for ${seat.power}'s seat`);
  return row;
}

function requirePending(row: SeatRequestRow): void {
  if (row.status !== 'pending') throw conflict('request_closed', `the request was ${row.status} already`);
}

/** The game master decides a request: approving hands the seat over (and declines the others), declining only closes it. */
export async function decideRequest(
  app: FastifyInstance,
  user: User,
  gameId: string,
  power: string,
  requestId: string,
  approve: boolean,
): Promise<SeatRequestOutcome> {
  const outcome = await withLockedGame(app, gameId, user, async (tx, context) => {
    requireGameMaster(context);
    const seat = seatOf(context, power);
    const row = await requestOf(tx, seat, requestId);
    requirePending(row);
    if (!approve) {
      const declined = await tx.seatRequest.update({
        where: { id: row.id },
        data: { status: 'declined', decidedAt: new Date(), decidedById: user.id },
        include: requestInclude,
      });
      await announceRequest(app, tx, context.game, power, { id: declined.id, userId: declined.userId, status: 'declined' });
      return seatRequestOutcomeView(context.game, power, declined, false, user);
    }
    // Choosing who plays a rival power is what a game master who plays may do only with everyone's consent (gm/consent.ts).
    if (context.playsAsGameMaster)
      throw forbidden('game_master_plays', "you play in this game: hand the seat on with the game master's Replace tool, which asks the other players first");
    requireActive(context);
    if (!seat.replacementWantedAt) throw conflict('seat_not_offered', `${power}'s seat is no longer offered to new players`);
    const approved = await handOver(app, tx, context, seat, row, user.id);
    return seatRequestOutcomeView(context.game, power, approved, true, user);
  });
  app.scheduler.wake();
  return outcome;
}

/** The requester withdraws their request while it waits. */
export async function withdrawRequest(app: FastifyInstance, user: User, gameId: string, power: string, requestId: string): Promise<SeatRequestOutcome> {
  return app.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM games WHERE id = ${gameId}::uuid FOR UPDATE`;
    const game = gameOf(await tx.game.findUnique({ where: { id: gameId }, include: gameContextInclude }));
    const seat = game?.players.find((player) => player.power === power);
    // One's own request is all this needs: nobody learns here of a private game they have not asked to join.
    const row = seat ? await tx.seatRequest.findFirst({ where: { id: requestId, playerId: seat.id, userId: user.id }, include: requestInclude }) : null;
    if (!game || !seat || !row) throw notFound('you have no request with that id for that seat');
    requirePending(row);
    const withdrawn = await tx.seatRequest.update({ where: { id: row.id }, data: { status: 'withdrawn', decidedAt: new Date() }, include: requestInclude });
    await announceRequest(app, tx, game, power, { id: withdrawn.id, userId: withdrawn.userId, status: 'withdrawn' });
    return seatRequestOutcomeView(game, power, withdrawn, false, user);
  });
}
