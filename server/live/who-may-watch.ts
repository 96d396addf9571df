/**
 * Who may watch a live channel: the lobby, anyone logged in; your own user channel, you alone; a game, whoever
 * may see it (access/policy.ts). And which events may change that, so that a game's watchers are checked again.
 */
import type { LiveChannel, LiveEvent } from '../../shared/api/live.ts';
import { mayView, type GameFacts, type Viewer } from '../access/policy.ts';
import type { Db } from '../db/database.ts';

/** The game a channel is about (`game:<id>`), or null for the lobby and user channels. */
export function gameIdOf(channel: LiveChannel): string | null {
  return channel.startsWith('game:') ? channel.slice('game:'.length) : null;
}

/** `game`: the facts of the channel's game (null: no such game, or not a game's channel). */
export function mayWatch(channel: LiveChannel, user: NonNullable<Viewer>, game: GameFacts | null): boolean {
  if (channel === 'lobby') return true;
  if (channel.startsWith('user:')) return channel === `user:${user.id}`;
  return game !== null && mayView(game, user);
}

/**
 * Events after which someone watching a game may no longer be allowed to (a seat left or handed on, a new game
 * master): each watcher of the channel is checked again, and those no longer allowed lose the subscription at once.
 * Only on a game's channel: the lobby (where a public game's `player.left` goes too) and your own channel stay yours.
 */
export function changesWhoMayWatch(channel: LiveChannel, event: LiveEvent): boolean {
  if (gameIdOf(channel) === null) return false;
  return event.type === 'player.left' || (event.type === 'player.status' && event.replaced) || event.type === 'gm.action';
}

const gameFactsSelect = {
  private: true,
  anonymous: true,
  status: true,
  gameMasterId: true,
  invitedGameMasterId: true,
  finalAt: true,
  players: { select: { userId: true, power: true } },
} as const;

/** What the access rules need to know of a game (null: no such game). */
export function readGameFacts(db: Db, gameId: string): Promise<GameFacts | null> {
  return db.game.findUnique({ where: { id: gameId }, select: gameFactsSelect });
}
