/**
 * Game webhooks (a game-master setting): a game's events posted as Discord- and Slack-compatible JSON to addresses
 * its game master chose, signed with a secret only they were shown. The body of a call is `WebhookPayload`
 * (shared/api/notifications.ts); the server's side is server/webhooks/ and server/notify/webhook.ts.
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema } from './common.ts';
import { WEBHOOK_EVENTS, WebhookEventSchema } from './notifications.ts';

/** Webhooks a game may have at once. */
export const MOST_WEBHOOKS_PER_GAME = 3;
/** Longest address accepted (the column's size). */
export const WEBHOOK_URL_MAX = 500;

/** The headers of every call: how a receiver checks it came from this server and drops a repeat. */
export const WEBHOOK_HEADERS = {
  /** `sha256=<hex>`: HMAC-SHA-256, keyed with the secret (its text as given), of `<timestamp>.<body>`. */
  signature: 'X-Diadochi-Signature',
  /** Unix seconds when the call was signed: refuse old ones to stop replays. */
  timestamp: 'X-Diadochi-Timestamp',
  /** The same for every attempt of one message: a receiver that saw it already may drop it. */
  delivery: 'X-Diadochi-Delivery',
} as const;

export const WebhookParamsSchema = z.object({ gameId: IdSchema, webhookId: IdSchema });

export const CreateWebhookRequestSchema = z
  .object({
    url: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`)
      .describe('Where to post: https (a Discord or Slack incoming-webhook address, or your own receiver)'),
    events: z
      .array(WebhookEventSchema)
      .min(1, 'must name at least one event')
      .max(WEBHOOK_EVENTS.length, `must name at most ${WEBHOOK_EVENTS.length} events`)
      .refine((events) => new Set(events).size === events.length, 'must not name an event twice')
      .describe(`Which events to post: ${WEBHOOK_EVENTS.join(', ')}`),
  })
  .strict()
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequestSchema>;

/** A webhook as its game master sees it: never its secret, which was shown once. */
export const WebhookSchema = z
  .object({
    id: IdSchema,
    url: z.string(),
    events: z.array(WebhookEventSchema),
    createdAt: TimestampSchema,
    /** Set when the receiver refused a call for good (an answer 4xx): nothing is posted until it is turned on again. */
    disabledAt: TimestampSchema.nullable(),
    /** Why the last call failed (kept until one succeeds), e.g. `the receiver answered 404 Not Found`. */
    lastError: z.string().nullable().describe('Why it was turned off, or why a call waiting to be tried again failed'),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookListSchema = z
  .object({ webhooks: z.array(WebhookSchema), most: z.number().int().describe('How many a game may have') })
  .meta({ id: 'WebhookList' });
export type WebhookList = z.infer<typeof WebhookListSchema>;

/** Answered once, at creation: the secret that signs every call (64 hex digits). It cannot be read again. */
export const CreatedWebhookSchema = z.object({ webhook: WebhookSchema, secret: z.string() }).meta({ id: 'CreatedWebhook' });
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

/** What a test call found: whether the receiver took it (2xx), its status, and why not. Changes nothing stored. */
export const WebhookTestResultSchema = z
  .object({
    delivered: z.boolean(),
    status: z.number().int().nullable().describe('The HTTP status the receiver answered; null when no answer came'),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookTestResult' });
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;
