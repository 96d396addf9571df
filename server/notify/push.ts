/**
 * Browser push, the outbox's `push` channel: a message's target is a `push_subscriptions` row; its payload
 * (PushPayload: title, body, url, tag) is encrypted for that browser (RFC 8291, aes128gcm) and signed with the
 * server's VAPID key (RFC 8292) by the web-push library, then posted to the browser's push service, which hands it to
 * the service worker (web/public/sw.js). What the push service answers decides the row's fate:
 *   2xx: sent (the subscription's last_success_at is set);
 *   404, 410: the subscription is gone (the user unsubscribed, the browser dropped it): refused, and the row deleted;
 *   403: the push service refuses our key for it (subscribed under other VAPID keys): refused, the row deleted;
 *   429, 5xx, a timeout or a network failure: tried again later;
 *   any other 4xx: this message is refused (too large, malformed); the subscription is kept.
 */
import { createHash } from 'node:crypto';
import webpush from 'web-push';
import type { PushPayload } from '../../shared/api/notifications.ts';
import type { Db, PrismaClient } from '../db/database.ts';
import type { OutboxDraft } from '../db/tables/outbox.ts';
import { endpointProblem, type PushSettings } from './push-settings.ts';
import type { Delivery, DeliveryResult, Transport } from './transport.ts';
import type { VapidKeys } from './vapid.ts';

/** The start of a refusal's error when the subscription itself is dead: `refused` then deletes it. */
export const SUBSCRIPTION_GONE = 'subscription gone';

/**
 * One outbox message per push subscription of these users (for H5's event writers, who pick the users that want
 * this event by push: preferences.ts). The dedupe key is `<dedupePrefix>:push:<subscription id>`: the same event never
 * reaches one browser twice. `dedupePrefix` names the event and the recipient (at most 150 characters), e.g.
 * `phase:<phaseId>:user:<userId>`. A user without a subscribed browser gets none.
 */
export async function pushDrafts(
  tx: Db,
  userIds: readonly string[],
  dedupePrefix: string,
  payload: PushPayload,
  options: { gameId?: string | null; notBefore?: Date } = {},
): Promise<OutboxDraft[]> {
  if (userIds.length === 0) return [];
  if (dedupePrefix.length > 150) throw new Error(`pushDrafts: the dedupe prefix is ${dedupePrefix.length} characters (at most 150)`);
  const subscriptions = await tx.pushSubscription.findMany({
    where: { userId: { in: [...new Set(userIds)] } },
    select: { id: true, userId: true },
    orderBy: { id: 'asc' },
  });
  return subscriptions.map((subscription) => ({
    channel: 'push' as const,
    dedupeKey: `${dedupePrefix}:push:${subscription.id}`,
    userId: subscription.userId,
    gameId: options.gameId ?? null,
    target: subscription.id,
    payload,
    ...(options.notBefore ? { notBefore: options.notBefore } : {}),
  }));
}

/**
 * The push service's topic for a notification tag: a newer message with the same topic replaces one still waiting
 * for an offline browser (RFC 8030 §5.4), as the tag replaces a shown one. At most 32 base64url characters.
 */
function topicOf(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);

export type PushTransportOptions = { prisma: PrismaClient; vapid: VapidKeys; settings: PushSettings; now?: () => Date };

type Subscription = { id: string; userId: string; endpoint: string; p256dh: string; auth: string };
type Screening = { screen(db: Db, message: Delivery<PushPayload>): Promise<string | null> };

/**
 * The push channel's Transport (server/notify/transport.ts). The subscription is read just before the message goes
 * (`screen`, which the delivery worker calls first; `deliver` reads it itself for any other caller), and its last
 * success written once the push service answered.
 */
export function pushTransport({ prisma, vapid, settings, now = () => new Date() }: PushTransportOptions): Transport<PushPayload> & Screening {
  /** The subscription `screen` read for a message, until `deliver` takes it. */
  const screened = new Map<string, { subscription: Subscription | null }>();

  async function subscriptionFor(db: Db, message: Delivery<PushPayload>): Promise<Subscription | null> {
    return db.pushSubscription.findUnique({ where: { id: message.target }, select: { id: true, userId: true, endpoint: true, p256dh: true, auth: true } });
  }

  return {
    async screen(db, message) {
      screened.set(message.id, { subscription: await subscriptionFor(db, message) });
      return null;
    },

    async deliver(message: Delivery<PushPayload>): Promise<DeliveryResult> {
      const held = screened.get(message.id);
      screened.delete(message.id);
      const subscription = held ? held.subscription : await subscriptionFor(prisma, message);
      if (!subscription) return { outcome: 'refused', error: 'the browser was unsubscribed before the message was sent' };
      // The browser now subscribes for another account (its endpoint was taken over): never show it this one's news.
      if (message.userId !== null && subscription.userId !== message.userId) {
        return { outcome: 'refused', error: 'the subscription now belongs to another account' };
      }
      // Checked again on the way out: the allowed hosts may have narrowed since it was stored.
      const problem = endpointProblem(subscription.endpoint, settings);
      if (problem) return { outcome: 'refused', error: `${SUBSCRIPTION_GONE}: its endpoint ${problem}` };

      let request: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        request = webpush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          JSON.stringify(message.payload),
          {
            vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
            TTL: settings.ttlSeconds,
            urgency: message.payload.kind === 'deadline-reminder' ? 'high' : 'normal',
            topic: topicOf(message.payload.tag),
            contentEncoding: 'aes128gcm',
          },
        );
      } catch (error) {
        // The browser's keys cannot encrypt (checked when stored, so only a row written by hand gets here).
        return { outcome: 'refused', error: `${SUBSCRIPTION_GONE}: cannot encrypt for it (${describe(error)})` };
      }

      let response: Response;
      try {
        // web-push builds the request (encryption, VAPID header); fetch sends it, with a timeout of our own.
        response = await fetch(request.endpoint, {
          method: 'POST',
          headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
          body: request.body === null ? null : new Uint8Array(request.body),
          redirect: 'manual',
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
      } catch (error) {
        return { outcome: 'retry', error: `the push service could not be reached: ${describe(error)}` };
      }
      const text = (await response.text().catch(() => '')).slice(0, 300);
      const answered = `the push service answered ${response.status}${text ? `: ${text}` : ''}`;
      if (response.ok) {
        // Only a stamp for the user's list of browsers: its failure must not make the worker send the message again.
        await prisma.pushSubscription.updateMany({ where: { id: subscription.id }, data: { lastSuccessAt: now() } }).catch(() => undefined);
        return { outcome: 'sent' };
      }
      if (response.status === 404 || response.status === 410) return { outcome: 'refused', error: `${SUBSCRIPTION_GONE}: ${answered}` };
      if (response.status === 403) return { outcome: 'refused', error: `${SUBSCRIPTION_GONE}: our VAPID key is refused for it (${answered})` };
      if (response.status === 429 || response.status >= 500) return { outcome: 'retry', error: answered };
      return { outcome: 'refused', error: answered };
    },

    async refused(db: PrismaClient, message: Delivery<PushPayload>, error: string): Promise<void> {
      if (!error.startsWith(SUBSCRIPTION_GONE)) return;
      await db.pushSubscription.deleteMany({ where: { id: message.target } });
    },
  };
}
