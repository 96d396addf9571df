/** A game's correspondence settings: chosen at creation, kept, shown on its page, and refused with a reason when wrong. */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';

vi.setConfig({ testTimeout: 30_000 });

let testApp: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const create = (browser: Browser, correspondence: unknown) =>
  browser.request('POST', '/api/games', { name: 'Correspondence', variant: 'diadochi-v', correspondence });

describe('correspondence settings', () => {
  test('a game made without them gets the defaults: a day of grace twice per player, durations only, vacations honoured, unanimous votes, approval', async () => {
    const creator = await new Browser(app).register();
    const response = await creator.request('POST', '/api/games', { name: 'Defaults', variant: 'diadochi-v' });
    expect(response.statusCode, response.body).toBe(201);
    const page = await creator.request('GET', `/api/games/${response.json().id}`);
    expect(page.json().correspondence).toEqual({
      grace: { seconds: 86_400, perPlayer: 2 },
      deadlineClock: null,
      honourVacations: true,
      voteRule: 'unanimous',
      seatApproval: true,
      minDeadlinesKept: 0,
      minFinishedGames: 0,
    });
  });

  test('the settings chosen are kept and shown on the game page', async () => {
    const creator = await new Browser(app).register();
    const chosen = {
      grace: { seconds: 7200, perPlayer: 1 },
      deadlineClock: { time: '20:00', timeZone: 'Europe/Amsterdam', daysOff: [6, 7] },
      honourVacations: false,
      voteRule: 'majority',
      seatApproval: false,
      minDeadlinesKept: 80,
      minFinishedGames: 2,
    };
    const response = await create(creator, chosen);
    expect(response.statusCode, response.body).toBe(201);
    const page = await new Browser(app).request('GET', `/api/games/${response.json().id}`);
    expect(page.json().correspondence).toEqual(chosen);
  });

  test.each([
    [{ deadlineClock: { time: '20:00', timeZone: 'Mars/Olympus' } }, 'correspondence.deadlineClock.timeZone', 'time zone'],
    [{ deadlineClock: { time: '24:30', timeZone: 'UTC' } }, 'correspondence.deadlineClock.time', 'HH:MM'],
    [{ deadlineClock: { time: '20:00', timeZone: 'UTC', daysOff: [1, 2, 3, 4, 5, 6] } }, 'correspondence.deadlineClock.daysOff', 'two days'],
    [{ grace: { seconds: 30 * 86_400, perPlayer: 1 } }, 'correspondence.grace.seconds', '7 days'],
    [{ minDeadlinesKept: 120 }, 'correspondence.minDeadlinesKept', 'percentage'],
  ])('%j is refused naming %s', async (settings, path, words) => {
    const creator = await new Browser(app).register();
    const response = await create(creator, settings);
    expect(response.statusCode).toBe(400);
    const issue = response.json().error.issues.find((i: { path: string }) => i.path === `body.${path}`);
    expect(issue?.message, response.body).toContain(words);
  });
});
