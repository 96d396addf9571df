/**
 * Settings from the environment, validated once at start-up: a wrong value stops
 * the server with a message naming the variable, instead of failing later.
 */
import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Write each log line at once (a system call per line) rather than 4 KiB at a time or every 100 ms. */
  LOG_SYNC: booleanFlag.default(false),
  /** PostgreSQL connection string; without it an embedded PGlite database lives in DATA_DIR. */
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// connection string' })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Trust X-Forwarded-* from a reverse proxy (needed for Secure cookies and client IPs behind one). */
  TRUST_PROXY: booleanFlag.default(false),
  /** Comma-separated extra origins allowed to open the websocket with a session cookie. */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((origin) => origin.trim()).filter(Boolean)),
  /**
   * Comma-separated usernames of the site administrators. When set it is the whole
   * list, applied at every start-up; unset, `tsx server/admin.ts` manages them.
   */
  ADMIN_USERS: z
    .string()
    .optional()
    .transform((list) => (list === undefined ? null : list.split(',').map((name) => name.trim()).filter(Boolean))),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
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
});

export type Config = z.output<typeof EnvSchema>;

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
  };
}
