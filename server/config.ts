/**
 * Settings from the environment, validated once at start-up: a wrong value stops
 * the server with a message naming the variable, instead of failing later.
 */
import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** One trusted proxy: an address or a CIDR range, or one of proxy-addr's names for a kind of range. */
const ProxyAddressSchema = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6(), z.enum(['loopback', 'linklocal', 'uniquelocal'])]);
const PROXY_LIST_HELP = 'the addresses of the proxies in front of the server, comma-separated (IPs or CIDR ranges, e.g. 172.28.0.10 or 10.0.0.0/8)';

/**
 * TRUST_PROXY: `false` (X-Forwarded-* ignored) or the proxies' addresses: a request's forwarded address is read only
 * when its own connection comes from one of them, so a client that writes X-Forwarded-For itself is not believed.
 * `true` (every hop believed: a client's own header picked its address and escaped the rate limits) and hop counts
 * (Fastify 5.12 ignores them: a count cannot tell the proxy from a client that connects directly) are refused with
 * a message, not read as something else: an operator upgrading learns what to set, and nothing is silently trusted.
 */
function trustedProxies(value: string, context: z.RefinementCtx): false | string[] {
  const text = value.trim();
  if (text === 'false' || text === '0' || text === '') return false;
  const refuse = (why: string) => {
    context.addIssue({ code: 'custom', message: `${why}; set ${PROXY_LIST_HELP}, or false` });
    return z.NEVER;
  };
  if (text === 'true') return refuse('"true" would believe an X-Forwarded-For that any client writes itself');
  if (/^\d+$/.test(text)) return refuse(`a hop count (${text}) cannot tell the proxy from a client that connects directly`);
  const addresses = text.split(',').map((entry) => entry.trim());
  const bad = addresses.filter((entry) => !ProxyAddressSchema.safeParse(entry).success);
  if (bad.length > 0)
    return refuse(`${bad.map((entry) => JSON.stringify(entry)).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not an IP address or CIDR range`);
  return addresses;
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Write each log line at once (a system call per line) rather than 4 KiB at a time or every 100 ms. */
  LOG_SYNC: booleanFlag.default(false),
  /** PostgreSQL connection string; without it an embedded PGlite database lives in DATA_DIR. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// connection string' }).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * The reverse proxies whose X-Forwarded-For/-Proto/-Host to believe (client addresses for rate limits, https for
   * Secure cookies): `false`, or their addresses (see trustedProxies).
   */
  TRUST_PROXY: z.string().default('false').transform(trustedProxies),
  /** Comma-separated extra origins allowed to open the websocket with a session cookie. */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    ),
  /**
   * Comma-separated usernames of the site administrators. When set it is the whole
   * list, applied at every start-up; unset, `tsx server/admin.ts` manages them.
   */
  ADMIN_USERS: z
    .string()
    .optional()
    .transform((list) =>
      list === undefined
        ? null
        : list
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
    ),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Hours an ended game may still be re-opened by its game master before its result is final and its secrets
   * (private press, the names in an anonymous game) public; 0: final at once, never re-opened.
   */
  FINAL_AFTER_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
  /** Log-in and sign-up attempts allowed per client IP and window. */
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
  AUTH_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Directory of the built web client, served at / when it exists. */
  WEB_DIST_DIR: z.string().min(1).default('./web/dist'),
  /** Run the deadline scheduler in this instance (any number of instances may; each phase is processed once). */
  SCHEDULER_ENABLED: booleanFlag.default(true),
  /** How often the scheduler looks for due phases. */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  /** Due phases this instance processes at once (each holds a database connection while it does). */
  SCHEDULER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** The SMTP server mail goes through (smtp:// or smtps://, credentials in the URL); without it mail is written to DATA_DIR/outbox as .eml files. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// address, e.g. smtp://user:password@mail.example:587' }).optional(),
  /** The From of every mail. */
  MAIL_FROM: z.string().min(3).max(300).default('Diadochi <noreply@localhost>'),
  /** Run the outbox's delivery worker in this instance (any number may: each message is delivered once). */
  OUTBOX_ENABLED: booleanFlag.default(true),
  /** How often the delivery worker looks for due messages. */
  OUTBOX_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  /** Messages this instance delivers at once, and the SMTP connections it keeps open for them; none holds a database connection (rows are leased, server/notify/delivery.ts). */
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** Tries before a message that keeps meeting temporary failures is given up (backoff 1 min, 2, 4 … at most 6 h). */
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(10),
  /** Signs the one-click unsubscribe links in game mail (at least 32 characters); unset: made once and kept in DATA_DIR/notify-secret. Several instances must share it. */
  NOTIFY_SECRET: z.string().min(32, 'must be at least 32 characters').max(512).optional(),
  /** How often this instance looks for deadline reminders to write (every instance may; each reminder is written once). */
  REMINDER_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** The VAPID key pair push messages are signed with (base64url, as `npx web-push generate-vapid-keys` prints them); unset: made once and kept in DATA_DIR/vapid.json. Several instances must share them. */
  VAPID_PUBLIC_KEY: z.string().max(200).optional(),
  VAPID_PRIVATE_KEY: z.string().max(200).optional(),
  /** Who runs the server, for push services (an https: or mailto: URL); default: PUBLIC_URL when https, else mailto:webmaster@ its host. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(https:\/\/|mailto:)\S+$/, 'must be an https:// or mailto: URL, e.g. mailto:admin@diadochi.example')
    .optional(),
  /** The push services browsers may subscribe through, comma-separated host names (each with its subdomains), or `*` for any https host. */
  PUSH_ENDPOINT_HOSTS: z
    .string()
    .optional()
    .transform((list) => {
      if (list === undefined) return undefined;
      const hosts = list
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean);
      return hosts.includes('*') ? ('*' as const) : hosts;
    }),
  /** The address players reach the site at, for the links in mail, push and calendars (default: http://localhost:PORT). */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address, e.g. https://diadochi.example' }).optional(),
});

export type Config = Omit<z.output<typeof EnvSchema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new Error(`invalid environment:\n${problems}`);
  }
  return {
    ...parsed.data,
    DATA_DIR: path.resolve(parsed.data.DATA_DIR),
    WEB_DIST_DIR: path.resolve(parsed.data.WEB_DIST_DIR),
    PUBLIC_URL: (parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/+$/, ''),
  };
}
