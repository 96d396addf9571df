/**
 * A forming game's page opened in the instant the game starts: the page reads the game (forming), the start is
 * committed and told to those listening, and only then does the server listen for this page. No event ever says the
 * game started, so the page reads the game again once the server confirms it listens (`subscribed`), and again after
 * a reconnect: it cannot stay on the forming view of a game under way.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, unmount } from 'svelte';
import type { GameDetail } from '../../shared/api/index.ts';
import GamePage from '../../web/src/pages/GamePage.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { POWERS, fixtureId, gameDetail, gameSummary, json } from './api-fixtures.ts';

const GAME = '019a0000-0000-7000-8000-000000000014';
const channel = `game:${GAME}`;
const ME = { id: fixtureId(7), username: 'player0' };

/** The five-seat game of the fixtures, full, with the viewer in the first seat: forming (no powers yet) or started. */
function game(status: 'forming' | 'active'): GameDetail {
  return gameDetail(null, {
    ...gameSummary({ id: GAME, name: 'Starting now', status, joined: true, startedAt: status === 'active' ? '2026-01-01T01:00:00.000Z' : null }),
    players: POWERS.map((power, i) => ({
      id: fixtureId(i),
      user: i === 0 ? ME : { id: fixtureId(i + 1), username: `player${i}` },
      power: status === 'active' ? power : null,
      status: 'active' as const,
      missedDeadlines: 0,
      isYou: i === 0,
    })),
  });
}

let target: HTMLElement;
let component: ReturnType<typeof mount>;
/** What the server says of the game now. */
let now: GameDetail;
let reads = 0;

beforeEach(() => {
  vi.stubGlobal('WebSocket', ScriptedSocket);
  // The details page (no board chunk): what it says of the game is what is read.
  router.search = '?about';
  session.adopt({ user: { ...ME, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
  now = game('forming');
  reads = 0;
  vi.stubGlobal('fetch', async (path: string) => {
    if (path === `/api/games/${GAME}`) return (reads++, json(200, now));
    return json(404, { error: { code: 'not_found', message: `no route GET ${path}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  unmount(component);
  target.remove();
  vi.unstubAllGlobals();
  router.search = '';
});

const eyebrow = () => target.querySelector('.eyebrow')?.textContent ?? '';
/** The page's socket, open (the live client keeps one socket for the whole app, from one test to the next). */
function openSocket(): ScriptedSocket {
  const socket = ScriptedSocket.opened.at(-1)!;
  if (socket.readyState !== ScriptedSocket.OPEN) socket.accept();
  return socket;
}
const serverSays = (socket: ScriptedSocket, message: object) => socket.onmessage?.({ data: JSON.stringify(message) });

describe('a forming game’s page opened as the game starts', () => {
  it('reads the game again once the server listens, and shows it under way though no event said so', async () => {
    component = mount(GamePage, { target, props: { id: GAME } });
    await vi.waitFor(() => expect(eyebrow()).toContain('waiting for players'));
    const socket = openSocket();
    expect(socket.sent).toContainEqual({ type: 'subscribe', channel });
    // The game started after the page's read and before the server listened: its event went to others only.
    now = game('active');
    serverSays(socket, { type: 'subscribed', channel, seq: 7 });
    await vi.waitFor(() => expect(eyebrow()).toContain('active'));
    expect(target.textContent).toContain('The game is on');
    expect(reads).toBe(2);
  });

  it('asks to listen only once the game has answered, so a quick confirmation does not read the game twice first', async () => {
    // The game's answer is slow (a busy server); the socket is quick.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    vi.stubGlobal('fetch', async (path: string) => {
      if (path !== `/api/games/${GAME}`) return json(404, { error: { code: 'not_found', message: `no route GET ${path}` } });
      reads++;
      await answered;
      return json(200, now);
    });
    const before = ScriptedSocket.opened.at(-1)?.sent.length ?? 0;
    component = mount(GamePage, { target, props: { id: GAME } });
    await vi.waitFor(() => expect(reads).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const subscriptions = () => (ScriptedSocket.opened.at(-1)?.sent ?? []).slice(before).filter((m) => (m as { type: string }).type === 'subscribe');
    expect(subscriptions()).toEqual([]);
    answer();
    await vi.waitFor(() => expect(eyebrow()).toContain('waiting for players'));
    const socket = openSocket();
    await vi.waitFor(() => expect(socket.sent).toContainEqual({ type: 'subscribe', channel }));
    expect(reads).toBe(1);
    // Once listened for, the page reads the game again (an event between its answer and then was told to nobody).
    serverSays(socket, { type: 'subscribed', channel, seq: 3 });
    await vi.waitFor(() => expect(reads).toBe(2));
  });

  it('reads it again when the server listens again after the socket was lost', async () => {
    component = mount(GamePage, { target, props: { id: GAME } });
    await vi.waitFor(() => expect(eyebrow()).toContain('waiting for players'));
    const first = openSocket();
    const opened = ScriptedSocket.opened.length;
    serverSays(first, { type: 'subscribed', channel, seq: 7 });
    await vi.waitFor(() => expect(reads).toBe(2));
    first.closedByServer(1006);
    // The reconnect (after a second's backoff) subscribes again; the start happened while the socket was down.
    await vi.waitFor(() => expect(ScriptedSocket.opened.length).toBe(opened + 1), { timeout: 3000 });
    const second = openSocket();
    now = game('active');
    serverSays(second, { type: 'subscribed', channel, seq: 9 });
    await vi.waitFor(() => expect(eyebrow()).toContain('active'));
  });
});
