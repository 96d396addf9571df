/**
 * A small history-API router: the server answers every non-API path with the
 * client's index.html, so paths like /sandbox, /games/<id>, /battles/<id> and /players/<username> load directly.
 */
export type Route =
  | { name: 'lobby' }
  | { name: 'login' }
  | { name: 'signup' }
  | { name: 'create' }
  | { name: 'game'; id: string }
  | { name: 'sandbox' }
  | { name: 'account' }
  | { name: 'verify-email' }
  | { name: 'forgot-password' }
  | { name: 'reset-password' }
  | { name: 'player'; username: string }
  | { name: 'battles' }
  | { name: 'battle-create' }
  | { name: 'battle'; id: string }
  | { name: 'battle-verify'; id: string }
  | { name: 'not-found'; path: string };

export function parseRoute(path: string): Route {
  const clean = path.replace(/\/+$/, '') || '/';
  if (clean === '/') return { name: 'lobby' };
  if (clean === '/login') return { name: 'login' };
  if (clean === '/signup') return { name: 'signup' };
  if (clean === '/sandbox') return { name: 'sandbox' };
  if (clean === '/account') return { name: 'account' };
  // The pages account mail links to (the token in the query).
  if (clean === '/account/verify') return { name: 'verify-email' };
  if (clean === '/account/forgot-password') return { name: 'forgot-password' };
  if (clean === '/account/reset-password') return { name: 'reset-password' };
  if (clean === '/games/new') return { name: 'create' };
  if (clean === '/battles') return { name: 'battles' };
  if (clean === '/battles/new') return { name: 'battle-create' };
  const battle = /^\/battles\/([0-9a-f-]{36})(\/verify)?$/i.exec(clean);
  if (battle) return battle[2] ? { name: 'battle-verify', id: battle[1] } : { name: 'battle', id: battle[1] };
  const game = /^\/games\/([0-9a-f-]{36})$/i.exec(clean);
  if (game) return { name: 'game', id: game[1] };
  const player = /^\/players\/([^/]+)$/.exec(clean);
  if (player) {
    try {
      return { name: 'player', username: decodeURIComponent(player[1]) };
    } catch {
      // A malformed escape: no such page.
    }
  }
  return { name: 'not-found', path: clean };
}

/** Where a navigation leads: the page (route) and the query of the address asked for. */
export type Destination = { route: Route; search: string };

class Router {
  route = $state<Route>(parseRoute(typeof location === 'undefined' ? '/' : location.pathname));
  /** Query of the current URL (e.g. ?tab=mine). */
  search = $state<string>(typeof location === 'undefined' ? '' : location.search);

  /**
   * Asked before the address changes to another page or query (a page with unsaved work sets it), with where the
   * navigation leads, so that it asks the player only when the work would leave the screen: false keeps the player
   * where they are. Never asked when only the hash changes (an in-page link, the skip link), which leaves nothing.
   */
  leaveGuard: ((to: Destination) => boolean) | null = null;
  private here = typeof location === 'undefined' ? '/' : location.pathname + location.search;

  constructor() {
    if (typeof window !== 'undefined') {
      window.addEventListener('popstate', () => {
        const address = location.pathname + location.search;
        // Only the hash moved (an in-page link, or Back over one): the page is the same, nothing to ask or change.
        if (address === this.here) return;
        if (!this.mayLeaveFor(address)) {
          // Back or forward was pressed: undo it, the page stays.
          history.pushState(null, '', this.here);
          return;
        }
        this.route = parseRoute(location.pathname);
        this.search = location.search;
        this.here = address;
      });
    }
  }

  /** Whether the page's leave guard, if any, lets the player go to `href` (an address on this site). */
  mayLeaveFor(href: string): boolean {
    if (!this.leaveGuard) return true;
    const url = new URL(href, location.href);
    if (url.pathname + url.search === this.here) return true;
    return this.leaveGuard({ route: parseRoute(url.pathname), search: url.search });
  }

  go(href: string, replace = false): void {
    const url = new URL(href, location.href);
    if (!this.mayLeaveFor(url.href)) return;
    this.here = url.pathname + url.search;
    if (replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    this.route = parseRoute(url.pathname);
    this.search = url.search;
    window.scrollTo(0, 0);
  }
}

export const router = new Router();

/** Let plain <a href="/…"> links navigate without a page load. */
export function interceptLinks(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const a = (event.target as Element | null)?.closest?.('a');
  if (!a || a.target || a.hasAttribute('download')) return;
  const href = a.getAttribute('href');
  if (!href?.startsWith('/') || href.startsWith('/api')) return;
  event.preventDefault();
  router.go(href);
}
