/**
 * Players' public pages: the games a player plays and runs, how they ended for them, and the deadlines they kept;
 * and nothing the viewer could not already know (private games, seats in anonymous games before they end).
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

type Profile = {
  user: { id: string; username: string };
  games: Array<{ game: { id: string; status: string }; role: string; power: string | null; playerStatus: string | null; result: string | null }>;
  totals: Record<string, number>;
  reliability: { phases: number; missed: number };
};
async function profileOf(viewer: Browser, username: string): Promise<Profile> {
  const response = await viewer.request('GET', `/api/users/${encodeURIComponent(username)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const entry = (profile: Profile, gameId: string) => profile.games.find((game) => game.game.id === gameId);

/** The open phase's deadline passes and the scheduler processes it. */
async function passDeadline(gameId: string) {
  await app.prisma.phase.updateMany({ where: { gameId, status: 'open' }, data: { deadlineAt: new Date(Date.now() - 1000) } });
  expect(await app.scheduler.processDue()).toBe(1);
}

describe("a player's page", () => {
  test('lists the games played and run, counts the deadlines kept, and a roll-back takes back what it undid', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const visitor = new Browser(app);
    const [keeper, misser] = [byPower.get(powers[0])!, byPower.get(powers[1])!];

    const fresh = await profileOf(visitor, keeper.user!.username.toUpperCase());
    expect(fresh.user).toEqual(keeper.user);
    expect(entry(fresh, gameId)).toMatchObject({ role: 'player', power: powers[0], playerStatus: 'active', result: null });
    expect(fresh.totals).toMatchObject({ playing: 1, finished: 0 });
    expect(fresh.reliability).toEqual({ phases: 0, missed: 0 });
    expect(entry(await profileOf(visitor, master.user!.username), gameId)).toMatchObject({ role: 'game-master', power: null, playerStatus: null });

    // Spring: every power but the second orders (all units hold), and the deadline passes.
    for (const power of powers.slice(2).concat(powers[0])) {
      const saved = await byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: '', ready: false });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    await passDeadline(gameId);
    expect((await profileOf(visitor, keeper.user!.username)).reliability).toEqual({ phases: 1, missed: 0 });
    expect((await profileOf(visitor, misser.user!.username)).reliability).toEqual({ phases: 1, missed: 1 });

    // Fall, processed early by the game master: nobody missed it.
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    expect((await profileOf(visitor, misser.user!.username)).reliability).toEqual({ phases: 2, missed: 1 });

    // Back to Spring: both processings are undone, and so is what they counted.
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 })).statusCode).toBe(200);
    expect((await currentPhase(master, gameId)).index).toBe(0);
    expect((await profileOf(visitor, misser.user!.username)).reliability).toEqual({ phases: 0, missed: 0 });

    // Ended as a draw among two: they drew, the others lost.
    expect((await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'draw', powers: [powers[0], powers[2]] })).statusCode).toBe(200);
    const after = await profileOf(visitor, keeper.user!.username);
    expect(entry(after, gameId)).toMatchObject({ result: 'drew' });
    expect(after.totals).toMatchObject({ playing: 0, finished: 1, won: 0, drawn: 1, lost: 0 });
    expect(entry(await profileOf(visitor, misser.user!.username), gameId)).toMatchObject({ result: 'lost' });
  });

  test("an anonymous game's seat is shown only where the game's page would show it; a private game only to those who may see it", async () => {
    const anonymous = await startGame(app, { anonymous: true });
    const hidden = await startGame(app, { private: true });
    const [stranger] = await registeredBrowsers(app, 1);
    const player = anonymous.byPower.get(anonymous.powers[0])!;

    expect(entry(await profileOf(stranger, player.user!.username), anonymous.gameId)).toBeUndefined();
    expect(entry(await profileOf(new Browser(app), player.user!.username), anonymous.gameId)).toBeUndefined();
    expect(entry(await profileOf(player, player.user!.username), anonymous.gameId)).toMatchObject({ power: anonymous.powers[0] });
    expect(entry(await profileOf(anonymous.master, player.user!.username), anonymous.gameId)).toMatchObject({ power: anonymous.powers[0] });
    // Its game master is named on every game card, anonymous or not.
    expect(entry(await profileOf(stranger, anonymous.master.user!.username), anonymous.gameId)).toMatchObject({ role: 'game-master' });

    const member = hidden.byPower.get(hidden.powers[0])!;
    expect(entry(await profileOf(stranger, member.user!.username), hidden.gameId)).toBeUndefined();
    expect(entry(await profileOf(stranger, hidden.master.user!.username), hidden.gameId)).toBeUndefined();
    expect(entry(await profileOf(hidden.byPower.get(hidden.powers[1])!, member.user!.username), hidden.gameId)).toMatchObject({ power: hidden.powers[0] });

    // Once the anonymous game has ended, everyone may know who played what.
    expect(
      (await anonymous.master.request('POST', `/api/games/${anonymous.gameId}/gm/end`, { outcome: 'concession', powers: [anonymous.powers[0]] })).statusCode,
    ).toBe(200);
    expect(entry(await profileOf(stranger, player.user!.username), anonymous.gameId)).toMatchObject({ power: anonymous.powers[0], result: 'won' });
  });

  test('a player whose seat the game master handed on keeps the game and the deadlines missed in it; the newcomer starts afresh', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const visitor = new Browser(app);
    const gone = byPower.get(powers[1])!;
    for (const power of powers.filter((p) => p !== powers[1])) {
      expect((await byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: '', ready: false })).statusCode).toBe(200);
    }
    await passDeadline(gameId);
    const [newcomer] = await registeredBrowsers(app, 1);
    const replaced = await master.request('POST', `/api/games/${gameId}/gm/replace`, { power: powers[1], username: newcomer.user!.username });
    expect(replaced.statusCode, replaced.body).toBe(200);

    const before = await profileOf(visitor, gone.user!.username);
    expect(entry(before, gameId)).toMatchObject({ role: 'player', power: powers[1], replaced: true, playerStatus: null, result: null });
    expect(before.totals).toMatchObject({ playing: 0, replaced: 1 });
    expect(before.reliability).toEqual({ phases: 1, missed: 1 });
    expect(entry(await profileOf(visitor, newcomer.user!.username), gameId)).toMatchObject({ power: powers[1], replaced: false, playerStatus: 'active' });

    // The next deadline is the newcomer's: kept by them, and no longer counted for the one who left.
    expect((await newcomer.request('PUT', `/api/games/${gameId}/phases/1/orders`, { orders: '', ready: false })).statusCode).toBe(200);
    await passDeadline(gameId);
    expect((await profileOf(visitor, newcomer.user!.username)).reliability).toEqual({ phases: 1, missed: 0 });
    expect((await profileOf(visitor, gone.user!.username)).reliability).toEqual({ phases: 1, missed: 1 });
  });

  test('an unknown player is a 404 naming the name; a name too long is a 400', async () => {
    const visitor = new Browser(app);
    const missing = await visitor.request('GET', '/api/users/nobody_here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'not_found', message: 'no player is called "nobody_here"' });
    const long = await visitor.request('GET', `/api/users/${'x'.repeat(40)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toContain('params.username');
  });
});
