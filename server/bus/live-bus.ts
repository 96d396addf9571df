/**
 * The live event bus. Events are published with PostgreSQL's NOTIFY on one
 * channel and every server instance LISTENs to it, so a websocket on any
 * instance sees events published by any other. NOTIFY inside a transaction is
 * delivered only when the transaction commits: publish with the transaction's
 * client and nobody hears of a change that was rolled back.
 * On PGlite the same SQL works in-process (one instance).
 *
 * Every event is also numbered and logged, in the same statement as its
 * NOTIFY: `live_channels` holds each channel's latest number, bumped by the
 * publishing transaction (whose row lock it keeps until commit, so a channel's
 * numbers follow commit order with no gaps), and `live_events` keeps the
 * events for a replay window. A websocket client that reconnects says the
 * last number it saw and gets what it missed (`history`), or, when the window
 * no longer covers it, an explicit `resync`; an instance whose LISTEN
 * connection was lost catches its sockets up the same way.
 *
 * The order-submission batches, the busiest writers, notify after their
 * transaction commits instead (`loggingStatement`, then `HELD_NOTIFICATIONS`):
 * PostgreSQL lets one transaction that notifies commit at a time, holding a
 * lock for the whole cluster from the start of its commit until its WAL is
 * flushed, so every batch in flight waited behind any slow flush (50–160 ms
 * at times under load). Their events are numbered and logged in the batch's
 * transaction as above; the notification follows in a transaction of its own
 * that does not wait for a flush (nothing in it needs to survive a crash),
 * sent right behind COMMIT on the same connection, in the same write (the
 * `after` of Database.transaction's commit): the logging statement holds the
 * payloads in a setting of the session, which the notifying statement reads
 * and clears. A transaction that rolls back takes its setting back with it,
 * so the notifying statement then finds nothing to send. A
 * notification lost between the two (the process ending) shows as a gap at
 * the channel's next event, which the hub fills from the log
 * (server/live/subscription.ts); one that arrives after a later event of its
 * channel is passed over as seen once that gap is filled.
 *
 * Limits: a NOTIFY payload is at most 8000 bytes, so events carry ids and small
 * facts, not documents.
 */
import type { FastifyBaseLogger } from 'fastify';
import { LiveEventSchema, LiveChannelSchema, type LiveChannel, type LiveEvent } from '../../shared/api/live.ts';
import { sqlOf, type Database, type Db, type Sql, type Statement } from '../db/database.ts';

export const NOTIFY_CHANNEL = 'diadochi_live';
const MAX_PAYLOAD_BYTES = 7900;

/**
 * Every event on a channel is for whoever may watch the channel: what only some users may read (private
 * press) is published on each reader's own channel (`user:<id>`), so nothing is filtered on the way out.
 */
export type LiveListener = (event: LiveEvent, channel: LiveChannel, seq: number) => void;
export type Publication = { channel: LiveChannel; event: LiveEvent };
export type LoggedEvent = { seq: number; event: LiveEvent };
/**
 * What a channel's log holds after a given number: `complete` when `events`
 * are every event after it up to `seq` (the channel's latest number), in order.
 */
export type History = { seq: number; events: LoggedEvent[]; complete: boolean };

/** At most this many events are replayed to one subscription; further behind, the client refetches. */
export const MAX_REPLAY = 500;

/**
 * Numbers and logs a list of events (the start of PUBLISH_SQL and LOG_SQL): per
 * channel, the counter is bumped by the number of its events (one row lock per
 * channel, in channel order), and the events take the numbers in list order.
 * PUBLISH_SQL notifies them in that order at commit; LOG_SQL holds their
 * payloads, in that order, for HELD_NOTIFICATIONS after the commit.
 */
