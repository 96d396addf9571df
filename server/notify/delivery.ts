/**
 * The outbox's delivery worker. Every instance runs it; it claims due messages one at a time, each in its own
 * transaction, and hands each to its channel's transport (mail.ts, push.ts, webhook.ts) while holding the row:
 *
 *   BEGIN;
 *   SELECT … FROM outbox WHERE status = 'pending' AND next_attempt_at <= now
 *     ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED;
 *   -- deliver (SMTP, push service, webhook), the row still locked
 *   UPDATE outbox SET status = 'sent' | 'failed' | (pending, later) …;
 *   COMMIT;
 *
 * Exactly once, as far as it can be: two instances never hold the same row (the second skips it), and the row is
 * marked in the transaction that holds it, so whoever claims it next finds it done. An instance that dies before
 * the receiver accepted the message (SIGKILL, a lost database connection) rolls back: the row is pending again for
 * any instance. The one window left for a duplicate is between the receiver's acceptance (SMTP's 250, the push
 * service's 201) and our COMMIT: a crash there sends the message again later, with the same Message-ID for mail, so
 * the receiving side can drop the copy. The transaction's timeout bounds how long a row is held, so each transport
 * bounds its own calls well under it (mail: `timeoutMs`).
 *
 * Failures: a transport's `retry` is tried again after an exponential backoff with jitter (1 min, 2, 4, … at most
 * 6 h), up to `maxAttempts`, then the row fails; a `refused` fails at once and the transport's `refused` hook records
 * it (a bounced address marked undeliverable). A payload its schema refuses, a channel's `screen` (mail to an
 * unverified or undeliverable address) and an exception in a transport fail or retry the row; none stops the loop.
 *
 * On PGlite (one connection, one process) a transaction holds the whole database, so a delivery there does not hold
 * it while it waits on the receiver: the message is claimed in one short transaction, kept from this process's other
 * workers in memory (`inFlight`), delivered, and settled in another. A crash between the two leaves the row pending,
 * as above.
 *
 * The loop is the instance's one polling loop (play/polling-loop.ts), every `intervalMs`; `wake()` only cuts latency.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Prisma, type PrismaClient, type Transaction } from '../db/database.ts';
import { MailPayloadSchema, PushPayloadSchema, WebhookPayloadSchema } from '../../shared/api/notifications.ts';
import type { Delivery, DeliveryResult, Transport, Transports } from './transport.ts';
import { PollingLoop } from '../play/polling-loop.ts';

export type DeliveryOptions = {
  /** Off in most tests, which call deliverDue() themselves. */
  enabled: boolean;
  intervalMs: number;
  /** Messages handled at most per tick (a full batch goes on at once). */
  batch: number;
  /** Messages delivered at once, each in its own transaction holding a database connection. */
  concurrency: number;
  /** Tries before a message that keeps failing for a reason that may pass (4xx, timeouts) is given up. */
  maxAttempts: number;
  /** The first retry's delay; each next one doubles, up to `backoffMaxMs` (each ±20 % at random). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** The longest a delivery's transaction may hold its row (and a connection). */
  transactionTimeoutMs: number;
  /** Sent and failed messages are deleted this many days after they were written (the loop trims once an hour). */
  keepDays: number;
};

export const DEFAULT_DELIVERY: DeliveryOptions = {
  enabled: true,
  intervalMs: 1000,
  batch: 200,
  concurrency: 4,
  maxAttempts: 10,
  backoffBaseMs: 60_000,
  backoffMaxMs: 6 * 3600_000,
  transactionTimeoutMs: 120_000,
  keepDays: 30,
};

const TRIM_EVERY_MS = 3600_000;
/** Rows one trim deletes at most (the next hour's trim goes on). */
const TRIM_BATCH = 10_000;

/**
 * What the users table says of a message's recipient, read with the claim (one statement per message, not two):
 * the recipient user's address now and whether it is verified, and whether the target address is marked
 * undeliverable (whoever's it is).
 */
export type RecipientFacts = {
  /** The recipient user's address now (lower-cased; null: none, or no such user or no user named). */
  userAddress: string | null;
  userVerified: boolean;
  /** Why the target address is marked undeliverable; null when it is not. */
  addressUndeliverable: string | null;
};

/**
 * A transport may also say, under the row's lock, that a message must not go (the reason): mail to an unverified or
 * undeliverable address (mail.ts, from the recipient's facts), push to a subscription gone, a webhook turned off.
 */
