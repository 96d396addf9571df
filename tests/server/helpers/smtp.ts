/**
 * A real SMTP server for tests (the `smtp-server` package on a free port of 127.0.0.1): every message it accepts is
 * parsed with `mailparser` and kept in `messages`, in the order accepted. Its answers can be steered while it runs:
 * refuse a recipient (550, or a 4xx to defer), refuse or defer a message at DATA, or hold DATA's answer until
 * released (to kill a sender while the message is in the server's hands but not yet accepted).
 *
 *   const smtp = await startSmtpServer();
 *   const app = await buildApp({ …, settings: { …, notify: notifySettings({ smtpUrl: smtp.url }) } });
 *   …enqueue mail, then `await app.notify.worker.deliverDue()` (or let the worker's loop run)…
 *   const [mail] = await smtp.waitFor(1);   // mail.subject, mail.to, mail.messageId, mail.text, mail.html, mail.headers
 *   await smtp.close();
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultSettings, type AppSettings } from '../../../server/settings.ts';

/** An SMTP reply to send instead of accepting: `{ code: 550, message: 'no such user' }`. */
export type SmtpReply = { code: number; message: string };

export type ReceivedMail = ParsedMail & {
  /** The SMTP envelope: MAIL FROM and RCPT TO as the client sent them. */
  envelope: { from: string; to: string[] };
  raw: Buffer;
};

export type SmtpBehaviour = {
  /** Answer RCPT TO for this address with the reply instead of accepting it (lower-cased addresses). */
  recipients: Map<string, SmtpReply>;
  /** Answer each DATA with this reply instead of 250 while it returns one (e.g. a 451 for the first attempts). */
  data: ((mail: ReceivedMail) => SmtpReply | null) | null;
  /** Hold DATA's answer until `release()` (messages held are in `held`); a held message whose client goes away is dropped, never accepted. */
  hold: boolean;
  /** Parse only each message's header block (cheaper: the benchmark's thousands of mails); bodies stay in `raw`. */
  headersOnly: boolean;
};

export type TestSmtp = {
  /** smtp://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Messages accepted (answered 250), in order. */
  messages: ReceivedMail[];
  /** Every DATA received, accepted or not (refusals, deferrals, dropped while held). */
  attempts: ReceivedMail[];
  /** Messages whose DATA answer is being held. */
  held: ReceivedMail[];
  behaviour: SmtpBehaviour;
  /** Refuse RCPT TO for an address (550 by default: a permanent refusal). */
  refuseRecipient(address: string, reply?: SmtpReply): void;
  /** Answer every held DATA with 250 (or the `data` reply) and stop holding. */
  release(): void;
  /** Resolves once at least `count` messages were accepted (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Resolves once `check()` is true, checking whenever something arrives (or rejects after `timeoutMs`). */
  until(check: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

type Pending = { mail: ReceivedMail; session: string; answer: (error?: Error | null) => void };

export async function startSmtpServer(initial: Partial<SmtpBehaviour> = {}): Promise<TestSmtp> {
  const behaviour: SmtpBehaviour = { recipients: new Map(), data: null, hold: false, headersOnly: false, ...initial };
  const messages: ReceivedMail[] = [];
  const attempts: ReceivedMail[] = [];
  const pending: Pending[] = [];
  const closedSessions = new Set<string>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };

  const replyError = (reply: SmtpReply) => Object.assign(new Error(reply.message), { responseCode: reply.code });

  const answer = (entry: Pending) => {
    if (closedSessions.has(entry.session)) {
      // The sender went away before it was told: the message was never accepted.
      entry.answer(replyError({ code: 421, message: 'client gone' }));
      return;
    }
    const reply = behaviour.data?.(entry.mail) ?? null;
    if (reply) {
      entry.answer(replyError(reply));
    } else {
      messages.push(entry.mail);
      entry.answer();
    }
    changed();
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    // No reverse DNS of the client's address (seconds without a resolver).
    disableReverseLookup: true,
    // Many mails from several connections at once in the benchmark.
    maxClients: 200,
    onRcptTo(address, _session, callback) {
      const reply = behaviour.recipients.get(address.address.toLowerCase());
      callback(reply ? replyError(reply) : null);
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const headerEnd = raw.indexOf('\r\n\r\n');
        simpleParser(behaviour.headersOnly && headerEnd >= 0 ? raw.subarray(0, headerEnd + 4) : raw).then(
          (parsed) => {
            const envelope = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            };
            const mail = Object.assign(parsed, { envelope, raw });
            attempts.push(mail);
            const entry: Pending = { mail, session: session.id, answer: callback };
            if (behaviour.hold) {
              pending.push(entry);
              changed();
            } else answer(entry);
          },
          (error: Error) => callback(error),
        );
      });
    },
    onClose(session) {
      closedSessions.add(session.id);
      // Held messages of a client that went away are dropped: it never heard a 250.
      for (let i = pending.length - 1; i >= 0; i--) {
        if (pending[i].session === session.id) pending.splice(i, 1);
      }
      changed();
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  const until = (check: () => boolean, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`SMTP test server: condition not met within ${timeoutMs} ms (${messages.length} accepted, ${pending.length} held)`));
      }, timeoutMs);
      const listener = () => {
        if (!check()) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve();
      };
      listeners.add(listener);
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    attempts,
    get held() {
      return pending.map((entry) => entry.mail);
    },
    behaviour,
    refuseRecipient(address, reply = { code: 550, message: '5.1.1 no such mailbox' }) {
      behaviour.recipients.set(address.toLowerCase(), reply);
    },
    release() {
      behaviour.hold = false;
      for (const entry of pending.splice(0)) answer(entry);
    },
    async waitFor(count, timeoutMs) {
      await until(() => messages.length >= count, timeoutMs);
      return messages;
    },
    until,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A header's value as sent (mailparser folds List-* headers into one `list` object): `headerLine(mail, 'List-Unsubscribe-Post')`. */
export function headerLine(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((header) => header.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

/**
 * The app's `notify` settings for tests: mail through `smtpUrl` (or to .eml files in a temp folder), the worker's
 * loop off unless asked for (tests call `app.notify.worker.deliverDue(now)`).
 */
export function notifySettings(
  options: { smtpUrl?: string | null; fileDir?: string; delivery?: Partial<AppSettings['notify']['delivery']> } = {},
): AppSettings['notify'] {
  const defaults = defaultSettings.notify;
  return {
    mail: {
      ...defaults.mail,
      smtpUrl: options.smtpUrl ?? null,
      fileDir: options.fileDir ?? path.join(tmpdir(), 'diadochi-test-outbox'),
      timeoutMs: 5_000,
    },
    delivery: { ...defaults.delivery, enabled: false, intervalMs: 50, ...options.delivery },
  };
}
