/**
 * Who may see and do what in a game: the one place these rules are written.
 * Every route, live event, export and public page asks here; none decides
 * for itself (a new one that did could leak an anonymous game).
 *
 * - **Seeing a game**: a public game, everyone; a private one, its members
 *   (players and game master), site administrators, and whoever has its invite
 *   code; a finished game, everyone (the archive).
 * - **Acting as game master**: the game's game master, and site administrators
 *   (who act as the game master of every game).
 * - **A game master who plays** (the default for a game's creator, or an
 *   administrator with a seat) is a player first: they see what a player sees
 *   (no names in an anonymous game, no press not addressed to them), they may
 *   not enter orders for other powers, and the tools that could give them
 *   information or an advantage act only with the other players' consent
 *   (server/gm/consent.ts).
 * - **Secrets** — private press between powers, and who plays which power in
 *   an anonymous game — stay hidden until the game's result is *final*: a
 *   finished game may still be re-opened by its game master for a while
 *   (`finalAt`, set when it ends), and what players read in the meantime they
 *   could not unread. Once final, everything is public and nothing re-opens it.
 * - **A sitter** (chosen by a player for a declared absence) acts as that
 *   player's power while the absence lasts: orders, readiness, its press
 *   (`sittingFor`). Not in a game where the sitter plays or is game master.
 * - **Orders** are nobody's but their power's until the phase is processed
 *   (not the game master's, not an administrator's), then everyone's.
 */
import { timingSafeEqual } from 'node:crypto';
import type { GameStatus } from '../db/generated/enums.ts';

/** Who asks: a logged-in user, or nobody. */
export type Viewer = { id: string; isAdmin: boolean } | null;

/** What the rules read of a game (a loaded game row with its seats satisfies it). */
export type GameFacts = {
  private: boolean;
  anonymous: boolean;
  status: GameStatus;
  gameMasterId: string;
  /** Someone asked to take over as game master, until they accept or decline. */
  invitedGameMasterId?: string | null;
  inviteCode?: string | null;
  finalAt: Date | null;
  players: ReadonlyArray<{ userId: string | null; power: string | null }>;
  /** Declared absences of the game's players whose sitter is the viewer, where loaded (`sittingFor`). */
  absences?: ReadonlyArray<Absence>;
};

/** A player's declared absence with a sitter (the vacations table). */
export type Absence = { id: string; userId: string; sitterId: string | null; startsAt: Date; endsAt: Date };

/** The game's game master, or a site administrator. */
export function actsAsGameMaster(game: Pick<GameFacts, 'gameMasterId'>, viewer: Viewer): boolean {
  return !!viewer && (game.gameMasterId === viewer.id || viewer.isAdmin);
}

/** The viewer's seat, if they hold one. */
export function seatOf<S extends GameFacts['players'][number]>(game: { players: ReadonlyArray<S> }, viewer: Viewer): S | null {
  return (viewer && game.players.find((seat) => seat.userId === viewer.id)) ?? null;
}

/**
 * The seat the viewer sits for at `now`: a seat whose player declared an absence covering now with the viewer as
 * sitter. Never for someone who holds a seat or runs the game (a sitter never controls two powers of one game, nor
 * a power of the game they run). The sitter then acts as that power (orders, ready) and reads its press.
 */
export function sittingFor<S extends GameFacts['players'][number]>(
  game: Pick<GameFacts, 'gameMasterId' | 'absences'> & { players: ReadonlyArray<S> },
  viewer: Viewer,
  now: Date = new Date(),
): { seat: S; until: Date; absenceId: string } | null {
  if (!viewer || !game.absences?.length || game.gameMasterId === viewer.id || seatOf(game, viewer)) return null;
  const at = now.getTime();
  for (const absence of game.absences) {
    if (absence.sitterId !== viewer.id || absence.startsAt.getTime() > at || absence.endsAt.getTime() <= at) continue;
    const seat = game.players.find((player) => player.userId === absence.userId && player.power);
    if (seat) return { seat, until: absence.endsAt, absenceId: absence.id };
  }
  return null;
}

/** Holds a seat or runs the game (administrators are not members by virtue of being administrators). */
export function isMember(game: GameFacts, viewer: Viewer): boolean {
  return !!viewer && (game.gameMasterId === viewer.id || seatOf(game, viewer) !== null);
}

/** A game master (or administrator) who also holds a seat in this game: a player first. */
export function playsAsGameMaster(game: GameFacts, viewer: Viewer): boolean {
  return actsAsGameMaster(game, viewer) && seatOf(game, viewer) !== null;
}

/** A game master's view: names, the invite code, everything but orders and press between powers. Not when they play. */
export function hasGameMasterView(game: GameFacts, viewer: Viewer): boolean {
  return actsAsGameMaster(game, viewer) && !playsAsGameMaster(game, viewer);
}

