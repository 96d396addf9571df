/**
 * A board reads the game, then subscribes to its live channel: an event between the two (the clock paused, a phase
 * processed, a message sent) is told to nobody on the page. Once the server confirms it listens (`subscribed`), the
 * board reads again what it read before: on opening, before its later reads (history, press, loans, votes, log) are
 * asked for, only the game and its open phase; once they were, everything.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, unmount } from 'svelte';
import GameView from '../../web/src/pages/GameView.svelte';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, firstPhaseBoardRead, gameDetail, json, openPhase } from './api-fixtures.ts';

// The board fetches its tabs' chunks once the map is up: loaded before, so that none arrives after a test's end.
beforeAll(() =>
  Promise.all([import('../../web/src/game/GamePanel.svelte'), import('../../web/src/game/PressPanel.svelte'), import('../../web/src/game/SupplyPanel.svelte')]),
);

const GAME = id(3);
const channel = `game:${GAME}`;
const game = gameDetail('Egypt', {
  id: GAME,
  currentPhase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: '2026-12-01T00:00:00.000Z' },
});

/** Whether the game master has paused the clock (on the server). */
let paused: boolean;
/** Every read, by path. */
let reads: string[];
/** A read of the open phase the test holds back, and lets go. */
let holdCurrent: Promise<void> | null;
let target: HTMLElement;
let view: ReturnType<typeof mount> | undefined;

beforeEach(() => {
  paused = false;
  reads = [];
  holdCurrent = null;
  localStorage.clear();
  vi.stubGlobal('WebSocket', ScriptedSocket);
  session.adopt({ user: { id: id(2), username: 'egypt', isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<
    typeof session.adopt
  >[0]);
  vi.stubGlobal('fetch', async (path: string) => {
    const url = new URL(path, 'http://localhost').pathname;
    reads.push(url);
    if (url === `/api/games/${GAME}`) return json(200, { ...game, pausedAt: paused ? '2026-11-30T00:00:00.000Z' : null });
    if (url.endsWith('/phases/current')) {
      if (holdCurrent) await holdCurrent;
      return json(200, openPhase(0, 'Spring 240 BC Movement', { paused }));
    }
    const read = firstPhaseBoardRead(url, 'Egypt');
    if (read) return read;
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  if (view) unmount(view);
  view = undefined;
  target.remove();
  vi.unstubAllGlobals();
});

/** The socket the board subscribes on, once it asked for the game's channel. */
async function subscribedSocket(): Promise<ScriptedSocket> {
  // The socket of an earlier test may still be open (it closes once nobody listens for a while).
  await vi.waitFor(() => expect(ScriptedSocket.opened.length).toBeGreaterThan(0));
  const socket = ScriptedSocket.opened.at(-1)!;
  if (socket.readyState !== ScriptedSocket.OPEN) socket.accept();
  await vi.waitFor(() => expect(socket.sent).toContainEqual({ type: 'subscribe', channel }));
  return socket;
}
const confirm = (socket: ScriptedSocket) => socket.onmessage?.({ data: JSON.stringify({ type: 'subscribed', channel, seq: 7 }) });
/** The catch-up waits for the map and the tabs' code, which a loaded machine may take a few seconds over. */
const SLOW = { timeout: 8000 };
const count = (suffix: string) => reads.filter((r) => r.endsWith(suffix)).length;

describe('a board between its first read and its live subscription', () => {
  it('does not lose an event that happened then: the clock paused before the server listened is said paused', async () => {
    view = mount(GameView, { target, props: { game } });
    await vi.waitFor(() => expect(target.querySelector('#orders-text')).not.toBeNull());
    const socket = await subscribedSocket();
    expect(target.querySelector('.deadline')?.textContent).toMatch(/^\s*Orders due/);
    // The game master pauses the clock after the board's reads, before the server listens for it: no event reaches the page.
    paused = true;
    confirm(socket);
    await vi.waitFor(() => expect(target.querySelector('.deadline')?.textContent).toMatch(/^\s*Paused by the game master/), SLOW);
  });

  it('confirmed while its open phase is still on its way, reads again only the game and that phase', async () => {
    let release!: () => void;
    holdCurrent = new Promise((resolve) => (release = resolve));
    view = mount(GameView, { target, props: { game } });
    const socket = await subscribedSocket();
    confirm(socket);
    holdCurrent = null;
    release();
    await vi.waitFor(() => expect(target.querySelector('#orders-text')).not.toBeNull());
    // Once the map is up (and the tabs' code is in).
    await vi.waitFor(() => expect(count(`/api/games/${GAME}`) + count('/loans')).toBe(2), SLOW);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The game (given to the board by its page) read once more, its open phase twice in all; the later reads, asked
    // for after the server listened, once each.
    expect(count(`/api/games/${GAME}`)).toBe(1);
    expect(count('/phases/current')).toBe(2);
    for (const later of ['/phases', '/press', '/votes', '/loans', '/gm/log']) expect(count(later), later).toBe(1);
  });

  it('confirmed once the map is up and its later reads were asked for, reads everything again, once', async () => {
    view = mount(GameView, { target, props: { game } });
    await vi.waitFor(() => expect(target.querySelector('#orders-text')).not.toBeNull());
    await vi.waitFor(() => expect(count('/loans')).toBe(1), SLOW);
    const socket = await subscribedSocket();
    confirm(socket);
    await vi.waitFor(() => expect(count('/loans')).toBe(2), SLOW);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(count(`/api/games/${GAME}`)).toBe(1);
    expect(count('/phases/current')).toBe(2);
    for (const later of ['/phases', '/press', '/votes', '/loans', '/gm/log']) expect(count(later), later).toBe(2);
  });
});
