/**
 * What each person may see, over REST and the websocket alike: nobody sees
 * another power's orders before the phase is processed, private press reaches
 * only its sender and recipients, and anonymous games never show players'
 * names to other players until they end.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ServerMessage } from '../../shared/api/live.ts';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { listen, settled, watchGame, type LiveClient } from './helpers/live.ts';
import { startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let url: string;
const watch = (browser: Browser, gameId: string) => watchGame(url, browser.cookie!, gameId);
/** Watching a game and one's own user channel (private press comes there), as the board does. */
const watchWithMine = (browser: Browser, gameId: string) => watchGame(url, browser.cookie!, gameId, browser.user!.id);

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const events = (messages: ServerMessage[]) => messages.flatMap((message) => (message.type === 'event' ? [message.event] : []));

describe('orders', () => {
  let game: StartedGame;
  beforeAll(async () => {
    game = await startGame(app);
  });

  test('stay secret until the phase is processed, over REST and the websocket', async () => {
    const { gameId, master, byPower, powers } = game;
    const [author, other] = powers;
    const spectator = await new Browser(app).register();
    const sockets = await Promise.all([other, author].map((power) => watch(byPower.get(power)!, gameId)));
    const spectatorSocket = await watch(spectator, gameId);

    const unit = (await byPower.get(author)!.request('GET', `/api/games/${gameId}/phases/current`))
      .json()
      .state.units.find((u: { power: string }) => u.power === author);
    const order = `${unit.type === 'army' ? 'A' : 'F'} ${unit.at} H`;
    const submitted = await byPower.get(author)!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: order });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().submission.text).toBe(order);

    // The author sees its orders; the others see that it submitted, not what.
    expect((await byPower.get(author)!.request('GET', `/api/games/${gameId}/phases/0/orders`)).json().current.text).toBe(order);
    const theirs = (await byPower.get(other)!.request('GET', `/api/games/${gameId}/phases/0/orders`)).json();
    expect(theirs).toMatchObject({ power: other, current: null, history: [] });
    for (const viewer of [byPower.get(other)!, spectator, master, new Browser(app)]) {
      const phase = (await viewer.request('GET', `/api/games/${gameId}/phases/0`)).json();
      expect(phase).toMatchObject({ status: 'open', orders: null, results: null, stateAfter: null });
      expect(phase.powers.find((line: { power: string }) => line.power === author)).toMatchObject({ submitted: true, ready: false });
      expect(JSON.stringify(phase)).not.toContain(`${unit.at} H`);
    }
    // Neither the game master nor a spectator has orders of their own to look at.
    expect((await master.request('GET', `/api/games/${gameId}/phases/0/orders`)).statusCode).toBe(403);
    expect((await spectator.request('GET', `/api/games/${gameId}/phases/0/orders`)).statusCode).toBe(403);
    // A player's export of a game going on has no unprocessed orders.
    const exported = (await byPower.get(other)!.request('GET', `/api/games/${gameId}/export`)).json();
    expect(exported.complete).toBe(false);
    expect(exported.phases[0]).toMatchObject({ status: 'open', orders: null, submissions: [] });

    for (const socket of [...sockets, spectatorSocket]) {
      const status = events(await settled(socket)).filter((event) => event.type === 'orders.status');
      expect(status).toEqual([{ type: 'orders.status', gameId, phaseIndex: 0, power: author, submitted: true, ready: false }]);
      expect(JSON.stringify(socket.messages)).not.toContain(`${unit.at} H`);
    }

    // Processed: now everyone sees every order and its result.
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    const processed = (await spectator.request('GET', `/api/games/${gameId}/phases/0`)).json();
    expect(processed.orders).toContainEqual({ power: author, order: { kind: 'hold', unit: { type: unit.type, at: unit.at } }, text: order });
    expect(processed.results.find((result: { order: string }) => result.order === order)).toMatchObject({ power: author, success: true, code: 'held' });
    const event = (await spectatorSocket.next('event', (message) => message.event.type === 'phase.processed')).event;
    expect(event).toMatchObject({ type: 'phase.processed', gameId, phase: { index: 0 }, next: { index: 1 } });
    for (const socket of [...sockets, spectatorSocket]) socket.socket.close();
  });
});

