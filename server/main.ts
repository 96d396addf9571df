/**
 * Entry point (`npm start`): reads the environment, builds the app, listens,
 * and shuts down gracefully on SIGTERM/SIGINT — stop accepting, let in-flight
 * requests finish, close websockets, the live listener and the database.
 */
import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { loadVapidKeys } from './notify/vapid.ts';
import { notifySecretFrom } from './notify/unsubscribe.ts';
import { defaultSettings } from './settings.ts';

const SHUTDOWN_GRACE_MS = 10_000;

const config = loadConfig();
const logStream = config.LOG_SYNC ? pino.destination({ dest: 1, sync: true }) : pino.destination({ dest: 1, sync: false, minLength: 4096 });
if (!config.LOG_SYNC) setInterval(() => logStream.flush(), 100).unref();
// Push messages are signed with these; new ones would orphan every browser's subscription (server/notify/vapid.ts).
const vapid = loadVapidKeys(config);
// A start that cannot open its database (another server on the same embedded one, PostgreSQL down) says why and exits.
const app = await buildApp({
  database: config.DATABASE_URL
    ? { kind: 'postgres', url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE }
    : { kind: 'pglite', dataDir: path.join(config.DATA_DIR, 'pglite') },
  // Written asynchronously unless LOG_SYNC: a system call per line (one line per request) cost the event
  // loop more than answering some requests does. Lines leave 4 KiB at a time, or every 100 ms when it is
  // quieter, and are flushed on exit; only a process killed outright can lose its last few.
  logger: { level: config.LOG_LEVEL, stream: logStream },
  trustProxy: config.TRUST_PROXY,
  settings: {
    sessionTtlMs: config.SESSION_TTL_DAYS * 24 * 3600_000,
    authRateLimit: { max: config.AUTH_RATE_LIMIT_MAX, windowMs: config.AUTH_RATE_LIMIT_WINDOW_MS },
    allowedOrigins: config.ALLOWED_ORIGINS,
    webDistDir: config.WEB_DIST_DIR,
    scheduler: { enabled: config.SCHEDULER_ENABLED, intervalMs: config.SCHEDULER_INTERVAL_MS, batch: 100, concurrency: config.SCHEDULER_CONCURRENCY },
    adminUsers: config.ADMIN_USERS,
    finalAfterMs: Math.round(config.FINAL_AFTER_HOURS * 3600_000),
    publicUrl: config.PUBLIC_URL,
    push: { ...defaultSettings.push, vapid: vapid.keys, ...(config.PUSH_ENDPOINT_HOSTS ? { endpointHosts: config.PUSH_ENDPOINT_HOSTS } : {}) },
    gameMail: {
      secret: notifySecretFrom(config.NOTIFY_SECRET, config.DATA_DIR),
      reminders: { enabled: config.SCHEDULER_ENABLED, intervalMs: config.REMINDER_INTERVAL_MS },
    },
    notify: {
      mail: {
        smtpUrl: config.SMTP_URL ?? null,
        from: config.MAIL_FROM,
        fileDir: path.join(config.DATA_DIR, 'outbox'),
        maxConnections: config.OUTBOX_CONCURRENCY,
        timeoutMs: defaultSettings.notify.mail.timeoutMs,
      },
      delivery: {
        ...defaultSettings.notify.delivery,
        enabled: config.OUTBOX_ENABLED,
        intervalMs: config.OUTBOX_INTERVAL_MS,
        concurrency: config.OUTBOX_CONCURRENCY,
        maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
      },
    },
  },
}).catch((error: unknown) => {
  pino({ level: 'info' }, pino.destination({ dest: 1, sync: true })).fatal(
    { err: error },
    `could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});

if (vapid.source === 'generated')
  app.log.info(
    { file: vapid.file },
    'VAPID keys for push notifications made and kept; several instances need the same ones (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)',
  );

let shuttingDown = false;
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  app.log.info({ signal }, 'shutting down');
  // A stuck request must not keep the process alive for ever.
  const forceExit = setTimeout(() => {
    app.log.error('graceful shutdown timed out; exiting');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  forceExit.unref();
  try {
    await app.close();
    process.exitCode = 0;
  } catch (error) {
    app.log.error({ err: error }, 'error during shutdown');
    process.exitCode = 1;
  }
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ port: config.PORT, host: config.HOST });
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  await app.close().catch(() => {});
  process.exit(1);
}
