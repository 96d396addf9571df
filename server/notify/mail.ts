/**
 * The mail channel: an outbox row made into a mail and handed to an SMTP server (`SMTP_URL`) by nodemailer, or,
 * with no SMTP server configured (the default of `npm start`), written as an `.eml` file under `<DATA_DIR>/outbox/`
 * and named in one log line, so whoever runs the server sees what would have been sent.
 *
 * Every mail's Message-ID is made from its outbox row's id, so the same row sent twice (the one window: the SMTP
 * server said 250 and the instance died before the row was marked sent, see delivery.ts) carries the same Message-ID
 * and a receiving server or client can drop the copy.
 *
 * SMTP replies decide the row's fate: a 5xx to RCPT TO refuses the address for good (the row fails and the user's
 * address is marked undeliverable, `refused`); a 5xx to DATA refuses this message only (fails, address kept); 4xx
 * replies, timeouts and lost connections are tried again later with backoff.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { FastifyBaseLogger } from 'fastify';
import { NOTIFICATION_EVENTS, type MailPayload } from '../../shared/api/notifications.ts';
import type { Db, PrismaClient } from '../db/database.ts';
import type { RecipientFacts } from './delivery.ts';
import type { Delivery, DeliveryResult, Transport } from './transport.ts';

export type MailSettings = {
  /** smtp:// or smtps:// with the server (and its credentials); null: write each mail to `fileDir` instead. */
  smtpUrl: string | null;
  /** The From of every mail, e.g. `Diadochi <noreply@diadochi.example>`. */
  from: string;
  /** Where mail goes as `.eml` files when there is no SMTP server (`<DATA_DIR>/outbox`). */
  fileDir: string;
  /**
   * SMTP connections kept open at once, each carrying one mail after another (nodemailer's pool): the delivery
   * worker's concurrency is the useful number, since it never has more mails out at once.
   */
  maxConnections: number;
  /**
   * The longest any one SMTP step may take (connecting, the greeting, each reply). The delivery worker gives a whole
   * delivery `sendTimeoutMs` (delivery.ts), so this stays well under it.
   */
  timeoutMs: number;
};

/** Mail sent about an account: goes to an address not yet verified (that is what verifies it). */
export const ACCOUNT_MAIL_KINDS = ['verify-email', 'reset-password', 'change-email-old', 'change-email-new'] as const;
const GAME_EVENTS: ReadonlySet<string> = new Set(NOTIFICATION_EVENTS);

/** Why a refusal was a recipient's (the address is marked) rather than the message's. */
const RECIPIENT_REFUSED = 'recipient refused';

type SmtpError = Error & { code?: string; responseCode?: number; command?: string; response?: string };

/** The domain of the From address, for Message-IDs (`<row-id@domain>`). */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim() || 'localhost';
}

export function messageIdOf(rowId: string, from: string): string {
  return `<${rowId}@${senderDomain(from)}>`;
}

/** A file the mail carries, made when it is delivered. */
export type MailAttachment = { filename: string; contentType: string; content: Buffer };

/**
 * The phase's map a mail attaches (`payload.map`), drawn when the mail is delivered; null when there is none to draw
 * (a variant without a drawing, a phase gone). Given by whoever builds the transport (notify/plugin.ts).
 */
export type MapAttacher = (map: NonNullable<MailPayload['map']>) => Promise<MailAttachment | null>;

