/**
 * Order submissions' live events leave after their batch commits, in a
 * notification of their own sent behind COMMIT (server/bus/live-bus.ts says
 * why). What a watcher notices: every submission's `orders.status` still
 * arrives, once and in order; events whose notification never left (the
 * process ended between the commit and the notification) arrive with the
 * channel's next event, read from the log; a batch that rolled back is never
 * heard of; and the notification's own transaction, which skips the WAL flush,
 * leaves the connection it ran on flushing every later commit.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { ServerMessage } from '../../shared/api/live.ts';
import { HELD_NOTIFICATIONS, loggingStatement, NOTIFY_CHANNEL, type Publication } from '../../server/bus/live-bus.ts';
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

    // Logged and committed, as a batch does, and then nothing: as if the process had ended before notifying
    // (on PostgreSQL a connection of its own, closed after the commit, as the process's would be).
    await logWithoutNotifying([{ channel, event }]);
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

describe.skipIf(!usingPostgres)('the notification behind COMMIT', () => {
  // Real events of the test's game, told apart by the phase number they name.
  const status = (phaseIndex: number): Publication => ({
    channel: `game:${game.gameId}`,
    event: { type: 'orders.status', gameId: game.gameId, phaseIndex, power: game.powers[0], submitted: true, ready: false },
  });

  test('is heard in the order logged, is not heard when the transaction rolled back, and leaves the connections committing with a flush', async () => {
    const listener = new pg.Client({ connectionString: testApp.database.url! });
    await listener.connect();
    try {
      const heard: Array<{ seq: number; event: { phaseIndex: number } }> = [];
      listener.on('notification', (message) => heard.push(JSON.parse(message.payload!)));
      await listener.query(`LISTEN ${NOTIFY_CHANNEL}`);

      await app.database.transaction(async (sql, commit) => {
        const logged = sql(...loggingStatement([101, 102, 103].map(status))!);
        commit(HELD_NOTIFICATIONS);
        return logged;
      });
      await vi.waitFor(() => expect(heard).toHaveLength(3), { timeout: 5_000, interval: 20 });
      expect(heard.map((payload) => payload.event.phaseIndex)).toEqual([101, 102, 103]);
      expect(heard.map((payload) => payload.seq - heard[0].seq)).toEqual([0, 1, 2]);

      // Logged, then a statement fails: rolled back, and its notifications with it. Then one that commits: only its own.
      await expect(
        app.database.transaction(async (sql, commit) => {
          const logged = Promise.all([sql(...loggingStatement([status(666)])!), sql('SELECT 1 / 0')]);
          commit(HELD_NOTIFICATIONS);
          return logged;
        }),
      ).rejects.toThrow(/division by zero/);
      await app.database.transaction(async (sql, commit) => {
        const logged = sql(...loggingStatement([status(104)])!);
        commit(HELD_NOTIFICATIONS);
        return logged;
      });
      await vi.waitFor(() => expect(heard).toHaveLength(4), { timeout: 5_000, interval: 20 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard.map((payload) => payload.event.phaseIndex)).toEqual([101, 102, 103, 104]);
      // The rolled-back event took no number: the channel's numbers go on without a gap.
      expect(heard[3].seq).toBe(heard[2].seq + 1);

      // The setting lasted for the notifying transaction only: the pipelined connections' next commits wait for their flush.
      const settings = await Promise.all(Array.from({ length: 4 }, () => app.database.transaction(async (sql) => (await sql('SHOW synchronous_commit'))[0])));
      expect(settings).toEqual(Array.from({ length: 4 }, () => ({ synchronous_commit: 'on' })));
    } finally {
      await listener.end();
    }
  });
});

/** Logs and commits these events, and never notifies them (as if the process had ended right after the commit). */
async function logWithoutNotifying(publications: Publication[]): Promise<void> {
  const [text, params] = loggingStatement(publications)!;
  if (!usingPostgres) {
    // One connection: the next logging transaction's statements replace what this one holds.
    await app.database.transaction(async (sql) => void (await sql(text, params)));
    return;
  }
  const client = new pg.Client({ connectionString: testApp.database.url! });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(text, [...params]);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}
