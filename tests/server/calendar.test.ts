/**
 * The calendar feed through the API, read with a real iCalendar parser (ical.js): one event per game at its open
 * deadline with a UID that stays while the deadline moves, a reminder at the user's lead times, the game master's
 * games too, rotation and turning off that shut the old address out, nothing of other players in anonymous games,
 * and 404 for an address that is not one.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

const PUBLIC_URL = 'https://diadochi.test';
let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp({ settings: { publicUrl: PUBLIC_URL } });
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

/** Makes (or changes) the user's feed address; checks its form. */
async function feedUrl(browser: Browser): Promise<string> {
  const response = await browser.request('POST', '/api/calendar/token');
  expect(response.statusCode, response.body).toBe(200);
  const { url } = response.json();
  expect(url).toMatch(/^https:\/\/diadochi\.test\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  return url;
}

type FeedEvent = { uid: string; summary: string; start: Date; url: string; description: string; alarms: number[] };

/** Reads the feed as a calendar app would (no cookie): its events, or the failed response. */
async function readFeed(url: string) {
  const response = await app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) });
  if (response.statusCode !== 200) return { response, events: [] as FeedEvent[] };
  expect(response.headers['content-type']).toMatch(/^text\/calendar/);
  expect(response.headers['cache-control']).toBe('no-store');
  const calendar = new ICAL.Component(ICAL.parse(response.body));
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toJSDate(),
      url: String(component.getFirstPropertyValue('url')),
      description: event.description,
      // Seconds before the deadline (negative), whichever way the duration is written (-PT24H, -P1D).
      alarms: component.getAllSubcomponents('valarm').map((alarm) => (alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds()),
    };
  });
  return { response, events };
}

/** iCalendar times have whole seconds: a deadline shows at its second. */
const toSecond = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000);
const eventOf = (events: FeedEvent[], gameId: string) => events.filter((event) => event.url === `${PUBLIC_URL}/games/${gameId}`);

describe('the calendar feed', () => {
  test("a player's and the game master's feeds hold the game's open deadline, with a reminder; the event keeps its UID as the GM moves the deadline", async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const player = byPower.get(powers[0])!;
    expect((await player.request('GET', '/api/calendar/token')).json()).toEqual({ url: null });
    const url = await feedUrl(player);
    expect((await player.request('GET', '/api/calendar/token')).json()).toEqual({ url });

    const phase = await currentPhase(player, gameId);
    const [event, ...others] = eventOf((await readFeed(url)).events, gameId);
    expect(others).toEqual([]);
    expect(event).toMatchObject({ summary: `Play test: ${phase.name} orders due`, start: toSecond(phase.deadlineAt!) });
    expect(event.description).toContain(`You play ${powers[0]}`);
    // The default reminders: 24 h and 2 h before.
    expect(event.alarms.sort((a, b) => a - b)).toEqual([-24 * 3600, -2 * 3600]);

    const masterEvents = eventOf((await readFeed(await feedUrl(master))).events, gameId);
    expect(masterEvents.map((e) => [e.uid, e.summary])).toEqual([[event.uid, event.summary]]);
    expect(masterEvents[0].description).toContain('game master');

    // The game master moves the deadline: the same event, at the new time.
    expect((await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 3 * 3600 })).statusCode).toBe(200);
    const [moved] = eventOf((await readFeed(url)).events, gameId);
    expect(moved.uid).toBe(event.uid);
    expect(moved.start.getTime()).toBe(event.start.getTime() + 3 * 3600_000);

    // The next phase is a new event; the processed one is gone.
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    const next = await currentPhase(player, gameId);
    const [after, ...rest] = eventOf((await readFeed(url)).events, gameId);
    expect(rest).toEqual([]);
    expect(after.uid).not.toBe(event.uid);
    expect(after).toMatchObject({ summary: `Play test: ${next.name} orders due`, start: toSecond(next.deadlineAt!) });
  });

  test("a paused game's deadline leaves the feed until it resumes; games the user has no part in are never in it", async () => {
    const { gameId, master, players } = await startGame(app);
    const [outsider] = await registeredBrowsers(app, 1);
    expect(eventOf((await readFeed(await feedUrl(outsider))).events, gameId)).toEqual([]);

    const url = await feedUrl(players[0]);
    expect(eventOf((await readFeed(url)).events, gameId)).toHaveLength(1);
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    expect(eventOf((await readFeed(url)).events, gameId)).toEqual([]);
    expect((await master.request('POST', `/api/games/${gameId}/gm/resume`)).statusCode).toBe(200);
    expect(eventOf((await readFeed(url)).events, gameId)).toHaveLength(1);
  });

  test('changing the address shuts the old one out at once; turning the feed off shuts out the last', async () => {
    const { gameId, players } = await startGame(app);
    const player = players[0];
    const first = await feedUrl(player);
    const second = await feedUrl(player);
    expect(second).not.toBe(first);

    const old = await readFeed(first);
    expect(old.response.statusCode).toBe(404);
    expect(old.response.json().error).toEqual({ code: 'not_found', message: 'no such calendar' });
    expect(eventOf((await readFeed(second)).events, gameId)).toHaveLength(1);

    const off = await player.request('DELETE', '/api/calendar/token');
    expect(off.statusCode).toBe(204);
    expect((await readFeed(second)).response.statusCode).toBe(404);
    expect((await player.request('GET', '/api/calendar/token')).json()).toEqual({ url: null });
  });

  test('an address that is not a feed is 404 and says nothing more; the owner routes need a log-in', async () => {
    for (const token of ['A'.repeat(43), 'short', 'token', `${'a'.repeat(42)}!`]) {
      const response = await app.inject({ method: 'GET', url: `/api/calendar/${encodeURIComponent(token)}.ics` });
      expect(response.statusCode, token).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    const visitor = new Browser(app);
    expect((await visitor.request('POST', '/api/calendar/token')).statusCode).toBe(401);
    expect((await visitor.request('GET', '/api/calendar/token')).statusCode).toBe(401);
  });

  test("in an anonymous game the feed names the user's own power and nobody else", async () => {
    const { gameId, byPower, powers, players } = await startGame(app, { anonymous: true });
    const player = byPower.get(powers[1])!;
    const { response, events } = await readFeed(await feedUrl(player));
    expect(eventOf(events, gameId)[0].description).toContain(`You play ${powers[1]}`);
    for (const other of players.filter((browser) => browser !== player)) {
      expect(response.body).not.toContain(other.user!.username);
      expect(response.body).not.toContain(other.user!.id);
    }
  });
});
