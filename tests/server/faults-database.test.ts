/**
 * PostgreSQL really goes away and comes back under load: a private cluster
 * (initdb in a temporary folder, its own port, so the machine's cluster and
 * the other test files are not disturbed) is crashed (`pg_ctl stop -m
 * immediate`) and later shut down cleanly (`-m fast`) while the real server
 * process serves players, moves deadlines and processes phases. Requests
 * meanwhile get a clear 503 `database_unavailable` with Retry-After (never a
 * 500, never a hang); when PostgreSQL is back the same server process
 * recovers by itself — requests, the deadline scheduler, and the websocket
 * (which gets every event, none lost) — and the database holds nothing
 * half-written (verify.ts). Also: a server started while PostgreSQL is down
 * waits for it. database-outage.test.ts covers the same on a cut network
 * link in-process; this one stops the database itself.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { LiveEvent } from '../../shared/api/live.ts';
import { openDatabase } from '../../server/db/database.ts';
import { seededRandom } from '../../server/games/power-assignment.ts';
import { call, registerUser, startGames, type Game, type User } from './faults-support/client.ts';
import { driveLoad, pause } from './faults-support/load.ts';
import { freePort, postgresBinaries, startPrivateCluster, type PrivateCluster } from './faults-support/postgres-cluster.ts';
import { startServer, type ServerProcess } from './faults-support/server-process.ts';
import { verifyGames } from './faults-support/verify.ts';
import { connect, type LiveClient } from './helpers/live.ts';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const env = { SCHEDULER_INTERVAL_MS: '100', AUTH_RATE_LIMIT_MAX: '100000' };

describe.skipIf(!postgresBinaries())('PostgreSQL stopped and started under load (a private cluster)', () => {
  let cluster: PrivateCluster;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    cluster = await startPrivateCluster();
  });
  // Each test's server goes with it, failed or not: a later test must not overwrite (and so orphan) a live one.
  afterEach(async () => {
    if (server && server.child.exitCode === null) await server.kill('SIGKILL');
    server = undefined;
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  async function health(base: string): Promise<{ status: number; body: { error?: { code: string; message: string } }; retryAfter: string | null; ms: number }> {
    const started = performance.now();
    const response = await fetch(`${base}/api/health`).catch((error: unknown) => {
      // Refused outright: the server process is gone. Say how it ended and what it said last, to find out why.
      const child = server?.child;
      throw new Error(
        `GET /api/health failed (${String(error)}); server exit code ${child?.exitCode}, signal ${child?.signalCode}; ` +
          `stderr: ${server?.stderr().slice(-2000)}; last log lines: ${JSON.stringify(server?.logs.slice(-15))}`,
      );
    });
    return { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after'), ms: performance.now() - started };
  }

  test('requests get a clear 503 while it is down, nothing is half-written, and the same process recovers: requests, deadlines, websocket', async () => {
    server = await startServer({ port: await freePort(), databaseUrl: cluster.url, env });
    const base = server.url;
    const [master, ...players]: User[] = await Promise.all(Array.from({ length: 6 }, (_, i) => registerUser(base, `outage${i}_${Date.now().toString(36)}`)));
    const games: Game[] = await startGames(base, master, players, 4, 4);

    // The game master watches every game over one websocket for the whole test.
    const watcher: LiveClient = await connect(`${base.replace('http', 'ws')}/api/live`, { authorization: `Bearer ${master.token}` });
    const subscribedAt = new Map<string, number>();
    for (const game of games) {
      watcher.send({ type: 'subscribe', channel: `game:${game.id}` });
      subscribedAt.set(game.id, (await watcher.next('subscribed', (message) => message.channel === `game:${game.id}`)).seq!);
    }
    const processed = () => watcher.messages.filter((message) => message.type === 'event' && message.event.type === 'phase.processed').length;
    const waitForProcessed = (count: number) => vi.waitFor(() => expect(processed()).toBeGreaterThanOrEqual(count), { timeout: 60_000, interval: 50 });

    const load = driveLoad({ base, games, master, submitters: 4, random: seededRandom(11) });
    try {
      await waitForProcessed(2);

      for (const mode of ['immediate', 'fast'] as const) {
        const acknowledgedBefore = load.acknowledged.length;
        const unavailableBefore = load.unavailable.length;
        await cluster.stop(mode);
        // Down: a prompt, clear 503 (the pool gives up connecting within its 5 s timeout).
        const down = await health(base);
        expect(down.status).toBe(503);
        expect(down.body.error!.code).toBe('database_unavailable');
        expect(down.retryAfter).toBe('5');
        expect(down.ms).toBeLessThan(10_000);
        // The players' requests meet the outage too, and get the same answer.
        await vi.waitFor(() => expect(load.unavailable.length).toBeGreaterThan(unavailableBefore + 3), { timeout: 60_000, interval: 50 });

        await cluster.start();
        // Back: the same process serves again, acknowledges orders, and its scheduler processes phases.
        await vi.waitFor(async () => expect((await health(base)).status).toBe(200), { timeout: 60_000, interval: 100 });
        const processedBefore = processed();
        await vi.waitFor(() => expect(load.acknowledged.length).toBeGreaterThan(acknowledgedBefore + 3), { timeout: 60_000, interval: 50 });
        await waitForProcessed(processedBefore + 2);
      }
    } finally {
      await load.stop();
    }
    // Clear answers only: no 500 ever, and every 503 said what happened.
    const statuses = Object.fromEntries(load.statuses);
    expect(
      Object.keys(statuses).filter((status) => status !== 'network' && Number(status) >= 500 && status !== '503'),
      JSON.stringify(statuses),
    ).toEqual([]);
    expect(statuses.network ?? 0).toBe(0);
    expect(new Set(load.unavailable.map((answer) => `${answer.code} ${answer.retryAfter}`))).toEqual(new Set(['database_unavailable 5']));
    expect(server.logs.filter((line) => line.level >= 50 && !/database|unavailable|connection|terminat/i.test(JSON.stringify(line)))).toEqual([]);

    // The websocket, connected throughout, gets every event logged for the game master since it subscribed:
    // none lost to the outages (those committed while the server's LISTEN connection was down come from the log).
    const database = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 2 });
    try {
      // Never told to resync or to subscribe again (on failure, the server's warnings say why).
      const warnings = JSON.stringify(server.logs.filter((line) => line.level >= 40).slice(-20));
      expect(
        watcher.messages.filter((message) => message.type === 'resync' || message.type === 'error' || message.type === 'unsubscribed'),
        warnings,
      ).toEqual([]);
      for (const game of games) {
        const logged = await database.prisma.liveEventLog.findMany({
          where: { channel: `game:${game.id}`, seq: { gt: subscribedAt.get(game.id)! } },
          orderBy: { seq: 'asc' },
        });
        const got = () => watcher.messages.filter((message) => message.type === 'event' && message.channel === `game:${game.id}`);
        const last = Number(logged.at(-1)?.seq ?? 0);
        if (logged.length > 0) await watcher.next('event', (message) => message.channel === `game:${game.id}` && message.seq === last, 30_000).catch(() => {}); // the comparison below names what is missing
        // Deadlines keep falling due after the load stops, so events may follow the ones read from the log: those
        // read must have arrived, exactly and in order, and whatever came after them must follow without a gap.
        const events = got().flatMap((message) => (message.type === 'event' ? [message] : []));
        const upToRead = events.filter((message) => (message.seq ?? 0) <= last);
        expect(upToRead.map((message) => message.seq)).toEqual(logged.map((row) => Number(row.seq)));
        expect(upToRead.map((message) => message.event)).toEqual(logged.map((row) => row.event as LiveEvent));
        expect(events.map((message) => message.seq)).toEqual(events.map((_, i) => Number(subscribedAt.get(game.id)!) + 1 + i));
      }
      watcher.socket.close();

      // Nothing half-written, nothing acknowledged lost, each phase processed once.
      server.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      server = undefined;
      const verified = await verifyGames(
        database.prisma,
        games.map((game) => game.id),
        load.acknowledged,
      );
      expect(verified.phasesProcessed).toBeGreaterThanOrEqual(processed());
    } finally {
      watcher.socket.close();
      await database.close();
    }
  });

  test("a server started while PostgreSQL is down waits for it (past Fastify's 10 s plugin timeout) and comes up when it is back", async () => {
    await cluster.stop('fast');
    let retrying: () => void = () => {};
    const firstRetry = new Promise<void>((resolve) => (retrying = resolve));
    const starting = startServer({
      port: await freePort(),
      databaseUrl: cluster.url,
      env,
      onLog: (line) => line.msg === 'database unavailable at start-up; retrying' && retrying(),
    });
    starting.catch(() => {});
    // From its first try (a loaded machine may take seconds to get there), the database stays away longer than
    // Fastify's default plugin timeout.
    await Promise.race([firstRetry, starting]);
    await pause(12_000);
    await cluster.start();
    server = await starting;
    expect(server.logs.some((line) => line.msg === 'database unavailable at start-up; retrying')).toBe(true);
    expect((await health(server.url)).status).toBe(200);
    await call(server.url, 'GET', '/api/games');
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = undefined;
  });
});
