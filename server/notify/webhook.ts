/**
 * The webhook channel: posts an outbox row's `WebhookPayload` to the game webhook it names (`target` is
 * game_webhooks.id), signed with the webhook's secret. A 2xx is sent; 429, 5xx, a timeout or a network failure are
 * tried again later (delivery.ts backs off); any other answer is a refusal for good: the webhook is turned off with
 * the reason (`refused`), which its game master sees and may turn it on again. A message for a webhook turned off
 * or deleted meanwhile fails without a call (`screen`). Redirects are not followed (the new address was never checked).
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { WebhookPayload } from '../../shared/api/notifications.ts';
import { WEBHOOK_HEADERS } from '../../shared/api/webhooks.ts';
import type { Db, PrismaClient } from '../db/database.ts';
import type { Delivery, DeliveryResult, Transport } from './transport.ts';
import { guardedLookup, RefusedAddress, webhookUrlProblem } from './webhook-address.ts';

export type WebhookOptions = {
  /** Plain http to 127.0.0.1 / localhost (tests, a developer's own receiver); never other private addresses. */
  allowLoopback: boolean;
  /** How long a receiver has to answer (connection included). */
  timeoutMs: number;
};

/** What one call found: the outcome the outbox needs, the status when an answer came, and why it failed. */
export type CallResult = DeliveryResult & { status: number | null };

/** `sha256=<hex>`: HMAC-SHA-256 of `<timestamp>.<body>`, keyed with the secret's text. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const USER_AGENT = 'Diadochi-Webhook/1';
const MAX_ERROR = 300;
const clip = (text: string) => (text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text);

/** Posts `body` (JSON text) to `url`, signed; never throws. */
export function callWebhook(
  target: { url: string; secret: string },
  body: string,
  deliveryId: string,
  options: WebhookOptions,
  now: Date = new Date(),
): Promise<CallResult> {
  const problem = webhookUrlProblem(target.url, options.allowLoopback);
  if (problem) return Promise.resolve({ outcome: 'refused', error: clip(`the address ${problem}`), status: null });
  const url = new URL(target.url);
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': USER_AGENT,
    [WEBHOOK_HEADERS.signature]: webhookSignature(target.secret, timestamp, body),
    [WEBHOOK_HEADERS.timestamp]: timestamp,
    [WEBHOOK_HEADERS.delivery]: deliveryId,
  };
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<CallResult>((resolve) => {
    let settled = false;
    const finish = (result: CallResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result.outcome === 'sent' ? result : { ...result, error: clip(result.error) });
    };
    const request = send(url, { method: 'POST', headers, agent: false, lookup: guardedLookup(options.allowLoopback) }, (response) => {
      const status = response.statusCode ?? 0;
      const said = `the receiver answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`;
      // Only the status matters: the body is not read (a receiver could send without end).
      response.destroy();
      if (status >= 200 && status < 300) finish({ outcome: 'sent', status });
      else if (status === 429 || status >= 500) finish({ outcome: 'retry', error: said, status });
      else if (status >= 300 && status < 400)
        finish({ outcome: 'refused', error: `${said} (a redirect: webhooks do not follow them; save the new address)`, status });
      else finish({ outcome: 'refused', error: said, status });
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ outcome: 'retry', error: `no answer within ${Math.round(options.timeoutMs / 1000)} s`, status: null });
    }, options.timeoutMs);
    request.on('error', (error) => {
      if (error instanceof RefusedAddress) finish({ outcome: 'refused', error: `the address ${error.message}`, status: null });
      else finish({ outcome: 'retry', error: `could not reach the receiver: ${error.message}`, status: null });
    });
    request.end(body);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Target = { url: string; secret: string };

/**
 * The transport. The webhook is read in `screen`, which the delivery worker calls just before delivering, and kept
 * for the `deliver` that follows (which reads it itself for any other caller).
 */
export function webhookTransport(
  prisma: PrismaClient,
  options: WebhookOptions,
): Transport<WebhookPayload> & {
  screen(db: Db, message: Delivery<unknown>): Promise<string | null>;
} {
  const screened = new Map<string, Target>();
  const load = (db: Db, id: string) =>
    UUID.test(id) ? db.gameWebhook.findUnique({ where: { id }, select: { url: true, secret: true, disabledAt: true } }) : null;
  return {
    /** A webhook deleted or turned off meanwhile: the message fails without a call (and without turning anything off). */
    async screen(db: Db, message: Delivery<unknown>): Promise<string | null> {
      const webhook = await load(db, message.target);
      if (!webhook) return 'the webhook was deleted';
      if (webhook.disabledAt) return 'the webhook is turned off';
      screened.set(message.id, { url: webhook.url, secret: webhook.secret });
      return null;
    },
    async deliver(message: Delivery<WebhookPayload>): Promise<DeliveryResult> {
      let target = screened.get(message.id);
      screened.delete(message.id);
      if (!target) {
        // Not screened first (a caller other than the worker): read it now.
        const webhook = await load(prisma, message.target);
        if (!webhook) return { outcome: 'refused', error: 'the webhook was deleted' };
        if (webhook.disabledAt) return { outcome: 'refused', error: 'the webhook is turned off' };
        target = webhook;
      }
      const { status: _status, ...result } = await callWebhook(target, JSON.stringify(message.payload), message.id, options);
      return result;
    },
    /** Turns the webhook off with the reason; one already off (or deleted) keeps the reason it was turned off for. */
    async refused(client: PrismaClient, message: Delivery<WebhookPayload>, error: string): Promise<void> {
      if (!UUID.test(message.target)) return;
      await client.gameWebhook.updateMany({ where: { id: message.target, disabledAt: null }, data: { disabledAt: new Date(), lastError: clip(error) } });
    },
  };
}
