/**
 * Order submissions' live events leave after their batch commits, in a
 * notification of their own (server/bus/live-bus.ts says why). What a watcher
 * notices: every submission's `orders.status` still arrives, once and in
 * order; events whose notification never left (the process ended between the
 * commit and the notification) arrive with the channel's next event, read
 * from the log; and the notification's own transaction, which skips the WAL
 * flush, leaves the connection it ran on flushing every later commit.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { ServerMessage } from '../../shared/api/live.ts';
import { loggingStatement, NOTIFY_CHANNEL, notifyStatement } from '../../server/bus/live-bus.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { usingPostgres } from './helpers/database.ts';
import { listen, settled, watchGame } from './helpers/live.ts';
import { holdAll, startGame, type StartedGame } from './helpers/play.ts';

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

const gameEvents = (messages: ServerMessage[], gameId: string) =>
  messages.flatMap((message) => (message.type === 'event' && message.channel === `game:${gameId}` ? [message] : []));

const holds = (power: string) => holdAll(game.byPower.get(power)!, game.gameId, power);

describe('order submissions on the live channel', () => {
  test('every submission is heard once, numbered in order, including those stored together in one batch', async () => {
    const { gameId, master, powers } = game;
    const socket = await watchGame(url, master.cookie!, gameId);
    const before = gameEvents(socket.messages, gameId).length;
    const orders = await Promise.all(powers.map((power) => holds(power)));
    // Sent in one turn: the batcher stores them together.
    const answers = await Promise.all(
      powers.map((power, i) => game.byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: orders[i] })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);

    const heard = gameEvents(await settled(socket), gameId).slice(before);
    const statuses = heard.filter((message) => message.type === 'event' && message.event.type === 'orders.status');
    expect(statuses.map((message) => message.type === 'event' && message.event.type === 'orders.status' && message.event.power).sort()).toEqual(
      [...powers].sort(),
    );
    const numbers = heard.map((message) => message.seq!);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));
    socket.socket.close();
  });

  test('events logged by a batch whose notification never left arrive with the next event of their channel', async () => {
    const { gameId, master, powers } = game;
    const socket = await watchGame(url, master.cookie!, gameId);
    const channel = `game:${gameId}` as const;
    const at = await app.bus.currentSeq(app.prisma, channel);
    const event = { type: 'orders.status' as const, gameId, phaseIndex: 0, power: powers[0], submitted: true, ready: true };

    // Logged and committed, as a batch does, and then nothing: as if the process had ended before notifying.
    await app.database.transaction(async (sql) => {
      await sql(...loggingStatement([{ channel, event }])!);
    });
    // Nothing reaches the watcher meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gameEvents(socket.messages, gameId).filter((message) => message.seq! > at)).toEqual([]);

    // The channel's next event (a submission, notified as usual) shows the gap; the missed one is read from the log.
    const answer = await game.byPower.get(powers[1])!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: await holds(powers[1]) });
    expect(answer.statusCode, answer.body).toBe(200);
    const heard = gameEvents(await settled(socket), gameId).filter((message) => message.seq! > at);
    expect(heard.map((message) => message.seq)).toEqual([at + 1, at + 2]);
    expect(heard[0]).toMatchObject({ event: event });
    expect(heard[1]).toMatchObject({ event: { type: 'orders.status', power: powers[1] } });
    socket.socket.close();
  });
});

describe.skipIf(!usingPostgres)('the notification after commit', () => {
  test('is heard in the order given, and leaves the connection committing with a flush, as before', async () => {
    const listener = new pg.Client({ connectionString: testApp.database.url! });
    const client = new pg.Client({ connectionString: testApp.database.url! });
    await Promise.all([listener.connect(), client.connect()]);
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload!));
      await listener.query(`LISTEN ${NOTIFY_CHANNEL}`);
      const payloads = ['first', 'second', 'third'].map((word, seq) => ({ payload: JSON.stringify({ channel: 'lobby', seq, word }) }));
      const [text, params] = notifyStatement(payloads)!;
      expect((await client.query(text, params)).rows).toEqual([{ sent: 3 }]);
      await vi.waitFor(() => expect(heard).toHaveLength(3), { timeout: 5_000, interval: 20 });
      expect(heard.map((payload) => JSON.parse(payload).word)).toEqual(['first', 'second', 'third']);
      // The setting lasted for that transaction only: the pooled connection's next commits wait for their flush.
      expect((await client.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'on' }]);
      expect(notifyStatement([])).toBeNull();
    } finally {
      await Promise.all([listener.end(), client.end()]);
    }
  });
});
