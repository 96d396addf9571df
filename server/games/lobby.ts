/**
 * The lobby: creating, listing, viewing, joining, leaving and starting games.
 * Route handlers (routes.ts) stay thin; the rules live here.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Rulebook } from '../../shared/index.ts';
import type { CreateGameRequestSchema, GameDetail, GameSummary, JoinGameRequestSchema, ListGamesQuerySchema, Player } from '../../shared/api/games.ts';
import type { LiveChannel, LiveEvent } from '../../shared/api/live.ts';
import type { z } from 'zod';
import type { Prisma, Transaction } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { decodeCursor, olderThan, pageOf } from '../keyset.ts';
import { HttpError, badRequest, conflict, forbidden, notFound, unauthenticated } from '../errors.ts';
import type { Auth } from '../types.ts';
import { actsAsGameMaster } from '../play/context.ts';
import { createFirstPhase } from './first-phase.ts';
import { assignPowers } from './power-assignment.ts';
import { variantPowers, type VariantPower } from './variants.ts';

type Viewer = Auth['user'] | null;
type User = Auth['user'];

export const gameInclude = {
  gameMaster: { select: { id: true, username: true } },
  players: { include: { user: { select: { id: true, username: true } } }, orderBy: { joinedAt: 'asc' } },
} satisfies Prisma.GameInclude;
export type LoadedGame = Prisma.GameGetPayload<{ include: typeof gameInclude }>;

// ───────────────────────────── reading ─────────────────────────────

function isMember(game: LoadedGame, viewer: Viewer): boolean {
  return !!viewer && (game.gameMasterId === viewer.id || game.players.some((player) => player.userId === viewer.id));
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Private games are visible to their members, site administrators and whoever has the invite code;
 * finished games to all (the archive).
 */
export function canView(game: LoadedGame, viewer: Viewer, inviteCode?: string): boolean {
  if (!game.private || game.status === 'finished' || isMember(game, viewer) || actsAsGameMaster(game, viewer)) return true;
  return !!inviteCode && !!game.inviteCode && sameSecret(inviteCode, game.inviteCode);
}

export function toSummary(game: LoadedGame, viewer: Viewer): GameSummary {
  return {
    id: game.id,
    name: game.name,
    variant: game.variantId,
    status: game.status,
    seats: game.seats,
    playerCount: game.players.length,
    press: game.pressKind,
    anonymous: game.anonymous,
    private: game.private,
    deadlines: {
      movement: game.movementDeadlineSeconds,
      retreat: game.retreatDeadlineSeconds,
      adjustment: game.adjustmentDeadlineSeconds,
    },
    rules: game.rules as Rulebook,
    gameMaster: game.gameMaster,
    createdAt: game.createdAt.toISOString(),
    startedAt: game.startedAt?.toISOString() ?? null,
    finishedAt: game.finishedAt?.toISOString() ?? null,
    joined: !!viewer && game.players.some((player) => player.userId === viewer.id),
    outcome: (game.outcome as GameSummary['outcome']) ?? null,
    pausedAt: game.pausedAt?.toISOString() ?? null,
  };
}

/** In anonymous games players see only themselves until the game ends; the game master (and an administrator) sees all. */
export function revealsPlayers(game: LoadedGame, viewer: Viewer): boolean {
  return !game.anonymous || game.status === 'finished' || actsAsGameMaster(game, viewer);
}

async function toDetail(app: FastifyInstance, game: LoadedGame, viewer: Viewer): Promise<GameDetail> {
  const reveal = revealsPlayers(game, viewer);
  const players: Player[] = game.players.map((player) => {
    const isYou = player.userId === viewer?.id;
    return {
      id: player.id,
      user: reveal || isYou ? player.user : null,
      power: player.power,
      status: player.status === 'civil_disorder' ? 'civil-disorder' : player.status,
      missedDeadlines: player.missedDeadlines,
      isYou,
    };
  });
  const you = game.players.find((player) => player.userId === viewer?.id);
  const phase = await app.prisma.phase.findFirst({ where: { gameId: game.id }, orderBy: { index: 'desc' } });
  return {
    ...toSummary(game, viewer),
    maxMissedDeadlines: game.maxMissedDeadlines,
    powerAssignment: game.powerAssignment,
    autoStart: game.autoStart,
    powers: variantPowers(game.variantId) ?? [],
    players,
    inviteCode: game.private && (isMember(game, viewer) || actsAsGameMaster(game, viewer)) ? game.inviteCode : null,
    yourPowerPreferences: you ? you.powerPreferences : null,
    currentPhase: phase
      ? { index: phase.index, name: phase.name, kind: phase.kind, deadlineAt: phase.deadlineAt?.toISOString() ?? null }
      : null,
    imported: game.importedAt !== null,
  };
}

export async function viewGame(app: FastifyInstance, viewer: Viewer, gameId: string, inviteCode?: string): Promise<GameDetail> {
  const game = await app.prisma.game.findUnique({ where: { id: gameId }, include: gameInclude });
  if (!game || !canView(game, viewer, inviteCode)) throw notFound('no game with that id');
  return toDetail(app, game, viewer);
}

type ListQuery = z.output<typeof ListGamesQuerySchema>;

