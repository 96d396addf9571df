/** Run-time settings of one app instance: from the environment in production, chosen by tests. */
import path from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { randomInt } from 'node:crypto';
import type { ScryptCost } from './accounts/passwords.ts';
import { DEFAULT_SCRYPT_COST } from './accounts/passwords.ts';
import { LIVE_LIMITS } from '../shared/api/live.ts';
import type { SchedulerOptions } from './play/scheduler.ts';
import { DEFAULT_DELIVERY, type DeliveryOptions } from './notify/delivery.ts';
import type { MailSettings } from './notify/mail.ts';
import { DEFAULT_PUSH_SETTINGS, type PushSettings } from './notify/push-settings.ts';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type AppSettings = {
  sessionTtlMs: number;
  authRateLimit: { max: number; windowMs: number };
  scryptCost: ScryptCost;
  /** Extra origins allowed to open the websocket with a session cookie (besides the server's own). */
  allowedOrigins: string[];
  heartbeatMs: number;
  /** How long live events are kept for clients that reconnect (server/bus/live-bus.ts). */
  liveReplayMs: number;
  /** Uniform in [0, 1): power assignment draws from it; tests pass a seeded one. */
  random: () => number;
  /** Built web client to serve at /, when the folder exists. */
  webDistDir: string | null;
  /** The deadline scheduler (server/play/scheduler.ts). */
  scheduler: SchedulerOptions;
  /** Imports per user and window (each one re-adjudicates every phase of the game). */
  importRateLimit: { max: number; windowMs: number };
  /**
   * How long an ended game's result may still be undone by its game master (a roll-back) before it is final and its
   * secrets (private press, names in an anonymous game) public (access/policy.ts). 0: final at once.
   */
  finalAfterMs: number;
  /** ADMIN_USERS: the site administrators, applied at start-up; null leaves the database's list alone. */
  adminUsers: string[] | null;
  /** Fail (500 `unviewed_response`) any API answer whose body no view made (server/views/route-views.ts): on in tests. */
  checkViews: boolean;
  /** The site's address as players reach it (PUBLIC_URL), without a trailing slash: links in mail, push and calendars. */
  publicUrl: string;
  /** Game webhooks (notify/webhook.ts): plain http to 127.0.0.1/localhost allowed (tests only), and how long a receiver has to answer. */
  webhooks: { allowLoopback: boolean; timeoutMs: number };
  /** The outbox's delivery worker and the mail channel (server/notify/): SMTP or .eml files, retries, concurrency. */
  notify: { mail: MailSettings; delivery: DeliveryOptions };
  /** Account mail (accounts/email.ts): password resets asked per address, verification mails per user, in a window. */
  accountMail: { resetsPerAddress: { max: number; windowMs: number }; verificationsPerUser: { max: number; windowMs: number } };
  /** Web Push (server/notify/push.ts): VAPID keys (null: made for this app alone, as in tests) and the push services a subscription may name. */
  push: PushSettings;
  /**
   * Game mail (notify/game-events.ts, reminders.ts): the secret that signs unsubscribe links (NOTIFY_SECRET or
   * DATA_DIR/notify-secret; null: one made for this app alone, as in tests), and the deadline reminders' loop.
   */
  gameMail: { secret: string | null; reminders: { enabled: boolean; intervalMs: number } };
};

/** A uniform double in [0, 1) from the OS's random source. */
const cryptoRandom = () => randomInt(2 ** 48 - 1) / 2 ** 48;

export const defaultSettings: AppSettings = {
  sessionTtlMs: 30 * 24 * 3600_000,
  authRateLimit: { max: 10, windowMs: 60_000 },
  scryptCost: DEFAULT_SCRYPT_COST,
  allowedOrigins: [],
  heartbeatMs: LIVE_LIMITS.heartbeatMs,
  liveReplayMs: 15 * 60_000,
  random: cryptoRandom,
  webDistDir: null,
  scheduler: { enabled: true, intervalMs: 2000, batch: 100, concurrency: 4 },
  adminUsers: null,
  finalAfterMs: 24 * 3600_000,
  importRateLimit: { max: 30, windowMs: 10 * 60_000 },
  checkViews: false,
  publicUrl: 'http://localhost:3000',
  webhooks: { allowLoopback: false, timeoutMs: 10_000 },
  // main.ts puts the file outbox in DATA_DIR/outbox; an app built otherwise (tests) writes to the temp folder.
  notify: {
    mail: { smtpUrl: null, from: 'Diadochi <noreply@localhost>', fileDir: path.join(tmpdir(), 'diadochi-outbox'), maxConnections: 4, timeoutMs: 20_000 },
    delivery: DEFAULT_DELIVERY,
  },
  accountMail: { resetsPerAddress: { max: 5, windowMs: 3600_000 }, verificationsPerUser: { max: 5, windowMs: 3600_000 } },
  push: DEFAULT_PUSH_SETTINGS,
  // The reminders' loop runs where main.ts turns it on (tests call remindDue with a chosen clock).
  gameMail: { secret: null, reminders: { enabled: false, intervalMs: 60_000 } },
};
