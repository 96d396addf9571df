/**
 * The outbox's delivery (server/notify/delivery.ts) and the mail channel (server/notify/mail.ts), against a real SMTP
 * server (helpers/smtp.ts) and the real database: a mail written in a committed transaction arrives once, with its
 * headers; one rolled back never goes; refusals, deferrals and backoff; the unverified and undeliverable addresses;
 * the .eml file outbox; leases (rows given back on stopping, a lease taken over, a row its instance died on every
 * time); two instances draining one outbox.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../../server/app.ts';
import type { OutboxDraft } from '../../server/db/tables/outbox.ts';
import { checkDeliveryOptions, DEFAULT_DELIVERY } from '../../server/notify/delivery.ts';
import { enqueue } from '../../server/notify/outbox.ts';
import type { MailPayload } from '../../shared/api/notifications.ts';
import { Browser, startSiblingApp, startTestApp, testSettings, type TestApp } from './helpers/app.ts';
import { usingPostgres } from './helpers/database.ts';
import { headerLine, notifySettings, startSmtpServer, type TestSmtp } from './helpers/smtp.ts';
import { startGame } from './helpers/play.ts';

let testApp: TestApp;
let app: FastifyInstance;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  testApp = await startTestApp({ settings: { notify: notifySettings({ smtpUrl: smtp.url }) } });
  app = testApp.app;
}, 60_000);
afterAll(async () => {
  await testApp.close();
  await smtp.close();
}, 60_000);
afterEach(() => {
  smtp.behaviour.recipients.clear();
  smtp.behaviour.data = null;
  smtp.messages.length = 0;
  smtp.attempts.length = 0;
});

let counter = 0;
/** A user with an address, verified unless told otherwise. */
async function userWithAddress(verified = true): Promise<{ id: string; email: string }> {
  const browser = await new Browser(app).register();
  counter += 1;
  const email = `Player${counter}.${Date.now().toString(36)}@example.test`;
  await app.prisma.user.update({
    where: { id: browser.user!.id },
    data: { email, emailKey: email.toLowerCase(), emailVerifiedAt: verified ? new Date() : null },
  });
  return { id: browser.user!.id, email };
}

