/**
 * A finished game's result becomes final some time after the end (`finalAt`),
 * or when the game master makes it final: until then the game master may
 * re-open the game, and its secrets (private press between powers, the names
 * in an anonymous game) stay hidden. The sentences that say so, wherever a
 * result is shown. Free of zod and of Svelte.
 */
import type { GameSummary } from '../../../shared/api/games.ts';
import { localTime } from './logic.ts';

type Facts = Pick<GameSummary, 'status' | 'finalAt' | 'anonymous'>;

/** Finished, and its result can still be undone. */
export function awaitsFinal(game: Pick<Facts, 'status' | 'finalAt'>, now = Date.now()): boolean {
  return game.status === 'finished' && (game.finalAt === null || Date.parse(game.finalAt) > now);
}

/** "on Tue 14 Jan, 18:30", or "once the game master makes it final" when the server set no time. */
const when = (game: Facts, time: (iso: string) => string) => (game.finalAt ? `on ${time(game.finalAt)}` : 'once the game master makes it final');

/** What a finished game's result still waits for (null: final already, or not finished). */
export function finalNote(game: Facts, time: (iso: string) => string = localTime, now = Date.now()): string | null {
  if (!awaitsFinal(game, now)) return null;
  const secrets = game.anonymous ? "private messages and the players' names stay hidden" : 'private messages stay hidden';
  return `The result becomes final ${when(game, time)}: until then the game master may re-open the game, and ${secrets}.`;
}

/** The press tab's word on the private messages of such a game (null: nothing held back). */
export function pressHeldNote(game: Facts, playing: boolean, time: (iso: string) => string = localTime, now = Date.now()): string | null {
  if (!awaitsFinal(game, now)) return null;
  return `Private messages between ${playing ? 'other ' : ''}powers will be shown here when the result becomes final, ${when(game, time)}.`;
}
