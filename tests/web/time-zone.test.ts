/**
 * Times in the user's own time zone: the zone chosen on the account (who-am-I's `user.timeZone`) is the one every
 * time on the site is written in, else the browser's; the Account page's setting saves it; a deadline moved by
 * grace is told in it, with the reason.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import { localTime } from '../../web/src/game/logic.ts';
import { dateInZone, shownTimeZone } from '../../web/src/lib/format.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import TimeZoneSetting from '../../web/src/account/TimeZoneSetting.svelte';
import { fixtureId as id, gameDetail, json, openPhase } from './api-fixtures.ts';

const DEADLINE = '2027-03-29T18:00:00.000Z';
const user = (timeZone: string | null) =>
  ({
    user: { id: id(2), username: 'egypt', isAdmin: false, createdAt: '2026-01-01T00:00:00.000Z', timeZone },
    authenticatedBy: 'cookie',
    csrfToken: 'token',
  }) as Parameters<typeof session.adopt>[0];
/** How this browser writes the deadline in its own zone. */
const inBrowserZone = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

afterEach(() => {
  session.adopt(null);
  vi.unstubAllGlobals();
});

describe('times in the chosen zone', () => {
  it('a user with Asia/Tokyo sees the deadline in Tokyo time; one with none, in the browser zone', () => {
    session.adopt(user('Asia/Tokyo'));
    expect(shownTimeZone()).toBe('Asia/Tokyo');
    // 18:00 UTC on Monday 29 March is 03:00 on Tuesday in Tokyo (UTC+9, no daylight saving).
    expect(localTime(DEADLINE, 'en-GB')).toBe('Tue 30 Mar, 03:00');
    expect(dateInZone('2027-03-29T20:00:00.000Z', { dateStyle: 'medium' }, 'en-GB')).toBe('30 Mar 2027');

    session.adopt(user('Europe/Amsterdam'));
    expect(localTime(DEADLINE, 'en-GB')).toBe('Mon 29 Mar, 20:00');

    session.adopt(user(null));
    expect(shownTimeZone()).toBeUndefined();
    expect(localTime(DEADLINE, 'en-GB')).toBe(inBrowserZone(DEADLINE));
    // Logged out: the browser's zone too.
    session.adopt(user('Asia/Tokyo'));
    session.adopt(null);
    expect(localTime(DEADLINE, 'en-GB')).toBe(inBrowserZone(DEADLINE));
  });

  it("the grace notice gives the reason and the new deadline in the user's zone", async () => {
    session.adopt(user('Asia/Tokyo'));
    const GAME = id(1);
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url === `/api/games/${GAME}`) return json(200, gameDetail('Egypt'));
      if (url === `/api/games/${GAME}/phases/current`) return json(200, openPhase(0, 'Spring 240 BC Movement'));
      if (url === `/api/games/${GAME}/phases/0/orders`)
        return json(200, {
          phase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: null },
          power: 'Egypt',
          mustOrder: true,
          current: null,
          history: [],
        });
      if (url === `/api/games/${GAME}/phases`) return json(200, { phases: [] });
      if (url === `/api/games/${GAME}/press`) return json(200, { messages: [], nextCursor: null });
      if (url === `/api/games/${GAME}/loans`) return json(200, { loans: [] });
      if (url === `/api/games/${GAME}/votes`) return json(200, { votes: [], required: 5 });
      if (url === `/api/games/${GAME}/gm/log`) return json(200, { actions: [] });
      return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
    });
    const room = new GameRoom(gameDetail('Egypt'), () => id(2));
    await room.load();
    await room.onEvent({
      type: 'deadline.changed',
      gameId: GAME,
      phaseIndex: 0,
      deadlineAt: DEADLINE,
      paused: false,
      reason: 'grace',
      powers: ['Rome', 'Syria'],
    });
    expect(room.notices.map((n) => n.text).at(-1)).toBe(
      `Rome and Syria sent no orders by the deadline, so the game gave them grace: orders are now due ${localTime(DEADLINE)}.`,
    );
    expect(localTime(DEADLINE)).toContain('03:00');
    // A deadline moved by a player's declared absence says so, and replaces the word on the same deadline.
    const later = '2027-03-31T18:00:00.000Z';
    await room.onEvent({ type: 'deadline.changed', gameId: GAME, phaseIndex: 0, deadlineAt: later, paused: false, reason: 'vacation' });
    expect(room.notices.map((n) => n.text)).toEqual([`The deadline fell in a player's declared absence, so it moved: orders are now due ${localTime(later)}.`]);
  });
});

describe("the Account page's time zone", () => {
  let target: HTMLElement;
  let component: ReturnType<typeof mount>;
  let sent: unknown[];
  let stored: string | null;

  beforeEach(() => {
    sent = [];
    stored = null;
    session.adopt(user(null));
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
      if (path === '/api/auth/preferences' && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body));
        sent.push(body);
        stored = body.timeZone;
        return json(200, { timeZone: stored });
      }
      if (path === '/api/auth/me') return json(200, user(stored));
      return json(404, { error: { code: 'not_found', message: `no route ${path}` } });
    });
    target = document.createElement('div');
    document.body.appendChild(target);
    component = mount(TimeZoneSetting, { target });
    flushSync();
  });
  afterEach(() => {
    unmount(component);
    target.remove();
  });

  const select = () => target.querySelector<HTMLSelectElement>('select[name="time-zone"]')!;
  // happy-dom's :checked matches inputs only, so Svelte's select binding reads the first enabled option:
  // the other options are disabled while the change is read (as tests/web/game-view.test.ts does).
  const choose = (value: string) => {
    const others = Array.from(select().options).filter((o) => o.value !== value && !o.disabled);
    for (const o of others) o.disabled = true;
    select().value = value;
    select().dispatchEvent(new Event('change', { bubbles: true }));
    for (const o of others) o.disabled = false;
    flushSync();
  };
  const save = () => target.querySelector<HTMLFormElement>('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));

  it("starts at the browser's own zone; choosing Tokyo saves it, and from then on times are Tokyo's", async () => {
    expect(select().value).toBe('');
    expect(select().selectedOptions[0].textContent).toMatch(/^Your browser's zone \(/);
    choose('Asia/Tokyo');
    save();
    await vi.waitFor(() => expect(target.querySelector('[role="status"]')?.textContent).toMatch(/^Times are now shown in Asia\/Tokyo: it is /));
    expect(sent).toEqual([{ timeZone: 'Asia/Tokyo' }]);
    expect(session.user?.timeZone).toBe('Asia/Tokyo');
    expect(localTime(DEADLINE, 'en-GB')).toBe('Tue 30 Mar, 03:00');

    // Back to the browser's own: null is sent.
    choose('');
    save();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ timeZone: null });
    await vi.waitFor(() => expect(shownTimeZone()).toBeUndefined());
  });
});
