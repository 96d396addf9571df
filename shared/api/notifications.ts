/**
 * Notifications: what a player can be told of, by which channel, and the messages the outbox holds
 * (server/notify/). One list of events serves mail, push and webhooks, so every channel offers the same choices.
 */
import { z } from 'zod';

/** Game events a user may be told of; each switchable per channel, for all games and per game. */
export const NOTIFICATION_EVENTS = [
  /** A phase was adjudicated: the player's own results and the new deadline. */
  'phase-processed',
  /** A deadline is near and the power still owes orders or is not ready (at the user's lead times). */
  'deadline-reminder',
  /** New press (mail batched: at most one per conversation per window). */
  'press',
  'game-started',
  'game-ended',
  /** The game master wrote to everyone. */
  'gm-announcement',
  /** A seat was offered for replacement (to those who watch for open seats), or someone asks to take one (to the GM). */
  'seat-opened',
  /** The clock moved on its own: grace for a missed deadline, a vacation, a vote. */
  'deadline-moved',
  /** A vote to pause, resume or extend was proposed or decided. */
  'vote',
] as const;
export const NotificationEventSchema = z.enum(NOTIFICATION_EVENTS, { error: `must be one of: ${NOTIFICATION_EVENTS.join(', ')}` });
export type NotificationEvent = z.infer<typeof NotificationEventSchema>;

export const NOTIFICATION_CHANNELS = ['mail', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Events a webhook may be called on (a game-master setting). */
export const WEBHOOK_EVENTS = ['phase-processed', 'deadline-reminder', 'game-ended'] as const satisfies readonly NotificationEvent[];
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS, { error: `must be one of: ${WEBHOOK_EVENTS.join(', ')}` });

const Switches = z.partialRecord(NotificationEventSchema, z.boolean());

export const MOST_REMINDER_LEADS = 4;
/** Hours before a deadline at which reminders go out. */
export const ReminderLeadsSchema = z
  .array(z.number().int('must be whole hours').min(1, 'must be at least 1 hour').max(168, 'must be at most 168 hours (a week)'))
  .max(MOST_REMINDER_LEADS, `must be at most ${MOST_REMINDER_LEADS} lead times`)
  .refine((hours) => new Set(hours).size === hours.length, 'must not name a lead time twice');

/**
 * One scope's choices as stored (`notification_settings.settings`): only what the user changed; the rest comes from
 * the wider scope (a game's from the user's defaults, the defaults from `DEFAULT_NOTIFICATIONS`).
 */
export const NotificationSettingsSchema = z
  .object({
    mail: Switches.optional(),
    push: Switches.optional(),
    reminderLeadHours: ReminderLeadsSchema.optional(),
  })
  .strict()
  .meta({ id: 'NotificationSettings' });
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;

/** Every choice made: what a user's scopes resolve to. */
export type EffectiveNotifications = {
  mail: Record<NotificationEvent, boolean>;
  push: Record<NotificationEvent, boolean>;
  reminderLeadHours: number[];
};

const everything = (on: boolean) => Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, on])) as Record<NotificationEvent, boolean>;

/** What a new user is told: everything, by mail and push (push only reaches browsers they subscribed), reminders 24 h and 2 h before. */
export const DEFAULT_NOTIFICATIONS: EffectiveNotifications = { mail: everything(true), push: everything(true), reminderLeadHours: [24, 2] };

/** The user's choices for one game: the game's own over the user's defaults over the site's. */
export function effectiveNotifications(defaults: NotificationSettings | null, game: NotificationSettings | null): EffectiveNotifications {
  const layers = [defaults, game].filter((layer): layer is NotificationSettings => layer !== null);
  const result: EffectiveNotifications = {
    mail: { ...DEFAULT_NOTIFICATIONS.mail },
    push: { ...DEFAULT_NOTIFICATIONS.push },
    reminderLeadHours: [...DEFAULT_NOTIFICATIONS.reminderLeadHours],
  };
  for (const layer of layers) {
    Object.assign(result.mail, layer.mail);
    Object.assign(result.push, layer.push);
    if (layer.reminderLeadHours) result.reminderLeadHours = [...layer.reminderLeadHours];
  }
  return result;
}

// ─── the outbox's messages (outbox.payload), rendered when written ───

export const MAIL_LIMITS = { subject: 200, text: 100_000, html: 200_000 } as const;

/** A mail as written to the outbox: the worker adds From, To and Message-ID when it delivers it. */
export const MailPayloadSchema = z
  .object({
    /** Why it was sent: an account mail, or the game event. */
    kind: z.union([z.enum(['verify-email', 'reset-password', 'change-email-old', 'change-email-new']), NotificationEventSchema]),
    subject: z.string().min(1).max(MAIL_LIMITS.subject),
    text: z.string().max(MAIL_LIMITS.text),
    html: z.string().max(MAIL_LIMITS.html).optional(),
    /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
    headers: z.record(z.string().max(100), z.string().max(2000)).optional(),
    /**
     * The map of a phase, attached as a PNG when the mail is delivered (drawn then, once per phase, from the app's
     * cache of pictures): the outbox keeps this reference, not the image for every recipient.
     */
    map: z
      .object({ gameId: z.string().uuid(), phaseIndex: z.number().int().min(0).max(1_000_000) })
      .strict()
      .optional(),
  })
  .strict();
export type MailPayload = z.infer<typeof MailPayloadSchema>;

/** What a push notification carries to the service worker (encrypted end to end, RFC 8291): small, at most ~3 KB. */
export const PushPayloadSchema = z
  .object({
    kind: NotificationEventSchema,
    title: z.string().max(120),
    body: z.string().max(1000),
    /** The page to open on a click (a path on this site). */
    url: z.string().startsWith('/').max(300),
    /** Notifications with the same tag replace each other (one per game and event). */
    tag: z.string().max(120),
  })
  .strict();
export type PushPayload = z.infer<typeof PushPayloadSchema>;

/** A webhook call's body: Discord's `content` and Slack's `text` say the same, and `event` carries the facts for other receivers. */
export const WebhookPayloadSchema = z
  .object({
    content: z.string().max(2000),
    text: z.string().max(4000),
    event: z
      .object({ type: WebhookEventSchema, gameId: z.string(), at: z.string() })
      .catchall(z.union([z.string().max(2000), z.number(), z.boolean(), z.null(), z.array(z.string().max(200)).max(50)])),
  })
  .strict();
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;
