import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LIVE_CLOSE, LIVE_LIMITS } from '../../shared/api/live.ts';
import { Browser, registeredBrowsers, startSiblingApp, startTestApp, type TestApp } from './helpers/app.ts';
import { connect, listen, settled as settledSocket } from './helpers/live.ts';
import { startGame } from './helpers/play.ts';

// Generous: these go through a real database on a machine that may be busy.
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

async function createGame(master: Browser, settings: Record<string, unknown> = {}) {
  const response = await master.request('POST', '/api/games', { name: 'Live test', variant: 'standard', ...settings });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; seats: number; inviteCode: string | null };
}

describe('authentication', () => {
  test('refuses a socket without credentials with a 401 before the upgrade', async () => {
    const refusal = await connect(url, {}).catch((error) => error);
    expect(refusal.statusCode).toBe(401);
    expect(JSON.parse(refusal.body).error.code).toBe('unauthenticated');
  });

  test('accepts the session cookie and an API token, and welcomes with the limits', async () => {
    const browser = await new Browser(app).register();
    const viaCookie = await connect(url, cookieOf(browser));
    const welcome = await viaCookie.next('welcome');
    expect(welcome.user).toEqual(browser.user);
    expect(welcome.limits.maxMessageBytes).toBe(LIVE_LIMITS.maxMessageBytes);
    viaCookie.socket.close();

    const { token } = (await browser.request('POST', '/api/auth/tokens', { name: 'bot' })).json();
    const viaToken = await connect(url, { authorization: `Bearer ${token}` });
    expect((await viaToken.next('welcome')).user).toEqual(browser.user);
    viaToken.socket.close();

    const badToken = await connect(url, { authorization: 'Bearer dip_nonsense' }).catch((error) => error);
    expect(badToken.statusCode).toBe(401);
  });

  test('a plain GET without Upgrade gets 426 with an explanation', async () => {
    const browser = await new Browser(app).register();
    const response = await browser.request('GET', '/api/live');
    expect(response.statusCode).toBe(426);
    expect(response.json().error.code).toBe('upgrade_required');
  });

  test('refuses a cookie-authenticated socket opened by another site', async () => {
    const browser = await new Browser(app).register();
    const refusal = await connect(url, { ...cookieOf(browser), origin: 'https://evil.example' }).catch((error) => error);
    expect(refusal.statusCode).toBe(403);
    expect(JSON.parse(refusal.body).error.code).toBe('origin_not_allowed');
    const sameSite = await connect(url, { ...cookieOf(browser), origin: url.replace('ws://', 'http://').replace('/api/live', '') });
    await sameSite.next('welcome');
    sameSite.socket.close();
  });
});

