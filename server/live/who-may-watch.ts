/**
 * Who may watch a live channel: the lobby, anyone logged in; your own user channel, you alone; a game, whoever
 * may see it (access/policy.ts); a naval battle, whoever may see it (access/battle-policy.ts). And which events may
 * change that, so that a game's or a battle's watchers are checked again.
 */
import type { LiveChannel, LiveEvent } from '../../shared/api/live.ts';
import { type BattleFacts, mayViewBattle } from '../access/battle-policy.ts';
import { mayView, type GameFacts, type Viewer } from '../access/policy.ts';
import type { Db } from '../db/database.ts';

const BATTLE = 'battle:';

/**
 * What the hub reads a channel's facts by (`readGameFacts`): a game's id for `game:<id>`, the channel itself for a
 * battle's (`battle:<id>`), or null for the lobby and user channels, which need none.
 */
export function gameIdOf(channel: LiveChannel): string | null {
  if (channel.startsWith(BATTLE)) return channel;
  return channel.startsWith('game:') ? channel.slice('game:'.length) : null;
}

/**
 * The facts the hub hands back to `mayWatch`: a game's, or a battle's (`battle`), carried in the game's shape the
 * hub passes on. A battle's game fields admit nobody by the game rules; `mayWatch` reads `battle` for its channel.
 */
export type WatchFacts = GameFacts & { battle?: BattleFacts };

/**
 * `game`: the facts of the channel's game or battle (null: none such, or a channel without one); `inviteCode`: the
 * code the watcher gave, which opens a private game or battle to them as it does over HTTP.
 */
export function mayWatch(channel: LiveChannel, user: NonNullable<Viewer>, game: WatchFacts | null, inviteCode?: string): boolean {
  if (channel === 'lobby') return true;
  if (channel.startsWith('user:')) return channel === `user:${user.id}`;
  if (channel.startsWith(BATTLE)) return game?.battle !== undefined && mayViewBattle(game.battle, user, inviteCode);
  return game !== null && game.battle === undefined && mayView(game, user, inviteCode);
}

/**
 * Events after which someone watching a game may no longer be allowed to (a seat left or handed on, a new game
 * master): each watcher of the channel is checked again, and those no longer allowed lose the subscription at once.
 * Only on a game's or a battle's channel: the lobby (where a public game's `player.left` goes too) and your own
 * channel stay yours. A battle: a seat left (a private battle is its members').
 */
export function changesWhoMayWatch(channel: LiveChannel, event: LiveEvent): boolean {
  if (gameIdOf(channel) === null) return false;
  if (event.type === 'battle.changed') return event.what === 'left';
  return event.type === 'player.left' || (event.type === 'player.status' && event.replaced) || event.type === 'gm.action';
}

const gameFactsSelect = {
  private: true,
  anonymous: true,
  status: true,
  gameMasterId: true,
  invitedGameMasterId: true,
  finalAt: true,
  inviteCode: true,
  players: { select: { userId: true, power: true } },
} as const;

/** What the access rules need to know of a game, or of a battle for a battle's key (`gameIdOf`); null: none such. */
export async function readGameFacts(db: Db, key: string): Promise<WatchFacts | null> {
  if (!key.startsWith(BATTLE)) {
    const game = await db.game.findUnique({ where: { id: key }, select: gameFactsSelect });
    if (!game) return null;
    // Sitters for its absent players may watch it too (access/policy.ts sittingFor), while the absence lasts.
    const now = new Date();
    const absent = game.players.map((seat) => seat.userId).filter((id) => id !== null);
    const absences = await db.vacation.findMany({
      where: { userId: { in: absent }, sitterId: { not: null }, cancelledAt: null, startsAt: { lte: now }, endsAt: { gt: now } },
      select: { id: true, userId: true, sitterId: true, startsAt: true, endsAt: true },
      orderBy: { createdAt: 'asc' },
    });
    return { ...game, absences };
  }
  const battle = await db.battle.findUnique({
    where: { id: key.slice(BATTLE.length) },
    select: {
      private: true,
      status: true,
      createdById: true,
      inviteCode: true,
      seats: { select: { role: true, side: true, player: true, userId: true } },
      // A campaign game's battle: the game's players and game master may watch it.
      seaBattle: { select: { game: { select: gameFactsSelect } } },
    },
  });
  if (!battle) return null;
  return { private: true, anonymous: true, status: 'cancelled', gameMasterId: '', invitedGameMasterId: null, finalAt: null, players: [], battle };
}
