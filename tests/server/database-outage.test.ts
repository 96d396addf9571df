/**
 * When PostgreSQL cannot be reached the API answers 503 with a JSON error, and
 * it recovers by itself when the database is back. The outage is real: the app
 * talks to PostgreSQL through a TCP relay that the test cuts and restores.
 * (An embedded PGlite cannot become unreachable, so this needs DATABASE_URL.)
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { Browser, testSettings } from './helpers/app.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from './helpers/database.ts';
import { connect, listen } from './helpers/live.ts';

/** Relays TCP connections to `target`; `cut()` drops them all and refuses new ones until `restore()`. */
class Relay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async restore(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server!.close(resolve));
  }
}

describe.skipIf(!usingPostgres)('database outage', () => {
  let database: TestDatabase;
  let relay: Relay;
  let app: FastifyInstance;
  let wsUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(database.url!);
    relay = new Relay({ host: url.hostname, port: Number(url.port || 5432) });
    await relay.restore();
    const relayed = new URL(database.url!);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    app = await buildApp({ database: { kind: 'postgres', url: relayed.toString(), poolSize: 3 }, settings: testSettings });
    await app.ready();
    wsUrl = await listen(app);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  }, 60_000);

  test('answers 503 while the database is unreachable and recovers without a restart', async () => {
    const browser = await new Browser(app).register();
    const live = await connect(wsUrl, { cookie: browser.cookie! });
    await live.next('welcome');
    live.send({ type: 'subscribe', channel: 'lobby' });
    const subscribed = await live.next('subscribed');
    let listenerBack!: () => void;
    const reconnected = new Promise<void>((resolve) => (listenerBack = resolve));
    const stopWatching = app.bus.onResync(() => listenerBack());

    await relay.cut();
    for (const request of [
      () => app.inject({ method: 'GET', url: '/api/health' }),
      () => app.inject({ method: 'GET', url: '/api/games' }),
      () => browser.request('GET', '/api/auth/me'),
      () => browser.request('POST', '/api/games', { name: 'during the outage', variant: 'standard' }),
    ]) {
      const response = await request();
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json().error.code).toBe('database_unavailable');
      expect(response.headers['retry-after']).toBe('5');
    }

    await relay.restore();
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    // Most likely committed before the live listener is back (it reconnects with a back-off): its
    // notification is lost, the event log is not.
    const created = await browser.request('POST', '/api/games', { name: 'after the outage', variant: 'standard' });
    expect(created.statusCode).toBe(201);
    // The live listener reconnects too, and catches its sockets up with what they missed, once.
    await reconnected;
    stopWatching();
    const event = await live.next('event', (message) => message.event.type === 'game.created' && message.event.gameId === created.json().id);
    expect(event.seq).toBe(subscribed.seq! + 1);
    const another = await browser.request('POST', '/api/games', { name: 'and another', variant: 'standard' });
    await live.next('event', (message) => message.event.type === 'game.created' && message.event.gameId === another.json().id);
    expect(live.messages.filter((message) => message.type === 'event').map((message) => message.type === 'event' && message.seq)).toEqual([
      subscribed.seq! + 1,
      subscribed.seq! + 2,
    ]);
    expect(live.messages.some((message) => message.type === 'resync')).toBe(false);
    live.socket.close();
  }, 30_000);

  test('a catch-up read that fails as the database comes back is tried again: the watchers get what they missed, not a resync', async () => {
    const browser = await new Browser(app).register();
    const live = await connect(wsUrl, { cookie: browser.cookie! });
    await live.next('welcome');
    live.send({ type: 'subscribe', channel: 'lobby' });
    const subscribed = await live.next('subscribed');
    const reads = vi.spyOn(app.bus, 'history');
    // The moment the live listener is back (and its sockets' catch-up read has just gone out), the
    // link drops again for a moment: that first read fails.
    let relinked!: () => void;
    const backAgain = new Promise<void>((resolve) => (relinked = resolve));
    let dropped = false;
    const stopWatching = app.bus.onResync(() => {
      if (dropped) return;
      dropped = true;
      void relay.cut().then(() => setTimeout(() => void relay.restore().then(relinked), 200));
    });
    try {
      await relay.cut();
      await relay.restore();
      await vi.waitFor(async () => expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200));
      const created = await browser.request('POST', '/api/games', { name: 'missed while the listener was away', variant: 'standard' });
      expect(created.statusCode).toBe(201);
      await backAgain;
      const event = await live.next('event', (message) => message.event.type === 'game.created' && message.event.gameId === created.json().id, 15_000);
      expect(event.seq).toBe(subscribed.seq! + 1);
      expect(reads.mock.settledResults.some((result) => result.type === 'rejected')).toBe(true);
      expect(live.messages.some((message) => message.type === 'resync')).toBe(false);
    } finally {
      stopWatching();
      reads.mockRestore();
      live.socket.close();
    }
  }, 30_000);

  test('at start-up the server waits for the database (migrations retried) instead of failing', async () => {
    await relay.cut();
    const target = new URL(database.url!);
    target.hostname = '127.0.0.1';
    target.port = String(relay.port);
    const starting = buildApp({ database: { kind: 'postgres', url: target.toString(), poolSize: 2 }, settings: testSettings, startupTimeoutMs: 20_000 });
    setTimeout(() => void relay.restore(), 1500);
    const started = await starting;
    try {
      await started.ready();
      expect((await started.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await started.close();
    }
  }, 30_000);

  test('gives up with the error when the database stays away', async () => {
    const nowhere = new URL(database.url!);
    nowhere.hostname = '127.0.0.1';
    nowhere.port = '1'; // nothing listens there
    const started = Date.now();
    await expect(buildApp({ database: { kind: 'postgres', url: nowhere.toString() }, settings: testSettings, startupTimeoutMs: 1000 })).rejects.toThrow(
      /Can't reach database server/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  }, 30_000);
});