type Screening = { screen?(tx: Transaction, message: Delivery<unknown>, recipient: RecipientFacts): Promise<string | null> | string | null };
type AnyTransport = Transport<unknown> & Screening;

const PAYLOAD_SCHEMAS = { mail: MailPayloadSchema, push: PushPayloadSchema, webhook: WebhookPayloadSchema } as const;
type Channel = keyof typeof PAYLOAD_SCHEMAS;

type ClaimedRow = {
  id: string;
  user_address: string | null;
  user_verified: boolean;
  address_undeliverable: string | null;
  channel: Channel;
  dedupe_key: string;
  user_id: string | null;
  game_id: string | null;
  target: string;
  payload: string;
  attempts: number;
};

type Outcome = 'none' | 'sent' | 'retried' | 'failed' | 'error';
type Claim = { kind: 'claimed'; row: ClaimedRow; message: Delivery<unknown>; transport: AnyTransport };
type Refusal = { transport: AnyTransport; message: Delivery<unknown>; error: string };

/** Messages being delivered outside a transaction (PGlite), per database: every app on it in this process skips them. */
const deliveringOn = new WeakMap<PrismaClient, Set<string>>();
export type DeliveryCounts = { sent: number; retried: number; failed: number };

/** The delay before the next try after `attempts` tries: base · 2^(attempts−1), at most max, times a random 0.8–1.2. */
export function backoffMs(attempts: number, options: Pick<DeliveryOptions, 'backoffBaseMs' | 'backoffMaxMs'>, random = Math.random): number {
  const nominal = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.round(nominal * (0.8 + 0.4 * random()));
}

const clip = (text: string, length = 1000) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

export class DeliveryWorker {
  private readonly loop: PollingLoop;
  /** Set by stop(): calls under way deliver no further message. */
  private closing = false;
  /** Since start: messages sent, tries to be retried later, messages failed for good, and transactions that failed (rolled back). */
  readonly stats = { sent: 0, retried: 0, failed: 0, errors: 0 };

  constructor(
    private readonly prisma: PrismaClient,
    /** The channels this instance delivers (other plugins may add theirs before the app is ready). */
    readonly transports: Transports,
    private readonly log: FastifyBaseLogger,
    readonly options: DeliveryOptions,
    /**
     * PostgreSQL: hold each row's lock while delivering (see above). PGlite (false): its one connection cannot be
     * held that long, so a message is claimed and settled in two short transactions and delivered between them.
     */
    private readonly holdRowWhileDelivering = true,
    private readonly random: () => number = Math.random,
  ) {
    if (!deliveringOn.has(prisma)) deliveringOn.set(prisma, new Set());
    this.inFlight = deliveringOn.get(prisma)!;
    this.loop = new PollingLoop(
      async () => {
        await this.trimHourly();
        const counts = await this.deliverDue();
        // A full batch: more may be due (a thousand games' deadlines falling together); go on at once.
        return counts.sent + counts.retried + counts.failed >= options.batch;
      },
      options.intervalMs,
      log,
      'outbox delivery tick failed',
    );
  }

  private readonly inFlight: Set<string>;
  private lastTrim = 0;

  start(): void {
    if (this.options.enabled) this.loop.start();
  }

  /** Stops the loop and waits for the deliveries under way (graceful shutdown). */
  stop(): Promise<void> {
    this.closing = true;
    return this.loop.stop();
  }

  /** Look for due messages now rather than at the next tick (after a request that enqueued some). */
  wake(): void {
    this.loop.wake();
  }

  private async trimHourly(): Promise<void> {
    if (Date.now() - this.lastTrim < TRIM_EVERY_MS) return;
    this.lastTrim = Date.now();
    const deleted = await this.trim();
    if (deleted > 0) this.log.info({ deleted, keepDays: this.options.keepDays }, 'old outbox messages deleted');
  }

