/**
 * A game's page starts with three reads: who am I, the game, its open phase
 * (once the game's answer says it has one). The tiny script the build puts
 * first in the page (preload-board in web/vite.config.ts) sends them at once,
 * while the app's own script is still downloading, and leaves the answers
 * here; `lib/api.ts` takes each one once, so the page never waits on a request
 * it could have made 200 ms earlier. Later reads of the same address go to the
 * network as usual.
 */
import { API_ROUTES, pathOf } from '../../../shared/api/routes.ts';

export const readPaths = {
  me: API_ROUTES.me.path,
  game: (id: string) => pathOf('game', { gameId: id }),
  phase: (id: string, index: number | 'current') => (index === 'current' ? pathOf('currentPhase', { gameId: id }) : pathOf('phase', { gameId: id, index })),
};

/** The reads sent early on `/games/<id>` (no query string: an invite or the details page asks for other things). */
export const gamePageReads = (id: string): string[] => [readPaths.me, readPaths.game(id), readPaths.phase(id, 'current')];

/** The request the early script made, exactly as `lib/api.ts` would make it. */
export const EARLY_READ_INIT = { headers: { accept: 'application/json' }, credentials: 'same-origin' } as const satisfies RequestInit;

/**
 * The early script's reads, as the source of a function of the game's id returning them by path (the build writes
 * it into preload-board.js, hence plain JavaScript in a string). Who am I and the game go at once; the open phase
 * as soon as the game's answer says it has one: a game still forming has none, and asking would only be answered
 * 404. Its entry is then null, and nobody asks for it (GamePage reads the phase only of a game that has one).
 */
/** Where the game's id goes in the script's paths (it survives the paths' encoding unchanged). */
const ID_SLOT = '__game__';

export function earlyReadsSource(): string {
  return `(id) => {
  const init = ${JSON.stringify(EARLY_READ_INIT)};
  const [me, game, phase] = ${JSON.stringify(gamePageReads(ID_SLOT))}.map((p) => p.replace(${JSON.stringify(ID_SLOT)}, id));
  const meRead = fetch(me, init);
  const gameRead = fetch(game, init);
  const phaseRead = gameRead
    .then((r) => (r.ok ? r.clone().json() : null))
    .then((g) => (g && g.currentPhase ? fetch(phase, init) : null), () => null);
  return new Map([[me, meRead], [game, gameRead], [phase, phaseRead]]);
}`;
}

/** The early answer for a GET of `path`, if the script sent one and nobody took it yet (null: the script did not ask after all). */
export function takeEarlyRead(path: string): Promise<Response | null> | undefined {
  const early = globalThis.diadochiEarlyReads;
  const answer = early?.get(path);
  if (answer) early!.delete(path);
  return answer;
}
