/**
 * The wire of a user's notification choices (server/notifications/routes.ts): their defaults for every game, one
 * game's own, and the one-click unsubscribe link that every game mail carries (RFC 8058).
 */
import { z } from 'zod';
import { NOTIFICATION_EVENTS, NotificationEventSchema, NotificationSettingsSchema } from './notifications.ts';

const Everything = z.object(
  Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, z.boolean()])) as Record<(typeof NOTIFICATION_EVENTS)[number], z.ZodBoolean>,
);

export const EffectiveNotificationsSchema = z
  .object({ mail: Everything, push: Everything, reminderLeadHours: z.array(z.number().int()) })
  .meta({ id: 'EffectiveNotifications', description: 'Every choice as it applies: the scope’s own over the wider ones over the site’s defaults' });

export const NotificationChoicesSchema = z
  .object({
    /** "default" (every game) or the game's id. */
    scope: z.string(),
    /** What the user chose in this scope (the rest comes from the wider scope). */
    settings: NotificationSettingsSchema,
    /** What applies, all scopes taken together. */
    effective: EffectiveNotificationsSchema,
    /** Where game mail goes: the address, and whether it is verified (unverified addresses get no game mail). */
    mail: z.object({ address: z.string().nullable(), verified: z.boolean(), undeliverable: z.boolean() }),
  })
  .meta({ id: 'NotificationChoices' });
export type NotificationChoices = z.infer<typeof NotificationChoicesSchema>;

export const UNSUBSCRIBE_TOKEN_MAX = 300;
export const UnsubscribeQuerySchema = z.object({
  token: z.string().min(1, 'is required').max(UNSUBSCRIBE_TOKEN_MAX, `must be at most ${UNSUBSCRIBE_TOKEN_MAX} characters`),
});

export const UnsubscribeResultSchema = z
  .object({ unsubscribed: z.literal(true), event: NotificationEventSchema, scope: z.string() })
  .meta({ id: 'UnsubscribeResult', description: 'The mail choice turned off: that event, in that game (or every game: "default")' });
export type UnsubscribeResult = z.infer<typeof UnsubscribeResultSchema>;

/** Each event in words, as the choices are offered (the Account page, a game's side panel, the unsubscribe page). */
export const NOTIFICATION_EVENT_LABELS: Record<(typeof NOTIFICATION_EVENTS)[number], string> = {
  'phase-processed': 'A phase is adjudicated (your results, the new deadline)',
  'deadline-reminder': 'A deadline is near and you owe orders',
  press: 'New press (mail: at most one per conversation every 15 minutes)',
  'game-started': 'The game starts',
  'game-ended': 'The game ends',
  'gm-announcement': 'The game master writes to everyone',
  'seat-opened': 'A seat is offered to a new player',
  'deadline-moved': 'The deadline moves on its own (grace, vacation, vote)',
  vote: 'A vote to pause or extend',
};
