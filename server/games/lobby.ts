/**
 * The lobby: creating, listing, viewing, joining, leaving and starting games.
 * Route handlers (routes.ts) stay thin; the rules live here.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CreateGameRequestSchema, JoinGameRequestSchema, ListGamesQuerySchema } from '../../shared/api/games.ts';
import type { LiveChannel, LiveEvent } from '../../shared/api/live.ts';
import type { z } from 'zod';
import type { Prisma, Transaction } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { correspondenceColumns, gameOf, gameValues } from '../db/tables/games.ts';
import { decodeCursor, olderThan, pageOf } from '../keyset.ts';
import { HttpError, conflict, forbidden, invalid, notFound, unauthenticated } from '../errors.ts';
import type { Auth } from '../auth/caller.ts';
import { actsAsGameMaster, mayView } from '../access/policy.ts';
import { gameInclude, gameListView, readGame, seatChangedEvent, type LoadedGame } from '../views/game.ts';
import { createFirstPhase } from '../play/first-phase.ts';
import { notifyGameStarted } from '../notify/game-events.ts';
import { assignPowers } from './power-assignment.ts';
import { checkSeatRules } from '../play/seat-rules.ts';
import { variantPowers, type VariantPower } from '../play/variants.ts';
import { campaignOf } from '../play/campaign.ts';

type Viewer = Auth['user'] | null;
type User = Auth['user'];

type ListQuery = z.output<typeof ListGamesQuerySchema>;

export async function listGames(app: FastifyInstance, viewer: Viewer, query: ListQuery) {
  const where: Prisma.GameWhereInput[] = [];
  if (query.filter === 'mine') {
    if (!viewer) throw unauthenticated('log in to list your games');
    // The games one runs or plays, and those one is asked to run.
    where.push({ OR: [{ gameMasterId: viewer.id }, { players: { some: { userId: viewer.id } } }, { invitedGameMasterId: viewer.id }] });
  } else {
    const status = { open: 'forming', active: 'active', finished: 'finished' } as const;
    // Finished games are the public archive, private ones included.
    where.push(query.filter === 'finished' ? { status: 'finished' } : { status: status[query.filter], private: false });
  }
  if (query.variant) where.push({ variantId: query.variant });
  // Every finished game has its finishedAt (set when it ends, or by the import).
  const key = query.filter === 'finished' ? 'finishedAt' : 'createdAt';
  // Newest first; the archive of finished games by when they finished (the latest first).
  if (query.cursor) where.push(olderThan(key, decodeCursor(query.cursor)));
  const games = await app.prisma.game.findMany({
    where: { AND: where },
    include: gameInclude,
    orderBy: [{ [key]: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
  const { page, nextCursor } = pageOf(games, query.limit, (game) => game[key] ?? game.createdAt);
  return gameListView(
    page.map((game) => gameOf(game)),
    nextCursor,
    viewer,
  );
}

// ───────────────────────────── writing ─────────────────────────────

function powersOrFail(variantId: string): VariantPower[] {
  const powers = variantPowers(variantId);
  if (!powers) throw new HttpError(422, 'variant_unavailable', `the rules engine cannot play variant "${variantId}" yet`);
  return powers;
}

function checkPreferences(preferences: string[], powers: VariantPower[], variantId: string, field: `body.${string}`): void {
  const known = new Set(powers.map((power) => power.id));
  const unknown = preferences.filter((power) => !known.has(power));
  if (unknown.length > 0) throw invalid(field, `${unknown.map((power) => `"${power}"`).join(', ')} not a power of ${variantId} (${[...known].join(', ')})`);
}

function lobbyEventFields(game: { id: string; seats: number }, playerCount: number) {
  return { gameId: game.id, playerCount, seats: game.seats };
}

/** Publishes on the game's channel, and on the lobby's for public games. */
async function publishLobbyEvent(app: FastifyInstance, tx: Transaction, game: { id: string; private: boolean }, event: LiveEvent) {
  await app.bus.publish(tx, `game:${game.id}` as LiveChannel, event);
  if (!game.private) await app.bus.publish(tx, 'lobby', event);
}

/** Locks the game row for the rest of the transaction, so concurrent joins cannot overfill it. */
async function lockGame(tx: Transaction, gameId: string): Promise<LoadedGame> {
  await tx.$queryRaw`SELECT id FROM games WHERE id = ${gameId}::uuid FOR UPDATE`;
  const game = gameOf(await tx.game.findUnique({ where: { id: gameId }, include: gameInclude }));
  if (!game) throw notFound('no game with that id');
  return game;
}

