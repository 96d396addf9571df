/**
 * A game's page starts with three reads: who am I, the game, its open phase.
 * The tiny script the build puts first in the page (preload-board in
 * web/vite.config.ts) sends them at once, while the app's own script is still
 * downloading, and leaves the answers here; `lib/api.ts` takes each one once,
 * so the page never waits on a request it could have made 200 ms earlier.
 * Later reads of the same address go to the network as usual.
 */

export const readPaths = {
  me: '/api/auth/me',
  game: (id: string) => `/api/games/${id}`,
  phase: (id: string, index: number | 'current') => `/api/games/${id}/phases/${index}`,
};

/** The reads sent early on `/games/<id>` (no query string: an invite or the details page asks for other things). */
export const gamePageReads = (id: string): string[] => [readPaths.me, readPaths.game(id), readPaths.phase(id, 'current')];

/** The request the early script made, exactly as `lib/api.ts` would make it. */
export const EARLY_READ_INIT = { headers: { accept: 'application/json' }, credentials: 'same-origin' } as const satisfies RequestInit;

/** The early answer for a GET of `path`, if the script sent one and nobody took it yet. */
export function takeEarlyRead(path: string): Promise<Response> | undefined {
  const early = globalThis.diadochiEarlyReads;
  const answer = early?.get(path);
  if (answer) early!.delete(path);
  return answer;
}