describe('press', () => {
  test('private messages reach only sender and recipients; public ones everyone who watches', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const [sender, recipient, outsider] = powers;
    const spectator = await new Browser(app).register();
    const [senderSocket, recipientSocket, outsiderSocket, spectatorSocket, masterSocket] = await Promise.all(
      [byPower.get(sender)!, byPower.get(recipient)!, byPower.get(outsider)!, spectator, master].map((browser) => watchWithMine(browser, gameId)),
    );

    const secret = await byPower.get(sender)!.request('POST', `/api/games/${gameId}/press`, { to: [recipient], body: 'Just between us.' });
    expect(secret.statusCode, secret.body).toBe(201);
    expect(secret.json()).toMatchObject({
      from: { power: sender, gameMaster: false, user: byPower.get(sender)!.user },
      to: [recipient],
      phase: 'Spring 240 BC Movement',
    });
    const announcement = await byPower.get(outsider)!.request('POST', `/api/games/${gameId}/press`, { to: 'all', body: 'Hello, world.' });
    expect(announcement.statusCode).toBe(201);
    const fromMaster = await master.request('POST', `/api/games/${gameId}/press`, { to: [outsider], body: 'A word, please.', asGameMaster: true });
    expect(fromMaster.statusCode).toBe(201);
    expect(fromMaster.json().from).toEqual({ power: null, gameMaster: true, user: master.user });

    const bodies = async (browser: Browser) =>
      (await browser.request('GET', `/api/games/${gameId}/press`)).json().messages.map((message: { body: string }) => message.body);
    expect(await bodies(byPower.get(sender)!)).toEqual(['Hello, world.', 'Just between us.']);
    expect(await bodies(byPower.get(recipient)!)).toEqual(['Hello, world.', 'Just between us.']);
    expect(await bodies(byPower.get(outsider)!)).toEqual(['A word, please.', 'Hello, world.']);
    expect(await bodies(spectator)).toEqual(['Hello, world.']);
    expect(await bodies(new Browser(app))).toEqual(['Hello, world.']);
    expect(await bodies(master)).toEqual(['A word, please.', 'Hello, world.']);

    const seen = async (socket: LiveClient) =>
      events(await settled(socket))
        .filter((event) => event.type === 'press.message')
        .map((event) => (event.type === 'press.message' ? event.messageId : ''));
    const [secretId, publicId, masterId] = [secret.json().id, announcement.json().id, fromMaster.json().id];
    expect(await seen(senderSocket)).toEqual([secretId, publicId]);
    expect(await seen(recipientSocket)).toEqual([secretId, publicId]);
    expect(await seen(outsiderSocket)).toEqual([publicId, masterId]);
    expect(await seen(spectatorSocket)).toEqual([publicId]);
    expect(await seen(masterSocket)).toEqual([publicId, masterId]);
    expect(JSON.stringify(outsiderSocket.messages)).not.toContain('Just between us');
    // Private messages come on their readers' own channels, never on the game's …
    for (const socket of [senderSocket, recipientSocket, outsiderSocket, spectatorSocket, masterSocket]) {
      const onGame = socket.messages.filter((message) => message.type === 'event' && message.channel === `game:${gameId}`);
      expect(onGame.map((message) => message.type === 'event' && message.event.type === 'press.message' && message.event.messageId)).toEqual([publicId]);
    }
    // … so the game's channel numbers its events without gaps for everyone: nobody learns from them that private messages passed.
    const gameSeqs = (socket: LiveClient) =>
      socket.messages.flatMap((message) => (message.type === 'event' && message.channel === `game:${gameId}` ? [message.seq!] : []));
    const subscribedAt = (socket: LiveClient) => socket.messages.find((message) => message.type === 'subscribed' && message.channel === `game:${gameId}`)!;
    for (const socket of [spectatorSocket, outsiderSocket]) {
      const from = (subscribedAt(socket) as { seq: number }).seq;
      expect(gameSeqs(socket)).toEqual(gameSeqs(socket).map((_, i) => from + 1 + i));
    }
    // Nobody may watch another user's channel.
    spectatorSocket.send({ type: 'subscribe', channel: `user:${byPower.get(recipient)!.user!.id}` });
    expect((await spectatorSocket.next('error')).error.code).toBe('not_found');
    for (const socket of [senderSocket, recipientSocket, outsiderSocket, spectatorSocket, masterSocket]) socket.socket.close();
  });

  test("public-only games refuse private messages; gunboat games refuse players' press but not the game master's", async () => {
    const publicOnly = await startGame(app, { press: 'public' });
    const [a, b] = publicOnly.powers;
    const refused = await publicOnly.byPower.get(a)!.request('POST', `/api/games/${publicOnly.gameId}/press`, { to: [b], body: 'psst' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'press_not_allowed', message: expect.stringContaining('public press only') });
    expect((await publicOnly.byPower.get(a)!.request('POST', `/api/games/${publicOnly.gameId}/press`, { to: 'all', body: 'hi' })).statusCode).toBe(201);

    const gunboat = await startGame(app, { press: 'none' });
    const [c] = gunboat.powers;
    const silent = await gunboat.byPower.get(c)!.request('POST', `/api/games/${gunboat.gameId}/press`, { to: 'all', body: 'hi' });
    expect(silent.statusCode).toBe(403);
    expect(silent.json().error).toMatchObject({ code: 'press_not_allowed', message: expect.stringContaining('gunboat') });
    expect(
      (await gunboat.master.request('POST', `/api/games/${gunboat.gameId}/press`, { to: 'all', body: 'Deadline tonight.', asGameMaster: true })).statusCode,
    ).toBe(201);
    // Only the game master speaks as game master.
    const impostor = await gunboat.byPower.get(c)!.request('POST', `/api/games/${gunboat.gameId}/press`, { to: 'all', body: 'x', asGameMaster: true });
    expect(impostor.json().error.code).toBe('not_game_master');
  });
});