describe('lobby events', () => {
  test('subscribers of a game see players join and leave, and the game start', async () => {
    const [master, first] = await registeredBrowsers(app, 2);
    const game = await createGame(master);
    const watcher = await connect(url, cookieOf(master));
    watcher.send({ type: 'subscribe', channel: `game:${game.id}` });
    await watcher.next('subscribed');

    await first.request('POST', `/api/games/${game.id}/join`, {});
    const joined = await watcher.next('event', (message) => message.event.type === 'player.joined');
    expect(joined).toEqual({
      type: 'event',
      channel: `game:${game.id}`,
      seq: expect.any(Number),
      event: { type: 'player.joined', gameId: game.id, playerCount: 2, seats: game.seats, user: first.user },
    });

    await first.request('POST', `/api/games/${game.id}/leave`);
    const left = await watcher.next('event', (message) => message.event.type === 'player.left');
    expect(left.event).toMatchObject({ playerCount: 1, user: first.user });

    const others = await registeredBrowsers(app, game.seats - 1);
    for (const other of others) await other.request('POST', `/api/games/${game.id}/join`, {});
    const started = await watcher.next('event', (message) => message.event.type === 'game.started');
    expect(started.event).toEqual({ type: 'game.started', gameId: game.id, playerCount: game.seats, seats: game.seats });
    const phase = await watcher.next('event', (message) => message.event.type === 'phase.started');
    expect(phase.event).toMatchObject({ type: 'phase.started', gameId: game.id, phase: { index: 0, kind: 'movement' } });
    watcher.socket.close();
  });

  test('the lobby channel announces public games only; anonymous games name nobody', async () => {
    const [master, player] = await registeredBrowsers(app, 2);
    const watcher = await connect(url, cookieOf(player));
    watcher.send({ type: 'subscribe', channel: 'lobby' });
    await watcher.next('subscribed');

    const hidden = await createGame(master, { private: true });
    const anonymous = await createGame(master, { anonymous: true });
    const created = await watcher.next('event', (message) => message.event.type === 'game.created');
    expect(created.event).toMatchObject({ gameId: anonymous.id, name: 'Live test', variant: 'standard', playerCount: 1 });

    await player.request('POST', `/api/games/${anonymous.id}/join`, {});
    const joined = await watcher.next('event', (message) => message.event.type === 'player.joined');
    expect(joined.event).toMatchObject({ gameId: anonymous.id, user: null });
    expect(watcher.messages.some((message) => JSON.stringify(message).includes(hidden.id))).toBe(false);
    watcher.socket.close();
  });

  test('a private game can be watched by its members only', async () => {
    const [master, stranger] = await registeredBrowsers(app, 2);
    const game = await createGame(master, { private: true });
    const strangerSocket = await connect(url, cookieOf(stranger));
    strangerSocket.send({ type: 'subscribe', channel: `game:${game.id}` });
    expect((await strangerSocket.next('error')).error.code).toBe('not_found');
    const masterSocket = await connect(url, cookieOf(master));
    masterSocket.send({ type: 'subscribe', channel: `game:${game.id}` });
    expect(await masterSocket.next('subscribed')).toEqual({ type: 'subscribed', channel: `game:${game.id}`, seq: expect.any(Number) });
    strangerSocket.socket.close();
    masterSocket.socket.close();
  });

  test('a private game is watched by one holding its invite code, as it is read with it', async () => {
    const [master, invited] = await registeredBrowsers(app, 2);
    const game = await createGame(master, { private: true });
    const wrong = await connect(url, cookieOf(invited));
    wrong.send({ type: 'subscribe', channel: `game:${game.id}`, inviteCode: 'guessed' });
    expect((await wrong.next('error')).error.code).toBe('not_found');
    const socket = await connect(url, cookieOf(invited));
    socket.send({ type: 'subscribe', channel: `game:${game.id}`, inviteCode: game.inviteCode });
    await socket.next('subscribed');
    const joiner = (await registeredBrowsers(app, 1))[0];
    await joiner.request('POST', `/api/games/${game.id}/join`, { inviteCode: game.inviteCode });
    expect((await socket.next('event', (message) => message.event.type === 'player.joined')).event).toMatchObject({ gameId: game.id });
    wrong.socket.close();
    socket.socket.close();
  });

  test('someone who leaves a private game, or whose seat is handed on, stops watching it at once', async () => {
    // Leaving before the start.
    const [master, leaver] = await registeredBrowsers(app, 2);
    const forming = await createGame(master, { private: true });
    expect((await leaver.request('POST', `/api/games/${forming.id}/join`, { inviteCode: forming.inviteCode })).statusCode).toBe(200);
    const leaverSocket = await connect(url, cookieOf(leaver));
    leaverSocket.send({ type: 'subscribe', channel: `game:${forming.id}` });
    await leaverSocket.next('subscribed');
    expect((await leaver.request('POST', `/api/games/${forming.id}/leave`)).statusCode).toBe(200);
    expect(await leaverSocket.next('unsubscribed')).toMatchObject({ channel: `game:${forming.id}`, reason: expect.stringContaining('no longer') });
    const masterSocket = await connect(url, cookieOf(master));
    masterSocket.send({ type: 'subscribe', channel: `game:${forming.id}` });
    await masterSocket.next('subscribed');

    // A seat handed on by the game master, during the game: the one replaced hears nothing more of it.
    const game = await startGame(app, { private: true });
    const [power, other] = game.powers;
    const replaced = game.byPower.get(power)!;
    const replacedSocket = await connect(url, cookieOf(replaced));
    replacedSocket.send({ type: 'subscribe', channel: `game:${game.gameId}` });
    await replacedSocket.next('subscribed');
    const newcomer = await new Browser(app).register();
    expect((await game.master.request('POST', `/api/games/${game.gameId}/gm/replace`, { power, username: newcomer.user!.username })).statusCode).toBe(200);
    await replacedSocket.next('unsubscribed', (message) => message.channel === `game:${game.gameId}`);
    const heardBefore = replacedSocket.messages.length;
    expect((await game.byPower.get(other)!.request('POST', `/api/games/${game.gameId}/press`, { to: 'all', body: 'After the handover.' })).statusCode).toBe(
      201,
    );
    await settledSocket(replacedSocket);
    expect(replacedSocket.messages.slice(heardBefore).filter((message) => message.type === 'event')).toEqual([]);
    // Members are not unsubscribed: the game master still hears the game.
    expect(masterSocket.messages.some((message) => message.type === 'unsubscribed')).toBe(false);
    for (const socket of [leaverSocket, masterSocket, replacedSocket]) socket.socket.close();
  });

  test('the one asked to run a game hears of it, and of its withdrawal, on their own channel, wherever they are', async () => {
    const [creator, asked, successor] = await registeredBrowsers(app, 3);
    const ears = await connect(url, cookieOf(asked));
    ears.send({ type: 'subscribe', channel: `user:${asked.user!.id}` });
    await ears.next('subscribed');
    const invitation = (gameId: string, pending: boolean) => (message: { event: { type: string; gameId?: string; pending?: boolean } }) =>
      message.event.type === 'gm.invitation' && message.event.gameId === gameId && message.event.pending === pending;

    // Asked when the game is created (a private one: they are not watching it, and the lobby does not list it).
    const game = await createGame(creator, { gameMaster: asked.user!.username, private: true, joinAsPlayer: false });
    await ears.next('event', invitation(game.id, true));
    // Withdrawn by the game master.
    expect((await creator.request('DELETE', `/api/games/${game.id}/gm/invitation`)).statusCode).toBe(204);
    await ears.next('event', invitation(game.id, false));
    // Asked from the tools, then passed over for someone else.
    expect((await creator.request('POST', `/api/games/${game.id}/gm/invite`, { username: asked.user!.username })).statusCode).toBe(200);
    await ears.next(
      'event',
      (message) => invitation(game.id, true)(message) && ears.messages.filter((m) => m.type === 'event' && invitation(game.id, true)(m)).length === 2,
    );
    expect((await creator.request('POST', `/api/games/${game.id}/gm/invite`, { username: successor.user!.username })).statusCode).toBe(200);
    await ears.next(
      'event',
      (message) => invitation(game.id, false)(message) && ears.messages.filter((m) => m.type === 'event' && invitation(game.id, false)(m)).length === 2,
    );
    ears.socket.close();
  });

  test('after unsubscribing no more events arrive', async () => {
    const [master, player] = await registeredBrowsers(app, 2);
    const game = await createGame(master);
    const watcher = await connect(url, cookieOf(master));
    watcher.send({ type: 'subscribe', channel: `game:${game.id}` });
    await watcher.next('subscribed');
    watcher.send({ type: 'unsubscribe', channel: `game:${game.id}` });
    await watcher.next('unsubscribed');
    await player.request('POST', `/api/games/${game.id}/join`, {});
    // A ping sent after the join is answered after any event the join produced.
    watcher.send({ type: 'ping' });
    await watcher.next('pong');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(watcher.messages.filter((message) => message.type === 'event')).toEqual([]);
    watcher.socket.close();
  });
});