export async function createGame(app: FastifyInstance, creator: User, request: z.output<typeof CreateGameRequestSchema>) {
  const powers = powersOrFail(request.variant);
  checkPreferences(request.powerPreferences, powers, request.variant, 'body.powerPreferences');
  const campaign = request.campaign && campaignOf(request.variant, request.campaign, 'body.campaign');
  // Nobody is made a game master without saying yes: the one named is asked (the creator runs the game until they accept).
  let invitedGameMasterId: string | null = null;
  if (request.gameMaster !== undefined) {
    const master = await app.prisma.user.findUnique({ where: { usernameKey: request.gameMaster.toLowerCase() } });
    if (!master) throw invalid('body.gameMaster', `there is no user named "${request.gameMaster}"`);
    if (master.id !== creator.id) invitedGameMasterId = master.id;
  }
  const gameId = await app.prisma.$transaction(async (tx) => {
    const game = await tx.game.create({
      data: {
        name: request.name,
        variantId: request.variant,
        createdById: creator.id,
        gameMasterId: creator.id,
        invitedGameMasterId,
        movementDeadlineSeconds: request.deadlines.movement,
        retreatDeadlineSeconds: request.deadlines.retreat,
        adjustmentDeadlineSeconds: request.deadlines.adjustment,
        pressKind: request.press,
        anonymous: request.anonymous,
        private: request.private,
        inviteCode: request.private ? randomBytes(12).toString('base64url') : null,
        maxMissedDeadlines: request.maxMissedDeadlines,
        powerAssignment: request.powerAssignment,
        rules: request.rules,
        autoStart: request.autoStart,
        ...correspondenceColumns(request.correspondence),
        ...gameValues({ campaign }),
        seats: powers.length,
        players: request.joinAsPlayer ? { create: { userId: creator.id, powerPreferences: request.powerPreferences } } : undefined,
      },
    });
    const playerCount = request.joinAsPlayer ? 1 : 0;
    // The one asked hears of it on their own channel (their lobby shows the invitation), private game or not.
    if (invitedGameMasterId) await app.bus.publish(tx, `user:${invitedGameMasterId}`, { type: 'gm.invitation', gameId: game.id, pending: true });
    if (!game.private) {
      await app.bus.publish(tx, 'lobby', {
        type: 'game.created',
        ...lobbyEventFields(game, playerCount),
        name: game.name,
        variant: game.variantId,
      });
    }
    return game.id;
  });
  return readGame(app.prisma, creator, gameId);
}

export async function joinGame(app: FastifyInstance, user: User, gameId: string, request: z.output<typeof JoinGameRequestSchema>) {
  await app.prisma
    .$transaction(async (tx) => {
      const game = await lockGame(tx, gameId);
      // Members and administrators see the game: they are told why they cannot join, not that it does not exist.
      if (game.private && !mayView(game, user, request.inviteCode)) {
        // Without a valid code a private game does not exist for you, unless you already knew the code.
        if (!request.inviteCode) throw notFound('no game with that id');
        throw forbidden('invalid_invite_code', 'the invite code is wrong');
      }
      if (game.status !== 'forming') throw conflict('not_joinable', `the game is ${game.status}, not waiting for players`);
      if (game.players.some((player) => player.userId === user.id)) throw conflict('already_joined', 'you already have a seat in this game');
      if (game.players.length >= game.seats) throw conflict('game_full', 'all seats are taken');
      await checkSeatRules(tx, game, user, 'join this game');
      const powers = powersOrFail(game.variantId);
      checkPreferences(request.powerPreferences, powers, game.variantId, 'body.powerPreferences');

      await tx.player.create({ data: { gameId, userId: user.id, powerPreferences: request.powerPreferences } });
      const playerCount = game.players.length + 1;
      await publishLobbyEvent(app, tx, game, seatChangedEvent('player.joined', game, playerCount, user));
      if (playerCount === game.seats && game.autoStart) await startGame(app, tx, gameId);
    })
    .catch((error: unknown) => {
      // Two joins by the same user racing past the check above.
      if (isUniqueViolation(error)) throw conflict('already_joined', 'you already have a seat in this game');
      throw error;
    });
  return readGame(app.prisma, user, gameId);
}

export async function leaveGame(app: FastifyInstance, user: User, gameId: string) {
  // A private game's code: the one leaving joined with it, and may still look at the game they left.
  const inviteCode = await app.prisma.$transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    const seat = game.players.find((player) => player.userId === user.id);
    if (!seat) {
      if (!mayView(game, user)) throw notFound('no game with that id');
      throw conflict('not_a_player', 'you have no seat in this game');
    }
    if (game.status !== 'forming') throw conflict('not_joinable', `the game is ${game.status}: seats can only be left before it starts`);
    await tx.player.delete({ where: { id: seat.id } });
    await publishLobbyEvent(app, tx, game, seatChangedEvent('player.left', game, game.players.length - 1, user));
    return game.inviteCode ?? undefined;
  });
  return readGame(app.prisma, user, gameId, inviteCode);
}

/** The game master starts a full game (needed when autoStart is off). */
export async function startGameAsMaster(app: FastifyInstance, user: User, gameId: string) {
  await app.prisma.$transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!actsAsGameMaster(game, user)) {
      if (!mayView(game, user)) throw notFound('no game with that id');
      throw forbidden('forbidden', 'only the game master can start the game');
    }
    if (game.status !== 'forming') throw conflict('not_joinable', `the game is ${game.status} already`);
    if (game.players.length < game.seats) {
      throw conflict('game_not_full', `${game.players.length} of ${game.seats} seats are taken; the game starts when all are`);
    }
    await startGame(app, tx, gameId);
  });
  return readGame(app.prisma, user, gameId);
}

/** Assigns the powers, marks the game active and creates its first phase. The game row is locked. */
async function startGame(app: FastifyInstance, tx: Transaction, gameId: string): Promise<void> {
  const game = gameOf(await tx.game.findUniqueOrThrow({ where: { id: gameId }, include: gameInclude }));
  const powers = powersOrFail(game.variantId);
  const assignment = assignPowers(
    game.players.map((player) => ({ playerId: player.id, preferences: player.powerPreferences })),
    powers.map((power) => power.id),
    game.powerAssignment,
    app.settings.random,
  );
  for (const [playerId, power] of assignment) {
    await tx.player.update({ where: { id: playerId }, data: { power } });
  }
  await tx.game.update({ where: { id: gameId }, data: { status: 'active', startedAt: new Date() } });
  await publishLobbyEvent(app, tx, game, { type: 'game.started', ...lobbyEventFields(game, game.players.length) });
  await createFirstPhase(tx, app.bus, game);
  if (app.play.notify) await notifyGameStarted(tx, app.play.notify, gameId);
}
