/**
 * A websocket client that disconnects and reconnects gets what it missed:
 * events are numbered per channel (`seq`) and logged, a client subscribes
 * again with `after` (the last number it saw) and gets the missed events in
 * order, once, only those meant for it — or an explicit `resync` for the
 * channel when the log no longer covers them. A server whose LISTEN connection
 * is lost catches its sockets up from the same log (PostgreSQL only: an
 * embedded PGlite cannot lose it).
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { LiveEvent, ServerMessage } from '../../shared/api/live.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { usingPostgres } from './helpers/database.ts';
import { connect, listen, type LiveClient } from './helpers/live.ts';
import { startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let url: string;
let game: StartedGame;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
  game = await startGame(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

type Delivered = { seq: number; event: LiveEvent };
const channelOf = (gameId: string) => `game:${gameId}` as const;
const events = (client: LiveClient, from = 0): Delivered[] =>
  client.messages
    .slice(from)
    .filter((message): message is Extract<ServerMessage, { type: 'event' }> => message.type === 'event')
    .map((message) => ({ seq: message.seq!, event: message.event }));

/** What the event log says a watcher of `channel` (the game's by default) should get after `after` (up to now): all of it. */
async function expectedFor(_power: string, after: number, channel: string = channelOf(game.gameId)): Promise<Delivered[]> {
  const rows = await app.prisma.liveEventLog.findMany({ where: { channel, seq: { gt: after } }, orderBy: { seq: 'asc' } });
  return rows.map((row) => ({ seq: Number(row.seq), event: row.event as LiveEvent }));
}
const userChannelOf = (power: string) => `user:${game.byPower.get(power)!.user!.id}` as const;

/** Waits until `client` has been given the event numbered `seq`. */
const received = (client: LiveClient, seq: number) => client.next('event', (message) => message.seq === seq);

async function watcher(power: string, after?: number, channel: string = channelOf(game.gameId)): Promise<{ client: LiveClient; seq: number }> {
  const client = await connect(url, { cookie: game.byPower.get(power)!.cookie! });
  await client.next('welcome');
  client.send({ type: 'subscribe', channel, ...(after === undefined ? {} : { after }) });
  const subscribed = await client.next('subscribed');
  return { client, seq: subscribed.seq! };
}

/** Some events: public and private press, orders, a phase processed (public, and seats that changed). */
async function happenings(round: number): Promise<string[]> {
  const [a, b, c] = game.powers;
  const ids: string[] = [];
  // Everyone can play a movement phase; in others, whoever must order.
  const say = async (from: string, to: string[] | 'all', body: string) => {
    const response = await game.byPower.get(from)!.request('POST', `/api/games/${game.gameId}/press`, { to, body });
    expect(response.statusCode, response.body).toBe(201);
    ids.push(response.json().id);
  };
  await say(a, 'all', `Round ${round}: hello all`);
  await say(b, [c], `Round ${round}: just for ${c}`);
  const phase = (await game.master.request('GET', `/api/games/${game.gameId}/phases/current`)).json();
  const orderer = phase.powers.find((seat: { mustOrder: boolean }) => seat.mustOrder)?.power;
  if (orderer) {
    const ready = await game.byPower.get(orderer)!.request('POST', `/api/games/${game.gameId}/phases/${phase.index}/ready`, { ready: true });
    expect(ready.statusCode, ready.body).toBe(200);
  }
  const processed = await game.master.request('POST', `/api/games/${game.gameId}/gm/process`);
  expect(processed.statusCode, processed.body).toBe(200);
  return ids;
}