describe('messages and limits', () => {
  test('answers pings, and explains malformed messages without closing', async () => {
    const browser = await new Browser(app).register();
    const client = await connect(url, cookieOf(browser));
    client.send({ type: 'ping' });
    await client.next('pong');
    client.send('not json');
    expect((await client.next('error')).error).toEqual({ code: 'bad_request', message: 'messages must be JSON objects' });
    client.send({ type: 'subscribe', channel: 'game:42' });
    const invalid = await client.next('error', (message) => message.error.code === 'validation_failed');
    expect(invalid.error.message).toContain('channel: must be "lobby", "game:<game id>", "user:<your user id>" or "battle:<battle id>"');
    client.send({ type: 'dance' });
    await client.next('error', (message) => message.error.message.includes('type'));
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    client.socket.close();
  });

  test(`closes the socket (1009) on a message above ${LIVE_LIMITS.maxMessageBytes} bytes`, async () => {
    const browser = await new Browser(app).register();
    const client = await connect(url, cookieOf(browser));
    await client.next('welcome');
    client.send({ type: 'ping', padding: 'x'.repeat(LIVE_LIMITS.maxMessageBytes) });
    expect((await client.closed).code).toBe(1009);
  });

  test('the heartbeat closes sockets that stop answering pings, and keeps the others', async () => {
    const quick = await startSiblingApp(app, { settings: { heartbeatMs: 150 } });
    try {
      const quickUrl = await listen(quick);
      const browser = await new Browser(app).register();
      const silent = await connect(quickUrl, cookieOf(browser), { autoPong: false });
      const healthy = await connect(quickUrl, cookieOf(browser));
      await silent.next('welcome');
      const start = Date.now();
      await silent.closed;
      expect(Date.now() - start).toBeLessThan(2000);
      expect(healthy.socket.readyState).toBe(healthy.socket.OPEN);
      healthy.socket.close();
    } finally {
      await quick.close();
    }
  });

  test('a socket whose session ends (log-out, a revoked API token) is closed at the next heartbeat', async () => {
    const quick = await startSiblingApp(app, { settings: { heartbeatMs: 150 } });
    try {
      const quickUrl = await listen(quick);
      const browser = await new Browser(app).register();
      const other = new Browser(app);
      expect((await other.login(browser.user!.username)).statusCode).toBe(200);
      const { id: tokenId, token } = (await browser.request('POST', '/api/auth/tokens', { name: 'bot' })).json();
      // Two tabs of one browser: two sockets opened with the same cookie.
      const viaCookie = await connect(quickUrl, cookieOf(browser));
      const viaCookieToo = await connect(quickUrl, cookieOf(browser));
      const viaToken = await connect(quickUrl, { authorization: `Bearer ${token}` });
      const viaOtherSession = await connect(quickUrl, cookieOf(other));
      await Promise.all([viaCookie, viaCookieToo, viaToken, viaOtherSession].map((client) => client.next('welcome')));

      expect((await browser.request('POST', '/api/auth/logout')).statusCode).toBe(204);
      for (const tab of [viaCookie, viaCookieToo])
        expect(await tab.closed).toEqual({ code: LIVE_CLOSE.sessionEnded, reason: 'the session has ended: log in again' });
      expect((await other.request('DELETE', `/api/auth/tokens/${tokenId}`)).statusCode).toBe(204);
      expect((await viaToken.closed).code).toBe(LIVE_CLOSE.sessionEnded);

      // The same user's other session is untouched.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(viaOtherSession.socket.readyState).toBe(viaOtherSession.socket.OPEN);
      viaOtherSession.socket.close();
    } finally {
      await quick.close();
    }
  });
});

describe('several server instances', () => {
  test('an event published on one instance reaches sockets on another', async () => {
    const second = await startSiblingApp(app, {
      database: testApp.database.url ? { kind: 'postgres', url: testApp.database.url } : app.database,
    });
    try {
      const secondUrl = await listen(second);
      const [master, player] = await registeredBrowsers(app, 2);
      const game = await createGame(master);
      const watcher = await connect(secondUrl, cookieOf(master));
      watcher.send({ type: 'subscribe', channel: `game:${game.id}` });
      await watcher.next('subscribed');
      await player.request('POST', `/api/games/${game.id}/join`, {}); // handled by the first instance
      const joined = await watcher.next('event');
      expect(joined.event).toMatchObject({ type: 'player.joined', user: player.user });
      watcher.socket.close();
    } finally {
      await second.close();
    }
  });

  test('closing the app closes open sockets with 1001 (going away)', async () => {
    const closing = await startSiblingApp(app);
    const closingUrl = await listen(closing);
    const browser = await new Browser(app).register();
    const client = await connect(closingUrl, cookieOf(browser));
    await client.next('welcome');
    await closing.close();
    expect((await client.closed).code).toBe(1001);
  });
});