function mailDraft(user: { id: string; email: string }, overrides: Partial<MailPayload> = {}, key = `test:${Math.random()}`): OutboxDraft {
  return {
    channel: 'mail',
    dedupeKey: key,
    userId: user.id,
    target: user.email,
    payload: {
      kind: 'phase-processed',
      subject: 'Spring 240 BC was adjudicated',
      text: 'Your orders: A Mac - Thr succeeded.\nWhy you get this: you play Macedonia.',
      html: '<p>Your orders: <b>A Mac - Thr</b> succeeded.</p>',
      headers: {
        'List-Unsubscribe': '<http://localhost:3000/api/unsubscribe/abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      ...overrides,
    },
  };
}

/** A mail row's columns as written (for rows made with a chosen status and age). */
function mailDraftRow(user: { id: string; email: string }, dedupeKey: string) {
  const draft = mailDraft(user, {}, dedupeKey);
  return { channel: 'mail' as const, dedupeKey, userId: user.id, target: user.email, payload: draft.payload };
}

async function write(drafts: OutboxDraft[]) {
  await app.prisma.$transaction((tx) => enqueue(tx, drafts));
}

async function rowOf(dedupeKey: string) {
  return app.prisma.outboxMessage.findUniqueOrThrow({ where: { dedupeKey } });
}

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

describe('mail through SMTP', { timeout: 30_000 }, () => {
  test('a mail written in a committed transaction arrives once, with its subject, recipient, Message-ID, text, html and unsubscribe headers', async () => {
    const user = await userWithAddress();
    const draft = mailDraft(user);
    await write([draft]);
    // The same event written again (a retried request) is skipped by its dedupe key.
    await write([draft]);

    const counts = await app.notify.worker.deliverDue();
    expect(counts).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [mail] = await smtp.waitFor(1);
    const row = await rowOf(draft.dedupeKey);
    expect(mail.subject).toBe('Spring 240 BC was adjudicated');
    expect(mail.envelope.to).toEqual([user.email]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0].address : null).toBe(user.email);
    expect(mail.from?.value[0].address).toBe('noreply@localhost');
    expect(mail.messageId).toBe(`<${row.id}@localhost>`);
    expect(mail.text).toContain('A Mac - Thr succeeded');
    expect(mail.html).toContain('<b>A Mac - Thr</b>');
    expect(headerLine(mail, 'List-Unsubscribe')).toBe('<http://localhost:3000/api/unsubscribe/abc>');
    expect(headerLine(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(headerLine(mail, 'Auto-Submitted')).toBe('auto-generated');
    expect(mail.date).toBeInstanceOf(Date);
    expect(row.status).toBe('sent');
    expect(row.sentAt).not.toBeNull();
    expect(row.attempts).toBe(1);

    // Nothing more is due: it is not sent again.
    expect(await app.notify.worker.deliverDue(minutes(60))).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.attempts).toHaveLength(1);
  });

  test('a mail naming a phase carries its map as a PNG part, drawn when it is delivered; without a map to draw it goes all the same', async () => {
    const user = await userWithAddress();
    const game = await startGame(app);
    const draft = mailDraft(user, { map: { gameId: game.gameId, phaseIndex: 0 } });
    // The outbox keeps the reference, not the picture.
    expect(JSON.stringify(draft.payload).length).toBeLessThan(2000);
    await write([draft]);
    await app.notify.worker.deliverDue();
    const [mail] = await smtp.waitFor(1);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0].filename).toMatch(/^map-0-.+\.png$/);
    expect(mail.attachments[0].contentType).toBe('image/png');
    expect(mail.attachments[0].content.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');

    const gone = mailDraft(user, { map: { gameId: '00000000-0000-4000-8000-000000000000', phaseIndex: 0 } });
    await write([gone]);
    await app.notify.worker.deliverDue();
    const [, second] = await smtp.waitFor(2);
    expect(second.attachments).toHaveLength(0);
    expect((await rowOf(gone.dedupeKey)).status).toBe('sent');
  });

  test('a mail written in a transaction that rolls back is never sent', async () => {
    const user = await userWithAddress();
    const draft = mailDraft(user);
    await expect(
      app.prisma.$transaction(async (tx) => {
        await enqueue(tx, [draft]);
        throw new Error('the event failed');
      }),
    ).rejects.toThrow('the event failed');
    expect(await app.notify.worker.deliverDue(minutes(60))).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await app.prisma.outboxMessage.count({ where: { dedupeKey: draft.dedupeKey } })).toBe(0);
    expect(smtp.attempts).toHaveLength(0);
  });

  test('a recipient refused with 550 fails the row at once, marks the address undeliverable, and later mail to it is not attempted', async () => {
    const user = await userWithAddress();
    smtp.refuseRecipient(user.email, { code: 550, message: '5.1.1 mailbox unavailable' });
    const first = mailDraft(user);
    await write([first]);
    expect(await app.notify.worker.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 1 });
    const row = await rowOf(first.dedupeKey);
    expect(row.status).toBe('failed');
    expect(row.lastError).toContain('550');
    const marked = await app.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(marked.emailUndeliverableAt).not.toBeNull();
    expect(marked.emailUndeliverableReason).toContain('mailbox unavailable');

    // Even once the server would take it again, nothing more goes to that address (not even account mail).
    smtp.behaviour.recipients.clear();
    const later = mailDraft(user);
    const account = mailDraft(user, { kind: 'reset-password', subject: 'Reset your password' });
    await write([later, account]);
    expect(await app.notify.worker.deliverDue(minutes(1))).toEqual({ sent: 0, retried: 0, failed: 2 });
    for (const key of [later.dedupeKey, account.dedupeKey]) {
      const skipped = await rowOf(key);
      expect(skipped.status).toBe('failed');
      expect(skipped.lastError).toMatch(/address undeliverable/);
    }
    expect(smtp.attempts).toHaveLength(0);
    expect(smtp.messages).toHaveLength(0);
  });

  test('a message refused at DATA (5xx) fails without marking the address', async () => {
    const user = await userWithAddress();
    smtp.behaviour.data = (mail) => (mail.subject === 'Spam?' ? { code: 554, message: '5.7.1 message content rejected' } : null);
    const draft = mailDraft(user, { subject: 'Spam?' });
    await write([draft]);
    expect(await app.notify.worker.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect((await rowOf(draft.dedupeKey)).lastError).toMatch(/message refused.*554/);
    expect((await app.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailUndeliverableAt).toBeNull();
    // The next mail to the same address goes.
    await write([mailDraft(user)]);
    expect(await app.notify.worker.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
  });

  test('a 451 (temporary) is tried again after its backoff, then delivered', async () => {
    const user = await userWithAddress();
    let deferrals = 2;
    smtp.behaviour.data = () => (deferrals-- > 0 ? { code: 451, message: '4.3.0 try again later' } : null);
    const draft = mailDraft(user);
    await write([draft]);
    const t0 = Date.now();

    expect(await app.notify.worker.deliverDue(new Date(t0))).toEqual({ sent: 0, retried: 1, failed: 0 });
    let row = await rowOf(draft.dedupeKey);
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(1);
    expect(row.lastError).toContain('451');
    // 1 minute ± 20 %.
    const firstWait = row.nextAttemptAt.getTime() - t0;
    expect(firstWait).toBeGreaterThanOrEqual(48_000);
    expect(firstWait).toBeLessThanOrEqual(72_000);

    // Not before its time.
    expect(await app.notify.worker.deliverDue(new Date(t0 + 40_000))).toEqual({ sent: 0, retried: 0, failed: 0 });
    // The second try is deferred again: about 2 minutes more.
    const second = new Date(row.nextAttemptAt.getTime() + 1);
    expect(await app.notify.worker.deliverDue(second)).toEqual({ sent: 0, retried: 1, failed: 0 });
    row = await rowOf(draft.dedupeKey);
    const secondWait = row.nextAttemptAt.getTime() - second.getTime();
    expect(secondWait).toBeGreaterThanOrEqual(96_000);
    expect(secondWait).toBeLessThanOrEqual(144_000);

    expect(await app.notify.worker.deliverDue(new Date(row.nextAttemptAt.getTime() + 1))).toEqual({ sent: 1, retried: 0, failed: 0 });
    row = await rowOf(draft.dedupeKey);
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(3);
    expect(smtp.attempts).toHaveLength(3);
    expect(smtp.messages).toHaveLength(1);
    // Every try carried the same Message-ID, so a receiver may drop a copy.
    expect(new Set(smtp.attempts.map((mail) => mail.messageId))).toEqual(new Set([`<${row.id}@localhost>`]));
  });

  test('a message deferred every time fails after the most attempts', async () => {
    const user = await userWithAddress();
    smtp.behaviour.data = () => ({ code: 452, message: '4.2.2 mailbox full' });
    const draft = mailDraft(user);
    await write([draft]);
    const { maxAttempts } = app.notify.worker.options;
    let at = Date.now();
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const counts = await app.notify.worker.deliverDue(new Date(at));
      expect(counts).toEqual(attempt < maxAttempts ? { sent: 0, retried: 1, failed: 0 } : { sent: 0, retried: 0, failed: 1 });
      const row = await rowOf(draft.dedupeKey);
      // Backoff doubles up to its cap of 6 hours.
      if (attempt < maxAttempts) expect(row.nextAttemptAt.getTime() - at).toBeLessThanOrEqual(6 * 3600_000 * 1.2);
      at = row.nextAttemptAt.getTime() + 1;
    }
    const row = await rowOf(draft.dedupeKey);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(maxAttempts);
    expect(row.lastError).toMatch(/gave up after 10 attempts.*452/);
    expect(smtp.attempts).toHaveLength(maxAttempts);
    // A deferral is not a refusal: the address is not marked.
    expect((await app.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailUndeliverableAt).toBeNull();
  });

  test('while the SMTP server holds a message, the site keeps answering and the row waits, pending, for the answer', async () => {
    const user = await userWithAddress();
    const draft = mailDraft(user);
    await write([draft]);
    smtp.behaviour.hold = true;
    try {
      const delivering = app.notify.worker.deliverDue();
      await smtp.until(() => smtp.held.length === 1, 10_000);
      // PGlite has one connection: the delivery must not hold it while it waits on SMTP.
      const started = Date.now();
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect((await rowOf(draft.dedupeKey)).status).toBe('pending');
      smtp.release();
      expect(await delivering).toEqual({ sent: 1, retried: 0, failed: 0 });
      expect((await rowOf(draft.dedupeKey)).status).toBe('sent');
    } finally {
      smtp.release();
    }
  });

  test('an unreachable SMTP server leaves the mail pending for a retry', async () => {
    const down = await startSmtpServer();
    const url = down.url;
    await down.close();
    const other = await startSiblingApp(app, { settings: { notify: notifySettings({ smtpUrl: url }) } });
    try {
      const user = await userWithAddress();
      const draft = mailDraft(user);
      await write([draft]);
      expect(await other.notify.worker.deliverDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
      const row = await rowOf(draft.dedupeKey);
      expect(row.status).toBe('pending');
      expect(row.lastError).toMatch(/ECONNECTION|ESOCKET|ECONNREFUSED/);
      // The instance with a working server delivers it once its time has come.
      expect(await app.notify.worker.deliverDue(new Date(row.nextAttemptAt.getTime() + 1))).toEqual({ sent: 1, retried: 0, failed: 0 });
    } finally {
      await other.close();
    }
  });
});

describe('who may be mailed', { timeout: 30_000 }, () => {
  test('an unverified address gets account mail only; game mail to it is skipped with the reason', async () => {
    const user = await userWithAddress(false);
    const game = mailDraft(user);
    const verify = mailDraft(user, { kind: 'verify-email', subject: 'Confirm your address' });
    await write([game, verify]);
    expect(await app.notify.worker.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 1 });
    const skipped = await rowOf(game.dedupeKey);
    expect(skipped.status).toBe('failed');
    expect(skipped.lastError).toMatch(/not verified/);
    expect((await rowOf(verify.dedupeKey)).status).toBe('sent');
    await smtp.waitFor(1);
    expect(smtp.messages.map((mail) => mail.subject)).toEqual(['Confirm your address']);
  });

  test('game mail written before the user changed address does not go to the old one', async () => {
    const user = await userWithAddress();
    const draft = mailDraft(user);
    await write([draft]);
    const email = `moved.${Date.now().toString(36)}@example.test`;
    await app.prisma.user.update({ where: { id: user.id }, data: { email, emailKey: email } });
    expect(await app.notify.worker.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect((await rowOf(draft.dedupeKey)).lastError).toMatch(/no longer the user/);
    expect(smtp.attempts).toHaveLength(0);
  });

  test('a row whose payload does not parse is failed with the reason, and the loop goes on', async () => {
    const user = await userWithAddress();
    const broken = await app.prisma.outboxMessage.create({
      data: { channel: 'mail', dedupeKey: `broken:${Math.random()}`, userId: user.id, target: user.email, payload: { kind: 'phase-processed', subject: '' } },
    });
    const good = mailDraft(user);
    await write([good]);
    expect(await app.notify.worker.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 1 });
    const row = await app.prisma.outboxMessage.findUniqueOrThrow({ where: { id: broken.id } });
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/payload invalid: subject/);
    expect((await rowOf(good.dedupeKey)).status).toBe('sent');
  });
});

