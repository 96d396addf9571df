/**
 * A LISTEN connection that dies without closing (an idle NAT mapping that
 * expired, a firewall dropping packets) is noticed by its heartbeat: the
 * instance notifies it over a pooled connection and, when the echo does not
 * come back, drops it, reconnects and catches up (server/db/database.ts,
 * PostgresListener). The instance under test (A) reaches PostgreSQL through a
 * proxy that can stop forwarding on its LISTEN connections without closing
 * them; the other instance (B) connects directly. PostgreSQL only: an embedded
 * PGlite has no connection to lose.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { hashToken } from '../../server/auth/sessions.ts';
import type { ServerMessage } from '../../shared/api/live.ts';
import { Browser, startTestApp, testSettings, type TestApp } from './helpers/app.ts';
import { usingPostgres } from './helpers/database.ts';
import { startFreezingProxy, type FreezingProxy } from './helpers/freezing-proxy.ts';
import { listen, watchGame, type LiveClient } from './helpers/live.ts';
import { startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

const HEARTBEAT_MS = 200;
const HEARTBEAT_TIMEOUT_MS = 200;
/** "Within a few heartbeats": the heartbeat, its timeout, the reconnection's back-off (500 ms) and the catch-up, with room for a busy machine. */
const FEW_HEARTBEATS_MS = 5_000;

type LogLine = { level: number; msg: string; channel?: string; silentMs?: number };

