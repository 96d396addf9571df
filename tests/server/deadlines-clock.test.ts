/**
 * Deadlines at a clock time (play/deadlines.ts): a game due at 20:00
 * Europe/Amsterdam with weekends off has its first phase and the next ones fall
 * due at 20:00 local time on a weekday, also across the 2027 daylight-saving
 * changes (the scheduler driven with a simulated clock); a game without a clock
 * keeps its durations.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
});
afterAll(() => testApp.close());

const DAY = 24 * 3600;
const durations = { movement: DAY, retreat: DAY / 2, adjustment: DAY / 2 };
const noGrace = { grace: { seconds: 0, perPlayer: 0 } };
const amsterdam = (iso: string) => DateTime.fromISO(iso, { zone: 'Europe/Amsterdam' });

describe('a game due at 20:00 Europe/Amsterdam, weekends off', () => {
  test('its first phase and the next ones fall due at 20:00 local time on weekdays, in winter and summer time', async () => {
    const startedAt = Date.now();
    const { gameId, players } = await startGame(app, {
      deadlines: durations,
      correspondence: { ...noGrace, deadlineClock: { time: '20:00', timeZone: 'Europe/Amsterdam', daysOff: [6, 7] } },
    });
    const first = await currentPhase(players[0], gameId);
    const due = amsterdam(first.deadlineAt!);
    expect(due.toFormat('HH:mm')).toBe('20:00');
    expect([6, 7]).not.toContain(due.weekday);
    // At least the phase's duration, and the first such evening: the weekday evening before was too soon.
    const duration = first.kind === 'movement' ? DAY : DAY / 2;
    expect(due.toMillis()).toBeGreaterThanOrEqual(startedAt + duration * 1000);
    let before = due.minus({ days: 1 });
    while ([6, 7].includes(before.weekday)) before = before.minus({ days: 1 });
    expect(before.toMillis()).toBeLessThan(startedAt + duration * 1000);

    // Processed on Friday 26 March 2027 at 11:00 local (winter time): the next phase skips the weekend, and Monday
    // the 29th is summer time (the clocks went forward on Sunday): 20:00 CEST is 18:00 UTC.
    expect(await app.scheduler.processDue(new Date('2027-03-26T10:00:00Z'))).toBe(1);
    const spring = await currentPhase(players[0], gameId);
    expect(spring.index).toBe(1);
    expect(spring.deadlineAt).toBe('2027-03-29T18:00:00.000Z');

    // Processed at that deadline: the next phase at least half a day later is Tuesday 20:00 CEST.
    expect(await app.scheduler.processDue(new Date('2027-03-29T18:00:00Z'))).toBe(1);
    const tuesday = await currentPhase(players[0], gameId);
    expect(tuesday.deadlineAt).toBe('2027-03-30T18:00:00.000Z');

    // Processed on Friday 29 October 2027 at 14:00 local (summer time): Monday 1 November, winter again, 19:00 UTC.
    expect(await app.scheduler.processDue(new Date('2027-10-29T12:00:00Z'))).toBe(1);
    const autumn = await currentPhase(players[0], gameId);
    expect(autumn.deadlineAt).toBe('2027-11-01T19:00:00.000Z');
    expect(amsterdam(autumn.deadlineAt!).toFormat('cccc HH:mm')).toBe('Monday 20:00');
  });

  test('a phase never falls due before its duration: processed on Monday 19:00, a day on is Tuesday 20:00, not Monday', async () => {
    const { gameId, players } = await startGame(app, {
      deadlines: { movement: DAY, retreat: DAY, adjustment: DAY },
      correspondence: { ...noGrace, deadlineClock: { time: '20:00', timeZone: 'Europe/Amsterdam', daysOff: [6, 7] } },
    });
    // Monday 7 June 2027, 19:00 CEST.
    expect(await app.scheduler.processDue(new Date('2027-06-07T17:00:00Z'))).toBe(1);
    expect((await currentPhase(players[0], gameId)).deadlineAt).toBe('2027-06-08T18:00:00.000Z');
  });
});

describe('a game without a clock', () => {
  test('keeps its durations: each phase is due exactly its duration after it opened', async () => {
    const startedAt = Date.now();
    const { gameId, players } = await startGame(app, { deadlines: durations, correspondence: noGrace });
    const first = await currentPhase(players[0], gameId);
    const duration = (first.kind === 'movement' ? DAY : DAY / 2) * 1000;
    expect(Date.parse(first.deadlineAt!) - startedAt).toBeGreaterThanOrEqual(duration);
    expect(Date.parse(first.deadlineAt!) - Date.now()).toBeLessThanOrEqual(duration);

    const at = new Date('2027-03-26T10:00:00Z');
    expect(await app.scheduler.processDue(at)).toBe(1);
    const next = await currentPhase(players[0], gameId);
    const nextDuration = (next.kind === 'movement' ? DAY : DAY / 2) * 1000;
    expect(Date.parse(next.deadlineAt!)).toBe(at.getTime() + nextDuration);
  });
});

describe("a user's time zone", () => {
  test("is null (the browser's own) until chosen; chosen, who-am-I and a new log-in give it; an unknown zone is refused by name", async () => {
    const browser = await new Browser(app).register();
    expect((await browser.request('GET', '/api/auth/me')).json().user.timeZone).toBeNull();
    const set = await browser.request('PUT', '/api/auth/preferences', { timeZone: 'Asia/Tokyo' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ timeZone: 'Asia/Tokyo' });
    expect((await browser.request('GET', '/api/auth/me')).json().user.timeZone).toBe('Asia/Tokyo');
    const again = new Browser(app);
    expect((await again.login(browser.user!.username)).json().user.timeZone).toBe('Asia/Tokyo');

    const wrong = await browser.request('PUT', '/api/auth/preferences', { timeZone: 'Mars/Olympus' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.issues[0]).toMatchObject({ path: 'body.timeZone' });
    expect(wrong.json().error.issues[0].message).toMatch(/time zone/);
    expect((await browser.request('GET', '/api/auth/me')).json().user.timeZone).toBe('Asia/Tokyo');

    expect((await browser.request('PUT', '/api/auth/preferences', { timeZone: null })).json()).toEqual({ timeZone: null });
    expect((await browser.request('GET', '/api/auth/me')).json().user.timeZone).toBeNull();
    // A visitor has no preferences to set.
    expect((await new Browser(app).request('PUT', '/api/auth/preferences', { timeZone: 'UTC' })).statusCode).toBe(401);
  });
});
