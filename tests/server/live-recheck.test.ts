/**
 * Events that may change who may watch a game (a player leaves, a seat is handed on, a game-master action) make
 * the server check each watcher of the channel again. Through the real websocket: those checks neither cost the
 * lobby's watchers their subscription nor lose the events that come after them in a replay.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { LiveEvent, ServerMessage } from '../../shared/api/live.ts';
import { type Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { connect, listen, settled, type LiveClient } from './helpers/live.ts';

vi.setConfig({ testTimeout: 30_000 });

let testApp: TestApp;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const cookieOf = (browser: Browser) => ({ cookie: browser.cookie! });
const events = (client: LiveClient) =>
  client.messages
    .filter((message): message is Extract<ServerMessage, { type: 'event' }> => message.type === 'event')
    .map((message) => ({ seq: message.seq!, event: message.event }));

async function createGame(master: Browser) {
  const response = await master.request('POST', '/api/games', { name: 'Recheck test', variant: 'standard' });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}
async function subscribe(browser: Browser, channel: string, after?: number) {
  const client = await connect(url, cookieOf(browser));
  client.send({ type: 'subscribe', channel, ...(after === undefined ? {} : { after }) });
  return { client, subscribed: await client.next('subscribed') };
}
async function logged(channel: string, after: number) {
  const rows = await app.prisma.liveEventLog.findMany({ where: { channel, seq: { gt: after } }, orderBy: { seq: 'asc' } });
  return rows.map((row) => ({ seq: Number(row.seq), event: row.event as LiveEvent }));
}

describe('rechecking who may watch', () => {
  test('a player leaving a public game does not unsubscribe the lobby’s watchers, who go on hearing the lobby', async () => {
    const [master, leaver, joiner] = await registeredBrowsers(app, 3);
    const lobby = await subscribe(joiner, 'lobby');
    const game = await createGame(master);
    expect((await leaver.request('POST', `/api/games/${game.id}/join`, {})).statusCode).toBe(200);
    expect((await leaver.request('POST', `/api/games/${game.id}/leave`)).statusCode).toBe(200);
    await lobby.client.next('event', (message) => message.event.type === 'player.left');
    expect((await joiner.request('POST', `/api/games/${game.id}/join`, {})).statusCode).toBe(200);

    await lobby.client.next('event', (message) => message.event.type === 'player.joined' && message.event.user?.id === joiner.user!.id);
    await settled(lobby.client);
    expect(lobby.client.messages.filter((message) => message.type === 'unsubscribed')).toEqual([]);
    lobby.client.socket.close();
  });

  test('a client resuming past such an event gets every event it missed, once and in order', async () => {
    const [master, leaver, joiner] = await registeredBrowsers(app, 3);
    const game = await createGame(master);
    const channel = `game:${game.id}`;
    const before = await subscribe(master, channel);
    const after = before.subscribed.seq!;
    before.client.socket.close();
    // Missed: a join, a leave (which has the watchers checked again), another join.
    expect((await leaver.request('POST', `/api/games/${game.id}/join`, {})).statusCode).toBe(200);
    expect((await leaver.request('POST', `/api/games/${game.id}/leave`)).statusCode).toBe(200);
    expect((await joiner.request('POST', `/api/games/${game.id}/join`, {})).statusCode).toBe(200);
    const missed = await logged(channel, after);
    expect(missed.map((delivered) => delivered.event.type)).toEqual(['player.joined', 'player.left', 'player.joined']);

    const back = await subscribe(master, channel, after);
    await back.client.next('event', (message) => message.seq === missed.at(-1)!.seq);
    await settled(back.client);
    expect(events(back.client)).toEqual(missed);
    expect(back.client.messages.filter((message) => message.type === 'unsubscribed' || message.type === 'resync')).toEqual([]);
    back.client.socket.close();
  });
});
