/**
 * Order submissions arriving together are stored in batches (server/play/
 * submissions.ts, the one write path for orders): one transaction per batch. Each submission must still get the
 * answer it would get alone — stored, refused (422 with the verdicts), not
 * a player (403), no such phase (404), phase closed (409) — the latest of a
 * power must count, a batch full of "ready" processes the phase once, and a
 * submission that breaks its whole batch must fail alone.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { seededRandom } from '../../server/games/power-assignment.ts';
import { legalOrders } from './faults-support/client.ts';
import { type Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 120_000 });

let testApp: TestApp;
let app: FastifyInstance;
let games: StartedGame[];
const random = seededRandom(99);

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  games = [];
  for (let i = 0; i < 4; i++) games.push(await startGame(app));
}, 120_000);
afterAll(() => testApp.close(), 60_000);

type Request = { browser: Browser; url: string; body: unknown; expect: number; power?: string; gameId: string };

describe('order submissions in batches', () => {
  test('submissions sent together are stored together, each with the answer it would get alone', async () => {
    const requests: Request[] = [];
    for (const game of games) {
      const phase = await currentPhase(game.master, game.gameId);
      const url = `/api/games/${game.gameId}/phases/${phase.index}/orders`;
      for (const power of game.powers) {
        const browser = game.byPower.get(power)!;
        // Twice from every power (the later one counts), and a refused one in between.
        requests.push({ browser, url, body: { orders: legalOrders(phase.state, power, random) }, expect: 200, power, gameId: game.gameId });
        requests.push({ browser, url, body: { orders: 'A Nowhere - Somewhere' }, expect: 422, power, gameId: game.gameId });
        requests.push({ browser, url, body: { orders: legalOrders(phase.state, power, random) }, expect: 200, power, gameId: game.gameId });
      }
      requests.push({ browser: game.master, url, body: { orders: [] }, expect: 403, gameId: game.gameId });
      requests.push({
        browser: game.players[0],
        url: `/api/games/${game.gameId}/phases/${phase.index + 1}/orders`,
        body: { orders: [] },
        expect: 404,
        gameId: game.gameId,
      });
    }
    const before = { ...app.submissions.stats };
    const answers = await Promise.all(requests.map((request) => request.browser.request('PUT', request.url, request.body)));
    // They were batched (several per transaction), not stored one by one.
    expect(app.submissions.stats.largest).toBeGreaterThan(1);
    expect(app.submissions.stats.batches - before.batches).toBeLessThan(requests.length / 2);

    const stored = new Map<string, string[]>();
    // The text of the last submission sent by each power (sent in this order, so it arrives last).
    const latestSent = new Map<string, string>();
    answers.forEach((answer, i) => {
      const request = requests[i];
      expect(answer.statusCode, `${request.url} ${JSON.stringify(request.body)}: ${answer.body}`).toBe(request.expect);
      const body = answer.json();
      if (request.expect === 200) {
        expect(body.submission).toMatchObject({ power: request.power, ready: false, byGameMaster: false });
        expect(body.checked.every((verdict: { accepted: boolean }) => verdict.accepted)).toBe(true);
        const key = `${request.gameId}/${request.power}`;
        stored.set(key, [...(stored.get(key) ?? []), body.submission.id]);
        latestSent.set(key, body.submission.text);
      } else if (request.expect === 422) {
        expect(body.error.code).toBe('orders_rejected');
        expect(body.orders).toHaveLength(1);
      } else if (request.expect === 403) {
        expect(body.error.code).toBe('forbidden');
      } else {
        expect(body.error.code).toBe('not_found');
      }
    });

    // Each power's submissions are all there; the one that counts is the one sent later (`stored` keeps them in the order sent).
    for (const game of games) {
      const phase = await currentPhase(game.master, game.gameId);
      for (const power of game.powers) {
        const ids = stored.get(`${game.gameId}/${power}`)!;
        const mine = (await game.byPower.get(power)!.request('GET', `/api/games/${game.gameId}/phases/${phase.index}/orders`)).json();
        expect(mine.history.map((submission: { id: string }) => submission.id).sort()).toEqual([...ids].sort());
        expect(mine.current.id).toBe(ids.at(-1));
        expect(mine.current.text, `${power}'s later submission counts`).toBe(latestSent.get(`${game.gameId}/${power}`));
      }
      expect(phase.powers.every((seat) => seat.submitted && !seat.ready)).toBe(true);
    }
  });

  test('everyone ready at once: the phase is processed once, and one answer says so', async () => {
    const game = games[0];
    const phase = await currentPhase(game.master, game.gameId);
    const powers = phase.powers.filter((seat) => seat.mustOrder).map((seat) => seat.power);
    const answers = await Promise.all(
      powers.map((power) =>
        game.byPower
          .get(power)!
          .request('PUT', `/api/games/${game.gameId}/phases/${phase.index}/orders`, { orders: legalOrders(phase.state, power, random), ready: true }),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(answers.filter((answer) => answer.json().phaseProcessed)).toHaveLength(1);
    const phases = (await game.master.request('GET', `/api/games/${game.gameId}/phases`)).json();
    expect(phases.phases.slice(phase.index).map((p: { index: number; status: string }) => [p.index, p.status])).toEqual([
      [phase.index, 'processed'],
      [phase.index + 1, 'open'],
    ]);
    // The orders adjudicated are the ones just sent.
    const processed = (await game.master.request('GET', `/api/games/${game.gameId}/phases/${phase.index}`)).json();
    expect(new Set(processed.orders.map((o: { power: string }) => o.power))).toEqual(new Set(powers));
  });

  test('what the batches keep of a game and its phase between submissions follows every change to them', async () => {
    const game = await startGame(app);
    const phase = await currentPhase(game.master, game.gameId);
    const url = `/api/games/${game.gameId}/phases/${phase.index}/orders`;
    const [power, other] = game.powers;
    const player = game.byPower.get(power)!;
    const unit = phase.state.units.find((u) => u.power === power)!;
    const hold = { orders: [{ kind: 'hold', unit: { at: unit.at } }] };
    expect((await player.request('PUT', url, hold)).statusCode).toBe(200);

    // The phase's position changes under it (here by hand; loans and the game master change it too): the unit is gone.
    // The batch is judged on the cache first; the check sent with it finds the phase changed, and it runs again on the rows.
    const state = { ...phase.state, units: phase.state.units.filter((u) => u !== unit) };
    await app.prisma.phase.updateMany({ where: { gameId: game.gameId, index: phase.index }, data: { stateBefore: state } });
    const changedBefore = app.submissions.stats.changedSinceCached;
    const gone = await player.request('PUT', url, hold);
    expect(gone.statusCode, gone.body).toBe(422);
    expect(gone.json().orders[0].accepted).toBe(false);
    expect(app.submissions.stats.changedSinceCached).toBe(changedBefore + 1);

    // The seat changes hands: the previous player may no longer order, the newcomer may.
    const [newcomer] = await registeredBrowsers(app, 1);
    const otherUnit = phase.state.units.find((u) => u.power === other)!;
    const otherHold = { orders: [{ kind: 'hold', unit: { at: otherUnit.at } }] };
    expect((await game.byPower.get(other)!.request('PUT', url, otherHold)).statusCode).toBe(200);
    expect((await game.master.request('POST', `/api/games/${game.gameId}/gm/replace`, { power: other, username: newcomer.user!.username })).statusCode).toBe(
      200,
    );
    expect((await game.byPower.get(other)!.request('PUT', url, otherHold)).statusCode).toBe(403);
    expect((await newcomer.request('PUT', url, otherHold)).statusCode).toBe(200);
  });

  test('a batch of games and phases held as they are is judged on them and stored in one go; a phase processed since is closed', async () => {
    const game = await startGame(app);
    const phase = await currentPhase(game.master, game.gameId);
    const url = `/api/games/${game.gameId}/phases/${phase.index}/orders`;
    const [power] = game.powers;
    const player = game.byPower.get(power)!;
    const first = await player.request('PUT', url, { orders: legalOrders(phase.state, power, random) });
    expect(first.statusCode, first.body).toBe(200);

    // The game and the phase are cached now, and unchanged: the next batch is judged on the cache, and stored.
    const before = { ...app.submissions.stats };
    const second = await player.request('PUT', url, { orders: legalOrders(phase.state, power, random) });
    expect(second.statusCode, second.body).toBe(200);
    expect(app.submissions.stats.fromCache).toBe(before.fromCache + 1);
    expect(app.submissions.stats.changedSinceCached).toBe(before.changedSinceCached);
    const mine = (await player.request('GET', url)).json();
    expect(mine.current).toMatchObject({ id: second.json().submission.id, text: second.json().submission.text });
    expect(mine.history).toHaveLength(2);
    const refused = await player.request('PUT', url, { orders: 'A Nowhere - Somewhere' });
    expect(refused.statusCode, refused.body).toBe(422);
    expect((await player.request('GET', url)).json().current.id).toBe(second.json().submission.id);

    // The game master processes the phase: the cache still holds it open, the check finds it changed, and the answer is the rows'.
    expect((await game.master.request('POST', `/api/games/${game.gameId}/gm/process`, {})).statusCode).toBe(200);
    const changedBefore = app.submissions.stats.changedSinceCached;
    const late = await player.request('PUT', url, { orders: legalOrders(phase.state, power, random) });
    expect(late.statusCode, late.body).toBe(409);
    expect(app.submissions.stats.changedSinceCached).toBe(changedBefore + 1);
    expect((await player.request('GET', url)).json().history).toHaveLength(2);
  });

  test('players back at the board after missed deadlines, submitting together: their seats are active again with nothing missed', async () => {
    const game = await startGame(app);
    const phase = await currentPhase(game.master, game.gameId);
    const [absent, late] = game.powers;
    await app.prisma.player.updateMany({ where: { gameId: game.gameId, power: absent }, data: { status: 'civil_disorder', missedDeadlines: 2 } });
    await app.prisma.player.updateMany({ where: { gameId: game.gameId, power: late }, data: { missedDeadlines: 1 } });
    const url = `/api/games/${game.gameId}/phases/${phase.index}/orders`;
    const answers = await Promise.all(
      [absent, late].map((power) => game.byPower.get(power)!.request('PUT', url, { orders: legalOrders(phase.state, power, random) })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const seats = (await currentPhase(game.master, game.gameId)).powers;
    expect(seats.find((seat) => seat.power === absent)).toMatchObject({ playerStatus: 'active', missedDeadlines: 0, submitted: true });
    expect(seats.find((seat) => seat.power === late)).toMatchObject({ playerStatus: 'active', missedDeadlines: 0, submitted: true });
  });

  test('a submission that breaks its whole batch fails alone: the batch is stored again one at a time', async () => {
    const [broken, ...fine] = games.slice(1);
    // A phase whose stored position the engine cannot read (corrupt data): judging it throws, not a 4xx.
    const brokenPhase = await currentPhase(broken.master, broken.gameId);
    await app.prisma.phase.updateMany({ where: { gameId: broken.gameId, index: brokenPhase.index }, data: { stateBefore: { corrupt: true } } });
    const requests: Request[] = [];
    for (const game of fine) {
      const phase = await currentPhase(game.master, game.gameId);
      for (const power of game.powers) {
        requests.push({
          browser: game.byPower.get(power)!,
          url: `/api/games/${game.gameId}/phases/${phase.index}/orders`,
          body: { orders: legalOrders(phase.state, power, random) },
          expect: 200,
          power,
          gameId: game.gameId,
        });
      }
    }
    requests.splice(3, 0, {
      browser: broken.byPower.get(broken.powers[0])!,
      url: `/api/games/${broken.gameId}/phases/${brokenPhase.index}/orders`,
      body: { orders: [] },
      expect: 500,
      gameId: broken.gameId,
    });
    const retriedBefore = app.submissions.stats.retriedAlone;
    const answers = await Promise.all(requests.map((request) => request.browser.request('PUT', request.url, request.body)));
    answers.forEach((answer, i) => expect(answer.statusCode, answer.body).toBe(requests[i].expect));
    expect(app.submissions.stats.retriedAlone).toBeGreaterThan(retriedBefore);
  });
});
