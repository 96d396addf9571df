/**
 * Game webhooks through the API and the outbox, against a local receiver (an HTTP server started here) that checks
 * each call's signature with the secret the game master was shown at creation, and answers as the test chooses:
 * a delivery arrives signed, with Discord's `content` and Slack's `text`; a 500 is tried again (the same delivery
 * id); a 4xx turns the webhook off and its game master sees why; only the game master may manage webhooks; bad
 * addresses are refused, naming why; the secret is never shown again; and in an anonymous game the calls name powers,
 * never players.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { WebhookPayload } from '../../shared/api/notifications.ts';
import { enqueue } from '../../server/notify/outbox.ts';
import { webhookDrafts } from '../../server/notify/webhook-drafts.ts';
import { guardedLookup, webhookUrlProblem } from '../../server/notify/webhook-address.ts';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame, type StartedGame } from './helpers/play.ts';
import { notifySettings } from './helpers/smtp.ts';

vi.setConfig({ testTimeout: 60_000 });

type Received = { headers: IncomingMessage['headers']; body: string; signatureValid: boolean; payload: WebhookPayload };

/** The receiver: checks each call's signature with the secret registered for its path, and answers `answer`. */
class Receiver {
  server!: Server;
  url!: string;
  readonly secrets = new Map<string, string>();
  readonly calls: Array<Received & { path: string }> = [];
  answer = 200;
  /** While set, requests get no answer at all (a receiver that hangs). */
  hang = false;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = request.url ?? '';
        const secret = this.secrets.get(path) ?? '';
        const timestamp = String(request.headers['x-diadochi-timestamp']);
        const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
        const signatureValid = secret !== '' && request.headers['x-diadochi-signature'] === expected;
        this.calls.push({ path, headers: request.headers, body, signatureValid, payload: JSON.parse(body) });
        if (this.hang) return;
        response.writeHead(signatureValid ? this.answer : 401).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

let testApp: TestApp;
let app: FastifyInstance;
const receiver = new Receiver();
let hookCounter = 0;

beforeAll(async () => {
  await receiver.start();
  testApp = await startTestApp({
    settings: { webhooks: { allowLoopback: true, timeoutMs: 1500 }, notify: notifySettings() },
  });
  app = testApp.app;
}, 60_000);
afterAll(async () => {
  await testApp.close();
  receiver.server.closeAllConnections();
  await new Promise((resolve) => receiver.server.close(resolve));
}, 60_000);
afterEach(() => {
  receiver.answer = 200;
  receiver.hang = false;
});

/** Adds a webhook on the receiver (its own path) and registers its secret with the receiver. */
async function addWebhook(game: StartedGame, events = ['phase-processed', 'game-ended']) {
  hookCounter += 1;
  const path = `/hook/${hookCounter}`;
  const response = await game.master.request('POST', `/api/games/${game.gameId}/webhooks`, { url: `${receiver.url}${path}`, events });
  expect(response.statusCode, response.body).toBe(201);
  const { webhook, secret } = response.json();
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  receiver.secrets.set(path, secret);
  return { id: webhook.id as string, path, secret: secret as string };
}

const list = async (game: StartedGame) => {
  const response = await game.master.request('GET', `/api/games/${game.gameId}/webhooks`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    webhooks: Array<{ id: string; url: string; events: string[]; disabledAt: string | null; lastError: string | null }>;
    most: number;
  };
};

/** A game event as its writer records it: the drafts written to the outbox in one transaction. */
async function recordEvent(gameId: string, key: string, payload: WebhookPayload): Promise<number> {
  return app.prisma.$transaction(async (tx) => enqueue(tx, await webhookDrafts(tx, gameId, key, payload)));
}
const processedPayload = (gameId: string, phase: string): WebhookPayload => ({
  content: `**Play test**: ${phase} has been adjudicated.`,
  text: `*Play test*: ${phase} has been adjudicated.`,
  event: { type: 'phase-processed', gameId, at: new Date().toISOString(), phase },
});
const callsTo = (path: string) => receiver.calls.filter((call) => call.path === path);
const later = (hours: number) => new Date(Date.now() + hours * 3600_000);

describe('managing webhooks', () => {
  test('only the game master manages them: players get 403, visitors 401, outsiders of a private game 404', async () => {
    const game = await startGame(app);
    const hook = await addWebhook(game);
    const player = game.byPower.get(game.powers[0])!;
    const base = `/api/games/${game.gameId}/webhooks`;
    for (const [method, url, body] of [
      ['GET', base, undefined],
      ['POST', base, { url: `${receiver.url}/x`, events: ['game-ended'] }],
      ['DELETE', `${base}/${hook.id}`, undefined],
      ['POST', `${base}/${hook.id}/enable`, undefined],
      ['POST', `${base}/${hook.id}/test`, undefined],
    ] as const) {
      const refused = await player.request(method, url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json().error.code).toBe('not_game_master');
      expect((await new Browser(app).request(method, url, body)).statusCode).toBe(401);
    }
    const hidden = await startGame(app, { private: true });
    const [outsider] = await registeredBrowsers(app, 1);
    expect((await outsider.request('GET', `/api/games/${hidden.gameId}/webhooks`)).statusCode).toBe(404);
    expect((await list(game)).webhooks.map((webhook) => webhook.id)).toEqual([hook.id]);
  });

  test('bad addresses and events are refused with a 400 naming why; a game has at most 3 webhooks', async () => {
    const game = await startGame(app);
    const create = (url: string, events: string[] = ['phase-processed']) => game.master.request('POST', `/api/games/${game.gameId}/webhooks`, { url, events });
    for (const [url, why] of [
      ['http://example.com/hook', 'must use https'],
      ['ftp://example.com/hook', 'must use https'],
      ['not a url', 'is not a URL'],
      ['https://10.1.2.3/hook', 'a private network address'],
      ['https://192.168.0.7/hook', 'a private network address'],
      ['https://169.254.169.254/latest/meta-data', 'a link-local address'],
      ['https://[fe80::1]/hook', 'a link-local address'],
      ['https://user:pass@example.com/hook', 'must not carry a user name or password'],
      ['http://10.0.0.1/hook', 'must use https'],
    ]) {
      const refused = await create(url);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'validation_failed', issues: [{ path: 'body.url', message: expect.stringContaining(why) }] });
    }
    const badEvent = await create('https://example.com/hook', ['press']);
    expect(badEvent.statusCode).toBe(400);
    expect(badEvent.json().error.message).toContain('must be one of: phase-processed, deadline-reminder, game-ended');
    expect((await create('https://example.com/hook', [])).json().error.message).toContain('at least one event');

    for (let i = 0; i < 3; i++) expect((await create(`https://example.com/hook/${i}`)).statusCode).toBe(201);
    const fourth = await create('https://example.com/hook/3');
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().error.code).toBe('too_many_webhooks');
  });

  test('the address rules without the test setting: loopback refused, plain http refused, names resolving inward refused at the call', async () => {
    expect(webhookUrlProblem('http://127.0.0.1:9/x', false)).toBe('must use https');
    expect(webhookUrlProblem('https://127.0.0.1/x', false)).toContain('the server itself');
    expect(webhookUrlProblem('https://localhost/x', false)).toContain('the server itself');
    expect(webhookUrlProblem('https://[::1]/x', false)).toContain('the server itself');
    expect(webhookUrlProblem('https://[::ffff:10.0.0.1]/x', false)).toContain('private network');
    expect(webhookUrlProblem('https://discord.com/api/webhooks/1/abc', false)).toBeNull();
    // With the setting, plain http is still only for this machine.
    expect(webhookUrlProblem('http://localhost:8080/x', true)).toBeNull();
    expect(webhookUrlProblem('http://example.com/x', true)).toContain('only to this machine');
    // A name is checked by what it resolves to, on the connection's own lookup.
    const looked = await new Promise<Error | null>((resolve) => guardedLookup(false)('localhost', {}, (error) => resolve(error)));
    expect(looked?.message).toMatch(/localhost resolves to .*loopback/);
  });

  test('the secret is shown once, at creation, and never in the list; deleting removes the webhook', async () => {
    const game = await startGame(app);
    const hook = await addWebhook(game);
    const listed = await game.master.request('GET', `/api/games/${game.gameId}/webhooks`);
    expect(listed.body).not.toContain(hook.secret);
    expect(listed.json()).toEqual({
      most: 3,
      webhooks: [
        {
          id: hook.id,
          url: `${receiver.url}${hook.path}`,
          events: ['phase-processed', 'game-ended'],
          createdAt: expect.any(String),
          disabledAt: null,
          lastError: null,
        },
      ],
    });
    expect((await game.master.request('DELETE', `/api/games/${game.gameId}/webhooks/${hook.id}`)).statusCode).toBe(204);
    expect((await list(game)).webhooks).toEqual([]);
    expect((await game.master.request('DELETE', `/api/games/${game.gameId}/webhooks/${hook.id}`)).statusCode).toBe(404);
  });
});

