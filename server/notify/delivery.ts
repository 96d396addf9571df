/**
 * The outbox's delivery worker. Every instance runs it. It takes due messages under a lease, so that no database
 * connection or row lock is held while a receiver (an SMTP server, a push service, a webhook) is talked to:
 *
 *   -- claim: one short statement, a batch at a time
 *   UPDATE outbox SET claimed_by = <this worker>, claimed_until = now() + lease, attempts = attempts + 1
 *   WHERE id IN (SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= now
 *                  AND (claimed_until IS NULL OR claimed_until <= now())
 *                ORDER BY next_attempt_at LIMIT n FOR UPDATE SKIP LOCKED)
 *   -- deliver each, `concurrency` at once (mail over a pool of that many SMTP connections)
 *   -- settle: one statement for every outcome known by then, and only for rows still held by this claim
 *   UPDATE outbox SET status = 'sent' | 'failed' | (pending, later), claimed_by = NULL … WHERE claimed_by = <this
 *     worker> AND attempts = <the claim's>
 *
 * Exactly once, as far as it can be: two workers never hold the same row (SKIP LOCKED, then the lease keeps the
 * others off it), and a row is marked as soon as its receiver has answered: settlements are written in groups, each
 * statement taking every outcome that arrived in the 20 ms before it or while the previous one ran, so a mark follows
 * its answer by about that and one statement's time. An instance that dies (SIGKILL, a lost database) leaves its
 * rows pending and claimed until their lease runs out; then any instance claims them again. Rows it had not started
 * go late (by up to the lease), not twice; the one window for a duplicate is between a receiver's acceptance (SMTP's
 * 250, the push service's 201) and its row's mark: a crash there sends the message again after the lease, with the
 * same Message-ID for mail, so the receiving side can drop the copy.
 *
 * The lease outlasts every delivery started under it: each delivery is abandoned (and tried again later) after
 * `sendTimeoutMs`, and none is started with less than that (and a margin) left; rows it cannot start in time are
 * given back at once, untried, as are those not started when the worker stops. A settlement names the claim
 * (`claimed_by` and the attempt it counted), so a worker whose lease was taken over (it stalled past it) cannot
 * overwrite what the next holder recorded.
 *
 * `attempts` counts tries started (the claim counts it): a row that is being sent is not a waiting one (batched press
 * adds to a mail only while `attempts = 0`, game-events.ts), and a message that kills its instance every time is given
 * up after `maxAttempts` claims like any other.
 *
 * Failures: a transport's `retry` is tried again after an exponential backoff with jitter (1 min, 2, 4, … at most
 * 6 h), up to `maxAttempts`, then the row fails; a `refused` fails at once and the transport's `refused` hook records
 * it once the row is marked (a bounced address marked undeliverable). A payload its schema refuses, a channel's
 * `screen` (mail to an unverified or undeliverable address) and an exception in a transport fail or retry the row;
 * none stops the loop.
 *
 * The same on PGlite (one connection, one process): no statement waits on a receiver.
 * The loop is the instance's one polling loop (play/polling-loop.ts), every `intervalMs`; `wake()` only cuts latency.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { Prisma, type Db, type PrismaClient } from '../db/database.ts';
import { MailPayloadSchema, PushPayloadSchema, WebhookPayloadSchema } from '../../shared/api/notifications.ts';
import type { Delivery, DeliveryResult, Transport, Transports } from './transport.ts';
import { PollingLoop } from '../play/polling-loop.ts';

export type DeliveryOptions = {
  /** Off in most tests, which call deliverDue() themselves. */
  enabled: boolean;
  intervalMs: number;
  /** Messages handled at most per round (a full round goes on at once). */
  batch: number;
  /** Messages being delivered at once (mail: the SMTP connections kept open); none holds a database connection. */
  concurrency: number;
  /** Rows one claim takes (a statement per that many messages); the next claim is made while the last ones go. */
  claimBatch: number;
  /** How long a claim keeps the rows from other instances: what a crash delays the rows it had not sent by. */
  leaseMs: number;
  /** The longest one delivery may take; then it is abandoned and tried again later (a retry). */
  sendTimeoutMs: number;
  /** Tries before a message that keeps failing for a reason that may pass (4xx, timeouts) is given up. */
  maxAttempts: number;
  /** The first retry's delay; each next one doubles, up to `backoffMaxMs` (each ±20 % at random). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Sent and failed messages are deleted this many days after they were written (the loop trims once an hour). */
  keepDays: number;
};

