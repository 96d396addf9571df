/**
 * The real server process (server/main.ts, as `npm start` runs it) SIGKILLed while it is delivering mail: the SMTP
 * server holds its answer to DATA, so the killed process dies with messages in the server's hands but not accepted.
 * The rows it had claimed stay pending under its lease: another instance sends the rest at once but leaves those
 * alone until the lease has run out (the holder might only be slow), then sends them; the SMTP server accepted each
 * Message-ID exactly once. PostgreSQL only: the process and the test share the database.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, expect, test } from 'vitest';
import { buildApp } from '../../server/app.ts';
import type { OutboxDraft } from '../../server/db/tables/outbox.ts';
import { DEFAULT_DELIVERY } from '../../server/notify/delivery.ts';
import { enqueue } from '../../server/notify/outbox.ts';
import { freePort } from './faults-support/postgres-cluster.ts';
import { startServer, type ServerProcess } from './faults-support/server-process.ts';
import { testSettings } from './helpers/app.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from './helpers/database.ts';
import { notifySettings, startSmtpServer, type TestSmtp } from './helpers/smtp.ts';

/** More than one claim takes (`claimBatch`): some rows were never the killed server's. */
const MAILS = 120;
const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
}, 60_000);

test.skipIf(!usingPostgres)(
  'a server killed while the SMTP server holds its DATA leaves those mails pending; another instance sends each exactly once',
  { timeout: 240_000 },
  async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanup.push(() => database.drop());
    // This instance writes the outbox (its own worker off) and later reads the rows.
    const writer: FastifyInstance = await buildApp({ database: database.options, settings: { ...testSettings, notify: notifySettings() } });
    await writer.ready();
    cleanup.push(() => writer.close());
    const drafts: OutboxDraft[] = Array.from({ length: MAILS }, (_, i) => ({
      channel: 'mail',
      dedupeKey: `kill:${i}`,
      target: `player${i}@example.test`,
      payload: { kind: 'deadline-reminder', subject: `Reminder ${i}`, text: `Your orders for game ${i} are due in 2 hours.` },
    }));
    await writer.prisma.$transaction((tx) => enqueue(tx, drafts));

    const smtp: TestSmtp = await startSmtpServer({ hold: true });
    cleanup.push(() => smtp.close());
    const server: ServerProcess = await startServer({
      port: await freePort(),
      databaseUrl: database.url!,
      env: { SMTP_URL: smtp.url, OUTBOX_INTERVAL_MS: '100', OUTBOX_CONCURRENCY: '4', SCHEDULER_ENABLED: 'false', LOG_SYNC: 'true' },
    });
    cleanup.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) await server.kill('SIGKILL');
    });

    // The server has handed over four messages (one per connection) and waits for the SMTP server's 250.
    await smtp.until(() => smtp.held.length >= 4, 60_000);
    const inFlight = smtp.held.map((mail) => mail.messageId);
    expect(await server.kill('SIGKILL')).toBe('SIGKILL');
    // Its connections closed: the SMTP server drops what it held, never having accepted it.
    await smtp.until(() => smtp.held.length === 0, 10_000);
    expect(smtp.messages).toHaveLength(0);

    // Its claim stands: the rows it took are pending, tried once, leased to it for `leaseMs`; the others untouched.
    const ids = inFlight.map((messageId) => /^<([^@]+)@/.exec(messageId ?? '')?.[1] ?? '');
    const claimed = await writer.prisma.outboxMessage.findMany({ where: { claimedBy: { not: null } } });
    expect(claimed).toHaveLength(DEFAULT_DELIVERY.claimBatch);
    expect(new Set(claimed.map((row) => row.claimedBy)).size).toBe(1);
    expect(claimed.map((row) => row.id)).toEqual(expect.arrayContaining(ids));
    for (const row of claimed) {
      expect(`${row.status}/${row.attempts}`).toBe('pending/1');
      expect(row.claimedUntil!.getTime() - Date.now()).toBeGreaterThan(DEFAULT_DELIVERY.leaseMs - 60_000);
    }
    expect(await writer.prisma.outboxMessage.count({ where: { claimedBy: null, status: 'pending', attempts: 0 } })).toBe(MAILS - claimed.length);

    // Another instance sends every row nobody holds, and none of the killed server's before their lease ends.
    smtp.behaviour.hold = false;
    const other = await buildApp({
      database: database.options,
      settings: { ...testSettings, notify: notifySettings({ smtpUrl: smtp.url, delivery: { concurrency: 4 } }) },
    });
    await other.ready();
    cleanup.push(() => other.close());
    expect(await other.notify.worker.deliverDue()).toEqual({ sent: MAILS - claimed.length, retried: 0, failed: 0 });
    expect(await other.notify.worker.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.messages.filter((mail) => inFlight.includes(mail.messageId))).toHaveLength(0);
    // Once it has run out (moved into the past here, as five minutes would; leases are on the database's clock),
    // they are claimed again and sent.
    await writer.prisma.$executeRaw`UPDATE outbox SET claimed_until = now() - interval '1 second' WHERE claimed_by = ${claimed[0].claimedBy}`;
    expect(await other.notify.worker.deliverDue()).toEqual({ sent: claimed.length, retried: 0, failed: 0 });
    await smtp.waitFor(MAILS, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const accepted = smtp.messages.map((mail) => mail.messageId);
    expect(accepted).toHaveLength(MAILS);
    expect(new Set(accepted).size).toBe(MAILS);
    // The mails the killed server was sending were seen twice by the SMTP server, accepted once.
    for (const messageId of inFlight) {
      expect(smtp.attempts.filter((mail) => mail.messageId === messageId)).toHaveLength(2);
      expect(accepted.filter((id) => id === messageId)).toHaveLength(1);
    }
    const rows = await writer.prisma.outboxMessage.findMany();
    expect(rows.map((row) => row.status)).toEqual(rows.map(() => 'sent'));
    expect(rows.every((row) => row.claimedBy === null && row.claimedUntil === null)).toBe(true);
    // Tries started: twice for the killed server's rows, once for the others.
    const held = new Set(claimed.map((row) => row.id));
    expect(rows.map((row) => row.attempts)).toEqual(rows.map((row) => (held.has(row.id) ? 2 : 1)));
    expect(new Set(smtp.messages.map((mail) => mail.subject))).toEqual(new Set(drafts.map((draft) => (draft.payload as { subject: string }).subject)));
  },
);
