/**
 * Browser push end to end on the server's side: a browser subscribes through the API, a message is written to the
 * outbox as the game events write it (pushDrafts + enqueue), the outbox's delivery worker hands it to the push
 * transport, and a local push service (helpers/push-endpoint.ts) checks the VAPID signature against the key the API
 * publishes and decrypts the body as the browser would (RFC 8291). What the push service answers decides what
 * happens: 201 sent, 410 the subscription deleted and the message failed, 500 tried again later.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { PushPayload } from '../../shared/api/notifications.ts';
import { PUSH_LIMITS } from '../../shared/api/push.ts';
import { DEFAULT_DELIVERY, type DeliveryWorker } from '../../server/notify/delivery.ts';
import { enqueue } from '../../server/notify/outbox.ts';
import { pushDrafts } from '../../server/notify/push.ts';
import { DEFAULT_PUSH_SETTINGS, endpointProblem, type PushSettings } from '../../server/notify/push-settings.ts';
import { generateVapidKeys, loadVapidKeys, type VapidKeys } from '../../server/notify/vapid.ts';
import { defaultSettings } from '../../server/settings.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { startPushService, type BrowserSubscription, type PushService } from './helpers/push-endpoint.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let service: PushService;
let worker: DeliveryWorker;
const vapid: VapidKeys = generateVapidKeys('mailto:gm@diadochi.test');
const push: PushSettings = { ...DEFAULT_PUSH_SETTINGS, vapid, allowLoopbackHttp: true, timeoutMs: 2000 };

beforeAll(async () => {
  service = await startPushService();
  testApp = await startTestApp({
    settings: { push, notify: { ...defaultSettings.notify, delivery: { ...DEFAULT_DELIVERY, enabled: false } } },
  });
  // The app's own outbox worker (server/notify/plugin.ts), its loop off: the test moves the clock.
  worker = testApp.app.notify.worker;
}, 60_000);
afterAll(async () => {
  await testApp?.close();
  await service?.close();
}, 60_000);

const payload = (title: string): PushPayload => ({
  kind: 'phase-processed',
  title,
  body: 'Spring 240 BC is processed: your army in Pella held. Orders for Autumn are due Monday 20:00.',
  url: '/games/00000000-0000-7000-8000-000000000001',
  tag: 'game:00000000-0000-7000-8000-000000000001:phase-processed',
});

async function subscribe(browser: Browser, subscription: Pick<BrowserSubscription, 'endpoint' | 'keys'>) {
  return browser.request('POST', '/api/push/subscriptions', { endpoint: subscription.endpoint, keys: subscription.keys, expirationTime: null });
}

/** A logged-in browser subscribed at the local push service with the server's key. */
async function subscribedBrowser(): Promise<{ browser: Browser; subscription: BrowserSubscription; id: string }> {
  const browser = await new Browser(testApp.app).register();
  const { publicKey } = (await browser.request('GET', '/api/push/key')).json();
  const subscription = service.subscribe(publicKey);
  const response = await subscribe(browser, subscription);
  expect(response.statusCode, response.body).toBe(201);
  return { browser, subscription, id: response.json().id };
}

/** Writes the event's push messages for these users as the game events do, in one transaction. */
async function writeEvent(userIds: string[], key: string, message: PushPayload): Promise<number> {
  return testApp.app.prisma.$transaction(async (tx) => enqueue(tx, await pushDrafts(tx, userIds, key, message)));
}

const rowsOf = (prefix: string) =>
  testApp.app.prisma.outboxMessage.findMany({ where: { dedupeKey: { startsWith: `${prefix}:push:` } }, orderBy: { dedupeKey: 'asc' } });

