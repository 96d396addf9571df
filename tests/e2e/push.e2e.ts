/**
 * Browser push in Debian's Chromium, against the real server whose delivery worker sends push messages to a local
 * push service (tests/server/helpers/push-endpoint.ts: it checks the VAPID signature and decrypts as a browser does).
 *
 * What this proves: a player opens the Account page and the service worker (web/public/sw.js) registers; a phase
 * processed in that player's game makes the server write, encrypt and sign a push message for the player's
 * subscription, which the local push service accepts and decrypts; that very payload, handed to the browser's
 * service worker as a push event (the DevTools protocol's ServiceWorker.deliverPushMessage, what a push service's
 * delivery becomes inside the browser), is shown as a notification with the server's title, body and tag, and
 * carries the game's page for a click.
 *
 * What it cannot prove: Chromium's own subscription at a real push service (Google's FCM here) and that service's
 * delivery to the browser; this machine's Chromium has no way to reach one, so the Account page's "Turn on" is
 * expected to end in the page's explanation of the browser's refusal, which is checked instead. Nor a click on
 * the operating system's notification (headless Chromium shows none).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { PushPayload } from '../../shared/api/notifications.ts';
import { DEFAULT_DELIVERY } from '../../server/notify/delivery.ts';
import { DEFAULT_PUSH_SETTINGS } from '../../server/notify/push-settings.ts';
import { defaultSettings } from '../../server/settings.ts';
import { PASSWORD } from '../server/helpers/app.ts';
import { startGame } from '../server/helpers/play.ts';
import { startPushService, type PushService } from '../server/helpers/push-endpoint.ts';
import { CHROMIUM, hasChromium, launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const shots = path.join(import.meta.dirname, 'screenshots');

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!hasChromium)('browser push', () => {
  let service: PushService;
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    service = await startPushService();
    // The delivery worker's loop runs, as in production; the push service is on this machine's loopback (http).
    [server, browser] = await Promise.all([
      startServer(undefined, {
        push: { ...DEFAULT_PUSH_SETTINGS, allowLoopbackHttp: true },
        notify: { ...defaultSettings.notify, delivery: { ...DEFAULT_DELIVERY, intervalMs: 100 } },
      }),
      launchBrowser(),
    ]);
    server.app.settings.publicUrl = server.url;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await service?.close();
  });

  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    const open = browser.browser.contexts().flatMap((c) => c.pages());
    await Promise.all(open.map((p, i) => p.screenshot({ path: path.join(shots, `failed-push-${i}.png`) }).catch(() => {})));
  });

  async function loggedInPage(username: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await page.context().grantPermissions(['notifications'], { origin: server.url });
    const login = await page.request.post(`${server.url}/api/auth/login`, { data: { username, password: PASSWORD } });
    expect(login.status()).toBe(200);
    return page;
  }

  test("a processed phase's push, as the server encrypted it, is shown by the Account page's service worker", async () => {
    // A game in play; one of its players has subscribed a browser at the push service.
    const game = await startGame(server.app);
    const [power, player] = [...game.byPower][0]!;
    const { publicKey } = (await player.request('GET', '/api/push/key')).json();
    const subscription = service.subscribe(publicKey);
    const subscribed = await player.request('POST', '/api/push/subscriptions', { endpoint: subscription.endpoint, keys: subscription.keys });
    expect(subscribed.statusCode, subscribed.body).toBe(201);

    // The game master processes the phase: the server writes the push, its worker sends it, the push service decrypts it.
    const processed = await game.master.request('POST', `/api/games/${game.gameId}/gm/process`);
    expect(processed.statusCode, processed.body).toBe(200);
    const pushed = await until('the phase-processed push at the push service', () =>
      service.received.find((entry) => entry.subscriptionId === subscription.id && (entry.payload as PushPayload).kind === 'phase-processed'),
    );
    const payload = pushed.payload as PushPayload;
    expect(payload.url).toBe(`/games/${game.gameId}`);
    expect(`${payload.title} ${payload.body}`).toContain(power);

    // The player's browser: the Account page registers the service worker.
    const page = await loggedInPage(player.user!.username);
    await page.goto(`${server.url}/account`);
    await page.getByRole('heading', { name: 'Notifications on this device' }).waitFor();
    const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(scriptURL).toBe(`${server.url}/sw.js`);

    // "Turn on" asks this Chromium to subscribe at its push service, which it cannot reach here: the page says why.
    await page.getByRole('button', { name: 'Turn on notifications on this device' }).click();
    const outcome = page.locator('.push-settings [role="alert"], .push-settings .done');
    await outcome.first().waitFor({ timeout: 40_000 });
    const said = await outcome.first().textContent();
    if (said?.includes('will now show your notifications')) {
      // A Chromium that can reach its push service: the server now knows this browser.
      expect((await player.request('GET', '/api/push/subscriptions')).json().subscriptions).toHaveLength(2);
    } else {
      expect(said).toMatch(/could not subscribe at its push service/);
    }

    // The push service's delivery, as the browser gets it: the decrypted payload, to the service worker.
    const cdp = await page.context().newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => r.scopeURL === `${server.url}/` && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId: await registrationId, data: JSON.stringify(payload) });

    const shown = await until('the notification', async () => {
      const list = await page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })),
      );
      return list.length > 0 ? list : undefined;
    });
    expect(shown).toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url, kind: 'phase-processed' } }]);
    await page.locator('.push-settings').screenshot({ path: path.join(shots, 'push-account.png') });
    // Chromium's own complaint about push in a private (Playwright) context is expected; nothing else.
    expect(consoleErrors.filter((e) => !/does not support the Push API in incognito mode/.test(e))).toEqual([]);
  });
});
