/**
 * A game as a viewer may see it: the lists' summary and the game's page, its
 * seats, and the lobby's live events of seats taken and given up. Names of
 * players only where the game reveals them to the viewer, the invite code only
 * to members, the invitation to run it only to those it concerns
 * (access/policy.ts decides each).
 */
import type { Rulebook } from '../../shared/index.ts';
import type { GameDetail, GameSummary, Player } from '../../shared/api/games.ts';
import type { LiveEvent } from '../../shared/api/live.ts';
import type { Db, Prisma } from '../db/database.ts';
import { correspondenceOf, gameOf, type StoredGame } from '../db/tables/games.ts';
import { notFound } from '../errors.ts';
import type { Auth } from '../auth/caller.ts';
import {
  isInvitedGameMaster,
  mayShareInvite,
  mayView,
  revealsNames,
  seesGameMasterInvitation,
  shownUser,
  sittingFor,
  type Absence,
  type GameFacts,
} from '../access/policy.ts';
import { sitterAbsences } from '../play/context.ts';
import { variantPowers } from '../play/variants.ts';
import { phaseRef, playerStatusOnWire } from './phase.ts';
import { viewed } from './viewed.ts';

type Viewer = Auth['user'] | null;

export const gameInclude = {
  gameMaster: { select: { id: true, username: true } },
  invitedGameMaster: { select: { id: true, username: true } },
  // By id: random for seats, so the order tells nobody who joined first (the creator).
  players: { include: { user: { select: { id: true, username: true } } }, orderBy: { id: 'asc' } },
} satisfies Prisma.GameInclude;
export type LoadedGame = StoredGame<Prisma.GameGetPayload<{ include: typeof gameInclude }>>;
/** What the summary and the seats read: a game loaded here, or for game play (play/context.ts, without the invitation). */
type ShownGame = Omit<LoadedGame, 'invitedGameMaster'>;

/** A game as the lists show it. */
export function gameSummaryView(game: ShownGame, viewer: Viewer): GameSummary {
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
    outcome: game.outcome,
    pausedAt: game.pausedAt?.toISOString() ?? null,
    finalAt: game.finalAt?.toISOString() ?? null,
    imported: game.importedAt !== null,
    invitedYou: isInvitedGameMaster(game, viewer),
  };
}

/** A page of a list of games, newest first. */
export function gameListView(games: LoadedGame[], nextCursor: string | null, viewer: Viewer) {
  return viewed({ games: games.map((game) => gameSummaryView(game, viewer)), nextCursor });
}

/** The game's seats as this viewer may see them, in the variant's order of powers once they are assigned (before that, by seat id, which is random). */
export function seatsView(game: ShownGame, viewer: Viewer): Player[] {
  const reveal = revealsNames(game, viewer);
  const powers = variantPowers(game.variantId) ?? [];
  const place = new Map(powers.map((power, i) => [power.id, i]));
  const seats = [...game.players].sort((a, b) => (place.get(a.power ?? '') ?? powers.length) - (place.get(b.power ?? '') ?? powers.length));
  return seats.map((player) => ({
    id: player.id,
    user: shownUser(reveal, viewer, player.user),
    power: player.power,
    status: playerStatusOnWire(player.status),
    missedDeadlines: player.missedDeadlines,
    isYou: player.userId === viewer?.id,
  }));
}

/** A game as its page shows it: the summary, its seats as the viewer may see them, and where it stands. */
export async function gameDetailView(db: Db, game: LoadedGame & { absences?: Absence[] }, viewer: Viewer): Promise<GameDetail> {
  const you = game.players.find((player) => player.userId === viewer?.id);
  const sitting = game.status === 'active' ? sittingFor({ ...game, absences: game.absences ?? (await sitterAbsences(db, game, viewer)) }, viewer) : null;
  const phase = await db.phase.findFirst({
    where: { gameId: game.id },
    orderBy: { index: 'desc' },
    select: { index: true, name: true, kind: true, deadlineAt: true },
  });
  return viewed({
    ...gameSummaryView(game, viewer),
    maxMissedDeadlines: game.maxMissedDeadlines,
    powerAssignment: game.powerAssignment,
    autoStart: game.autoStart,
    correspondence: correspondenceOf(game),
    campaign: game.campaign,
    powers: variantPowers(game.variantId) ?? [],
    players: seatsView(game, viewer),
    inviteCode: mayShareInvite(game, viewer) ? game.inviteCode : null,
    yourPowerPreferences: you ? you.powerPreferences : null,
    currentPhase: phase ? phaseRef(phase) : null,
    imported: game.importedAt !== null,
    gameMasterPlays: game.players.some((player) => player.userId === game.gameMasterId),
    invitedGameMaster: game.invitedGameMaster && seesGameMasterInvitation(game, viewer) ? game.invitedGameMaster : null,
    sittingFor: sitting?.seat.power ? { power: sitting.seat.power, until: sitting.until.toISOString() } : null,
  });
}

/** The game's page for this viewer; 404 when they may not see it (the invite code, when given, opens a private game). */
export async function readGame(db: Db, viewer: Viewer, gameId: string, inviteCode?: string): Promise<GameDetail> {
  const stored = gameOf(await db.game.findUnique({ where: { id: gameId }, include: gameInclude }));
  // A sitter may see the game of the player they sit for (access/policy.ts sittingFor).
  const game = stored && { ...stored, absences: await sitterAbsences(db, stored, viewer) };
  if (!game || !mayView(game, viewer, inviteCode)) throw notFound('no game with that id');
  return gameDetailView(db, game, viewer);
}

/**
 * A seat taken or given up, as the game's watchers and (a public game) the lobby hear it: the player named only where
 * the game shows names to anyone at all (the channels are not one viewer's).
 */
export function seatChangedEvent(
  type: 'player.joined' | 'player.left',
  game: GameFacts & { id: string; seats: number },
  playerCount: number,
  user: { id: string; username: string },
): Extract<LiveEvent, { type: 'player.joined' | 'player.left' }> {
  return { type, gameId: game.id, playerCount, seats: game.seats, user: shownUser(revealsNames(game, null), null, user) };
}