const NUMBER_AND_LOG = `
WITH input AS (
  SELECT i.channel, i.event, i.ord
  FROM json_to_recordset($1::json) AS i(channel text, event json, ord int)
), counts AS (
  SELECT channel, count(*)::bigint AS n FROM input GROUP BY channel
), bumped AS (
  INSERT INTO live_channels AS c (channel, seq)
  SELECT channel, n FROM counts ORDER BY channel
  ON CONFLICT (channel) DO UPDATE SET seq = c.seq + EXCLUDED.seq
  RETURNING c.channel, c.seq
), numbered AS (
  SELECT i.channel, i.event, b.seq - k.n + row_number() OVER (PARTITION BY i.channel ORDER BY i.ord) AS seq
  FROM input i JOIN counts k ON k.channel = i.channel JOIN bumped b ON b.channel = i.channel
), stored AS (
  INSERT INTO live_events (channel, seq, event)
  SELECT channel, seq, event FROM numbered
  RETURNING seq
)`;
const PAYLOAD = `json_build_object('channel', n.channel, 'seq', n.seq, 'event', n.event)::text`;
const PUBLISH_SQL = `${NUMBER_AND_LOG}
SELECT count(pg_notify('${NOTIFY_CHANNEL}', ${PAYLOAD}))::int AS sent, (SELECT count(*) FROM stored)::int AS stored
FROM (SELECT * FROM numbered ORDER BY channel, seq) n`;
/**
 * The session setting that holds a transaction's payloads from LOG_SQL to HELD_NOTIFICATIONS. Set for the session
 * (not the transaction) so that it outlives COMMIT; a rollback restores what it was before, which the last
 * notifying statement had cleared.
 */
const HELD = 'diadochi.live_held';
/** As PUBLISH_SQL without its NOTIFY: the notifications' payloads are held, in the order they are to be sent. */
const LOG_SQL = `${NUMBER_AND_LOG}
SELECT count(*)::int AS logged, set_config('${HELD}', coalesce(json_agg(${PAYLOAD} ORDER BY n.channel, n.seq), '[]')::text, false) IS NOT NULL AS held
FROM numbered n`;
/**
 * Notifies the held payloads in their order and clears them, in a transaction of its own that commits without
 * waiting for its WAL to be flushed (`set_config(…, true)` lasts for this transaction only), so it holds the
 * notification lock for no longer than it takes to queue them. The setting is read once, in `h`, before the
 * clearing and the notifications that both depend on it (never set on this connection: no row, nothing to do).
 * For the `after` of the commit of a plain-SQL transaction (Database.transaction) in which LOG_SQL ran: nothing is
 * sent when that transaction rolled back.
 */
export const HELD_NOTIFICATIONS: Statement = [
  `
SELECT count(pg_notify('${NOTIFY_CHANNEL}', p.payload))::int AS sent
FROM (SELECT current_setting('${HELD}', true) AS held, set_config('synchronous_commit', 'off', true) AS relaxed OFFSET 0) AS h,
  LATERAL (SELECT set_config('${HELD}', '', false) AS cleared WHERE h.held IS NOT NULL) AS c,
  LATERAL (SELECT q.payload FROM json_array_elements_text(nullif(h.held, '')::json) WITH ORDINALITY AS q(payload, n) ORDER BY q.n) AS p`,
  [],
];

/**
 * The statement that publishes these events (see `publishAll`), null for none: for a caller that
 * must know before sending anything that the events can be published (throws for an event too big).
 */
export function publicationStatement(publications: readonly Publication[]): Statement | null {
  const rows = checkedRows(publications);
  return rows ? [PUBLISH_SQL, [rows]] : null;
}

/**
 * For a transaction that notifies after it commits (see the top of this file): the statement that numbers and logs
 * these events and holds their notifications for HELD_NOTIFICATIONS, to be sent behind its COMMIT. Null for none;
 * throws for an event too big, as `publicationStatement`.
 */
export function loggingStatement(publications: readonly Publication[]): Statement | null {
  const rows = checkedRows(publications);
  return rows ? [LOG_SQL, [rows]] : null;
}

/** The statements' input, each event checked against the payload limit (with room for any number). */
function checkedRows(publications: readonly Publication[]): string | null {
  if (publications.length === 0) return null;
  const rows = publications.map(({ channel, event }, ord) => {
    const bytes = Buffer.byteLength(JSON.stringify({ channel, seq: Number.MAX_SAFE_INTEGER, event }));
    if (bytes > MAX_PAYLOAD_BYTES) throw new Error(`live event ${event.type} is ${bytes} bytes; the limit is ${MAX_PAYLOAD_BYTES}`);
    return { channel, event, ord };
  });
  return JSON.stringify(rows);
}