describe('delivery to the push service', () => {
  test('a subscribed browser receives the message, signed with the published key and decrypted as it was written', async () => {
    const { browser, subscription, id } = await subscribedBrowser();
    const published = (await new Browser(testApp.app).request('GET', '/api/push/key')).json().publicKey;
    expect(published).toBe(vapid.publicKey);

    const message = payload('Diadochi: Spring 240 BC processed');
    expect(await writeEvent([browser.user!.id], 'phase:p1:user:a', message)).toBe(1);
    // The same event written again (a retried request, a second instance) adds nothing.
    expect(await writeEvent([browser.user!.id], 'phase:p1:user:a', message)).toBe(0);

    const counts = await worker.deliverDue();
    expect(counts).toEqual({ sent: 1, retried: 0, failed: 0 });
    const got = service.received.filter((entry) => entry.subscriptionId === subscription.id);
    expect(got).toHaveLength(1);
    expect(got[0]!.payload).toEqual(message);
    expect(got[0]!.vapidKey).toBe(published);
    expect(got[0]!.claims.aud).toBe(service.origin);
    expect(got[0]!.claims.sub).toBe('mailto:gm@diadochi.test');
    expect(got[0]!.ttl).toBe(push.ttlSeconds);
    expect(got[0]!.topic).toMatch(/^[\w-]{32}$/);
    expect(service.refused.filter((entry) => entry.subscriptionId === subscription.id)).toEqual([]);

    const [row] = await rowsOf('phase:p1:user:a');
    expect(row).toMatchObject({ status: 'sent', attempts: 1, target: id, channel: 'push', userId: browser.user!.id });
    const listed = (await browser.request('GET', '/api/push/subscriptions')).json().subscriptions;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id, endpoint: subscription.endpoint });
    expect(listed[0].lastSuccessAt).not.toBeNull();
    // Nothing is left to send.
    expect(await worker.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
  });

  test('one message per subscribed browser; a user without one gets none', async () => {
    const { browser, id } = await subscribedBrowser();
    const second = service.subscribe(vapid.publicKey);
    expect((await subscribe(browser, second)).statusCode).toBe(201);
    const bystander = await new Browser(testApp.app).register();
    expect(await writeEvent([browser.user!.id, bystander.user!.id], 'press:c1:user:b', payload('New press'))).toBe(2);
    const rows = await rowsOf('press:c1:user:b');
    expect(rows.map((row) => row.userId)).toEqual([browser.user!.id, browser.user!.id]);
    expect(rows.map((row) => row.target)).toContain(id);
    expect(await worker.deliverDue()).toMatchObject({ sent: 2 });
    expect(service.received.filter((entry) => entry.subscriptionId === second.id).map((entry) => (entry.payload as PushPayload).title)).toEqual(['New press']);
  });

  test('410 Gone: the message fails and the subscription is deleted', async () => {
    const { browser, subscription } = await subscribedBrowser();
    service.answer(subscription.id, 410);
    await writeEvent([browser.user!.id], 'game:g1:ended:user:c', payload('The game has ended'));
    expect(await worker.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 1 });
    const [row] = await rowsOf('game:g1:ended:user:c');
    expect(row!.status).toBe('failed');
    expect(row!.lastError).toMatch(/410/);
    expect((await browser.request('GET', '/api/push/subscriptions')).json().subscriptions).toEqual([]);
    // Later events write nothing for it.
    expect(await writeEvent([browser.user!.id], 'game:g2:ended:user:c', payload('Another game has ended'))).toBe(0);
  });

  test('a push service that refuses our key (403) for a subscription: failed, and the subscription deleted', async () => {
    const browser = await new Browser(testApp.app).register();
    // Subscribed under other keys (a server whose keys were lost and made anew).
    const subscription = service.subscribe(generateVapidKeys('mailto:old@diadochi.test').publicKey);
    expect((await subscribe(browser, subscription)).statusCode).toBe(201);
    await writeEvent([browser.user!.id], 'phase:p9:user:k', payload('Processed'));
    expect(await worker.deliverDue()).toMatchObject({ failed: 1 });
    expect(service.refused.find((entry) => entry.subscriptionId === subscription.id)?.status).toBe(403);
    expect((await browser.request('GET', '/api/push/subscriptions')).json().subscriptions).toEqual([]);
  });

  test('500 and 429 are tried again later, and the message then arrives once', async () => {
    const { browser, subscription } = await subscribedBrowser();
    service.answer(subscription.id, 500, 429, 201);
    await writeEvent([browser.user!.id], 'reminder:p2:24:user:d', { ...payload('Orders due in 24 hours'), kind: 'deadline-reminder' });
    expect(await worker.deliverDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    let [row] = await rowsOf('reminder:p2:24:user:d');
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.lastError).toMatch(/500/);
    // Not before its backoff (a minute) has passed.
    expect(await worker.deliverDue(new Date(Date.now() + 10_000))).toMatchObject({ retried: 0, sent: 0 });
    // Backoff: a minute, then two (each ±20 %).
    expect(await worker.deliverDue(new Date(Date.now() + 80_000))).toMatchObject({ retried: 1 });
    expect(await worker.deliverDue(new Date(Date.now() + 240_000))).toMatchObject({ sent: 1 });
    [row] = await rowsOf('reminder:p2:24:user:d');
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
    const got = service.received.filter((entry) => entry.subscriptionId === subscription.id);
    expect(got.map((entry) => entry.status)).toEqual([500, 429, 201]);
    // A reminder asks the push service to hurry.
    expect(got[2]!.urgency).toBe('high');
    expect((await browser.request('GET', '/api/push/subscriptions')).json().subscriptions).toHaveLength(1);
  });

  test('a push service that cannot be reached: tried again', async () => {
    const browser = await new Browser(testApp.app).register();
    const subscription = service.subscribe();
    // A port nothing listens on.
    const response = await subscribe(browser, { ...subscription, endpoint: 'http://127.0.0.1:9/push/nobody' });
    expect(response.statusCode).toBe(201);
    await writeEvent([browser.user!.id], 'phase:p3:user:e', payload('Processed'));
    expect(await worker.deliverDue()).toMatchObject({ retried: 1 });
    const [row] = await rowsOf('phase:p3:user:e');
    expect(row!.lastError).toMatch(/could not be reached/);
  });
});