describe('keeping the outbox small', () => {
  test('sent and failed messages older than the kept days are deleted; pending ones and recent ones stay', async () => {
    const user = await userWithAddress();
    const days = (n: number) => new Date(Date.now() - n * 24 * 3600_000);
    const make = (key: string, status: 'pending' | 'sent' | 'failed', createdAt: Date) =>
      app.prisma.outboxMessage.create({
        data: { ...mailDraftRow(user, key), status, createdAt, nextAttemptAt: status === 'pending' ? days(-1) : createdAt },
      });
    const stamp = Math.random().toString(36).slice(2);
    await make(`old-sent:${stamp}`, 'sent', days(40));
    await make(`old-failed:${stamp}`, 'failed', days(31));
    await make(`old-pending:${stamp}`, 'pending', days(40));
    await make(`recent-sent:${stamp}`, 'sent', days(10));
    expect(app.notify.worker.options.keepDays).toBe(30);
    expect(await app.notify.worker.trim()).toBe(2);
    const left = await app.prisma.outboxMessage.findMany({ where: { dedupeKey: { endsWith: stamp } } });
    expect(left.map((row) => row.dedupeKey.split(':')[0]).sort()).toEqual(['old-pending', 'recent-sent']);
  });
});

describe('the file outbox (no SMTP_URL)', { timeout: 30_000 }, () => {
  test('each mail is written as a parseable .eml file and logged in one line', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'diadochi-outbox-test-'));
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
        done();
      },
    });
    const files = await startSiblingApp(app, {
      settings: { notify: notifySettings({ smtpUrl: null, fileDir: dir }) },
      logger: { level: 'info', stream: sink } as never,
    });
    try {
      const user = await userWithAddress();
      const draft = mailDraft(user);
      await write([draft]);
      expect(await files.notify.worker.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
      const row = await rowOf(draft.dedupeKey);
      expect(await readdir(dir)).toEqual([`${row.id}.eml`]);
      const raw = await readFile(path.join(dir, `${row.id}.eml`));
      // RFC 5322 lines end in CRLF.
      expect(raw.toString('latin1')).toContain('\r\nSubject: Spring 240 BC was adjudicated\r\n');
      const mail = await simpleParser(raw);
      expect(mail.subject).toBe('Spring 240 BC was adjudicated');
      expect(mail.messageId).toBe(`<${row.id}@localhost>`);
      expect(mail.text).toContain('A Mac - Thr succeeded');
      expect(mail.html).toContain('<b>A Mac - Thr</b>');
      expect(headerLine(mail, 'List-Unsubscribe')).toBe('<http://localhost:3000/api/unsubscribe/abc>');
      expect(headerLine(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      const logged = lines.filter((line) => line.msg === 'mail written to the file outbox (no SMTP_URL set)');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ to: user.email, subject: 'Spring 240 BC was adjudicated', file: path.join(dir, `${row.id}.eml`) });
      expect(smtp.attempts).toHaveLength(0);
    } finally {
      await files.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('leases', { timeout: 30_000 }, () => {
  test('a worker stopped while its claim is under way finishes what it started and gives back the rest, untried', async () => {
    const user = await userWithAddress();
    const drafts = Array.from({ length: 6 }, (_, i) => mailDraft(user, { subject: `Stopping ${i}` }, `stop:${i}:${Math.random()}`));
    await write(drafts);
    const other = await startSiblingApp(app, { settings: { notify: notifySettings({ smtpUrl: smtp.url, delivery: { concurrency: 2 } }) } });
    smtp.behaviour.hold = true;
    try {
      const delivering = other.notify.worker.deliverDue();
      // It claimed all six and is sending two.
      await smtp.until(() => smtp.held.length === 2, 10_000);
      expect(
        await app.prisma.outboxMessage.count({ where: { dedupeKey: { in: drafts.map((draft) => draft.dedupeKey) }, claimedBy: other.notify.worker.name } }),
      ).toBe(6);
      const stopping = other.notify.worker.stop();
      smtp.release();
      expect(await delivering).toEqual({ sent: 2, retried: 0, failed: 0 });
      await stopping;
    } finally {
      smtp.release();
      await other.close();
    }
    const rows = await Promise.all(drafts.map((draft) => rowOf(draft.dedupeKey)));
    expect(rows.map((row) => `${row.status}/${row.attempts}`).sort()).toEqual(['pending/0', 'pending/0', 'pending/0', 'pending/0', 'sent/1', 'sent/1']);
    expect(rows.every((row) => row.claimedBy === null && row.claimedUntil === null)).toBe(true);
    // Given back, they are any instance's at once (no lease to wait for).
    expect(await app.notify.worker.deliverDue()).toEqual({ sent: 4, retried: 0, failed: 0 });
    expect(new Set(smtp.messages.map((mail) => mail.subject))).toEqual(new Set(drafts.map((draft) => (draft.payload as MailPayload).subject)));
  });

  test("a worker whose lease was taken over while it sent records nothing over the new holder's claim", async () => {
    const user = await userWithAddress();
    const draft = mailDraft(user);
    await write([draft]);
    smtp.behaviour.hold = true;
    const errors = app.notify.worker.stats.errors;
    try {
      const delivering = app.notify.worker.deliverDue();
      await smtp.until(() => smtp.held.length === 1, 10_000);
      // Meanwhile its lease ran out and another instance claimed the row, as it would a stalled worker's.
      await app.prisma.outboxMessage.update({ where: { dedupeKey: draft.dedupeKey }, data: { claimedBy: 'another-instance', attempts: 2 } });
      smtp.release();
      expect(await delivering).toEqual({ sent: 1, retried: 0, failed: 0 });
    } finally {
      smtp.release();
    }
    expect(app.notify.worker.stats.errors).toBe(errors + 1);
    const row = await rowOf(draft.dedupeKey);
    expect(row).toMatchObject({ status: 'pending', claimedBy: 'another-instance', attempts: 2, sentAt: null });
    // Out of the way of the tests that follow (that other instance does not exist).
    await app.prisma.outboxMessage.update({ where: { id: row.id }, data: { status: 'failed' } });
  });

  test('a row claimed as often as the most attempts without an outcome (its instance died each time) fails when claimed again, unsent', async () => {
    const user = await userWithAddress();
    const draft = mailDraft(user);
    await write([draft]);
    const { maxAttempts } = app.notify.worker.options;
    await app.prisma.outboxMessage.update({
      where: { dedupeKey: draft.dedupeKey },
      data: { attempts: maxAttempts, claimedBy: 'a-dead-instance', claimedUntil: new Date(Date.now() - 1000) },
    });
    expect(await app.notify.worker.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 1 });
    const row = await rowOf(draft.dedupeKey);
    expect(row).toMatchObject({ status: 'failed', attempts: maxAttempts + 1, claimedBy: null, claimedUntil: null });
    expect(row.lastError).toMatch(/gave up after 10 attempts \(the last ones ended without an answer/);
    expect(smtp.attempts).toHaveLength(0);
  });

  test('a lease shorter than two deliveries may take (and a margin) is refused with the reason', () => {
    expect(() => checkDeliveryOptions({ ...DEFAULT_DELIVERY, leaseMs: 60_000 })).toThrow(/leaseMs \(60000\) must be at least twice sendTimeoutMs \(60000\)/);
    expect(() => checkDeliveryOptions({ ...DEFAULT_DELIVERY, claimBatch: 0 })).toThrow(/claimBatch must be a whole number of at least 1/);
    expect(checkDeliveryOptions(DEFAULT_DELIVERY)).toBe(DEFAULT_DELIVERY);
  });
});

describe('several instances', () => {
  test('two instances draining 200 messages with their loops deliver each exactly once', { timeout: 120_000 }, async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => userWithAddress()));
    const drafts = Array.from({ length: 200 }, (_, i) => mailDraft(users[i % users.length], { subject: `Message ${i}` }, `race:${i}:${Math.random()}`));
    await write(drafts);
    const looping = notifySettings({ smtpUrl: smtp.url, delivery: { enabled: true, intervalMs: 50, concurrency: 4, batch: 20 } });
    const settings = { ...testSettings, notify: looping };
    // On PostgreSQL each instance has its own connection pool (as two servers would); PGlite has one connection.
    const instances = usingPostgres
      ? await Promise.all(
          [0, 1].map(async () => {
            const other = await buildApp({ database: testApp.database.options, settings });
            await other.ready();
            return other;
          }),
        )
      : [await startSiblingApp(app, { settings }), await startSiblingApp(app, { settings })];
    try {
      await smtp.waitFor(200, 90_000);
      // Let any stray duplicate arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
    const ids = smtp.messages.map((mail) => mail.messageId);
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
    expect(new Set(smtp.messages.map((mail) => mail.subject))).toEqual(new Set(drafts.map((draft) => (draft.payload as MailPayload).subject)));
    const rows = await app.prisma.outboxMessage.findMany({ where: { dedupeKey: { in: drafts.map((draft) => draft.dedupeKey) } } });
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    // Both did some of the work.
    const sentBy = instances.map((instance) => instance.notify.worker.stats.sent);
    expect(sentBy[0] + sentBy[1]).toBe(200);
    if (usingPostgres) expect(Math.min(...sentBy)).toBeGreaterThan(0);
  });
});