/** The mail nodemailer composes from a row: its own Message-ID, From, To and Date, then the payload's. */
export function composeMail(message: Delivery<MailPayload>, from: string, now = new Date(), attachments: readonly MailAttachment[] = []): Mail.Options {
  const { payload } = message;
  return {
    messageId: messageIdOf(message.id, from),
    from,
    to: message.target,
    date: now,
    subject: payload.subject,
    text: payload.text,
    ...(payload.html !== undefined ? { html: payload.html } : {}),
    // RFC 3834: automatic mail, so auto-responders leave it alone.
    headers: { 'Auto-Submitted': 'auto-generated', ...payload.headers },
    attachments: attachments.map((attachment) => ({ ...attachment })),
    // The payload's text is ours: never let nodemailer read files or URLs named in it.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** What an SMTP failure means for the row. */
export function classifySmtpError(error: unknown): DeliveryResult {
  const smtp = error as SmtpError;
  const reply = (smtp.response ?? smtp.message ?? String(error)).slice(0, 500);
  const code = smtp.responseCode;
  // 5xx but 503 ("bad sequence": our side's or a broken connection's fault) is final.
  const permanent = code !== undefined && code >= 500 && code < 600 && code !== 503;
  if (permanent && smtp.command === 'RCPT TO') return { outcome: 'refused', error: `${RECIPIENT_REFUSED}: ${reply}` };
  if (permanent && smtp.command === 'DATA') return { outcome: 'refused', error: `message refused: ${reply}` };
  return { outcome: 'retry', error: `${smtp.code ?? 'error'}${smtp.command ? ` at ${smtp.command}` : ''}: ${reply}` };
}

export class MailTransport implements Transport<MailPayload> {
  private readonly smtp: Transporter | null;
  private readonly composer: Transporter;

  constructor(
    readonly settings: MailSettings,
    private readonly log: FastifyBaseLogger,
    private readonly attachMap: MapAttacher | null = null,
  ) {
    this.smtp = settings.smtpUrl
      ? nodemailer.createTransport({
          url: settings.smtpUrl,
          pool: true,
          maxConnections: settings.maxConnections,
          connectionTimeout: settings.timeoutMs,
          greetingTimeout: settings.timeoutMs,
          socketTimeout: settings.timeoutMs,
          dnsTimeout: settings.timeoutMs,
        })
      : null;
    // RFC 5322 bytes (CRLF lines), nodemailer's own MIME: the file outbox's mail is exactly what SMTP would carry.
    this.composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  }

  /** Mail that must not go, judged on the users row as it was when the message was claimed: the reason, or null. */
  screen(_db: Db, message: Delivery<MailPayload>, recipient: RecipientFacts): string | null {
    if (recipient.addressUndeliverable !== null) return `address undeliverable: ${recipient.addressUndeliverable}`;
    if (message.userId !== null && GAME_EVENTS.has(message.payload.kind)) {
      // Game mail goes only to the address the user has now, and only once they have shown it is theirs.
      if (recipient.userAddress !== message.target.toLowerCase()) return 'address no longer the user’s';
      if (!recipient.userVerified) return 'address not verified (only account mail goes to it)';
    }
    return null;
  }

  async deliver(message: Delivery<MailPayload>): Promise<DeliveryResult> {
    const mail = composeMail(message, this.settings.from, new Date(), await this.attachmentsOf(message));
    if (!this.smtp) return this.writeFile(message, mail);
    try {
      // The SMTP server's 250 is the moment the mail is out: from here until the row's commit is the only window
      // in which a crash makes it go twice (same Message-ID).
      await this.smtp.sendMail(mail);
      return { outcome: 'sent' };
    } catch (error) {
      return classifySmtpError(error);
    }
  }

  /** The files the mail carries: the phase's map when it names one. A map that cannot be drawn leaves the mail without it. */
  private async attachmentsOf(message: Delivery<MailPayload>): Promise<MailAttachment[]> {
    const { map } = message.payload;
    if (!map || !this.attachMap) return [];
    try {
      const attachment = await this.attachMap(map);
      return attachment ? [attachment] : [];
    } catch (error) {
      this.log.warn({ err: error, outboxId: message.id, map }, 'the map to attach could not be drawn: the mail goes without it');
      return [];
    }
  }

  /** A recipient refused for good: nothing more is sent to that address while it is still the user's. */
  async refused(prisma: PrismaClient, message: Delivery<MailPayload>, error: string): Promise<void> {
    if (!error.startsWith(RECIPIENT_REFUSED)) return;
    const reason = error.slice(0, 300);
    const address = message.target.toLowerCase();
    const marked = await prisma.$executeRaw`
      UPDATE users SET email_undeliverable_at = now(), email_undeliverable_reason = ${reason}
      WHERE email_key = ${address} AND email_undeliverable_at IS NULL`;
    if (marked > 0) this.log.warn({ userId: message.userId, reason }, 'mail address refused: marked undeliverable');
  }

  async close(): Promise<void> {
    this.smtp?.close();
    this.composer.close();
  }

  private async writeFile(message: Delivery<MailPayload>, mail: Mail.Options): Promise<DeliveryResult> {
    try {
      const info = await this.composer.sendMail(mail);
      await mkdir(this.settings.fileDir, { recursive: true });
      // Named by the row: a retried row writes the same file again rather than a second one.
      const file = path.join(this.settings.fileDir, `${message.id}.eml`);
      const partial = `${file}.partial`;
      await writeFile(partial, info.message as Buffer);
      await rename(partial, file);
      this.log.info({ to: message.target, subject: message.payload.subject, file }, 'mail written to the file outbox (no SMTP_URL set)');
      return { outcome: 'sent' };
    } catch (error) {
      return { outcome: 'retry', error: `writing the mail file failed: ${(error as Error).message}`.slice(0, 500) };
    }
  }
}
