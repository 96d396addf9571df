/**
 * A small world for the fuzzers and the authorization matrix, made through the
 * real API: users with cookie sessions (and CSRF tokens) or API tokens, a
 * started Diadochi V game with a game master who does not play, a game still
 * forming, a loan and an API token. No vitest import: soak/run.ts uses it too.
 */
import type { FastifyInstance } from 'fastify';
import { createSession, csrfTokenFor } from '../../../server/auth/sessions.ts';
import { Browser, uniqueName } from '../helpers/app.ts';

export type Credentials = { headers: Record<string, string>; csrf: string | null };

/** Someone making requests: nobody (no credentials), or a user by cookie or API token. */
export type Actor = { name: string; userId: string | null; username: string | null; credentials: Credentials; via: 'none' | 'cookie' | 'api_token' };

function check(response: { statusCode: number; body: string }, what: string, status = 200) {
  if (response.statusCode !== status) throw new Error(`${what}: ${response.statusCode} ${response.body.slice(0, 500)}`);
}

/** Fresh credentials for a user, straight from the sessions module (no log-in, so no rate limit). */
export async function freshCredentials(app: FastifyInstance, userId: string, via: 'cookie' | 'api_token'): Promise<Credentials> {
  const { token } = await createSession(app.prisma, userId, via, via === 'cookie' ? { ttlMs: 3600_000 } : { name: 'fuzz' });
  return via === 'cookie'
    ? { headers: { cookie: `sid=${token}`, 'x-csrf-token': csrfTokenFor(token) }, csrf: csrfTokenFor(token) }
    : { headers: { authorization: `Bearer ${token}` }, csrf: null };
}

export async function actorFor(app: FastifyInstance, name: string, user: { id: string; username: string } | null, via: Actor['via']): Promise<Actor> {
  if (!user || via === 'none') return { name, userId: null, username: null, credentials: { headers: {}, csrf: null }, via: 'none' };
  return { name, userId: user.id, username: user.username, credentials: await freshCredentials(app, user.id, via), via };
}

export type World = {
  game: { id: string; powers: string[]; byPower: Map<string, Browser>; master: Browser; inviteCode: string | null };
  forming: { id: string; creator: Browser };
  outsider: Browser;
  admin: Browser;
  loanId: string | null;
  tokenIds: string[];
  /** Real values for request bodies, by property name (see SchemaArbitraries' hints). */
  hints: Record<string, unknown[]>;
};

/**
 * Builds the world. `settings` of the started game: e.g. `{ private: true }`.
 * The admin is made one the way an operator would without ADMIN_USERS (the admins module).
 */
export async function buildWorld(app: FastifyInstance, settings: Record<string, unknown> = {}): Promise<World> {
  const { setAdmin } = await import('../../../server/admin/admins.ts');
  const master = await new Browser(app).register(uniqueName('gm'));
  const created = await master.request('POST', '/api/games', { name: 'World', variant: 'diadochi-v', joinAsPlayer: false, ...settings });
  check(created, 'create game', 201);
  const game = created.json();
  const players = await Promise.all(Array.from({ length: game.seats as number }, (_, i) => new Browser(app).register(uniqueName(`p${i}`))));
  for (const player of players) {
    check(await player.request('POST', `/api/games/${game.id}/join`, game.inviteCode ? { inviteCode: game.inviteCode } : {}), 'join');
  }
  const byPower = new Map<string, Browser>();
  for (const player of players) {
    const detail = (await player.request('GET', `/api/games/${game.id}`)).json();
    byPower.set(detail.players.find((seat: { isYou: boolean }) => seat.isYou).power, player);
  }
  const powers = [...byPower.keys()].sort();

  const formingCreator = await new Browser(app).register(uniqueName('host'));
  const forming = await formingCreator.request('POST', '/api/games', { name: 'Forming', variant: 'standard', autoStart: false });
  check(forming, 'create forming game', 201);

  const outsider = await new Browser(app).register(uniqueName('out'));
  const admin = await new Browser(app).register(uniqueName('admin'));
  await setAdmin(app.prisma, admin.user!.username, true);

  // A loan, so the loan routes have a real id to chew on.
  let loanId: string | null = null;
  const supply = (await master.request('GET', `/api/games/${game.id}/phases/current`)).json().supply as { power: string; centres: string[] }[];
  outer: for (const lender of powers) {
    for (const centre of supply.find((line) => line.power === lender)?.centres ?? []) {
      for (const to of powers.filter((power) => power !== lender)) {
        const lent = await byPower.get(lender)!.request('POST', `/api/games/${game.id}/loans`, { centre, to });
        if (lent.statusCode === 201) {
          loanId = lent.json().id;
          break outer;
        }
      }
    }
  }
  const token = await byPower.get(powers[0])!.request('POST', '/api/auth/tokens', { name: 'world' });
  check(token, 'token', 201);

  const phase = (await master.request('GET', `/api/games/${game.id}/phases/current`)).json();
  const mine = (phase.state.units as { type: string; at: string; power: string }[]).filter((unit) => unit.power === powers[0]);
  const holds = mine.map((unit) => `${unit.type === 'army' ? 'A' : 'F'} ${unit.at} H`);
  const hints = {
    power: powers,
    to: [...powers, 'all', powers.slice(1, 3)],
    centre: supply.flatMap((line) => line.centres),
    username: [outsider.user!.username, master.user!.username],
    gameMaster: [outsider.user!.username],
    orders: [holds.join('\n'), holds.slice(0, 1).join('\n'), '', mine.map((unit) => ({ kind: 'hold', unit: { type: unit.type, at: unit.at } }))],
    phase: [0, 1],
    kind: ['draw', 'concede'],
    variant: ['standard', 'diadochi-v'],
  };

  return {
    hints,
    game: { id: game.id, powers, byPower, master, inviteCode: game.inviteCode ?? null },
    forming: { id: forming.json().id, creator: formingCreator },
    outsider,
    admin,
    loanId,
    tokenIds: [token.json().id],
  };
}

/** The routes Fastify actually serves under /api (but the documentation's own), as "METHOD /api/path/{param}". */
export function servedRoutes(app: FastifyInstance): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: { indent: number; path: string }[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const indent = match[1].length;
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const path = (stack.length > 0 ? stack[stack.length - 1].path : '') + match[2];
    stack.push({ indent, path });
    if (!match[3] || !path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const method of match[3].split(',').map((m) => m.trim())) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes.sort();
}

/** The operations of the OpenAPI document, as "METHOD /api/path/{param}". */
export function documentedRoutes(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}
