/**
 * Who may see and do what in a naval battle: the one place these rules are written (routes, views, the live channel
 * and the export all ask here).
 *
 * - **Seeing a battle**: a public one, everyone; a private one, whoever sits in it or created it, site
 *   administrators, and whoever has its invite code; a finished one, everyone (the archive).
 * - **Acting**: only for the side whose seat one holds, while the battle is being fought. The umpire acts for no side;
 *   nobody acts for a computer's seat (the server plays it) — nor do administrators act for anyone.
 * - **Secrets**:
 *   - the seed of the dice, until the battle is over (before, only its commitment is public);
 *   - a plot handed in while sides act simultaneously, until the turn it belongs to is resolved: its side's and the
 *     umpire's alone (not an administrator's, not an onlooker's);
 *   - the state as a side sees it is the ruleset's `redact` for that side; the umpire sees it whole;
 *   - the umpire's notes: the umpire's alone (an administrator's neither).
 *   Once the battle is over, everything is public.
 * - **A campaign game's battle** (fought for a contested sea, shared/api/campaign.ts) is also the game's: its players
 *   and game master may watch it, and in an anonymous game it shows no player's name (but one's own) until the game's
 *   result is final, as the game itself does (policy.ts `revealsNames`), whether the battle is over or not.
 */
import { timingSafeEqual } from 'node:crypto';
import type { BattlePlayer, BattleSeatRole, BattleStatus } from '../db/generated/enums.ts';
import { actsAsGameMaster, type GameFacts, isMember, revealsNames, type Viewer } from './policy.ts';

/** What the rules read of a battle (a loaded battle row with its seats satisfies it). */
export type BattleFacts = {
  private: boolean;
  status: BattleStatus;
  createdById: string | null;
  inviteCode?: string | null;
  seats: ReadonlyArray<{ role: BattleSeatRole; side: string | null; player: BattlePlayer; userId: string | null }>;
  /** The campaign game whose contested sea the battle is fought for; absent or null for a battle of its own. */
  seaBattle?: { game: GameFacts } | null;
};

/** The seat the viewer holds, if any (a user holds at most one seat in a battle). */
export function battleSeatOf<S extends BattleFacts['seats'][number]>(battle: { seats: ReadonlyArray<S> }, viewer: Viewer): S | null {
  return (viewer && battle.seats.find((seat) => seat.userId === viewer.id)) ?? null;
}

/** Sits in the battle or created it. */
export function isBattleMember(battle: BattleFacts, viewer: Viewer): boolean {
  return !!viewer && (battle.createdById === viewer.id || battleSeatOf(battle, viewer) !== null);
}

/** Whether `given` is the battle's invite code, compared in constant time (the code is a secret). */
export function isBattleInviteCode(battle: Pick<BattleFacts, 'inviteCode'>, given: string | undefined): boolean {
  if (!given || !battle.inviteCode) return false;
  const left = Buffer.from(given);
  const right = Buffer.from(battle.inviteCode);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Whether the viewer may see the battle at all (the invite code, when given, opens a private one). */
export function mayViewBattle(battle: BattleFacts, viewer: Viewer, inviteCode?: string): boolean {
  if (!battle.private || battle.status === 'finished' || isBattleMember(battle, viewer) || viewer?.isAdmin) return true;
  const game = battle.seaBattle?.game;
  if (game && (isMember(game, viewer) || actsAsGameMaster(game, viewer))) return true;
  return isBattleInviteCode(battle, inviteCode);
}

/**
 * Whether the seat's player may be named to this viewer: always, but in the battle of an anonymous campaign game
 * whose result is not final (then each sees their own name only, the game master who does not play every name); the
 * umpire's seat is the game master's, named as the game names its game master.
 */
export function namesBattleSeat(
  battle: Pick<BattleFacts, 'seaBattle'>,
  seat: { role: BattleSeatRole; userId: string | null },
  viewer: Viewer,
  now: Date = new Date(),
): boolean {
  const game = battle.seaBattle?.game;
  if (!game || (seat.role === 'umpire' && seat.userId === game.gameMasterId)) return true;
  return revealsNames(game, viewer, now);
}

/** Whether the viewer may call off a battle that has not started: its creator, or a site administrator. */
export function mayCancelBattle(battle: BattleFacts, viewer: Viewer): boolean {
  return !!viewer && (battle.createdById === viewer.id || viewer.isAdmin);
}

/** Whether the viewer may be shown a private battle's invite code (to pass it on). */
export function mayShareBattleInvite(battle: BattleFacts, viewer: Viewer): boolean {
  return battle.private && isBattleMember(battle, viewer);
}

/** The side the viewer plays (their seat's), or null. */
export function sidePlayedBy(battle: BattleFacts, viewer: Viewer): string | null {
  const seat = battleSeatOf(battle, viewer);
  return seat?.role === 'side' ? seat.side : null;
}

export function isUmpire(battle: BattleFacts, viewer: Viewer): boolean {
  return battleSeatOf(battle, viewer)?.role === 'umpire';
}

/** The side the viewer may act for now: their own, while the battle is fought; null otherwise. */
export function sideToActFor(battle: BattleFacts, viewer: Viewer): string | null {
  return battle.status === 'active' ? sidePlayedBy(battle, viewer) : null;
}

/** The seed is revealed once the battle is over. */
export function revealsSeed(battle: Pick<BattleFacts, 'status'>): boolean {
  return battle.status === 'finished';
}

/**
 * How the viewer sees the battle's state: whole (the umpire, and everyone once it is over), as their side sees it,
 * or as an onlooker (administrators included: they sit at no table).
 */
export type BattlePerspective = { kind: 'whole' } | { kind: 'side'; side: string } | { kind: 'onlooker' };
export function perspectiveOf(battle: BattleFacts, viewer: Viewer): BattlePerspective {
  if (battle.status === 'finished' || isUmpire(battle, viewer)) return { kind: 'whole' };
  const side = sidePlayedBy(battle, viewer);
  return side !== null ? { kind: 'side', side } : { kind: 'onlooker' };
}

/** Whether the viewer may read what an action holds: a secret plot is its side's and the umpire's until revealed. */
export function seesAction(perspective: BattlePerspective, action: { side: string; secret: boolean; revealed: boolean }): boolean {
  if (!action.secret || action.revealed || perspective.kind === 'whole') return true;
  return perspective.kind === 'side' && perspective.side === action.side;
}

/** Whether the viewer may read the umpire's notes: the umpire, and everyone once the battle is over. */
export function readsUmpireNotes(battle: BattleFacts, viewer: Viewer): boolean {
  return battle.status === 'finished' || isUmpire(battle, viewer);
}