describe('anonymous games', () => {
  test("never show players their opponents' names, over REST or the websocket, until the game ends", async () => {
    const game = await startGame(app, { anonymous: true });
    const { gameId, master, byPower, powers } = game;
    const names = new Map(powers.map((power) => [power, byPower.get(power)!.user!.username]));
    const sockets = new Map(await Promise.all(powers.map(async (power) => [power, await watch(byPower.get(power)!, gameId)] as const)));

    // Things that could carry names: the game, press, the GM log (a seat handed over), phases, exports, votes, loans.
    const [first, second] = powers;
    await byPower.get(first)!.request('POST', `/api/games/${gameId}/press`, { to: 'all', body: 'Who am I?' });
    await byPower.get(second)!.request('POST', `/api/games/${gameId}/press`, { to: [first], body: 'Guess.' });
    const [newcomer] = await registeredBrowsers(app, 1);
    const replaced = await master.request('POST', `/api/games/${gameId}/gm/replace`, { power: second, username: newcomer.user!.username });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().action.details.users).toEqual({ from: names.get(second), to: newcomer.user!.username });
    names.set(`${second} (new)`, newcomer.user!.username);
    byPower.set(second, newcomer);
    await master.request('POST', `/api/games/${gameId}/gm/process`);

    for (const power of powers) {
      const me = byPower.get(power)!;
      const others = [...names.values()].filter((name) => name !== me.user!.username);
      const seen: string[] = [];
      for (const path of ['', '/press', '/gm/log', '/phases/0', '/phases/current', '/export', '/votes', '/loans']) {
        const response = await me.request('GET', `/api/games/${gameId}${path}`);
        expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
        seen.push(response.body);
      }
      const detail = JSON.parse(seen[0]);
      expect(detail.players.filter((seat: { user: unknown }) => seat.user !== null)).toEqual([expect.objectContaining({ power, isYou: true })]);
      const socket = power === second ? null : sockets.get(power)!;
      if (socket) seen.push(JSON.stringify(await settled(socket)));
      for (const text of seen) for (const name of others) expect(text, `${power} must not see ${name}`).not.toContain(name);
    }
    // The game master sees everyone.
    const forMaster = (await master.request('GET', `/api/games/${gameId}`)).json();
    expect(forMaster.players.every((seat: { user: unknown }) => seat.user !== null)).toBe(true);

    // Once the game ends (everyone concedes to the first power), names are shown to all.
    for (const power of powers.slice(1)) {
      expect((await byPower.get(power)!.request('POST', `/api/games/${gameId}/votes`, { kind: 'concede', to: first })).statusCode).toBe(200);
    }
    const ended = (await new Browser(app).request('GET', `/api/games/${gameId}`)).json();
    expect(ended).toMatchObject({ status: 'finished', outcome: { kind: 'concession', powers: [first] } });
    expect(ended.players.every((seat: { user: unknown }) => seat.user !== null)).toBe(true);
    const press = (await new Browser(app).request('GET', `/api/games/${gameId}/press`)).json();
    expect(press.messages.map((message: { from: { user: { username: string } } }) => message.from.user.username)).toEqual([
      names.get(second),
      names.get(first),
    ]);
    for (const socket of sockets.values()) socket.socket.close();
  });
});

