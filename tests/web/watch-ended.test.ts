/**
 * The server ends a board's live subscription (`unsubscribed` with a reason): a player whose seat in a private
 * game was handed on may no longer see it, and the page says so instead of keeping a board that no longer
 * changes; a page that may still see the game reads it again and listens again.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, unmount } from 'svelte';
import GameView from '../../web/src/pages/GameView.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, firstPhaseBoardRead, gameDetail, json } from './api-fixtures.ts';

// The board fetches its tabs' chunks once the map is up: loaded before, so that none arrives after a test's end.
beforeAll(() =>
  Promise.all([import('../../web/src/game/GamePanel.svelte'), import('../../web/src/game/PressPanel.svelte'), import('../../web/src/game/SupplyPanel.svelte')]),
);

const GAME = id(1);
const channel = `game:${GAME}`;
const game = gameDetail('Egypt', { private: true, currentPhase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: null } });

/** Whether the server still shows the game to Egypt's player. */
let visible: boolean;
let gameReads: number;
let target: HTMLElement;
let view: ReturnType<typeof mount> | undefined;

beforeEach(() => {
  visible = true;
  gameReads = 0;
  localStorage.clear();
  vi.stubGlobal('WebSocket', ScriptedSocket);
  session.adopt({ user: { id: id(2), username: 'egypt', isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<
    typeof session.adopt
  >[0]);
  vi.stubGlobal('fetch', async (path: string) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (!visible) return json(404, { error: { code: 'not_found', message: 'no game with that id' } });
    if (url === `/api/games/${GAME}`) {
      gameReads++;
      return json(200, game);
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

async function board() {
  view = mount(GameView, { target, props: { game } });
  await vi.waitFor(() => expect(target.querySelector('#orders-text')).not.toBeNull());
  // The socket of an earlier test may still be open (it closes once nobody listens for a while).
  const socket = ScriptedSocket.opened.at(-1)!;
  if (socket.readyState !== ScriptedSocket.OPEN) socket.accept();
  return socket;
}
const subscriptions = (socket: ScriptedSocket) => socket.sent.filter((m) => JSON.stringify(m) === JSON.stringify({ type: 'subscribe', channel })).length;

describe('a board whose subscription the server ended', () => {
  it('says the game can no longer be seen, and leaves no board (nor unsaved orders to ask about)', async () => {
    const socket = await board();
    const box = target.querySelector<HTMLTextAreaElement>('#orders-text')!;
    box.value = 'F Alx H';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    // The seat was handed on: the server no longer shows the private game to this user.
    visible = false;
    socket.onmessage?.({ data: JSON.stringify({ type: 'unsubscribed', channel, reason: 'you may no longer watch this game' }) });
    await vi.waitFor(() =>
      expect(target.querySelector('[role="alert"]')?.textContent).toBe('This game is private, and you no longer play in it: you can no longer see it.'),
    );
    expect(target.textContent).toContain('The server said: you may no longer watch this game.');
    expect(target.querySelector('svg.dmap, #orders-text, [role="tablist"]')).toBeNull();
    expect(target.querySelector('a[href="/"]')?.textContent).toBe('Back to the lobby');
    // Leaving asks nothing: the orders that were being written can no longer be saved.
    expect(router.mayLeaveFor('/')).toBe(true);
  });

  it('reads the game again and listens again when it may still be seen', async () => {
    const socket = await board();
    const before = subscriptions(socket);
    const mark = socket.sent.length;
    const reads = gameReads;
    socket.onmessage?.({ data: JSON.stringify({ type: 'unsubscribed', channel, reason: 'could not check that you may still watch: subscribe again' }) });
    // Once: reading the game again (as the catching up does) does not drop and renew the subscription.
    await vi.waitFor(() => expect(subscriptions(socket)).toBe(before + 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(subscriptions(socket)).toBe(before + 1);
    expect(socket.sent.slice(mark).filter((m) => (m as { type: string }).type === 'unsubscribe')).toEqual([]);
    expect(gameReads).toBeGreaterThan(reads);
    expect(target.querySelector('#orders-text')).not.toBeNull();
    expect(target.querySelector('[role="alert"]')).toBeNull();
  });
});