/** The result can no longer be undone: its secrets are public. */
export function isFinal(game: Pick<GameFacts, 'status' | 'finalAt'>, now: Date = new Date()): boolean {
  return game.status === 'finished' && game.finalAt !== null && game.finalAt.getTime() <= now.getTime();
}

/** Whether a finished game may still be re-opened (rolled back) by its game master. */
export function mayReopen(game: Pick<GameFacts, 'status' | 'finalAt'>, now: Date = new Date()): boolean {
  return game.status === 'finished' && !isFinal(game, now);
}

/** Whether `given` is the game's invite code, compared in constant time (the code is a secret). */
export function isInviteCode(game: Pick<GameFacts, 'inviteCode'>, given: string | undefined): boolean {
  if (!given || !game.inviteCode) return false;
  const left = Buffer.from(given);
  const right = Buffer.from(game.inviteCode);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Whether the viewer may see the game at all (the invite code, when given, opens a private game to anyone; the
 * one asked to run it sees it, to decide).
 */
export function mayView(game: GameFacts, viewer: Viewer, inviteCode?: string): boolean {
  if (!game.private || game.status === 'finished' || isMember(game, viewer) || actsAsGameMaster(game, viewer)) return true;
  if (isInvitedGameMaster(game, viewer) || sittingFor(game, viewer)) return true;
  return isInviteCode(game, inviteCode);
}

/** Whether the viewer is the one asked to take over as the game's game master. */
export function isInvitedGameMaster(game: Pick<GameFacts, 'invitedGameMasterId'>, viewer: Viewer): boolean {
  return !!viewer && !!game.invitedGameMasterId && game.invitedGameMasterId === viewer.id;
}

/**
 * Whether the viewer may see who is asked to take over as game master: the game master who asked (whoever runs the
 * game now: an invitation outlives a take-over), the one asked, and administrators. Not the players, for whom it
 * changes nothing until it is accepted.
 */
export function seesGameMasterInvitation(game: Pick<GameFacts, 'gameMasterId' | 'invitedGameMasterId'>, viewer: Viewer): boolean {
  return actsAsGameMaster(game, viewer) || isInvitedGameMaster(game, viewer);
}

/** Whether the viewer may be shown the invite code of a private game (to pass it on). */
export function mayShareInvite(game: GameFacts, viewer: Viewer): boolean {
  return game.private && (isMember(game, viewer) || actsAsGameMaster(game, viewer));
}

/** Whether user names may be shown: not in an anonymous game until its result is final, but to a game master who does not play. */
export function revealsNames(game: GameFacts, viewer: Viewer, now: Date = new Date()): boolean {
  return !game.anonymous || isFinal(game, now) || hasGameMasterView(game, viewer);
}

/** A user as this viewer may see them: themselves always, others where names are revealed. */
export function shownUser<U extends { id: string; username: string }>(
  reveal: boolean,
  viewer: Viewer,
  user: U | null,
): { id: string; username: string } | null {
  if (!user) return null;
  return reveal || user.id === viewer?.id ? { id: user.id, username: user.username } : null;
}

/**
 * The press the viewer may read: public messages; their power's own and those addressed to it; those to and from the
 * game master for a game master (or administrator); everything once the result is final. `gameMasterRecipient` is the
 * recipient that stands for the game master (shared/api/press-recipients.ts).
 */
export type PressReach = { all: true } | { all: false; power: string | null; gameMaster: boolean };
export function pressReach(game: GameFacts, viewer: Viewer, now: Date = new Date()): PressReach {
  if (isFinal(game, now)) return { all: true };
  const power = seatOf(game, viewer)?.power ?? sittingFor(game, viewer, now)?.seat.power ?? null;
  return { all: false, power, gameMaster: actsAsGameMaster(game, viewer) };
}

/**
 * Whether what a phase's processing recorded (every power's orders and submissions, the results, the position after)
 * is everyone's: once the phase is processed. Until then orders are their power's alone (the power's own route).
 */
export function adjudicationIsPublic(phase: { status: 'open' | 'held' | 'processed' }): boolean {
  return phase.status === 'processed';
}

/** Whether a phase's orders are public: once they are final, that is also while a campaign phase is held for its battles. */
export function ordersArePublic(phase: { status: 'open' | 'held' | 'processed' }): boolean {
  return phase.status !== 'open';
}

/** Whether a press message reaches this viewer (the same rule as `pressReach`, for one message). */
export function readsMessage(
  reach: PressReach,
  message: { public: boolean; senderPower: string | null; recipients: readonly string[] },
  gameMasterRecipient: string,
): boolean {
  if (reach.all || message.public) return true;
  if (reach.power && (message.senderPower === reach.power || message.recipients.includes(reach.power))) return true;
  return reach.gameMaster && (message.senderPower === null || message.recipients.includes(gameMasterRecipient));
}