describe.skipIf(!usingPostgres)('a LISTEN connection that goes silent without closing', () => {
  let testApp: TestApp;
  /** B: where things happen. */
  let other: FastifyInstance;
  /** A: the instance under test, through the proxy. */
  let app: FastifyInstance;
  let proxy: FreezingProxy;
  let url: string;
  let game: StartedGame;
  const logs: LogLine[] = [];
  /** Called on each of A's log lines as it is written. */
  let onLog: (line: LogLine) => void = () => {};
  let resyncs = 0;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = testApp.app;
    proxy = await startFreezingProxy(testApp.database.url!);
    app = await buildApp({
      database: {
        kind: 'postgres',
        url: proxy.url(testApp.database.url!),
        poolSize: 5,
        listenHeartbeatMs: HEARTBEAT_MS,
        listenHeartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
      },
      settings: testSettings,
      logger: {
        level: 'debug',
        stream: {
          write(text: string) {
            const line = JSON.parse(text) as LogLine;
            logs.push(line);
            onLog(line);
          },
        },
      },
    });
    await app.ready();
    app.bus.onResync(() => (resyncs += 1));
    url = await listen(app);
    game = await startGame(other);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await testApp?.close();
  }, 60_000);

  /** A's websocket client watching the game, as the first power's player. */
  const watchOnA = () => watchGame(url, game.byPower.get(game.powers[0])!.cookie!, game.gameId);
  /** A public message, sent on B; its id. */
  async function pressOnB(body: string): Promise<string> {
    const response = await game.byPower.get(game.powers[1])!.request('POST', `/api/games/${game.gameId}/press`, { to: 'all', body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  }
  const gotMessage = (client: LiveClient, id: string) =>
    client.messages.some((message) => message.type === 'event' && message.event.type === 'press.message' && message.event.messageId === id);
  const whoAmI = async (browser: Browser) => (await browser.request('GET', '/api/auth/me')).json().user as { id: string } | null;
  const silentLines = (from: number) => logs.slice(from).filter((line) => line.level === 40 && /silent/.test(line.msg));

  test('while every connection works, heartbeats go unseen: no event, no resync, nothing logged above debug, the session cache kept', async () => {
    const watching = await watchOnA();
    const alice = await new Browser(app).register();
    expect(await whoAmI(alice)).not.toBeNull();
    const listeners = proxy.liveListeners();
    expect(listeners).toHaveLength(2);
    const seen = watching.messages.length;
    const from = logs.length;
    const [resyncsBefore, sessionsBefore] = [resyncs, { ...app.sessions.stats }];

    await new Promise((resolve) => setTimeout(resolve, 10 * HEARTBEAT_MS));

    // The heartbeats did travel, on both LISTEN connections (live events, sessions) …
    const after = proxy.liveListeners();
    expect(after).toHaveLength(2);
    after.forEach((listener, i) => expect(listener.bytesToClient).toBeGreaterThan(listeners[i].bytesToClient));
    // … and nobody saw them.
    expect(logs.slice(from).filter((line) => line.level > 20)).toEqual([]);
    expect(resyncs).toBe(resyncsBefore);
    expect(watching.messages.slice(seen)).toEqual([]);
    expect(app.sessions.stats.forgotten).toBe(sessionsBefore.forgotten);
    expect(await whoAmI(alice)).not.toBeNull();
    expect(app.sessions.stats.hits).toBe(sessionsBefore.hits + 1);
    expect(app.sessions.stats.misses).toBe(sessionsBefore.misses);
    // The instance still hears what happens elsewhere, at once.
    const id = await pressOnB('still here');
    await vi.waitFor(() => expect(gotMessage(watching, id)).toBe(true), { timeout: 2_000, interval: 20 });
    watching.socket.close();
  });

  test('an event made on the other instance reaches this one’s websocket clients within a few heartbeats, and the dead connection is logged', async () => {
    const watching = await watchOnA();
    const from = logs.length;
    expect(proxy.freezeListeners()).toBe(2);
    const frozenAt = Date.now();
    const id = await pressOnB('through a dead link');

    // Caught up from the event log once the connection is replaced (or told to resync, should the log not serve).
    const caughtUp = () => gotMessage(watching, id) || watching.messages.some((message: ServerMessage) => message.type === 'resync');
    await vi.waitFor(() => expect(caughtUp()).toBe(true), { timeout: FEW_HEARTBEATS_MS, interval: 20 });
    expect(gotMessage(watching, id)).toBe(true);
    expect(Date.now() - frozenAt).toBeLessThan(FEW_HEARTBEATS_MS);
    // One warning for each dead connection, naming its channel and how long it was silent.
    const silent = silentLines(from);
    expect(silent.map((line) => line.channel).sort()).toEqual(['diadochi_live', 'diadochi_sessions']);
    for (const line of silent) expect(line.silentMs).toBeGreaterThanOrEqual(HEARTBEAT_TIMEOUT_MS);
    // Replaced by working connections.
    await vi.waitFor(() => expect(proxy.liveListeners()).toHaveLength(2), { timeout: FEW_HEARTBEATS_MS });
    watching.socket.close();
  });

  test('a session logged out on the other instance stops working here within a few heartbeats, and the cache is not used from the moment the connection is found dead', async () => {
    const alice = await new Browser(app).register();
    expect(await whoAmI(alice)).not.toBeNull();
    const tokenHash = hashToken(alice.cookie!.slice('sid='.length));
    expect(app.sessions.get(tokenHash)).toBeDefined();
    // What the cache would answer right after the sessions connection is found dead (before it is replaced).
    let heldWhenFoundDead: unknown = 'not found dead';
    onLog = (line) => {
      if (line.level === 40 && /silent/.test(line.msg) && line.channel === 'diadochi_sessions') {
        queueMicrotask(() => (heldWhenFoundDead = app.sessions.get(tokenHash)));
      }
    };
    try {
      expect(proxy.freezeListeners()).toBe(2);
      const frozenAt = Date.now();
      const onB = Object.assign(new Browser(other), { cookie: alice.cookie, csrfToken: alice.csrfToken });
      expect((await onB.request('POST', '/api/auth/logout')).statusCode).toBe(204);

      await vi.waitFor(async () => expect(await whoAmI(alice)).toBeNull(), { timeout: FEW_HEARTBEATS_MS, interval: 50 });
      expect(Date.now() - frozenAt).toBeLessThan(FEW_HEARTBEATS_MS);
      expect(heldWhenFoundDead).toBeUndefined();
    } finally {
      onLog = () => {};
    }
    await vi.waitFor(() => expect(proxy.liveListeners()).toHaveLength(2), { timeout: FEW_HEARTBEATS_MS });
  });

  test('a heartbeat that cannot be sent (the database unreachable for queries) is not taken for a dead connection', async () => {
    const watching = await watchOnA();
    const from = logs.length;
    const listeners = proxy.liveListeners().length;
    proxy.refuseOthers(true);
    try {
      await new Promise((resolve) => setTimeout(resolve, 10 * (HEARTBEAT_MS + HEARTBEAT_TIMEOUT_MS)));
      // The LISTEN connections were kept: not dropped, not reconnected, not logged as lost.
      expect(proxy.liveListeners()).toHaveLength(listeners);
      expect(logs.slice(from).filter((line) => line.level > 20 && /notifications/.test(line.msg))).toEqual([]);
      // The failed heartbeats were noticed, at debug level.
      expect(logs.slice(from).some((line) => line.level === 20 && /heartbeat not sent/.test(line.msg))).toBe(true);
    } finally {
      proxy.refuseOthers(false);
    }
    // And the instance keeps hearing events as they happen.
    const id = await pressOnB('after the outage');
    await vi.waitFor(() => expect(gotMessage(watching, id)).toBe(true), { timeout: 2_000, interval: 20 });
    watching.socket.close();
  });
});
