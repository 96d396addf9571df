/**
 * Browser push (Web Push, RFC 8030/8291, with VAPID keys, RFC 8292): the server's public key, and the subscriptions
 * a user's browsers made with it. A subscription is what `PushSubscription.toJSON()` gives in the browser: the push
 * service's endpoint, the browser's P-256 public key and its 16-byte auth secret (both base64url).
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema } from './common.ts';

export const PUSH_LIMITS = {
  /** The column's size (push_subscriptions.endpoint); push services' URLs are a few hundred characters. */
  endpoint: 1000,
  /** Browsers a user may subscribe at once; a new one past this drops the oldest. */
  subscriptionsPerUser: 10,
} as const;

/** Bytes of a base64url string (padding allowed), or null when it is not one. Works in Node and in browsers. */
function base64urlBytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const plain = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  if (plain.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(plain + '='.repeat((4 - (plain.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** An uncompressed P-256 point: 65 bytes, the first 0x04 (as the browser's `getKey('p256dh')` gives it). */
const P256dhSchema = z
  .string()
  .max(200, 'must be at most 200 characters')
  .refine((text) => {
    const bytes = base64urlBytes(text);
    return bytes !== null && bytes.length === 65 && bytes[0] === 4;
  }, "must be the browser's P-256 public key: 65 bytes (an uncompressed point, first byte 4), base64url");

const AuthSecretSchema = z
  .string()
  .max(100, 'must be at most 100 characters')
  .refine((text) => base64urlBytes(text)?.length === 16, "must be the browser's 16-byte auth secret, base64url");

/** `POST /api/push/subscriptions`: this browser's subscription, as `PushSubscription.toJSON()` gives it. */
export const PushSubscriptionRequestSchema = z
  .object({
    endpoint: z.url({ error: 'must be the push service URL the browser gave' }).max(PUSH_LIMITS.endpoint, `must be at most ${PUSH_LIMITS.endpoint} characters`),
    keys: z.object({ p256dh: P256dhSchema, auth: AuthSecretSchema }),
    /** The browser's own field, sent by `toJSON()`; not used. */
    expirationTime: z.number().nullable().optional(),
  })
  .meta({ id: 'PushSubscriptionRequest' });
export type PushSubscriptionRequest = z.infer<typeof PushSubscriptionRequestSchema>;

/** One of your subscribed browsers. */
export const PushSubscriptionSchema = z
  .object({
    id: IdSchema,
    endpoint: z.string().describe('The push service URL: a browser compares it with its own subscription to know it is this one'),
    userAgent: z.string().nullable().describe('The browser that subscribed, as it named itself'),
    createdAt: TimestampSchema,
    lastSuccessAt: TimestampSchema.nullable().describe('When a notification last reached its push service'),
  })
  .meta({ id: 'PushSubscription' });
export type PushSubscriptionView = z.infer<typeof PushSubscriptionSchema>;

export const PushSubscriptionListSchema = z.object({ subscriptions: z.array(PushSubscriptionSchema) }).meta({ id: 'PushSubscriptionList' });

/** `GET /api/push/key`: the server's VAPID public key, the `applicationServerKey` a browser subscribes with. */
export const PushKeySchema = z
  .object({ publicKey: z.string().describe('The VAPID public key: an uncompressed P-256 point, base64url') })
  .meta({ id: 'PushKey' });

export const PushSubscriptionIdParamsSchema = z.object({ subscriptionId: IdSchema });
export const PushEndpointQuerySchema = z.object({
  endpoint: z
    .string()
    .min(1, 'is required')
    .max(PUSH_LIMITS.endpoint, `must be at most ${PUSH_LIMITS.endpoint} characters`)
    // PostgreSQL cannot compare with it (bodies are refused it by the JSON parser; a query must say so itself).
    .refine((text) => !text.includes('\u0000'), 'must not contain a NUL character'),
});