  /**
   * Deletes sent and failed messages written more than `keepDays` before `now` (at most TRIM_BATCH): the table would
   * otherwise keep every mail ever sent. Their dedupe keys name events long past, which are not written again.
   */
  async trim(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.options.keepDays * 24 * 3600_000).toISOString();
    return this.prisma.$executeRaw`
      DELETE FROM outbox WHERE id IN (
        SELECT id FROM outbox WHERE status <> 'pending' AND created_at < ${cutoff}::timestamptz LIMIT ${TRIM_BATCH})`;
  }

  /**
   * Delivers the messages due at `now` (tests pass a later time to move the clock on), each in its own
   * transaction, `concurrency` at once; returns what became of them.
   */
  async deliverDue(now: Date = new Date(), limit = this.options.batch): Promise<DeliveryCounts> {
    const counts: DeliveryCounts = { sent: 0, retried: 0, failed: 0 };
    let handled = 0;
    let inFlight = 0;
    // Rows this call could not settle (their transaction failed): left for a later call.
    const passed: string[] = [];
    const worker = async () => {
      while (handled + inFlight < limit && !this.closing) {
        inFlight += 1;
        let outcome: Outcome;
        try {
          outcome = await this.claimAndDeliver(now, passed);
        } finally {
          inFlight -= 1;
        }
        if (outcome === 'none') break;
        if (outcome === 'error') continue;
        handled += 1;
        counts[outcome] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.options.concurrency) }, worker));
    return counts;
  }

  private async claimAndDeliver(now: Date, passed: string[]): Promise<Outcome> {
    const channels = (Object.keys(PAYLOAD_SCHEMAS) as Channel[]).filter((channel) => this.transports[channel] !== undefined);
    // A channel this instance has no transport for (push without keys) waits for one that has.
    if (channels.length === 0) return 'none';
    let claimed: ClaimedRow | undefined;
    const onClaim = (row: ClaimedRow) => {
      claimed = row;
    };
    const settled: { refusal?: Refusal } = {};
    const options = { maxWait: 20_000, timeout: this.options.transactionTimeoutMs };
    try {
      let outcome: Outcome;
      if (this.holdRowWhileDelivering) {
        outcome = await this.prisma.$transaction(async (tx) => {
          const claim = await this.claim(tx, now, channels, passed, onClaim);
          if (claim.kind === 'done') return claim.outcome;
          return this.settle(tx, claim, await this.deliverOne(claim), now, settled);
        }, options);
      } else {
        // PGlite: one connection, which a transaction holds whole; so the message is claimed (kept from this
        // process's other workers by `inFlight`: one process owns the database) and settled in two short ones.
        const claim = await this.prisma.$transaction((tx) => this.claim(tx, now, channels, passed, onClaim), options);
        if (claim.kind === 'done') return claim.outcome;
        try {
          const result = await this.deliverOne(claim);
          outcome = await this.prisma.$transaction((tx) => this.settle(tx, claim, result, now, settled), options);
        } finally {
          this.inFlight.delete(claim.row.id);
        }
      }
      // After the commit (its own statements: on PGlite the transaction held the one connection).
      const refusal = settled.refusal;
      if (refusal?.transport.refused) {
        await refusal.transport
          .refused(this.prisma, refusal.message, refusal.error)
          .catch((error: unknown) => this.log.error({ err: error, outboxId: refusal.message.id }, 'recording a refused outbox message failed'));
      }
      return outcome;
    } catch (error) {
      if (claimed === undefined) throw error;
      this.inFlight.delete(claimed.id);
      // Rolled back: the row is pending as it was (should the receiver have accepted it already, it goes again later).
      this.log.error({ err: error, outboxId: claimed.id, channel: claimed.channel }, 'delivering an outbox message failed; it stays pending');
      passed.push(claimed.id);
      this.stats.errors += 1;
      return 'error';
    }
  }

  /** Claims the next due message, locked for this transaction; fails it here when it cannot or must not go. */
  private async claim(
    tx: Transaction,
    now: Date,
    channels: Channel[],
    passed: string[],
    onClaim: (row: ClaimedRow) => void,
  ): Promise<Claim | { kind: 'done'; outcome: Outcome }> {
    const skip = [...passed, ...this.inFlight];
    const exclude = skip.length > 0 ? Prisma.sql`AND id NOT IN (${Prisma.join(skip.map((id) => Prisma.sql`${id}::uuid`))})` : Prisma.empty;
    // Under READ COMMITTED, a row another transaction changed and committed before we lock it is checked against
    // this WHERE again once locked: a row just sent elsewhere is not claimed. The recipient's facts come along
    // (see RecipientFacts), read as of now, not locked.
    // The row is chosen and locked by its id alone, then read whole and joined: selecting the payload in the same
    // query made PostgreSQL sort every due row with its payload for each claim (570 ms per claim with 7,000 due; 3 ms so).
    const rows = await tx.$queryRaw<ClaimedRow[]>`
      WITH claimed AS (
        SELECT id FROM outbox
        WHERE status = 'pending' AND next_attempt_at <= ${now.toISOString()}::timestamptz
          AND channel::text IN (${Prisma.join(channels)}) ${exclude}
        ORDER BY next_attempt_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      )
      SELECT o.id::text AS id, o.channel::text AS channel, o.dedupe_key, o.user_id::text AS user_id, o.game_id::text AS game_id,
        o.target, o.payload::text AS payload, o.attempts,
        r.email_key AS user_address, r.email_verified_at IS NOT NULL AS user_verified,
        CASE WHEN a.email_undeliverable_at IS NULL THEN NULL ELSE coalesce(a.email_undeliverable_reason, 'refused') END AS address_undeliverable
      FROM claimed JOIN outbox o ON o.id = claimed.id
        LEFT JOIN users r ON r.id = o.user_id
        LEFT JOIN users a ON o.channel = 'mail' AND a.email_key = lower(o.target)`;
    if (rows.length === 0) return { kind: 'done', outcome: 'none' };
    const row = rows[0];
    onClaim(row);
    const done = async (error: string) => ({ kind: 'done' as const, outcome: await this.fail(tx, row, error) });
    const parsed = PAYLOAD_SCHEMAS[row.channel].safeParse(safeJson(row.payload));
    if (!parsed.success)
      return done(`payload invalid: ${clip(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '), 500)}`);
    const transport = this.transports[row.channel] as AnyTransport;
    const message: Delivery<unknown> = {
      id: row.id,
      dedupeKey: row.dedupe_key,
      userId: row.user_id,
      gameId: row.game_id,
      target: row.target,
      payload: parsed.data,
      attempts: row.attempts,
    };
    const unwanted = await transport.screen?.(tx, message, {
      userAddress: row.user_address,
      userVerified: row.user_verified,
      addressUndeliverable: row.address_undeliverable,
    });
    if (unwanted) return done(`not sent: ${unwanted}`);
    if (!this.holdRowWhileDelivering) {
      this.inFlight.add(row.id);
      // Counted as it starts, not once settled: a writer that adds to a message still waiting (batched press,
      // `attempts = 0`) leaves this one, now on its way unlocked, alone.
      await tx.$executeRaw`UPDATE outbox SET attempts = ${row.attempts + 1} WHERE id = ${row.id}::uuid`;
    }
    return { kind: 'claimed', row, message, transport };
  }

  private async deliverOne({ row, message, transport }: Claim): Promise<DeliveryResult> {
    try {
      return await transport.deliver(message);
    } catch (error) {
      return { outcome: 'retry', error: `the ${row.channel} transport threw: ${(error as Error).message ?? String(error)}` };
    }
  }

  /** Records what became of a delivery. */
  private async settle(
    tx: Transaction,
    { row, message, transport }: Claim,
    result: DeliveryResult,
    now: Date,
    settled: { refusal?: Refusal },
  ): Promise<Outcome> {
    const attempts = row.attempts + 1;
    // From the receiver's acceptance to this COMMIT is the only window in which a crash sends the message twice.
    if (result.outcome === 'sent') {
      await tx.$executeRaw`
        UPDATE outbox SET status = 'sent', attempts = ${attempts}, sent_at = ${now.toISOString()}::timestamptz, last_error = NULL
        WHERE id = ${row.id}::uuid`;
      this.stats.sent += 1;
      this.log.debug({ outboxId: row.id, channel: row.channel }, 'outbox message sent');
      return 'sent';
    }
    if (result.outcome === 'refused') {
      settled.refusal = { transport, message, error: result.error };
      return this.fail(tx, row, result.error);
    }
    if (attempts >= this.options.maxAttempts) return this.fail(tx, row, `gave up after ${attempts} attempts: ${result.error}`);
    const next = new Date(now.getTime() + backoffMs(attempts, this.options, this.random));
    await tx.$executeRaw`
      UPDATE outbox SET attempts = ${attempts}, next_attempt_at = ${next.toISOString()}::timestamptz, last_error = ${clip(result.error)}
      WHERE id = ${row.id}::uuid`;
    this.stats.retried += 1;
    this.log.info({ outboxId: row.id, channel: row.channel, attempts, next, error: result.error }, 'outbox message will be tried again');
    return 'retried';
  }

  private async fail(tx: Transaction, row: ClaimedRow, error: string): Promise<'failed'> {
    await tx.$executeRaw`
      UPDATE outbox SET status = 'failed', attempts = ${row.attempts + 1}, last_error = ${clip(error)} WHERE id = ${row.id}::uuid`;
    this.stats.failed += 1;
    this.log.warn({ outboxId: row.id, channel: row.channel, userId: row.user_id, error }, 'outbox message failed');
    return 'failed';
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
