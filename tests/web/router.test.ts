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
