/**
 * Scaling out: two real server processes on one PostgreSQL — one from the
 * sources (server/main.ts through tsx), one the production build (`npm run
 * build:server`, as `npm start` and the Docker image run it) — started
 * together on an empty database, as docker-compose.yml runs its instances.
 * Everything a user touches works across them: a session made on one is
 * good on the other (and ends on both), an event caused on one reaches a
 * socket on the other, a socket that moves resumes where it left off, and
 * deadlines falling due together are processed once between them. Then the
 * load balancer of docker-compose.yml (deploy/nginx.conf, run for real when
 * nginx is installed) in front of both. PostgreSQL only: an embedded PGlite
 * belongs to one process.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import pg from 'pg';
import { call, currentPhase, legalOrders, registerUser, startGames, type Game, type User } from './faults-support/client.ts';
import { nginxBinary, startNginx, type LoadBalancer } from './faults-support/nginx.ts';
import { freePort } from './faults-support/postgres-cluster.ts';
import { projectRoot, startServer, type ServerProcess } from './faults-support/server-process.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from './helpers/database.ts';
import { connect, type LiveClient } from './helpers/live.ts';
import { seededRandom } from '../../server/games/power-assignment.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const env = { SCHEDULER_INTERVAL_MS: '100', AUTH_RATE_LIMIT_MAX: '100000', TRUST_PROXY: '127.0.0.1' };

describe.skipIf(!usingPostgres)('two instances on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let master: User;
  let players: User[];
  let games: Game[];
  const random = seededRandom(7);

  beforeAll(async () => {
    database = await createTestDatabase();
    const [portA, portB] = [await freePort(), await freePort()];
    // B is the production build (npm start, the Docker image), A the sources through tsx: a mixed deployment.
    execFileSync('npm', ['run', '-s', 'build:server'], { cwd: projectRoot, stdio: 'inherit' });
    const entries = [undefined, path.join(projectRoot, 'dist/server/main.mjs')];
    // Started at the same moment on an empty database: both migrate it.
    [a, b] = await Promise.all([portA, portB].map((port, i) => startServer({ port, databaseUrl: database.url!, env, logLevel: 'debug', entry: entries[i] })));
    [master, ...players] = await Promise.all(Array.from({ length: 6 }, (_, i) => registerUser(i % 2 ? a.url : b.url)));
    games = await startGames(a.url, master, players, 24, 6);
  });

  afterAll(async () => {
    for (const server of [a, b]) if (server) server.kill('SIGTERM');
    const codes = await Promise.all([a, b].filter(Boolean).map((server) => server.exited));
    await database?.drop();
    expect(codes).toEqual([0, 0]);
  });

  test('both started on an empty database; the migrations were applied once', async () => {
    const client = new pg.Client({ connectionString: database.url! });
    await client.connect();
    try {
      const rows = (await client.query('SELECT migration_name, count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL GROUP BY 1')).rows;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.n === 1)).toBe(true);
    } finally {
      await client.end();
    }
  });

  test('a session made on one instance is good on the other, and logging out on one ends it on both', async () => {
    const user = await registerUser(a.url);
    const me = await call<{ user: { id: string }; csrfToken: string }>(b.url, 'GET', '/api/auth/me', { cookie: user.cookie });
    expect(me.user.id).toBe(user.id);
    // A cookie-authenticated write on B with the CSRF token A gave.
    const created = await call<{ id: string }>(b.url, 'POST', '/api/games', {
      cookie: user.cookie,
      csrfToken: user.csrfToken,
      body: { name: 'Across', variant: 'standard' },
    });
    expect((await call<{ name: string }>(a.url, 'GET', `/api/games/${created.id}`, { cookie: user.cookie })).name).toBe('Across');
    // API tokens too.
    expect((await call<{ user: { id: string } }>(b.url, 'GET', '/api/auth/me', { token: user.token })).user.id).toBe(user.id);
    await call(b.url, 'POST', '/api/auth/logout', { cookie: user.cookie, csrfToken: user.csrfToken });
    // At once on B; on A (which holds the session it read above) as soon as PostgreSQL's notification arrives.
    expect((await call<{ user: null }>(b.url, 'GET', '/api/auth/me', { cookie: user.cookie })).user).toBeNull();
    await vi.waitFor(async () => expect((await call<{ user: null }>(a.url, 'GET', '/api/auth/me', { cookie: user.cookie })).user).toBeNull(), {
      timeout: 5_000,
      interval: 20,
    });
  });

  test('an event caused on one instance reaches a socket on the other; a socket that moves over resumes where it left off', async () => {
    const game = games[0];
    const seat = game.seats[0];
    const channel = `game:${game.id}` as const;
    const open = async (server: ServerProcess, after?: number): Promise<{ live: LiveClient; seq: number }> => {
      const live = await connect(`${server.url.replace('http', 'ws')}/api/live`, { authorization: `Bearer ${master.token}` });
      live.send({ type: 'subscribe', channel, ...(after === undefined ? {} : { after }) });
      return { live, seq: (await live.next('subscribed')).seq! };
    };
    const submit = async (server: ServerProcess) => {
      const phase = await currentPhase(server.url, seat.user.token, game.id);
      const orders = legalOrders(phase.state, seat.power, random);
      return call<{ submission: { id: string } }>(server.url, 'PUT', `/api/games/${game.id}/phases/${phase.index}/orders`, {
        token: seat.user.token,
        body: { orders },
      });
    };

    const onB = await open(b);
    await submit(a);
    const heard = await onB.live.next('event', (message) => message.event.type === 'orders.status');
    expect(heard.event).toMatchObject({ gameId: game.id, power: seat.power, submitted: true });
    expect(heard.seq).toBe(onB.seq + 1);

    // The socket on A goes away; meanwhile orders are submitted on B; it comes back on B.
    const onA = await open(a);
    await submit(b);
    const last = (await onA.live.next('event', (message) => message.seq! > onB.seq + 1)).seq!;
    onA.live.socket.close();
    await submit(b);
    await submit(a);
    const moved = await open(b, last);
    const replayed = moved.live.messages.filter((message) => message.type === 'event').map((message) => message.type === 'event' && message.seq);
    expect(replayed).toEqual([last + 1, last + 2]);
    expect(moved.seq).toBe(last + 2);
    onB.live.socket.close();
    moved.live.socket.close();
  });

  test('deadlines falling due together are processed exactly once between the two instances', async () => {
    const observer = new pg.Client({ connectionString: database.url! });
    await observer.connect();
    const seen = new Map<string, number>();
    observer.on('notification', (message) => {
      const { event } = JSON.parse(message.payload!) as { event: { type: string; gameId: string; phase: { index: number } } };
      if (event.type !== 'phase.processed') return;
      const key = `${event.gameId}/${event.phase.index}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    });
    await observer.query('LISTEN diadochi_live');
    const claimsBefore = [a, b].map((server) => server.logs.filter((line) => line.msg === 'phase processed at its deadline').length);
    try {
      for (let round = 0; round < 3; round++) {
        const ids = games.map((game) => game.id);
        const due = await observer.query<{ game_id: string; index: number }>(
          `UPDATE phases SET deadline_at = now() WHERE status = 'open' AND game_id = ANY($1::uuid[]) RETURNING game_id::text, index`,
          [ids],
        );
        expect(due.rowCount).toBe(games.length);
        // Both schedulers race for them (each looks every 100 ms); wait until every one is heard of.
        await vi.waitFor(() => expect(due.rows.filter((row) => seen.has(`${row.game_id}/${row.index}`)).length).toBe(games.length), {
          timeout: 60_000,
          interval: 50,
        });
      }
      expect([...seen.values()].every((count) => count === 1)).toBe(true);
      expect(seen.size).toBe(games.length * 3);
      // The work was shared: each instance processed some. The log lines come through each instance's output,
      // a pipe that may deliver the last of them a moment after the last notification came from the database.
      const processedByNow = () =>
        [a, b].map((server, i) => server.logs.filter((line) => line.msg === 'phase processed at its deadline').length - claimsBefore[i]);
      await vi.waitFor(() => expect(processedByNow()[0] + processedByNow()[1]).toBe(games.length * 3), { timeout: 5_000, interval: 50 });
      const processedBy = processedByNow();
      expect(
        processedBy.every((count) => count > 0),
        `processed by A and B: ${processedBy}`,
      ).toBe(true);
      // Not one attempt failed (e.g. on the unique (game, index) safety net): the game locks kept them apart.
      expect([a, b].flatMap((server) => server.logs.filter((line) => line.msg === 'processing a due phase failed'))).toEqual([]);
      // And the database agrees: three processed phases per game, one open, one phase.processed event each.
      const rows = (
        await observer.query(
          `SELECT p.game_id::text, count(*) FILTER (WHERE p.status = 'processed')::int AS processed, count(*) FILTER (WHERE p.status = 'open')::int AS open,
                  (SELECT count(*)::int FROM live_events e WHERE e.channel = 'game:' || p.game_id AND e.event->>'type' = 'phase.processed') AS events
           FROM phases p WHERE p.game_id = ANY($1::uuid[]) GROUP BY p.game_id`,
          [games.map((game) => game.id)],
        )
      ).rows;
      expect(rows).toHaveLength(games.length);
      for (const row of rows) expect(row.processed === row.events && row.open === 1).toBe(true);
    } finally {
      await observer.end();
    }
  });

  test.skipIf(!nginxBinary())(
    'behind the load balancer of docker-compose.yml (deploy/nginx.conf): requests go to both; sessions and live events work through it',
    async () => {
      let lb: LoadBalancer | undefined;
      try {
        lb = await startNginx([new URL(a.url).port, new URL(b.url).port].map(Number));
        // A browser: signs up and plays through the balancer, its requests landing on both instances.
        const user = await registerUser(lb.url);
        const marker = `lb-${Date.now()}`;
        for (let i = 0; i < 20; i++) {
          const me = await call<{ user: { id: string } }>(lb.url, 'GET', `/api/auth/me?probe=${marker}-${i}`, { cookie: user.cookie });
          expect(me.user.id).toBe(user.id);
        }
        // The access lines leave the servers within 100 ms (their logs are written asynchronously).
        const servedBy = () => [a, b].map((server) => server.logs.filter((line) => JSON.stringify(line).includes(marker)).length);
        await vi.waitFor(
          () =>
            expect(
              servedBy().every((count) => count > 0),
              `served by A and B: ${servedBy()}`,
            ).toBe(true),
          { timeout: 5_000, interval: 50 },
        );
        // Behind a trusted proxy the client's address is the forwarded one.
        expect(
          [a, b]
            .flatMap((server) => server.logs)
            .some((line) => JSON.stringify(line).includes(marker) && JSON.stringify(line).includes('"remoteAddress":"127.0.0.1"')),
        ).toBe(true);

        // A websocket through the balancer with the browser's cookie and Origin (the upgrade passes, the origin check holds).
        const game = games[1];
        const socket = await connect(`${lb.url.replace('http', 'ws')}/api/live`, { cookie: user.cookie, origin: lb.url });
        await socket.next('welcome');
        socket.send({ type: 'subscribe', channel: `game:${game.id}` });
        const subscribed = await socket.next('subscribed');
        const foreign = await connect(`${lb.url.replace('http', 'ws')}/api/live`, { cookie: user.cookie, origin: 'https://evil.example' }).catch(
          (error) => error,
        );
        expect(foreign.statusCode).toBe(403);
        // Events caused through the balancer, wherever they land, reach it.
        const phase = await currentPhase(lb.url, master.token, game.id);
        const seat = game.seats.find((candidate) => phase.powers.find((p) => p.power === candidate.power)?.mustOrder)!;
        for (let i = 0; i < 4; i++) {
          await call(lb.url, 'PUT', `/api/games/${game.id}/phases/${phase.index}/orders`, {
            token: seat.user.token,
            body: { orders: legalOrders(phase.state, seat.power, random) },
          });
        }
        const statuses = () => socket.messages.filter((message) => message.type === 'event' && message.event.type === 'orders.status');
        await vi.waitFor(() => expect(statuses()).toHaveLength(4), { timeout: 10_000, interval: 50 });
        expect(statuses().every((message) => message.type === 'event' && message.seq! > subscribed.seq!)).toBe(true);
        socket.socket.close();
      } finally {
        await lb?.stop();
      }
    },
  );
});