export const DEFAULT_DELIVERY: DeliveryOptions = {
  enabled: true,
  intervalMs: 1000,
  batch: 200,
  concurrency: 4,
  claimBatch: 50,
  leaseMs: 5 * 60_000,
  sendTimeoutMs: 60_000,
  maxAttempts: 10,
  backoffBaseMs: 60_000,
  backoffMaxMs: 6 * 3600_000,
  keepDays: 30,
};

const TRIM_EVERY_MS = 3600_000;
/** Rows one trim deletes at most (the next hour's trim goes on). */
const TRIM_BATCH = 10_000;
/** Lease kept in hand beyond a delivery's timeout before one is started: the settlement's own time, a clock's drift. */
const LEASE_MARGIN_MS = 10_000;
/** Tries of a settlement statement before its rows are left to their lease (a lost connection; then they go again). */
const SETTLE_TRIES = 3;
/**
 * How long an outcome waits for others to share its statement, unless `SETTLE_GROUP` are waiting: fewer statements
 * (each a round trip that wakes the database) for a mark at most this much later.
 */
const SETTLE_GATHER_MS = 20;
const SETTLE_GROUP = 50;

/**
 * What the users table says of a message's recipient, read with the claim (in its statement): the recipient user's
 * address now and whether it is verified, and whether the target address is marked undeliverable (whoever's it is).
 */
export type RecipientFacts = {
  /** The recipient user's address now (lower-cased; null: none, or no such user or no user named). */
  userAddress: string | null;
  userVerified: boolean;
  /** Why the target address is marked undeliverable; null when it is not. */
  addressUndeliverable: string | null;
};

/**
 * A transport may also say, just before delivering, that a message must not go (the reason): mail to an unverified
 * or undeliverable address (mail.ts, from the recipient's facts), a webhook turned off (webhook.ts).
 */
type Screening = { screen?(db: Db, message: Delivery<unknown>, recipient: RecipientFacts): Promise<string | null> | string | null };
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
  /** Counting this claim's try. */
  attempts: number;
};
/** A claimed row and when (performance.now()) its lease runs out, as this process reckons it. */
type Held = { row: ClaimedRow; leaseEnds: number };

/** What becomes of a held row, written by the settlement statement. */
type Settlement = {
  row: ClaimedRow;
  /** sent; failed; retry (pending, later); release (pending, as it was: never tried under this claim). */
  fate: 'sent' | 'failed' | 'retry' | 'release';
  error: string | null;
  nextAttemptAt: Date | null;
  sentAt: Date | null;
  /** The transport's hook to call once the row is marked failed (a refusal). */
  refusal?: { transport: AnyTransport; message: Delivery<unknown>; error: string };
};

export type DeliveryCounts = { sent: number; retried: number; failed: number };

/** The delay before the next try after `attempts` tries: base · 2^(attempts−1), at most max, times a random 0.8–1.2. */
export function backoffMs(attempts: number, options: Pick<DeliveryOptions, 'backoffBaseMs' | 'backoffMaxMs'>, random = Math.random): number {
  const nominal = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.round(nominal * (0.8 + 0.4 * random()));
}

