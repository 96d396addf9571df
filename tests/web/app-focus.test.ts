/**
 * The shell, for keyboard and screen-reader players: a skip link to the content, and a new page takes the
 * focus to its content (as a page load would), while a new query on the same page (a lobby tab) does not.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import App from '../../web/src/App.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { json } from './api-fixtures.ts';

let target: HTMLElement;
let app: ReturnType<typeof mount>;

beforeEach(() => {
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.stubGlobal('fetch', async (path: string) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === '/api/auth/me') return json(200, { user: null, authenticatedBy: null, csrfToken: null });
    if (url === '/api/games') return json(200, { games: [], nextCursor: null });
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
  router.go('/', true);
  target = document.createElement('div');
  document.body.appendChild(target);
  app = mount(App, { target });
  flushSync();
});
afterEach(() => {
  unmount(app);
  target.remove();
  vi.unstubAllGlobals();
});

const settle = async () => {
  flushSync();
  await tick();
  await new Promise((resolve) => setTimeout(resolve));
};

describe('the shell', () => {
  it('offers a skip link to the content first', () => {
    const first = target.querySelector('a');
    expect(first?.getAttribute('href')).toBe('#main');
    expect(first?.textContent).toBe('Skip to the content');
    expect(target.querySelector('main')?.id).toBe('main');
  });

  it('takes the focus to the content on a new page, not on a new query of the same page', async () => {
    const main = target.querySelector('main')!;
    await settle();
    expect(document.activeElement).not.toBe(main);
    router.go('/?tab=finished');
    await settle();
    expect(document.activeElement).not.toBe(main);
    router.go('/login');
    await settle();
    expect(document.activeElement).toBe(main);
  });
});