describe('resuming after a disconnection', () => {
  test('a client that reconnects with `after` gets exactly what it missed, in order, and only what is meant for it', async () => {
    const [a, , c] = game.powers;
    // One client stays connected throughout; the other drops out and comes back.
    const steady = await watcher(a);
    const leaving = await watcher(a);
    expect(leaving.seq).toBe(steady.seq);
    await happenings(1);
    const lastSeenByRecipient = await app.bus.currentSeq(app.prisma, userChannelOf(c));
    const lastSeen = (await expectedFor(a, leaving.seq)).at(-1)!.seq;
    await received(leaving.client, lastSeen);
    leaving.client.socket.close();
    await leaving.client.closed;

    await happenings(2);

    const back = await watcher(a, lastSeen);
    const missed = events(back.client);
    // Exactly what the log holds for this power after `lastSeen`: numbers, content, order.
    const expected = await expectedFor(a, lastSeen);
    expect(missed).toEqual(expected);
    expect(missed.length).toBeGreaterThanOrEqual(4);
    expect(missed.map((delivered) => delivered.event.type)).toContain('phase.processed');
    // … which is what the client that stayed connected got.
    await received(steady.client, expected.at(-1)!.seq);
    expect(events(steady.client).filter((delivered) => delivered.seq > lastSeen)).toEqual(expected);
    expect(back.seq).toBe(await app.bus.currentSeq(app.prisma, channelOf(game.gameId)));
    // The missed events came before `subscribed`, which says where the channel stands.
    const order = back.client.messages.map((message) => message.type);
    expect(order.indexOf('subscribed')).toBe(order.lastIndexOf('event') + 1);
    // Private press is not on the game's channel at all (nor its numbers): it goes on its readers' own channels.
    expect(missed.filter((delivered) => delivered.event.type === 'press.message' && delivered.event.to !== 'all')).toEqual([]);
    expect(missed.map((delivered) => delivered.seq)).toEqual(missed.map((_, i) => lastSeen + 1 + i));

    // The recipient of the private message, resuming their own channel from where they were, does get it.
    const recipient = await watcher(c, lastSeenByRecipient, userChannelOf(c));
    expect(events(recipient.client)).toEqual(await expectedFor(c, lastSeenByRecipient, userChannelOf(c)));
    expect(events(recipient.client).filter((delivered) => delivered.event.type === 'press.message' && delivered.event.to !== 'all')).toHaveLength(1);

    // Live events keep coming after the replay, without repeats or gaps.
    const from = back.client.messages.length;
    await happenings(3);
    const next = await expectedFor(a, back.seq);
    await received(back.client, next.at(-1)!.seq);
    expect(events(back.client, from)).toEqual(next);
    for (const client of [steady.client, back.client, recipient.client]) client.socket.close();
  });

  test('a client whose missed events are no longer logged is told to resync that channel', async () => {
    const [a] = game.powers;
    const first = await watcher(a);
    await happenings(4);
    const lastSeen = (await expectedFor(a, first.seq)).at(-1)!.seq;
    await received(first.client, lastSeen);
    first.client.socket.close();
    await happenings(5);
    // The replay window has passed for everything logged so far.
    await app.bus.prune(app.prisma, 0);
    const back = await watcher(a, lastSeen - 1);
    expect(back.client.messages.filter((message) => message.type === 'resync')).toEqual([{ type: 'resync', channel: channelOf(game.gameId) }]);
    expect(events(back.client)).toEqual([]);
    // A number from the future (another database?) is no better.
    const confused = await watcher(a, back.seq + 1000);
    expect(confused.client.messages.some((message) => message.type === 'resync')).toBe(true);
    // Up to date: nothing to replay and no resync.
    const current = await watcher(a, back.seq);
    expect(current.client.messages.map((message) => message.type)).toEqual(['welcome', 'subscribed']);
    for (const client of [back.client, confused.client, current.client]) client.socket.close();
  });

  test('an event whose notification was lost is noticed by the gap it leaves, and given from the log before the next', async () => {
    const [a] = game.powers;
    const watching = await watcher(a);
    // An event logged and numbered but never notified (as when the LISTEN connection drops just then) …
    const channel = channelOf(game.gameId);
    const lost = { type: 'deadline.changed', gameId: game.gameId, phaseIndex: 0, deadlineAt: null, paused: true } as const;
    await app.prisma.$transaction(async (tx) => {
      const [{ seq }] = await tx.$queryRaw<Array<{ seq: bigint }>>`UPDATE live_channels SET seq = seq + 1 WHERE channel = ${channel} RETURNING seq`;
      await tx.$executeRaw`INSERT INTO live_events (channel, seq, event) VALUES (${channel}, ${seq}, ${JSON.stringify(lost)}::jsonb)`;
    });
    // … then the next event, notified as usual.
    await happenings(7);
    const expected = await expectedFor(a, watching.seq);
    expect(expected[0]).toEqual({ seq: watching.seq + 1, event: lost });
    await received(watching.client, expected.at(-1)!.seq);
    expect(events(watching.client)).toEqual(expected);
    expect(watching.client.messages.some((message) => message.type === 'resync')).toBe(false);
    watching.client.socket.close();
  });

  test.skipIf(!usingPostgres)('when the server loses its LISTEN connection, its sockets are caught up from the log', async () => {
    const [a] = game.powers;
    const steady = await watcher(a);
    const admin = new pg.Client({ connectionString: testApp.database.url! });
    await admin.connect();
    try {
      let listenerBack!: () => void;
      const reconnected = new Promise<void>((resolve) => (listenerBack = resolve));
      const stop = app.bus.onResync(() => listenerBack());
      // PostgreSQL ends the server's LISTEN session (as a restart or a network blip would) …
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "diadochi_live"'`,
      );
      expect(killed.rowCount).toBe(1);
      // … and events commit before it is back (it reconnects after a back-off): their notifications are lost.
      await happenings(6);
      await reconnected;
      stop();
      const expected = await expectedFor(a, steady.seq);
      expect(expected.map((delivered) => delivered.event.type)).toContain('phase.processed');
      await received(steady.client, expected.at(-1)!.seq);
      expect(events(steady.client)).toEqual(expected);
      expect(steady.client.messages.some((message) => message.type === 'resync')).toBe(false);
    } finally {
      await admin.end();
      steady.client.socket.close();
    }
  });
});