describe('subscriptions through the API', () => {
  test('bad subscriptions are 400s naming the field and the reason', async () => {
    const browser = await new Browser(testApp.app).register();
    const good = service.subscribe();
    const cases: [unknown, string, RegExp][] = [
      [{ ...good, endpoint: 'http://push.example/abc' }, 'body.endpoint', /https/],
      [{ ...good, endpoint: 'https://push.attacker.example/abc' }, 'body.endpoint', /known push service/],
      [{ ...good, endpoint: 'not a url' }, 'body.endpoint', /push service URL/],
      [{ ...good, endpoint: `https://fcm.googleapis.com/fcm/send/${'x'.repeat(1000)}` }, 'body.endpoint', /at most 1000/],
      [{ ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(0, 40) } }, 'body.keys.p256dh', /65 bytes/],
      [{ ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 4).toString('base64url') } }, 'body.keys.p256dh', /P-256 curve/],
      [{ ...good, keys: { ...good.keys, auth: 'not base64!' } }, 'body.keys.auth', /16-byte/],
      [{ endpoint: good.endpoint }, 'body.keys', /./],
    ];
    for (const [body, path, message] of cases) {
      const response = await browser.request('POST', '/api/push/subscriptions', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 100)).toBe(400);
      const issue = response.json().error.issues.find((entry: { path: string }) => entry.path === path);
      expect(issue?.message, response.body).toMatch(message);
    }
    expect((await browser.request('GET', '/api/push/subscriptions')).json().subscriptions).toEqual([]);
    const byEndpoint = await browser.request('DELETE', '/api/push/subscriptions?endpoint=%00');
    expect(byEndpoint.statusCode).toBe(400);
    expect(byEndpoint.json().error.issues[0]).toMatchObject({ path: 'query.endpoint', message: 'must not contain a NUL character' });
    // Logged in only.
    expect((await new Browser(testApp.app).request('POST', '/api/push/subscriptions', good)).statusCode).toBe(401);
    expect((await new Browser(testApp.app).request('GET', '/api/push/subscriptions')).statusCode).toBe(401);
  });

  test(`at most ${PUSH_LIMITS.subscriptionsPerUser} browsers per user: the one subscribed longest ago is dropped`, async () => {
    const browser = await new Browser(testApp.app).register();
    const made = [];
    for (let i = 0; i <= PUSH_LIMITS.subscriptionsPerUser; i += 1) {
      const subscription = service.subscribe();
      expect((await subscribe(browser, subscription)).statusCode).toBe(201);
      made.push(subscription.endpoint);
    }
    const listed = (await browser.request('GET', '/api/push/subscriptions')).json().subscriptions as { endpoint: string }[];
    expect(listed).toHaveLength(PUSH_LIMITS.subscriptionsPerUser);
    expect(listed.map((entry) => entry.endpoint).sort()).toEqual(made.slice(1).sort());
    // The same browser again: updated in place (200), not counted twice.
    const again = await subscribe(browser, { endpoint: made.at(-1)!, keys: service.subscribe().keys });
    expect(again.statusCode).toBe(200);
    expect((await browser.request('GET', '/api/push/subscriptions')).json().subscriptions).toHaveLength(PUSH_LIMITS.subscriptionsPerUser);
  });

  test("one user cannot remove another's subscription; each removes their own, by id or by endpoint", async () => {
    const { browser: owner, subscription, id } = await subscribedBrowser();
    const other = await new Browser(testApp.app).register();
    expect((await other.request('DELETE', `/api/push/subscriptions/${id}`)).statusCode).toBe(404);
    expect((await other.request('DELETE', `/api/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`)).statusCode).toBe(404);
    expect((await other.request('GET', '/api/push/subscriptions')).json().subscriptions).toEqual([]);
    expect((await owner.request('GET', '/api/push/subscriptions')).json().subscriptions).toHaveLength(1);

    expect((await owner.request('DELETE', `/api/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`)).statusCode).toBe(204);
    expect((await owner.request('GET', '/api/push/subscriptions')).json().subscriptions).toEqual([]);
    const again = (await subscribe(owner, subscription)).json();
    expect((await owner.request('DELETE', `/api/push/subscriptions/${again.id}`)).statusCode).toBe(204);
    expect((await owner.request('DELETE', `/api/push/subscriptions/${again.id}`)).statusCode).toBe(404);
  });

  test("a browser that subscribes for another account no longer gets the first account's messages", async () => {
    const { browser: first, subscription } = await subscribedBrowser();
    await writeEvent([first.user!.id], 'press:c9:user:f', payload("First's private press"));
    // Someone else logs in on that browser and subscribes it.
    const second = await new Browser(testApp.app).register();
    expect((await subscribe(second, subscription)).statusCode).toBe(201);
    expect((await first.request('GET', '/api/push/subscriptions')).json().subscriptions).toEqual([]);
    await worker.deliverDue();
    const [row] = await rowsOf('press:c9:user:f');
    expect(row!.status).toBe('failed');
    expect(service.received.filter((entry) => entry.subscriptionId === subscription.id)).toEqual([]);
  });
});

