/**
 * Vacations through the API: declaring, listing and cancelling absences within their limits (each refusal a 400
 * naming the field), and the sitter, who plays the absent player's power while the absence covers now (orders,
 * ready, that power's private press, the game's page says so), never where they play themselves, and not after.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, holdAll, startGame, type StartedGame } from './helpers/play.ts';
import { listen, watchGame } from './helpers/live.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = (fromNow: number) => new Date(Date.now() + fromNow).toISOString();
const declare = (browser: Browser, body: Record<string, unknown>) => browser.request('POST', '/api/vacations', body);

describe('declaring absences', () => {
  test('lists, declares and cancels; refuses bad dates and the limits with a 400 naming the field', async () => {
    const user = await new Browser(app).register();
    const expectRefused = async (body: Record<string, unknown>, path: string, words: string) => {
      const response = await declare(user, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
      expect(response.json().error.issues[0].path).toBe(path);
      expect(response.json().error.message).toContain(words);
    };
    await expectRefused({ startsAt: at(-DAY), endsAt: at(DAY) }, 'body.startsAt', 'in the past');
    await expectRefused({ startsAt: at(DAY), endsAt: at(DAY / 2) }, 'body.endsAt', 'after startsAt');
    await expectRefused({ startsAt: at(HOUR), endsAt: at(HOUR + 31 * DAY) }, 'body.endsAt', '30 days');
    await expectRefused({ startsAt: 'next week', endsAt: at(DAY) }, 'body.startsAt', '');
    await expectRefused({ startsAt: at(HOUR), endsAt: at(DAY), sitter: 'nobody_by_that_name' }, 'body.sitter', 'no user named');
    await expectRefused({ startsAt: at(HOUR), endsAt: at(DAY), sitter: user.user!.username }, 'body.sitter', 'yourself');
    expect((await user.request('GET', '/api/vacations')).json().vacations).toEqual([]);

    // A few minutes ago is "now".
    const first = await declare(user, { startsAt: at(-2 * 60_000), endsAt: at(25 * DAY) });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().vacations).toHaveLength(1);
    expect(first.json().mostDaysInAYear).toBeCloseTo(25, 0);
    await expectRefused({ startsAt: at(10 * DAY), endsAt: at(30 * DAY) }, 'body.startsAt', 'overlaps');
    expect((await declare(user, { startsAt: at(100 * DAY), endsAt: at(125 * DAY) })).statusCode).toBe(201);
    // 25 + 25 taken; 11 more within the same 365 days is one too many.
    await expectRefused({ startsAt: at(200 * DAY), endsAt: at(211 * DAY) }, 'body.endsAt', 'at most 60');
    // The rolling year: far enough from the first two, it fits.
    expect((await declare(user, { startsAt: at(400 * DAY), endsAt: at(420 * DAY) })).statusCode).toBe(201);

    // Cancelling one to come frees its days.
    const list = (await user.request('GET', '/api/vacations')).json();
    expect(list.vacations).toHaveLength(3);
    const second = list.vacations[1].id;
    const cancelled = await user.request('DELETE', `/api/vacations/${second}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().vacations.map((v: { id: string }) => v.id)).not.toContain(second);
    expect((await user.request('DELETE', `/api/vacations/${second}`)).statusCode).toBe(409);
    expect((await declare(user, { startsAt: at(200 * DAY), endsAt: at(211 * DAY) })).statusCode).toBe(201);
    // Nobody else's.
    const other = await new Browser(app).register();
    expect((await other.request('DELETE', `/api/vacations/${list.vacations[0].id}`)).statusCode).toBe(404);
    expect((await new Browser(app).request('GET', '/api/vacations')).statusCode).toBe(401);
  });

  test("moves an open phase's deadline that now falls in the absence (no sitter, a game that honours absences)", async () => {
    const g = await startGame(app);
    const before = Date.parse((await currentPhase(g.master, g.gameId)).deadlineAt!);
    const away = g.byPower.get(g.powers[0])!;
    const end = new Date(before + 2 * DAY);
    expect((await declare(away, { startsAt: at(0), endsAt: end.toISOString() })).statusCode).toBe(201);
    expect(Date.parse((await currentPhase(g.master, g.gameId)).deadlineAt!)).toBeGreaterThanOrEqual(end.getTime());
    // With a sitter the seat is played: nothing moves.
    const h = await startGame(app);
    const deadline = (await currentPhase(h.master, h.gameId)).deadlineAt;
    const friend = await new Browser(app).register();
    const declared = await declare(h.byPower.get(h.powers[0])!, {
      startsAt: at(0),
      endsAt: new Date(Date.parse(deadline!) + DAY).toISOString(),
      sitter: friend.user!.username,
    });
    expect(declared.statusCode).toBe(201);
    expect((await currentPhase(h.master, h.gameId)).deadlineAt).toBe(deadline);
  });

  test('at most ten absences not yet over', async () => {
    const user = await new Browser(app).register();
    for (let i = 0; i < 10; i++) expect((await declare(user, { startsAt: at((1 + 3 * i) * DAY), endsAt: at((1.5 + 3 * i) * DAY) })).statusCode).toBe(201);
    const eleventh = await declare(user, { startsAt: at(40 * DAY), endsAt: at(40.5 * DAY) });
    expect(eleventh.statusCode).toBe(400);
    expect(eleventh.json().error.message).toContain('the most allowed');
  });
});

describe('the sitter', () => {
  let game: StartedGame;
  let absent: Browser;
  let power: string;
  let sitter: Browser;
  let vacationId: string;

  beforeAll(async () => {
    game = await startGame(app, { private: true });
    [power] = game.powers;
    absent = game.byPower.get(power)!;
    sitter = await new Browser(app).register();
    const declared = await declare(absent, { startsAt: at(0), endsAt: at(7 * DAY), sitter: sitter.user!.username });
    expect(declared.statusCode, declared.body).toBe(201);
    const [vacation] = declared.json().vacations;
    vacationId = vacation.id;
    expect(vacation.games).toEqual([expect.objectContaining({ gameId: game.gameId, power, sitter: 'sits' })]);
    expect((await sitter.request('GET', '/api/vacations')).json().sitting).toEqual([
      expect.objectContaining({ for: absent.user, games: [{ gameId: game.gameId, name: 'Play test', power }] }),
    ]);
  });

  test('submits orders and ready for the absent power while the absence lasts; the page says so; the GM log shows it once', async () => {
    const detail = (await sitter.request('GET', `/api/games/${game.gameId}`)).json();
    expect(detail.sittingFor).toMatchObject({ power });
    expect(detail.players.some((seat: { isYou: boolean }) => seat.isYou)).toBe(false);
    // The board follows the (private) game live, as its players' does.
    const socket = await watchGame(await listen(app), sitter.cookie!, game.gameId);

    const orders = await holdAll(sitter, game.gameId, power);
    const submitted = await sitter.request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders, ready: false });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().submission).toMatchObject({ power, byGameMaster: false });
    await socket.next('event', (message) => message.event.type === 'orders.status' && message.event.power === power);
    socket.socket.close();
    const again = await sitter.request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders, ready: false });
    expect(again.statusCode).toBe(200);
    // The absent player finds them on return.
    const mine = (await absent.request('GET', `/api/games/${game.gameId}/phases/0/orders`)).json();
    expect(mine.current.text).toBe(orders);
    expect(mine.history).toHaveLength(2);
    const ready = await sitter.request('POST', `/api/games/${game.gameId}/phases/0/ready`, { ready: true });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toMatchObject({ power, ready: true });

    // Others still see only that something was submitted, not what.
    const rival = game.byPower.get(game.powers[1])!;
    expect((await rival.request('GET', `/api/games/${game.gameId}/phases/0/orders`)).json().power).toBe(game.powers[1]);
    const phase = (await rival.request('GET', `/api/games/${game.gameId}/phases/0`)).json();
    expect(JSON.stringify(phase)).not.toContain(orders.split('\n')[0]);
    expect(phase.powers.find((line: { power: string }) => line.power === power)).toMatchObject({ submitted: true, ready: true });

    const log = (await rival.request('GET', `/api/games/${game.gameId}/gm/log`)).json().actions;
    const sat = log.filter((entry: { action: string }) => entry.action === 'sitter');
    expect(sat).toHaveLength(1);
    expect(sat[0]).toMatchObject({ actor: null, details: { power, users: { sitter: sitter.user!.username } } });
  });

  test("reads the absent power's private press while sitting, and not after; then acts for it no more", async () => {
    const [, second, third] = game.powers;
    // Private press comes live on the sitter's own channel too, as on the absent player's.
    const socket = await watchGame(await listen(app), sitter.cookie!, game.gameId, sitter.user!.id);
    const toAbsent = await game.byPower.get(second)!.request('POST', `/api/games/${game.gameId}/press`, { to: [power], body: 'For your eyes.' });
    expect(toAbsent.statusCode, toAbsent.body).toBe(201);
    const elsewhere = await game.byPower.get(second)!.request('POST', `/api/games/${game.gameId}/press`, { to: [third], body: 'Not for the sitter.' });
    expect(elsewhere.statusCode).toBe(201);
    const heard = await socket.next('event', (message) => message.event.type === 'press.message' && message.channel === `user:${sitter.user!.id}`);
    expect(heard.event).toMatchObject({ to: [power] });
    socket.socket.close();
    const read = (await sitter.request('GET', `/api/games/${game.gameId}/press`)).json().messages.map((m: { body: string }) => m.body);
    expect(read).toContain('For your eyes.');
    expect(read).not.toContain('Not for the sitter.');

    // The absence ends (as time passing would have it).
    await app.prisma.vacation.update({ where: { id: vacationId }, data: { startsAt: new Date(Date.now() - 8 * DAY), endsAt: new Date(Date.now() - 1000) } });
    // A private game: the sitter no longer sees it at all.
    expect((await sitter.request('GET', `/api/games/${game.gameId}`)).statusCode).toBe(404);
    expect((await sitter.request('GET', `/api/games/${game.gameId}/press`)).statusCode).toBe(404);
    const late = await sitter.request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders: '', ready: false });
    expect(late.statusCode).toBe(404);
    expect((await sitter.request('POST', `/api/games/${game.gameId}/phases/0/ready`, { ready: false })).statusCode).toBe(404);
  });

  test('a cancelled absence ends the sitting at once', async () => {
    const g = await startGame(app);
    const [p] = g.powers;
    const away = g.byPower.get(p)!;
    const friend = await new Browser(app).register();
    const [vacation] = (await declare(away, { startsAt: at(0), endsAt: at(DAY), sitter: friend.user!.username })).json().vacations;
    expect((await friend.request('GET', `/api/games/${g.gameId}`)).json().sittingFor).toMatchObject({ power: p });
    expect((await away.request('DELETE', `/api/vacations/${vacation.id}`)).statusCode).toBe(200);
    expect((await friend.request('GET', `/api/games/${g.gameId}`)).json().sittingFor).toBeNull();
    // A public game: visible, but no power to act for.
    const refused = await friend.request('PUT', `/api/games/${g.gameId}/phases/0/orders`, { orders: '', ready: false });
    expect(refused.statusCode).toBe(403);
  });

  test('an absence to come gives no sitting yet', async () => {
    const g = await startGame(app);
    const [p] = g.powers;
    const friend = await new Browser(app).register();
    expect((await declare(g.byPower.get(p)!, { startsAt: at(DAY), endsAt: at(2 * DAY), sitter: friend.user!.username })).statusCode).toBe(201);
    expect((await friend.request('GET', `/api/games/${g.gameId}`)).json().sittingFor).toBeNull();
    expect((await friend.request('POST', `/api/games/${g.gameId}/phases/0/ready`, { ready: true })).statusCode).toBe(403);
  });

  test('a player of the game is not its sitter, and the answer says so per game', async () => {
    const g = await startGame(app);
    const [p, q] = g.powers;
    const away = g.byPower.get(p)!;
    const rival = g.byPower.get(q)!;
    const declared = await declare(away, { startsAt: at(0), endsAt: at(DAY), sitter: rival.user!.username });
    expect(declared.statusCode).toBe(201);
    expect(declared.json().vacations[0].games).toEqual([
      expect.objectContaining({ gameId: g.gameId, sitter: 'sitter-plays', note: expect.stringContaining(`plays ${q}`) }),
    ]);
    // The rival acts for their own power only: their orders page and submissions stay theirs.
    expect((await rival.request('GET', `/api/games/${g.gameId}`)).json().sittingFor).toBeNull();
    const own = await rival.request('PUT', `/api/games/${g.gameId}/phases/0/orders`, { orders: '', ready: false });
    expect(own.json().submission.power).toBe(q);
    const theirs = await rival.request('GET', `/api/games/${g.gameId}/press`);
    expect(theirs.statusCode).toBe(200);
  });

  test('in an anonymous game the answer does not tell whether the sitter plays in it', async () => {
    const g = await startGame(app, { anonymous: true });
    const [p, q] = g.powers;
    const declared = await declare(g.byPower.get(p)!, { startsAt: at(0), endsAt: at(DAY), sitter: g.byPower.get(q)!.user!.username });
    const [line] = declared.json().vacations[0].games;
    expect(line.sitter).toBe('unless-sitter-plays');
    expect(JSON.stringify(line)).not.toContain(q);
  });
});
