/** The settings of browser push (server/notify/push.ts, server/push/routes.ts), apart so that settings.ts stays light. */
import type { VapidKeys } from './vapid.ts';

export type PushSettings = {
  /** The keys to sign with (main.ts loads them: server/notify/vapid.ts); null: made for this app alone, as in tests. */
  vapid: VapidKeys | null;
  /**
   * The push services a subscription may name (PUSH_ENDPOINT_HOSTS): host names, each also allowing its subdomains;
   * `'*'`: any https host. The server posts to these, so a user cannot make it call an address of their choosing.
   */
  endpointHosts: readonly string[] | '*';
  /** Tests only: also accept `http://127.0.0.1:…` and `http://localhost:…` endpoints (a local push service). */
  allowLoopbackHttp: boolean;
  /** How long a push service may take to answer before the attempt counts as failed (and is retried). */
  timeoutMs: number;
  /** How long a push service keeps a message for a browser that is offline (the TTL header). */
  ttlSeconds: number;
};

/**
 * The push services of the browsers in use: Chrome, Edge (on Android), Opera, Samsung and Brave (Firebase Cloud
 * Messaging), Firefox (Mozilla's autopush), Safari (Apple) and Edge on Windows (WNS).
 */
export const KNOWN_PUSH_SERVICES = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
] as const;

export const DEFAULT_PUSH_SETTINGS: PushSettings = {
  vapid: null,
  endpointHosts: KNOWN_PUSH_SERVICES,
  allowLoopbackHttp: false,
  timeoutMs: 10_000,
  ttlSeconds: 2 * 24 * 3600,
};

/** Why the server will not post to this endpoint, or null when it may (the route's 400 says the reason). */
export function endpointProblem(endpoint: string, settings: PushSettings): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be the push service URL the browser gave';
  }
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  if (settings.allowLoopbackHttp && loopback && (url.protocol === 'http:' || url.protocol === 'https:')) return null;
  if (url.protocol !== 'https:') return 'must be an https:// URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (settings.endpointHosts === '*') return null;
  const host = url.hostname.toLowerCase();
  if (settings.endpointHosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))) return null;
  return `must be at a known push service (${settings.endpointHosts.join(', ')}); this server does not post to ${host}`;
}