describe('live game events', () => {
  test("watchers are told of deadlines, the game master's actions, seats, loans and votes — without names or orders", async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const spectator = await new Browser(app).register();
    const socket = await watch(spectator, gameId);

    const extended = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 600 });
    await master.request('POST', `/api/games/${gameId}/gm/pause`);
    await master.request('POST', `/api/games/${gameId}/gm/resume`);
    await master.request('POST', `/api/games/${gameId}/gm/civil-disorder`, { power: powers[4] });
    const supply = (await spectator.request('GET', `/api/games/${gameId}/phases/current`)).json().supply;
    let lent = null;
    for (const centre of supply.find((line: { power: string }) => line.power === powers[0]).centres) {
      const response = await byPower.get(powers[0])!.request('POST', `/api/games/${gameId}/loans`, { centre, to: powers[1] });
      if (response.statusCode === 201) {
        lent = response.json();
        break;
      }
    }
    expect(lent).not.toBeNull();
    await byPower.get(powers[2])!.request('POST', `/api/games/${gameId}/votes`, { kind: 'draw' });
    await byPower.get(powers[2])!.request('DELETE', `/api/games/${gameId}/votes/draw`);

    const seen = events(await settled(socket)).filter((event) => event.type !== 'orders.status');
    const deadlineAt = new Date(extended.json().action.details.to).toISOString();
    expect(seen).toEqual([
      { type: 'deadline.changed', gameId, phaseIndex: 0, deadlineAt, paused: false },
      { type: 'gm.action', gameId, actionId: extended.json().action.id, action: 'change-deadline' },
      { type: 'deadline.changed', gameId, phaseIndex: 0, deadlineAt, paused: true },
      { type: 'gm.action', gameId, actionId: expect.any(String), action: 'pause' },
      { type: 'deadline.changed', gameId, phaseIndex: 0, deadlineAt: expect.any(String), paused: false },
      { type: 'gm.action', gameId, actionId: expect.any(String), action: 'resume' },
      { type: 'player.status', gameId, power: powers[4], status: 'civil-disorder', missedDeadlines: 0, replaced: false },
      { type: 'gm.action', gameId, actionId: expect.any(String), action: 'civil-disorder' },
      { type: 'loan.changed', gameId, action: 'lend', centre: lent.centre, lender: powers[0], borrower: powers[1], by: powers[0] },
      { type: 'votes.changed', gameId, power: powers[2], kind: 'draw', cast: true },
      { type: 'votes.changed', gameId, power: powers[2], kind: 'draw', cast: false },
    ]);
    socket.socket.close();
  });
});
