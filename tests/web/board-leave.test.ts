/**
 * The board's leave guard with unsaved orders: another query of its own game's address (an invitation link, a tab)
 * keeps the board on screen and asks nothing; its settings page (?about), another page or logging out (leaving for
 * the lobby) take the orders off screen and ask first.
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

const game = gameDetail('Egypt', { currentPhase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: null } });
let target: HTMLElement;
let view: ReturnType<typeof mount> | undefined;

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('WebSocket', ScriptedSocket);
  session.adopt({ user: { id: id(2), username: 'egypt', isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<
    typeof session.adopt
  >[0]);
  vi.stubGlobal('fetch', async (path: string) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === `/api/games/${game.id}`) return json(200, game);
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
  router.leaveGuard = null;
  router.go('/', true);
});

describe('leaving a board with unsaved orders', () => {
  it('asks only when the orders would leave the screen', async () => {
    router.go(`/games/${game.id}`, true);
    view = mount(GameView, { target, props: { game } });
    await vi.waitFor(() => expect(target.querySelector('#orders-text')).not.toBeNull());
    const box = target.querySelector<HTMLTextAreaElement>('#orders-text')!;
    box.value = 'F Alx H';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);

    router.go(`/games/${game.id}?invite=abc`);
    expect(confirm).not.toHaveBeenCalled();
    expect(router.search).toBe('?invite=abc');

    router.go(`/games/${game.id}?about`);
    expect(confirm).toHaveBeenCalledOnce();
    expect(router.search).toBe('?invite=abc');
    expect(router.mayLeaveFor(`/games/${id(9)}`)).toBe(false);
    expect(router.mayLeaveFor('/')).toBe(false);
    expect(confirm).toHaveBeenCalledTimes(3);
    expect(confirm.mock.calls[0]).toEqual([expect.stringContaining('unsaved changes')]);
  });
});