describe('settings', () => {
  test('in production only https endpoints at known push services are accepted', () => {
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', DEFAULT_PUSH_SETTINGS)).toBeNull();
    expect(endpointProblem('https://updates.push.services.mozilla.com/wpush/v2/abc', DEFAULT_PUSH_SETTINGS)).toBeNull();
    expect(endpointProblem('https://web.push.apple.com/abc', DEFAULT_PUSH_SETTINGS)).toBeNull();
    expect(endpointProblem('http://127.0.0.1:8080/push/abc', DEFAULT_PUSH_SETTINGS)).toMatch(/https/);
    expect(endpointProblem('https://127.0.0.1/push/abc', DEFAULT_PUSH_SETTINGS)).toMatch(/known push service/);
    expect(endpointProblem('https://fcm.googleapis.com.attacker.example/abc', DEFAULT_PUSH_SETTINGS)).toMatch(/known push service/);
    expect(endpointProblem('https://push.example/abc', { ...DEFAULT_PUSH_SETTINGS, endpointHosts: '*' })).toBeNull();
  });

  test('VAPID keys are made once and kept in DATA_DIR, or taken from the environment when both are set and match', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vapid-'));
    const env = { DATA_DIR: dataDir, PUBLIC_URL: 'https://diadochi.example' };
    const first = loadVapidKeys(env);
    expect(first.source).toBe('generated');
    expect(first.keys.subject).toBe('https://diadochi.example');
    expect(statSync(path.join(dataDir, 'vapid.json')).mode & 0o077).toBe(0);
    const again = loadVapidKeys({ ...env, PUBLIC_URL: 'http://localhost:3000' });
    expect(again.source).toBe('file');
    expect(again.keys.publicKey).toBe(first.keys.publicKey);
    expect(again.keys.privateKey).toBe(first.keys.privateKey);
    expect(again.keys.subject).toBe('mailto:webmaster@localhost');
    expect(JSON.parse(readFileSync(path.join(dataDir, 'vapid.json'), 'utf8')).publicKey).toBe(first.keys.publicKey);

    const other = generateVapidKeys('mailto:x@y.z');
    expect(loadVapidKeys({ ...env, VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: other.privateKey }).keys.publicKey).toBe(other.publicKey);
    expect(() => loadVapidKeys({ ...env, VAPID_PUBLIC_KEY: other.publicKey })).toThrow(/set together/);
    expect(() => loadVapidKeys({ ...env, VAPID_PUBLIC_KEY: first.keys.publicKey, VAPID_PRIVATE_KEY: other.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY/,
    );
  });
});