const clip = (text: string, length = 1000) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/** This worker's name in `claimed_by`: which host and process holds a row, and a random part for each worker. */
function workerName(): string {
  return `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

/** Refuses delivery options that could not keep their promise (a lease shorter than a delivery may take). */
export function checkDeliveryOptions(options: DeliveryOptions): DeliveryOptions {
  const whole = (name: keyof DeliveryOptions, min: number) => {
    const value = options[name] as number;
    if (!Number.isInteger(value) || value < min) throw new Error(`outbox delivery: ${name} must be a whole number of at least ${min} (is ${value})`);
  };
  whole('batch', 1);
  whole('concurrency', 1);
  whole('claimBatch', 1);
  whole('sendTimeoutMs', 100);
  whole('maxAttempts', 1);
  if (options.leaseMs < 2 * options.sendTimeoutMs + LEASE_MARGIN_MS)
    throw new Error(
      `outbox delivery: leaseMs (${options.leaseMs}) must be at least twice sendTimeoutMs (${options.sendTimeoutMs}) plus ${LEASE_MARGIN_MS} ms, so that a claim outlasts the deliveries started under it`,
    );
  return options;
}

export class DeliveryWorker {
  private readonly loop: PollingLoop;
  /** Set by stop(): rows not yet started are given back. */
  private closing = false;
  /** Since start: messages sent, tries to be retried later, messages failed for good, and errors (a claim or settlement that failed, a lease lost). */
  readonly stats = { sent: 0, retried: 0, failed: 0, errors: 0 };
  /** This worker's `claimed_by`. */
  readonly name = workerName();
  readonly options: DeliveryOptions;
  private lastTrim = 0;
  /** Settlements waiting for the next statement, the statement under way, and the wait for more to join it. */
  private waiting: Array<{ settlement: Settlement; done: () => void }> = [];
  private settling: Promise<void> | undefined;
  private gathering: NodeJS.Timeout | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    /** The channels this instance delivers (other plugins may add theirs before the app is ready). */
    readonly transports: Transports,
    private readonly log: FastifyBaseLogger,
    options: DeliveryOptions,
    private readonly random: () => number = Math.random,
  ) {
    this.options = checkDeliveryOptions(options);
    this.loop = new PollingLoop(
      async () => {
        await this.trimHourly();
        const counts = await this.deliverDue();
        // A full round: more may be due (a thousand games' deadlines falling together); go on at once.
        return counts.sent + counts.retried + counts.failed >= this.options.batch;
      },
      options.intervalMs,
      log,
      'outbox delivery tick failed',
    );
  }

  start(): void {
    if (this.options.enabled) this.loop.start();
  }

  /** Stops the loop and waits for the deliveries under way; rows claimed but not started are given back (graceful shutdown). */
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
   * Delivers up to `limit` messages due at `now` (tests pass a later time to move the clock on; leases are on the
   * database's clock), `concurrency` at once; returns what became of them once every outcome is written.
   */
  async deliverDue(now: Date = new Date(), limit = this.options.batch): Promise<DeliveryCounts> {
    const counts: DeliveryCounts = { sent: 0, retried: 0, failed: 0 };
    const channels = (Object.keys(PAYLOAD_SCHEMAS) as Channel[]).filter((channel) => this.transports[channel] !== undefined);
    // A channel this instance has no transport for (push without keys) waits for one that has.
    if (channels.length === 0) return counts;
    const queue: Held[] = [];
    const settled: Promise<void>[] = [];
    let claimedSoFar = 0;
    let exhausted = false;
    let claiming: Promise<void> | undefined;
    // One claim at a time, made when the queue runs low so that the next rows are in hand when the last ones go.
    const claimMore = () =>
      (claiming ??= (async () => {
        const size = Math.min(this.options.claimBatch, limit - claimedSoFar);
        if (size <= 0 || this.closing) {
          exhausted = true;
          return;
        }
        try {
          const held = await this.claim(now, channels, size);
          claimedSoFar += held.length;
          queue.push(...held);
          if (held.length < size) exhausted = true;
        } catch (error) {
          exhausted = true;
          this.stats.errors += 1;
          this.log.error({ err: error }, 'claiming outbox messages failed');
        }
      })().finally(() => {
        claiming = undefined;
      }));
    const slot = async () => {
      for (;;) {
        if (!exhausted && queue.length <= this.options.concurrency) void claimMore();
        const held = queue.shift();
        if (!held) {
          if (exhausted && !claiming) return;
          await claimMore();
          continue;
        }
        const settlement = await this.handle(held, now);
        if (settlement.fate === 'sent') counts.sent += 1;
        else if (settlement.fate === 'retry') counts.retried += 1;
        else if (settlement.fate === 'failed') counts.failed += 1;
        settled.push(this.settle(settlement));
      }
    };
    await Promise.all(Array.from({ length: this.options.concurrency }, slot));
    await Promise.all(settled);
    return counts;
  }

  /** Claims up to `size` due rows for this worker, with their recipients' facts, in one statement. */
  private async claim(now: Date, channels: Channel[], size: number): Promise<Held[]> {
    // Reckoned before the statement: the lease this process counts on ends no later than the one written.
    const leaseEnds = performance.now() + this.options.leaseMs;
    const at = now.toISOString();
    // Under READ COMMITTED a row another worker claimed and committed meanwhile is checked against the WHERE again once
    // locked, and skipped. The row is chosen by its id alone, then read whole: selecting the payload where the rows
    // are chosen made PostgreSQL sort every due row with its payload (570 ms a claim with 7,000 due). Leases are
    // reckoned on the database's clock alone, which every instance shares: an instance whose clock runs ahead cannot
    // end another's lease early (nor a test's later `now` its own claims).
    const rows = await this.prisma.$queryRaw<ClaimedRow[]>`
      WITH picked AS (
        SELECT id FROM outbox
        WHERE status = 'pending' AND next_attempt_at <= ${at}::timestamptz
          AND (claimed_until IS NULL OR claimed_until <= now())
          AND channel::text IN (${Prisma.join(channels)})
        ORDER BY next_attempt_at
        LIMIT ${size}
        FOR UPDATE SKIP LOCKED
      ), claimed AS (
        UPDATE outbox o SET claimed_by = ${this.name}, claimed_until = now() + ${this.options.leaseMs}::int * interval '1 millisecond', attempts = o.attempts + 1
        FROM picked WHERE o.id = picked.id
        RETURNING o.id, o.channel, o.dedupe_key, o.user_id, o.game_id, o.target, o.payload, o.attempts, o.next_attempt_at
      )
      SELECT c.id::text AS id, c.channel::text AS channel, c.dedupe_key, c.user_id::text AS user_id, c.game_id::text AS game_id,
        c.target, c.payload::text AS payload, c.attempts,
        r.email_key AS user_address, r.email_verified_at IS NOT NULL AS user_verified,
        CASE WHEN a.email_undeliverable_at IS NULL THEN NULL ELSE coalesce(a.email_undeliverable_reason, 'refused') END AS address_undeliverable
      FROM claimed c
        LEFT JOIN users r ON r.id = c.user_id
        LEFT JOIN users a ON c.channel = 'mail' AND a.email_key = lower(c.target)
      ORDER BY c.next_attempt_at, c.id`;
    return rows.map((row) => ({ row, leaseEnds }));
  }

  /** Delivers one held row (unless it must not go, or its lease is too short now); says what becomes of it (reckoned from `now`). */
  private async handle({ row, leaseEnds }: Held, now: Date): Promise<Settlement> {
    const outcome = (fate: Settlement['fate'], error: string | null = null): Settlement => ({ row, fate, error, nextAttemptAt: null, sentAt: null });
    if (this.closing || performance.now() + this.options.sendTimeoutMs + LEASE_MARGIN_MS > leaseEnds) return outcome('release');
    // Claimed this often without an outcome: its instance died each time (perhaps of this very message).
    if (row.attempts > this.options.maxAttempts)
      return this.failure(row, `gave up after ${row.attempts - 1} attempts (the last ones ended without an answer: the instance stopped)`);
    const parsed = PAYLOAD_SCHEMAS[row.channel].safeParse(safeJson(row.payload));
    if (!parsed.success)
      return this.failure(row, `payload invalid: ${clip(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '), 500)}`);
    const transport = this.transports[row.channel] as AnyTransport;
    const message: Delivery<unknown> = {
      id: row.id,
      dedupeKey: row.dedupe_key,
      userId: row.user_id,
      gameId: row.game_id,
      target: row.target,
      payload: parsed.data,
      attempts: row.attempts - 1,
    };
    let result: DeliveryResult;
    try {
      const unwanted = await transport.screen?.(this.prisma, message, {
        userAddress: row.user_address,
        userVerified: row.user_verified,
        addressUndeliverable: row.address_undeliverable,
      });
      if (unwanted) return this.failure(row, `not sent: ${unwanted}`);
      result = await this.deliverWithin(transport, message);
    } catch (error) {
      result = { outcome: 'retry', error: `the ${row.channel} transport threw: ${(error as Error).message ?? String(error)}` };
    }
    if (result.outcome === 'sent') {
      this.stats.sent += 1;
      return { ...outcome('sent'), sentAt: now };
    }
    if (result.outcome === 'refused') return { ...this.failure(row, result.error), refusal: { transport, message, error: result.error } };
    if (row.attempts >= this.options.maxAttempts) return this.failure(row, `gave up after ${row.attempts} attempts: ${result.error}`);
    const next = new Date(now.getTime() + backoffMs(row.attempts, this.options, this.random));
    this.stats.retried += 1;
    this.log.info({ outboxId: row.id, channel: row.channel, attempts: row.attempts, next, error: result.error }, 'outbox message will be tried again');
    return { ...outcome('retry', clip(result.error)), nextAttemptAt: next };
  }

  private failure(row: ClaimedRow, error: string): Settlement {
    this.stats.failed += 1;
    this.log.warn({ outboxId: row.id, channel: row.channel, userId: row.user_id, error }, 'outbox message failed');
    return { row, fate: 'failed', error: clip(error), nextAttemptAt: null, sentAt: null };
  }

  /** The transport's answer, or a retry once `sendTimeoutMs` has passed without one (the lease must outlast it). */
  private async deliverWithin(transport: AnyTransport, message: Delivery<unknown>): Promise<DeliveryResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<DeliveryResult>((resolve) => {
      timer = setTimeout(() => resolve({ outcome: 'retry', error: `no answer within ${this.options.sendTimeoutMs} ms` }), this.options.sendTimeoutMs);
    });
    try {
      return await Promise.race([transport.deliver(message), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Writes a settlement with the others that come within SETTLE_GATHER_MS or while the statement before it runs (a
   * group: one statement for many rows), then calls a refusal's hook. Resolves once written (or given up: the lease
   * then sends it again).
   */
  private settle(settlement: Settlement): Promise<void> {
    const written = new Promise<void>((done) => this.waiting.push({ settlement, done }));
    this.scheduleSettling();
    return written;
  }

  private scheduleSettling(): void {
    if (this.settling || this.waiting.length === 0) return;
    const start = () => {
      clearTimeout(this.gathering);
      this.gathering = undefined;
      this.settling ??= this.settleWaiting().finally(() => {
        this.settling = undefined;
        this.scheduleSettling();
      });
    };
    if (this.waiting.length >= SETTLE_GROUP || this.closing) start();
    else this.gathering ??= setTimeout(start, SETTLE_GATHER_MS);
  }

  private async settleWaiting(): Promise<void> {
    const group = this.waiting.splice(0);
    const mine = await this.writeSettlements(group.map((entry) => entry.settlement));
    for (const { settlement } of group) {
      const refusal = settlement.refusal;
      if (!refusal?.transport.refused || !mine.has(settlement.row.id)) continue;
      await refusal.transport
        .refused(this.prisma, refusal.message, refusal.error)
        .catch((error: unknown) => this.log.error({ err: error, outboxId: refusal.message.id }, 'recording a refused outbox message failed'));
    }
    for (const entry of group) entry.done();
  }

  /** One statement for the group; returns the ids it marked (a row no longer held by this claim is left alone). */
  private async writeSettlements(group: Settlement[]): Promise<Set<string>> {
    const values = JSON.stringify(
      group.map(({ row, fate, error, nextAttemptAt, sentAt }) => ({
        id: row.id,
        attempts: row.attempts,
        fate,
        error,
        next_attempt_at: nextAttemptAt?.toISOString() ?? null,
        sent_at: sentAt?.toISOString() ?? null,
      })),
    );
    for (let attempt = 1; ; attempt += 1) {
      try {
        const marked = await this.prisma.$queryRaw<Array<{ id: string }>>`
          UPDATE outbox o SET
            status = (CASE WHEN s.fate IN ('sent', 'failed') THEN s.fate ELSE 'pending' END)::outbox_status,
            attempts = o.attempts - (CASE WHEN s.fate = 'release' THEN 1 ELSE 0 END),
            next_attempt_at = coalesce(s.next_attempt_at, o.next_attempt_at),
            last_error = CASE WHEN s.fate = 'release' THEN o.last_error ELSE s.error END,
            sent_at = s.sent_at,
            claimed_by = NULL,
            claimed_until = NULL
          FROM jsonb_to_recordset(${values}::jsonb)
            AS s(id uuid, attempts int, fate text, error text, next_attempt_at timestamptz, sent_at timestamptz)
          WHERE o.id = s.id AND o.claimed_by = ${this.name} AND o.attempts = s.attempts
          RETURNING o.id::text AS id`;
        const mine = new Set(marked.map((row) => row.id));
        const lost = group.filter((settlement) => !mine.has(settlement.row.id));
        if (lost.length > 0) {
          this.stats.errors += lost.length;
          this.log.warn(
            { outboxIds: lost.map((settlement) => settlement.row.id), fates: lost.map((settlement) => settlement.fate) },
            'outbox rows were no longer held by this worker (its lease ran out): their outcome is not recorded',
          );
        }
        return mine;
      } catch (error) {
        if (attempt >= SETTLE_TRIES) {
          this.stats.errors += group.length;
          this.log.error(
            { err: error, outboxIds: group.map((settlement) => settlement.row.id) },
            'recording outbox outcomes failed; the rows go again once their lease ends',
          );
          return new Set();
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
