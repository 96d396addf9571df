/**
 * A game loaded for one viewer, with what the access rules (access/policy.ts)
 * grant them, for every game-play domain (orders, phases, press, loans, votes,
 * game master, archive).
 *
 * Writes lock the game row first (`lockedGame`): every change to a game's
 * phases, orders, loans, votes and seats happens under that one lock, and the
 * scheduler claims games with the same lock (SKIP LOCKED), so they serialise.
 */
import type { FastifyInstance } from 'fastify';
import type { Variant } from '../../shared/index.ts';
import type { Db, Prisma, Transaction } from '../db/database.ts';
import { gameOf, type StoredGame } from '../db/tables/games.ts';
import { HttpError, conflict, forbidden, notFound } from '../errors.ts';
import type { Auth } from '../auth/caller.ts';
import { playableVariant } from './variants.ts';
import {
  actsAsGameMaster,
  mayView,
  playsAsGameMaster,
  pressReach,
  revealsNames,
  seatOf as seatOfViewer,
  shownUser as shownUserOf,
  sittingFor,
  type Absence,
  type PressReach,
} from '../access/policy.ts';

export type Viewer = Auth['user'] | null;

export const gameContextInclude = {
  // By id: random for seats, so the order tells nobody who joined first (the creator).
  players: { include: { user: { select: { id: true, username: true } } }, orderBy: { id: 'asc' } },
  gameMaster: { select: { id: true, username: true } },
} satisfies Prisma.GameInclude;
export type LoadedGame = StoredGame<Prisma.GameGetPayload<{ include: typeof gameContextInclude }>> & {
  /** Absences whose sitter is the viewer (`sitterAbsences`): what `sittingFor` reads. */
  absences?: Absence[];
};
export type LoadedPlayer = LoadedGame['players'][number];

export type GameContext = {
  game: LoadedGame;
  variant: Variant;
  viewer: Viewer;
  /** The viewer's seat, if any. */
  seat: LoadedPlayer | null;
  /** The seat the viewer sits for, for an absent player, and until when (access/policy.ts `sittingFor`). */
  sitting: { seat: LoadedPlayer; until: Date; absenceId: string } | null;
  /** The game's game master or an administrator: may use the game master's tools. */
  isGameMaster: boolean;
  /** A game master who also plays a power: a player first (access/policy.ts). */
  playsAsGameMaster: boolean;
  /** Whether user names may be shown to this viewer. */
  revealNames: boolean;
  /** Which press this viewer may read. */
  press: PressReach;
  /** When the context was made: what "final" is judged against. */
  now: Date;
};

export function makeContext(game: LoadedGame, viewer: Viewer, now = new Date()): GameContext {
  const variant = playableVariant(game.variantId, game.rules);
  // Games exist only in variants the engine ships (lobby.ts); a missing one is a deployment error.
  if (!variant) throw new HttpError(422, 'variant_unavailable', `the rules engine cannot play variant "${game.variantId}"`);
  return {
    game,
    variant,
    viewer,
    seat: seatOfViewer(game, viewer),
    sitting: sittingFor(game, viewer, now),
    isGameMaster: actsAsGameMaster(game, viewer),
    playsAsGameMaster: playsAsGameMaster(game, viewer),
    revealNames: revealsNames(game, viewer, now),
    press: pressReach(game, viewer, now),
    now,
  };
}

/**
 * The absences covering `now` of the game's players whose sitter is the viewer: read only for a logged-in viewer
 * without a seat in the game (only they can sit, access/policy.ts `sittingFor`).
 */
export async function sitterAbsences(db: Db, game: Pick<LoadedGame, 'players' | 'gameMasterId'>, viewer: Viewer, now = new Date()): Promise<Absence[]> {
  if (!viewer || game.gameMasterId === viewer.id || seatOfViewer(game, viewer)) return [];
  const absent = game.players.map((player) => player.userId).filter((id) => id !== null);
  if (absent.length === 0) return [];
  return db.vacation.findMany({
    where: { sitterId: viewer.id, userId: { in: absent }, cancelledAt: null, startsAt: { lte: now }, endsAt: { gt: now } },
    select: { id: true, userId: true, sitterId: true, startsAt: true, endsAt: true },
    // Named by two players of one game, a sitter sits for the one who asked first: never two powers.
    orderBy: { createdAt: 'asc' },
  });
}

/** Loads a game for reading; 404 when it does not exist or the viewer may not see it. */
export async function viewableGame(db: Db, gameId: string, viewer: Viewer): Promise<GameContext> {
  const stored = gameOf(await db.game.findUnique({ where: { id: gameId }, include: gameContextInclude }));
  const now = new Date();
  const absences = stored ? await sitterAbsences(db, stored, viewer, now) : [];
  const game: LoadedGame | null = stored && absences.length > 0 ? { ...stored, absences } : stored;
  if (!game || !mayView(game, viewer)) throw notFound('no game with that id');
  return makeContext(game, viewer, now);
}

/** Locks the game row for the rest of the transaction, then loads it (404 as above). */
export async function lockedGame(tx: Transaction, gameId: string, viewer: Viewer): Promise<GameContext> {
  await tx.$queryRaw`SELECT id FROM games WHERE id = ${gameId}::uuid FOR UPDATE`;
  return viewableGame(tx, gameId, viewer);
}

/** Runs `work` in a transaction holding the game's lock. */
export function withLockedGame<T>(
  app: FastifyInstance,
  gameId: string,
  viewer: Viewer,
  work: (tx: Transaction, context: GameContext) => Promise<T>,
): Promise<T> {
  return app.prisma.$transaction(async (tx) => work(tx, await lockedGame(tx, gameId, viewer)));
}

export function requireActive(context: GameContext): void {
  const { status } = context.game;
  if (status === 'active') return;
  const why = status === 'forming' ? 'has not started yet' : status === 'finished' ? 'is over' : 'was cancelled';
  throw conflict('game_not_active', `the game ${why}`);
}

export function requireGameMaster(context: GameContext): void {
  if (!context.isGameMaster) throw forbidden('not_game_master', 'only the game master can do that');
}

/** The viewer's power; 403 for someone without one (the game master without a seat, a spectator). */
export function requirePower(context: GameContext): { power: string; seat: LoadedPlayer } {
  const seat = context.seat;
  if (!seat?.power) throw forbidden('forbidden', 'you play no power in this game');
  return { power: seat.power, seat };
}

/** The power the viewer acts for in play (orders, ready): their own, or the one they sit for; 403 otherwise. */
export function requireActingPower(context: GameContext): { power: string; seat: LoadedPlayer; sitting: boolean } {
  if (context.seat?.power) return { power: context.seat.power, seat: context.seat, sitting: false };
  const sat = context.sitting?.seat;
  if (sat?.power) return { power: sat.power, seat: sat, sitting: true };
  throw forbidden('forbidden', 'you play no power in this game (nor sit for one now)');
}

/** The seat of a power named in a request (game-master tools); 404 when the game has no such power. */
export function seatOf(context: GameContext, power: string): LoadedPlayer {
  const seat = context.game.players.find((player) => player.power === power);
  if (!seat) throw notFound(`no power "${power}" in this game (${context.variant.powers.join(', ')})`);
  return seat;
}

/** A user shown to this viewer: null where the game hides names. */
export function shownUser(context: GameContext, user: { id: string; username: string } | null): { id: string; username: string } | null {
  return shownUserOf(context.revealNames, context.viewer, user);
}