export async function listGames(app: FastifyInstance, viewer: Viewer, query: ListQuery) {
  const where: Prisma.GameWhereInput[] = [];
  if (query.filter === 'mine') {
    if (!viewer) throw unauthenticated('log in to list your games');
    where.push({ OR: [{ gameMasterId: viewer.id }, { players: { some: { userId: viewer.id } } }] });
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
  return { games: page.map((game) => toSummary(game, viewer)), nextCursor };
}

// ───────────────────────────── writing ─────────────────────────────

function powersOrFail(variantId: string): VariantPower[] {
  const powers = variantPowers(variantId);
  if (!powers) throw new HttpError(422, 'variant_unavailable', `the rules engine cannot play variant "${variantId}" yet`);
  return powers;
}

function checkPreferences(preferences: string[], powers: VariantPower[], variantId: string, field: string): void {
  const known = new Set(powers.map((power) => power.id));
  const unknown = preferences.filter((power) => !known.has(power));
  if (unknown.length > 0) {
    throw badRequest(
      'validation_failed',
      `${field}: ${unknown.map((power) => `"${power}"`).join(', ')} not a power of ${variantId} (${[...known].join(', ')})`,
    );
  }
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
  const game = await tx.game.findUnique({ where: { id: gameId }, include: gameInclude });
  if (!game) throw notFound('no game with that id');
  return game;
}

export async function createGame(app: FastifyInstance, creator: User, request: z.output<typeof CreateGameRequestSchema>) {
  const powers = powersOrFail(request.variant);
  checkPreferences(request.powerPreferences, powers, request.variant, 'body.powerPreferences');
  let gameMasterId = creator.id;
  if (request.gameMaster !== undefined) {
    const master = await app.prisma.user.findUnique({ where: { usernameKey: request.gameMaster.toLowerCase() } });
    if (!master) throw badRequest('validation_failed', `body.gameMaster: there is no user named "${request.gameMaster}"`);
    gameMasterId = master.id;
  }
  const gameId = await app.prisma.$transaction(async (tx) => {
    const game = await tx.game.create({
      data: {
        name: request.name,
        variantId: request.variant,
        createdById: creator.id,
        gameMasterId,
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
        seats: powers.length,
        players: request.joinAsPlayer ? { create: { userId: creator.id, powerPreferences: request.powerPreferences } } : undefined,
      },
    });
    const playerCount = request.joinAsPlayer ? 1 : 0;
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
  return viewGame(app, creator, gameId);
}

export async function joinGame(app: FastifyInstance, user: User, gameId: string, request: z.output<typeof JoinGameRequestSchema>) {
  await app.prisma
    .$transaction(async (tx) => {
      const game = await lockGame(tx, gameId);
      // Members and administrators see the game: they are told why they cannot join, not that it does not exist.
      if (game.private && !canView(game, user) && !(request.inviteCode && game.inviteCode && sameSecret(request.inviteCode, game.inviteCode))) {
        // Without a valid code a private game does not exist for you, unless you already knew the code.
        if (!request.inviteCode) throw notFound('no game with that id');
        throw forbidden('invalid_invite_code', 'the invite code is wrong');
      }
      if (game.status !== 'forming') throw conflict('not_joinable', `the game is ${game.status}, not waiting for players`);
      if (game.players.some((player) => player.userId === user.id)) throw conflict('already_joined', 'you already have a seat in this game');
      if (game.players.length >= game.seats) throw conflict('game_full', 'all seats are taken');
      const powers = powersOrFail(game.variantId);
      checkPreferences(request.powerPreferences, powers, game.variantId, 'body.powerPreferences');

      await tx.player.create({ data: { gameId, userId: user.id, powerPreferences: request.powerPreferences } });
      const playerCount = game.players.length + 1;
      await publishLobbyEvent(app, tx, game, {
        type: 'player.joined',
        ...lobbyEventFields(game, playerCount),
        user: game.anonymous ? null : { id: user.id, username: user.username },
      });
      if (playerCount === game.seats && game.autoStart) await startGame(app, tx, gameId);
    })
    .catch((error: unknown) => {
      // Two joins by the same user racing past the check above.
      if (isUniqueViolation(error)) throw conflict('already_joined', 'you already have a seat in this game');
      throw error;
    });
  return viewGame(app, user, gameId);
}

export async function leaveGame(app: FastifyInstance, user: User, gameId: string) {
  await app.prisma.$transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    const seat = game.players.find((player) => player.userId === user.id);
    if (!seat) {
      if (!canView(game, user)) throw notFound('no game with that id');
      throw conflict('not_a_player', 'you have no seat in this game');
    }
    if (game.status !== 'forming') throw conflict('not_joinable', `the game is ${game.status}: seats can only be left before it starts`);
    await tx.player.delete({ where: { id: seat.id } });
    await publishLobbyEvent(app, tx, game, {
      type: 'player.left',
      ...lobbyEventFields(game, game.players.length - 1),
      user: game.anonymous ? null : { id: user.id, username: user.username },
    });
  });
  return viewGame(app, user, gameId);
}

/** The game master starts a full game (needed when autoStart is off). */
export async function startGameAsMaster(app: FastifyInstance, user: User, gameId: string) {
  await app.prisma.$transaction(async (tx) => {
    const game = await lockGame(tx, gameId);
    if (!actsAsGameMaster(game, user)) {
      if (!canView(game, user)) throw notFound('no game with that id');
      throw forbidden('forbidden', 'only the game master can start the game');
    }
    if (game.status !== 'forming') throw conflict('not_joinable', `the game is ${game.status} already`);
    if (game.players.length < game.seats) {
      throw conflict('game_not_full', `${game.players.length} of ${game.seats} seats are taken; the game starts when all are`);
    }
    await startGame(app, tx, gameId);
  });
  return viewGame(app, user, gameId);
}

/** Assigns the powers, marks the game active and creates its first phase. The game row is locked. */
async function startGame(app: FastifyInstance, tx: Transaction, gameId: string): Promise<void> {
  const game = await tx.game.findUniqueOrThrow({ where: { id: gameId }, include: gameInclude });
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
}