describe('calls', () => {
  test('an event posts to each subscribed webhook once, signed, with Discord content and Slack text, and the outbox id as the delivery id', async () => {
    const game = await startGame(app);
    const hook = await addWebhook(game);
    const endOnly = await addWebhook(game, ['game-ended']);
    const payload = processedPayload(game.gameId, 'Spring 240 BC Movement');
    expect(await recordEvent(game.gameId, 'phase-processed:p0', payload)).toBe(1);
    // The same event written again (a retried request, another instance) is not posted twice.
    expect(await recordEvent(game.gameId, 'phase-processed:p0', payload)).toBe(0);

    expect(await app.notify.worker.deliverDue()).toMatchObject({ sent: 1 });
    const [call, ...more] = callsTo(hook.path);
    expect(more).toEqual([]);
    expect(callsTo(endOnly.path)).toEqual([]);
    expect(call.signatureValid).toBe(true);
    expect(call.payload).toEqual(payload);
    expect(call.payload.content).toContain('Spring 240 BC Movement');
    expect(call.payload.text).toContain('Spring 240 BC Movement');
    expect(call.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(call.headers['x-diadochi-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const row = await app.prisma.outboxMessage.findFirstOrThrow({ where: { target: hook.id } });
    expect(call.headers['x-diadochi-delivery']).toBe(row.id);
    expect(row.status).toBe('sent');
  });

  test('a 500 is tried again later with the same delivery id; meanwhile the game master sees why', async () => {
    const game = await startGame(app);
    const hook = await addWebhook(game);
    receiver.answer = 500;
    await recordEvent(game.gameId, 'phase-processed:retry', processedPayload(game.gameId, 'Spring 240 BC Movement'));
    expect(await app.notify.worker.deliverDue()).toMatchObject({ retried: 1 });
    expect((await list(game)).webhooks[0]).toMatchObject({ disabledAt: null, lastError: expect.stringContaining('the receiver answered 500') });

    receiver.answer = 200;
    // Not before its backoff.
    expect(await app.notify.worker.deliverDue()).toMatchObject({ sent: 0, retried: 0 });
    expect(await app.notify.worker.deliverDue(later(1))).toMatchObject({ sent: 1 });
    const calls = callsTo(hook.path);
    expect(calls).toHaveLength(2);
    expect(calls.every((call) => call.signatureValid)).toBe(true);
    expect(calls[1].headers['x-diadochi-delivery']).toBe(calls[0].headers['x-diadochi-delivery']);
    expect((await list(game)).webhooks[0].lastError).toBeNull();
  });

  test('a receiver that does not answer in time is tried again', async () => {
    const game = await startGame(app);
    const hook = await addWebhook(game);
    receiver.hang = true;
    await recordEvent(game.gameId, 'phase-processed:hang', processedPayload(game.gameId, 'Spring 240 BC Movement'));
    expect(await app.notify.worker.deliverDue()).toMatchObject({ retried: 1 });
    expect(callsTo(hook.path)).toHaveLength(1);
    const row = await app.prisma.outboxMessage.findFirstOrThrow({ where: { target: hook.id } });
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('no answer within') });
  });

  test('a 410 turns the webhook off: the game master sees why, later events are not posted, and turning it on again posts the next', async () => {
    const game = await startGame(app);
    const hook = await addWebhook(game);
    receiver.answer = 410;
    await recordEvent(game.gameId, 'phase-processed:a', processedPayload(game.gameId, 'Spring 240 BC Movement'));
    await recordEvent(game.gameId, 'phase-processed:b', processedPayload(game.gameId, 'Fall 240 BC Movement'));
    // One at a time (the worker delivers several at once: those already under way when a refusal comes are posted).
    expect(await app.notify.worker.deliverDue(new Date(), 1)).toMatchObject({ failed: 1 });
    expect(callsTo(hook.path)).toHaveLength(1);
    // The second message fails without a call, the webhook being off by then.
    expect(await app.notify.worker.deliverDue()).toMatchObject({ sent: 0, retried: 0, failed: 1 });
    expect(callsTo(hook.path)).toHaveLength(1);
    const [shown] = (await list(game)).webhooks;
    expect(shown.disabledAt).not.toBeNull();
    expect(shown.lastError).toBe('the receiver answered 410 Gone');

    // While off, an event makes no call at all.
    expect(await recordEvent(game.gameId, 'phase-processed:c', processedPayload(game.gameId, 'Winter 240 BC Adjustment'))).toBe(0);

    receiver.answer = 200;
    const enabled = await game.master.request('POST', `/api/games/${game.gameId}/webhooks/${hook.id}/enable`);
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ id: hook.id, disabledAt: null, lastError: null });
    expect(await recordEvent(game.gameId, 'phase-processed:d', processedPayload(game.gameId, 'Spring 239 BC Movement'))).toBe(1);
    expect(await app.notify.worker.deliverDue()).toMatchObject({ sent: 1 });
    expect(callsTo(hook.path).at(-1)!.payload.content).toContain('Spring 239 BC Movement');
  });

  test('a message for a webhook deleted meanwhile fails without a call', async () => {
    const game = await startGame(app);
    const hook = await addWebhook(game);
    await recordEvent(game.gameId, 'phase-processed:gone', processedPayload(game.gameId, 'Spring 240 BC Movement'));
    expect((await game.master.request('DELETE', `/api/games/${game.gameId}/webhooks/${hook.id}`)).statusCode).toBe(204);
    expect(await app.notify.worker.deliverDue()).toMatchObject({ failed: 1 });
    expect(callsTo(hook.path)).toEqual([]);
  });

  test('a test call is signed like the others and says what the receiver answered, changing nothing', async () => {
    const game = await startGame(app);
    const hook = await addWebhook(game);
    const test1 = await game.master.request('POST', `/api/games/${game.gameId}/webhooks/${hook.id}/test`);
    expect(test1.statusCode, test1.body).toBe(200);
    expect(test1.json()).toEqual({ delivered: true, status: 200, error: null });
    const [call] = callsTo(hook.path);
    expect(call.signatureValid).toBe(true);
    expect(call.payload.event).toMatchObject({ type: 'test', gameId: game.gameId });
    expect(call.payload.content).toContain('Play test');
    expect(String(call.headers['x-diadochi-delivery'])).toMatch(/^test-/);

    receiver.answer = 404;
    const test2 = await game.master.request('POST', `/api/games/${game.gameId}/webhooks/${hook.id}/test`);
    expect(test2.json()).toEqual({ delivered: false, status: 404, error: 'the receiver answered 404 Not Found' });
    expect((await list(game)).webhooks[0]).toMatchObject({ disabledAt: null, lastError: null });
  });
});
describe('anonymous games', () => {
  test("a processed phase's call names powers, never the players", async () => {
    const game = await startGame(app, { anonymous: true });
    const hook = await addWebhook(game);
    const phase = await currentPhase(game.master, game.gameId);
    expect((await game.master.request('POST', `/api/games/${game.gameId}/gm/process`)).statusCode).toBe(200);
    await vi.waitFor(async () => {
      await app.notify.worker.deliverDue();
      expect(callsTo(hook.path).length).toBeGreaterThan(0);
    });
    const [call] = callsTo(hook.path);
    expect(call.signatureValid).toBe(true);
    expect(call.payload.event).toMatchObject({ type: 'phase-processed', gameId: game.gameId });
    expect(call.body).toContain(phase.name);
    for (const player of game.players) {
      expect(call.body).not.toContain(player.user!.username);
      expect(call.body).not.toContain(player.user!.id);
    }
  });
});
