/**
 * How the delivery worker (delivery.ts) hands a claimed outbox message to its channel: mail (mail.ts), push (push.ts)
 * and webhooks (webhook.ts) each implement `Transport`. The result decides the row's fate: sent; tried again later
 * with backoff; or failed for good (a bounced address, a gone push subscription, a webhook answering 4xx), which the
 * transport may also record where it belongs (the user's address marked undeliverable, the subscription removed).
 */
import type { MailPayload, PushPayload, WebhookPayload } from '../../shared/api/notifications.ts';
import type { PrismaClient } from '../db/database.ts';

export type DeliveryResult = { outcome: 'sent' } | { outcome: 'retry'; error: string } | { outcome: 'refused'; error: string };

/** A claimed message as the transport gets it. */
export type Delivery<P> = { id: string; dedupeKey: string; userId: string | null; gameId: string | null; target: string; payload: P; attempts: number };

export interface Transport<P> {
  deliver(message: Delivery<P>): Promise<DeliveryResult>;
  /** Called after a refusal was recorded on the row: mark the address, drop the subscription, disable the webhook. */
  refused?(prisma: PrismaClient, message: Delivery<P>, error: string): Promise<void>;
  close?(): Promise<void>;
}

export type Transports = { mail?: Transport<MailPayload>; push?: Transport<PushPayload>; webhook?: Transport<WebhookPayload> };