export class LiveBus {
  private readonly subscribers = new Map<LiveChannel, Set<LiveListener>>();
  private readonly resyncListeners = new Set<() => void>();
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(NOTIFY_CHANNEL, {
      onNotification: (payload) => this.dispatch(payload),
      onReconnected: () => this.resyncListeners.forEach((listener) => listener()),
    });
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  /**
   * Publishes to every subscriber of `channel` on every instance. Pass the
   * transaction (`tx`) that made the change, so the event leaves only if it commits.
   */
  async publish(db: Db, channel: LiveChannel, event: LiveEvent): Promise<void> {
    await this.publishAll(db, [{ channel, event }]);
  }

  /** Several events in one round trip (in this order within each channel); `db` may also be a plain-SQL transaction. */
  async publishAll(db: Db | Sql, publications: readonly Publication[]): Promise<void> {
    const statement = publicationStatement(publications);
    if (statement) await (typeof db === 'function' ? db : sqlOf(db))(...statement);
  }

  /** The channel's latest event number (0 before its first event). */
  async currentSeq(db: Db, channel: LiveChannel): Promise<number> {
    const rows = await db.$queryRaw<Array<{ seq: bigint }>>`SELECT seq FROM live_channels WHERE channel = ${channel}`;
    return rows.length === 0 ? 0 : Number(rows[0].seq);
  }

  /** The events logged on `channel` after number `after` (at most MAX_REPLAY). */
  async history(db: Db, channel: LiveChannel, after: number): Promise<History> {
    const seq = await this.currentSeq(db, channel);
    if (after >= seq) return { seq, events: [], complete: after === seq };
    if (seq - after > MAX_REPLAY) return { seq, events: [], complete: false };
    const rows = await db.$queryRaw<Array<{ seq: bigint; event: unknown }>>`
      SELECT seq, event FROM live_events WHERE channel = ${channel} AND seq > ${after} AND seq <= ${seq} ORDER BY seq`;
    const events: LoggedEvent[] = [];
    for (const row of rows) {
      const event = LiveEventSchema.safeParse(row.event);
      // Logged by a version that spoke differently: the client has to refetch.
      if (!event.success) return { seq, events: [], complete: false };
      events.push({ seq: Number(row.seq), event: event.data });
    }
    const complete = events.length === seq - after && events.every((logged, i) => logged.seq === after + 1 + i);
    return { seq, events: complete ? events : [], complete };
  }

  /** Deletes logged events older than `olderThanMs` (they can no longer be replayed); returns how many. */
  async prune(db: Db, olderThanMs: number): Promise<number> {
    const before = new Date(Date.now() - olderThanMs).toISOString();
    return db.$executeRaw`DELETE FROM live_events WHERE created_at < ${before}::timestamptz`;
  }

  /** Calls `listener` for each event on `channel` until the returned function is called. */
  subscribe(channel: LiveChannel, listener: LiveListener): () => void {
    let listeners = this.subscribers.get(channel);
    if (!listeners) this.subscribers.set(channel, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.subscribers.delete(channel);
    };
  }

  /** Called when notifications may have been missed (the LISTEN connection was re-established): catch up from the log. */
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  private dispatch(payload: string): void {
    let message: { channel?: unknown; seq?: unknown; event?: unknown };
    try {
      message = JSON.parse(payload);
    } catch {
      this.log.warn({ payload }, 'ignoring a live notification that is not JSON');
      return;
    }
    // Nobody on this instance watches the channel (most events, e.g. every order submission's): nothing to check.
    if (typeof message.channel === 'string' && !this.subscribers.has(message.channel as LiveChannel)) return;
    const channel = LiveChannelSchema.safeParse(message.channel);
    const event = LiveEventSchema.safeParse(message.event);
    if (!channel.success || !event.success || typeof message.seq !== 'number') {
      // E.g. from an instance running a newer version during a rolling deploy.
      this.log.warn({ payload }, 'ignoring a live notification this version does not understand');
      return;
    }
    for (const listener of this.subscribers.get(channel.data) ?? []) {
      try {
        listener(event.data, channel.data, message.seq);
      } catch (error) {
        this.log.error({ err: error }, 'live event listener failed');
      }
    }
  }
}
