/**
 * Press read marks kept per user on the server: a conversation read on one device (the desktop) reads as read on
 * another (the phone), a mark never moves back nor past now, and only conversations of the caller's own can be
 * marked. Through the real HTTP interface.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let game: StartedGame;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  game = await startGame(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const marks = async (browser: Browser) => {
  const response = await browser.request('GET', `/api/games/${game.gameId}/press/read`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().readUntil as Record<string, string>;
};
const mark = (browser: Browser, conversation: string, until: string) => browser.request('PUT', `/api/games/${game.gameId}/press/read`, { conversation, until });

describe('press read marks', () => {
  test('a conversation read on the desktop is read on the phone: the marks are the user’s, not the browser’s', async () => {
    const [me, other] = game.powers;
    const desktop = game.byPower.get(me)!;
    const phone = new Browser(app);
    expect((await phone.login(desktop.user!.username)).statusCode).toBe(200);

    const sent = await game.byPower.get(other)!.request('POST', `/api/games/${game.gameId}/press`, { to: [me], body: 'A word in private.' });
    expect(sent.statusCode, sent.body).toBe(201);
    const key = [me, other].sort().join('+');
    expect(await marks(phone)).toEqual({});

    const marked = await mark(desktop, key, sent.json().sentAt);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().readUntil).toEqual({ [key]: sent.json().sentAt });
    expect(await marks(phone)).toEqual({ [key]: sent.json().sentAt });
    // Another player's marks are their own.
    expect(await marks(game.byPower.get(other)!)).toEqual({});
  });

  test('a mark never moves back (a slower device reporting late), and never past now', async () => {
    const me = game.powers[2];
    const player = game.byPower.get(me)!;
    expect((await mark(player, 'public', '2026-01-02T00:00:00.000Z')).statusCode).toBe(200);
    const back = await mark(player, 'public', '2026-01-01T00:00:00.000Z');
    expect(back.json().readUntil.public).toBe('2026-01-02T00:00:00.000Z');
    const before = Date.now();
    const future = await mark(player, 'public', '2999-01-01T00:00:00.000Z');
    const kept = Date.parse(future.json().readUntil.public);
    expect(kept).toBeGreaterThanOrEqual(before - 1000);
    expect(kept).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test('the game master marks conversations it is in as "Game master"', async () => {
    const key = ['Game master', game.powers[0]].sort().join('+');
    const response = await mark(game.master, key, '2026-01-01T00:00:00.000Z');
    expect(response.statusCode, response.body).toBe(200);
    expect(await marks(game.master)).toEqual({ [key]: '2026-01-01T00:00:00.000Z' });
  });

  test('refuses a conversation that is not the caller’s, or not written as one, and anyone who has no press here', async () => {
    const [me, other, third] = game.powers;
    const player = game.byPower.get(me)!;
    const cases: [string, RegExp][] = [
      [[other, third].sort().join('+'), /not a conversation of yours/],
      [[other, me].sort().reverse().join('+'), /sorted/],
      [`${me}+Atlantis`, /members of this game/],
      [`${me}+${me}`, /each once/],
    ];
    for (const [conversation, why] of cases) {
      const response = await mark(player, conversation, '2026-01-01T00:00:00.000Z');
      expect(response.statusCode, conversation).toBe(400);
      expect(response.json().error.message, conversation).toMatch(why);
    }
    const tooLong = await mark(player, 'x'.repeat(201), '2026-01-01T00:00:00.000Z');
    expect(tooLong.statusCode).toBe(400);
    const spectator = await new Browser(app).register();
    expect((await mark(spectator, 'public', '2026-01-01T00:00:00.000Z')).statusCode).toBe(403);
    expect((await new Browser(app).request('GET', `/api/games/${game.gameId}/press/read`)).statusCode).toBe(401);
  });
});
