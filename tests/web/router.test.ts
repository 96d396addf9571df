/** The router's leave guard: a page with unsaved work keeps the player unless they agree to leave. */
import { afterEach, describe, expect, it } from 'vitest';
import { router } from '../../web/src/lib/router.svelte.ts';

afterEach(() => {
  router.leaveGuard = null;
  router.go('/', true);
});

describe('router leave guard', () => {
  it('stays on the page when the guard says no, and goes when it says yes', () => {
    router.go('/games/00000000-0000-4000-8000-000000000001');
    let asked = 0;
    router.leaveGuard = () => (asked++, false);
    router.go('/sandbox');
    expect(router.route).toEqual({ name: 'game', id: '00000000-0000-4000-8000-000000000001' });
    expect(location.pathname).toBe('/games/00000000-0000-4000-8000-000000000001');
    router.leaveGuard = () => (asked++, true);
    router.go('/sandbox');
    expect(router.route).toEqual({ name: 'sandbox' });
    expect(asked).toBe(2);
  });

  it('is not asked for the page itself', () => {
    router.go('/sandbox');
    router.leaveGuard = () => false;
    router.go('/sandbox');
    expect(router.route).toEqual({ name: 'sandbox' });
  });
});

describe('router leave guard: where the navigation leads', () => {
  const GAME = '00000000-0000-4000-8000-000000000002';

  it('is told the page and query asked for', () => {
    router.go(`/games/${GAME}`);
    const asked: unknown[] = [];
    router.leaveGuard = (to) => (asked.push(to), true);
    router.go(`/games/${GAME}?about`);
    router.go('/players/some%20one?tab=games');
    expect(asked).toEqual([
      { route: { name: 'game', id: GAME }, search: '?about' },
      { route: { name: 'player', username: 'some one' }, search: '?tab=games' },
    ]);
  });

  it('is not asked when only the hash changes, by a link or by Back and forward', () => {
    router.go(`/games/${GAME}?tab=press`);
    let asked = 0;
    router.leaveGuard = () => (asked++, false);
    router.go(`/games/${GAME}?tab=press#main`);
    history.pushState(null, '', `/games/${GAME}?tab=press#orders`);
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(asked).toBe(0);
    expect(location.hash).toBe('#orders');
    expect(router.search).toBe('?tab=press');
  });

  it('is asked with the destination when Back leads to another page, and undoes it when it says no', () => {
    router.go('/sandbox');
    const asked: unknown[] = [];
    router.leaveGuard = (to) => (asked.push(to), false);
    history.pushState(null, '', '/battles');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(asked).toEqual([{ route: { name: 'battles' }, search: '' }]);
    expect(router.route).toEqual({ name: 'sandbox' });
    expect(location.pathname).toBe('/sandbox');
  });

  it('answers for a destination without going there (logging out asks as leaving for the lobby)', () => {
    router.go('/sandbox');
    router.leaveGuard = (to) => to.route.name === 'sandbox';
    expect(router.mayLeaveFor('/sandbox?x=1')).toBe(true);
    expect(router.mayLeaveFor('/')).toBe(false);
    expect(router.route).toEqual({ name: 'sandbox' });
  });
});
