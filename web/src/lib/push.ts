/**
 * Browser push on this device: the service worker (web/public/sw.js, which shows what the server pushes), and this
 * browser's subscription at its push service, made with the server's VAPID key and handed to the server
 * (`POST /api/push/subscriptions`), which then sends it the user's notifications (server/notify/push.ts).
 */
import { api } from './api.ts';

export const SERVICE_WORKER_URL = '/sw.js';

/** Why this browser cannot receive push at all, in words; null when it can. */
export function pushUnsupported(): string | null {
  if (typeof window === 'undefined') return 'not in a browser';
  if (!window.isSecureContext) return 'Notifications need the site to be opened over https.';
  if (!('serviceWorker' in navigator)) return 'This browser has no service workers, which notifications need.';
  if (!('PushManager' in window)) {
    // Safari on iPhone and iPad offers push only to a site added to the home screen.
    return /iPhone|iPad/.test(navigator.userAgent)
      ? 'On iPhone and iPad, add this site to your home screen (Share → Add to Home Screen) and open it from there to get notifications.'
      : 'This browser cannot receive push notifications.';
  }
  if (!('Notification' in window)) return 'This browser cannot show notifications.';
  return null;
}

/** The service worker's registration, registering it first if need be. */
export async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (existing?.active?.scriptURL.endsWith(SERVICE_WORKER_URL)) return existing;
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** This browser's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  return (await serviceWorker()).pushManager.getSubscription();
}

/** The base64url VAPID key as the bytes `applicationServerKey` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const plain = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(plain + '='.repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const own = subscription.options.applicationServerKey;
  if (!own) return false;
  const bytes = new Uint8Array(own);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/** Sends the browser's subscription to the server, for whoever is logged in (taking it from another account on this device). */
export async function register(subscription: PushSubscription): Promise<void> {
  const json = subscription.toJSON();
  await api.subscribePush({
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    expirationTime: subscription.expirationTime,
  });
}

/** How long the browser may take to subscribe at its push service (one it cannot reach may never answer). */
const SUBSCRIBE_TIMEOUT_MS = 20_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new DOMException(`no answer in ${ms / 1000} s`, 'AbortError')), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/**
 * Asks for permission (the browser's own prompt: call it from a click), subscribes this browser with the server's key
 * and tells the server. Throws what the browser or the server refused; `refusalText` puts it in words.
 */
export async function subscribeThisBrowser(): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new DOMException('notifications not allowed', 'NotAllowedError');
  const registration = await serviceWorker();
  const key = keyBytes((await api.pushKey()).publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // Made with other keys (the server's were replaced): the push service would refuse our messages for it.
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await withTimeout(registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), SUBSCRIBE_TIMEOUT_MS);
  await register(subscription);
}

/** Stops this browser's notifications: at its push service and on the server. */
export async function unsubscribeThisBrowser(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  await api.unsubscribePushEndpoint(endpoint).catch((error: unknown) => {
    // Already gone on the server (removed from another browser): nothing more to do.
    if ((error as { status?: number }).status !== 404) throw error;
  });
}

/** What went wrong, for the page: the browser's refusals explained, the server's message as it is. */
export function refusalText(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError') {
    return Notification.permission === 'denied'
      ? "Notifications are blocked for this site in your browser's settings. Allow them there (the icon left of the address), then try again."
      : 'The browser did not allow notifications. Try again and choose Allow when it asks.';
  }
  if (name === 'AbortError' || name === 'NotSupportedError' || name === 'InvalidStateError') {
    return `The browser could not subscribe at its push service (${(error as DOMException).message || name}). Some browsers cannot receive push at all: builds without their maker's push service, private windows, or push turned off in their settings.`;
  }
  return error instanceof Error ? error.message : String(error);
}
