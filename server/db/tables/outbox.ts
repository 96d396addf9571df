/** The `outbox` table's JSON column: the message, whose shape depends on the channel (shared/api/notifications.ts). */
import { z } from 'zod';
import {
  MailPayloadSchema,
  PushPayloadSchema,
  WebhookPayloadSchema,
  type MailPayload,
  type PushPayload,
  type WebhookPayload,
} from '../../../shared/api/notifications.ts';
import { storedRows, storedValues, type Parsed } from './stored.ts';

/** A message to write (server/notify/outbox.ts): one of the three channels with its payload. */
export type OutboxDraft = {
  dedupeKey: string;
  userId?: string | null;
  gameId?: string | null;
  target: string;
  /** Not before (batched press waits for its window); now when not given. */
  notBefore?: Date;
} & ({ channel: 'mail'; payload: MailPayload } | { channel: 'push'; payload: PushPayload } | { channel: 'webhook'; payload: WebhookPayload });

const PayloadSchema = z.union([MailPayloadSchema, PushPayloadSchema, WebhookPayloadSchema]);

/** An outbox row with its payload parsed (the channel says which of the three it is). */
export const outboxOf = storedRows('outbox', { payload: (stored: unknown) => PayloadSchema.parse(stored) });
export type StoredOutbox<R> = Parsed<R, { payload: (stored: unknown) => MailPayload | PushPayload | WebhookPayload }>;

const payloadValues = storedValues<{ payload: MailPayload | PushPayload | WebhookPayload }>();

export function outboxValues(draft: OutboxDraft) {
  return {
    channel: draft.channel,
    dedupeKey: draft.dedupeKey,
    userId: draft.userId ?? null,
    gameId: draft.gameId ?? null,
    target: draft.target,
    ...payloadValues({ payload: draft.payload }),
    ...(draft.notBefore ? { nextAttemptAt: draft.notBefore } : {}),
  };
}
