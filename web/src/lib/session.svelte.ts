/** Who is logged in, shared by every page. */
import type { SessionInfo, WhoAmI } from '../../../shared/api/index.ts';
import { ApiError, api, setCsrfToken } from './api.ts';
import { live } from './live.ts';
import { showTimesIn } from './format.ts';

class Session {
  user = $state<SessionInfo['user'] | null>(null);
  /** False until the first who-am-I answer: pages wait for it before asking for a log-in. */
  loaded = $state(false);

  /** A log-in's or sign-up's session, who-am-I's answer (`user` null for a visitor), or null: nobody. */
  adopt(info: SessionInfo | WhoAmI | null): void {
    this.user = info?.user ?? null;
    // Every time on the site is shown in the zone the user chose, or the browser's (lib/format.ts).
    showTimesIn(info?.user?.timeZone);
    setCsrfToken(info?.csrfToken ?? null);
    this.loaded = true;
  }

  async refresh(): Promise<void> {
    try {
      // A visitor is answered `user: null`, not refused: asking is no error, whoever is at the keyboard.
      this.adopt(await api.me());
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) this.adopt(null);
      else {
        this.loaded = true;
        throw e;
      }
    }
  }

  async logout(): Promise<void> {
    try {
      await api.logout();
    } finally {
      this.adopt(null);
    }
  }
}

export const session = new Session();

/**
 * From a component: calls `read` again when someone logs in or out while the page is open (not on the first
 * who-am-I answer: the page's own first read went with the session cookie, so it was already that user's view).
 */
export function rereadOnLogInOrOut(read: () => unknown): void {
  let seen: string | null | undefined;
  $effect(() => {
    if (!session.loaded) return;
    const user = session.user?.id ?? null;
    if (seen !== undefined && seen !== user) read();
    seen = user;
  });
}
// The live socket's session ended (logged out elsewhere, expired): ask who we are now, so pages show the log-in.
live.onSessionEnded = () => void session.refresh().catch(() => {});
