/**
 * A small client of a real server over HTTP (fetch), authenticated with API
 * tokens (Bearer, no CSRF), and the seeding the fault tests and benchmarks
 * share: users, started Diadochi V games, the engine's legal orders.
 */
import { randomBytes } from 'node:crypto';
import { getVariant, orderOptions, type GameState, type Order } from '../../../shared/index.ts';

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
    readonly retryAfter: string | null = null,
  ) {
    super(`${what}: HTTP ${status} ${body.slice(0, 500)}`);
  }
}

export type User = { id: string; username: string; token: string; cookie: string; csrfToken: string };

/** `fetch` a JSON API; throws HttpStatusError unless 2xx. */
export async function call<T = unknown>(
  base: string,
  method: string,
  url: string,
  { token, body, cookie, csrfToken }: { token?: string; body?: unknown; cookie?: string; csrfToken?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (cookie) headers.cookie = cookie;
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new HttpStatusError(response.status, text, `${method} ${url}`, response.headers.get('retry-after'));
  return (text ? JSON.parse(text) : undefined) as T;
}

export const PASSWORD = 'correct horse battery staple';

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`.slice(0, 24);
}

/** Signs up (cookie session) and creates an API token. */
export async function registerUser(base: string, username = uniqueName('u')): Promise<User> {
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new HttpStatusError(response.status, text, 'register');
  const info = JSON.parse(text) as { user: { id: string }; csrfToken: string };
  const sid = /sid=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (!sid) throw new Error('register set no session cookie');
  const cookie = `sid=${sid}`;
  const created = await call<{ token: string }>(base, 'POST', '/api/auth/tokens', { cookie, csrfToken: info.csrfToken, body: { name: 'tests' } });
  return { id: info.user.id, username, token: created.token, cookie, csrfToken: info.csrfToken };
}

/** Runs `work` over `items` with at most `concurrency` at a time; results in order. */
export async function pool<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index], index);
      }
    }),
  );
  return results;
}

export type Seat = { power: string; user: User };
export type Game = { id: string; seats: Seat[] };

/**
 * Diadochi V games mastered by `master` and played by the five `players`
 * (a user may sit in many games), started through the lobby.
 */
export async function startGames(
  base: string,
  master: User,
  players: User[],
  count: number,
  concurrency = 8,
  settings: Record<string, unknown> = {},
): Promise<Game[]> {
  return pool(
    Array.from({ length: count }, (_, i) => i),
    concurrency,
    async (i) => {
      const created = await call<{ id: string }>(base, 'POST', '/api/games', {
        token: master.token,
        // Without grace for missed orders unless asked: deadlines pass with powers that sent nothing.
        body: { name: `Game ${i}`, variant: 'diadochi-v', joinAsPlayer: false, correspondence: { grace: { seconds: 0, perPlayer: 0 } }, ...settings },
      });
      for (const player of players) await call(base, 'POST', `/api/games/${created.id}/join`, { token: player.token, body: {} });
      const detail = await call<{ status: string; players: { user: { id: string } | null; power: string }[] }>(base, 'GET', `/api/games/${created.id}`, {
        token: master.token,
      });
      if (detail.status !== 'active') throw new Error(`game ${created.id} did not start: ${detail.status}`);
      const seats = detail.players.map((seat) => ({ power: seat.power, user: players.find((player) => player.id === seat.user!.id)! }));
      return { id: created.id, seats };
    },
  );
}

export type CurrentPhase = {
  index: number;
  name: string;
  kind: string;
  status: string;
  deadlineAt: string | null;
  state: GameState;
  powers: { power: string; mustOrder: boolean }[];
};

export function currentPhase(base: string, token: string, gameId: string): Promise<CurrentPhase> {
  return call<CurrentPhase>(base, 'GET', `/api/games/${gameId}/phases/current`, { token });
}

/**
 * Legal orders for `power` in `state`, picked with `random` among the
 * engine's options: one per unit (movement, retreat), the required removals,
 * and in a build phase one build or a waive.
 */
export function legalOrders(state: GameState, power: string, random: () => number): Order[] {
  const variant = getVariant(state.variant)!;
  const { byUnit, adjustment } = orderOptions(variant, state, power);
  const pick = <T>(list: readonly T[]): T | undefined => (list.length === 0 ? undefined : list[Math.floor(random() * list.length)]);
  const orders: Order[] = [];
  for (const [unit, options] of Object.entries(byUnit)) {
    if (unit === '') {
      if (adjustment > 0) orders.push(pick(options)!);
      continue;
    }
    const order = pick(options);
    if (order) orders.push(order);
  }
  return orders;
}
