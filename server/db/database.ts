/**
 * The database: a Prisma client over PostgreSQL (with DATABASE_URL) or over an
 * embedded PGlite (without), plus the two things Prisma does not do for us:
 * LISTEN for notifications (the live event bus) and migrating at start-up.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/client.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { applyMigrations, pgliteMigrationAdapter, postgresMigrationAdapter } from './migrate.ts';

export { Prisma, PrismaClient } from './generated/client.ts';
/** What `prisma.$transaction(async (tx) => …)` hands to its callback. */
export type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];
/** Either the client or a transaction: functions that only query accept both. */
export type Db = PrismaClient | Transaction;

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /**
       * How often each LISTEN connection is checked by notifying it from another connection (default 10 s),
       * and how long its echo may take before the connection is taken for dead and replaced (default 5 s).
       */
      listenHeartbeatMs?: number;
      listenHeartbeatTimeoutMs?: number;
    }
  /**
   * `dataDir` is a folder (created if missing) or `memory://` for a throw-away database;
   * `template` a data-directory dump (PGlite's dumpDataDir) to start a new database from.
   */
  | { kind: 'pglite'; dataDir: string; template?: Blob };

export type NotificationListener = {
  onNotification(payload: string): void;
  /** The listening connection was lost and is back: notifications in between are lost. */
  onReconnected?(): void;
  /** The listening connection was lost (it is being re-established): notifications may be missed until then. */
  onLost?(): void;
};

/**
 * Plain SQL with $1, $2 … parameters, without Prisma: for the few hot paths
 * where Prisma's per-query cost dominates (order submissions, session
 * look-ups). Rows come as the driver gives them: prefer `::text` (and parse
 * JSON yourself) so PostgreSQL and PGlite agree. The text must be a constant:
 * on PostgreSQL each distinct text becomes a prepared statement on every
 * connection that runs it.
 */
export type Sql = (text: string, params?: readonly unknown[]) => Promise<Array<Record<string, unknown>>>;

/** The same over a Prisma client or transaction (e.g. to share SQL with code that must run in a Prisma transaction). */
export function sqlOf(db: Db): Sql {
  return (text, params = []) => db.$queryRawUnsafe<Array<Record<string, unknown>>>(text, ...params);
}

/** A statement and its parameters, to be sent later (as `commit`'s `after`). */
export type Statement = readonly [text: string, params: readonly unknown[]];

export interface Database {
  readonly kind: DatabaseOptions['kind'];
  readonly prisma: PrismaClient;
  /** One statement, in its own transaction. */
  readonly sql: Sql;
  /**
   * A transaction in plain SQL: committed if `work` resolves, rolled back if it throws.
   * Its statements run in the order they are called. On PostgreSQL they are pipelined: each
   * goes out without waiting for the answer to the one before, so statements called together
   * (in one turn of the event loop) share one round trip and one write, and BEGIN shares the
   * first statement's. `commit()` sends COMMIT at once, behind the statements called so far,
   * so that it shares their round trip too (should one of them fail, PostgreSQL rolls back
   * instead, and the transaction fails). Nothing may be called after it, and `work` must not
   * fail after it in any other way: on PostgreSQL that would not undo the commit.
   *
   * `commit(after)`: `after` goes out in the same write, right behind COMMIT, and runs once the
   * transaction has ended, in a transaction of its own, whether it committed or rolled back (so
   * it must do nothing in the second case: the live bus's held notifications, server/bus/live-bus.ts).
   * The transaction settles with COMMIT's answer; `commit` returns a promise that settles once
   * `after` has run, and never rejects (for `work` to return, not to await: on PGlite it settles only
   * after the transaction). Should `after` fail, that is logged (the transaction stands), and its
   * connection is closed: its session may keep what `after` was to clear. On PGlite (one connection,
   * so nothing could run in between) `after` is the transaction's last statement instead.
   */
  transaction<T>(work: (sql: Sql, commit: (after?: Statement) => Promise<void>) => Promise<T>): Promise<T>;
  /** Applies pending migrations from prisma/migrations; returns their names. */
  migrate(): Promise<string[]>;
  /** LISTENs on a notification channel (see server/bus/live-bus.ts); resolves once listening. */
  listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export async function openDatabase(options: DatabaseOptions, log: Logger = silentLogger): Promise<Database> {
  return options.kind === 'postgres' ? openPostgres(options, log) : openPglite(options, log);
}

type Logger = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void; debug(obj: object, msg: string): void };
const silentLogger: Logger = { warn() {}, info() {}, debug() {} };

/**
 * Every interactive transaction's limits. Some wait behind others (PGlite has one connection), adjudicate a phase or
 * let the computer make a battle decision begun just before its budget ran out; 60 s is long enough for those and
 * short enough to give up on a stuck one. Prisma's own defaults (2 s to get a connection, 5 s to finish) turned a
 * busy minute into 500s: sixteen games set up at once on a loaded machine waited longer than that for a connection.
 */
const TRANSACTION_DEFAULTS = { maxWait: 20_000, timeout: 60_000 } as const;

function openPostgres(options: Extract<DatabaseOptions, { kind: 'postgres' }>, log: Logger): Database {
  const makePool = (settings: { max: number; pipeline?: boolean }) => {
    const made = new pg.Pool({
      connectionString: options.url,
      // Fail fast when the server is unreachable, so requests get a 503 instead of hanging.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      ...settings,
    });
    // Our own listener, not Prisma's onPoolError: Prisma attaches that only once it runs its first query.
    made.on('error', (error) => log.warn({ err: error }, 'idle database connection failed'));
    // And one on every connection for its whole life: pg-pool listens only to idle ones, and whoever checks one out
    // must listen while holding it, or a connection that fails between two statements (PostgreSQL stopping) is an
    // uncaught error that ends the process. The fault suite caught one such moment that no holder covered; with
    // this nothing is lost: the holder's next statement fails, and the pool drops the connection when it is released.
    made.on('connect', (client) => {
      client.on('error', (error) => {
        if (client.listenerCount('error') === 1) log.warn({ err: error }, 'database connection failed while checked out');
      });
    });
    return made;
  };
  // One pool for Prisma and single plain-SQL statements.
  const pool = makePool({ max: options.poolSize ?? 10 });
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const prisma = new PrismaClient({ adapter, transactionOptions: TRANSACTION_DEFAULTS });
  const sql: Sql = async (text, params = []) => (await pool.query(prepared(text, params))).rows;
  /**
   * Plain-SQL transactions have connections of their own, in pg's pipeline mode: their
   * statements are sent without waiting for the answers before (see `transaction`). Kept
   * apart from Prisma's, whose adapter is written for one statement at a time. Sized for
   * the order-submission batches in flight at once (three, server/play/submissions.ts) and one spare.
   */
  const pipelined = makePool({ max: 4, pipeline: true });
  // Their statements look rows up by key, whatever the parameters, and run hundreds of times a second: planned once
  // per connection, not per run. Left to choose, PostgreSQL planned the batch's check and lock again at nearly every
  // run (137 and 43 µs a batch, beside some 800 µs running its statements; bench/README.md, "A batch's cost").
  pipelined.on('connect', (client) => {
    // Sent ahead of whatever the connection was opened for (pg sends its queries in order).
    client
      .query('SET plan_cache_mode = force_generic_plan')
      .catch((error: unknown) => log.warn({ err: error }, 'a pipelined connection kept planning each statement at every run'));
  });
  const listeners = new Set<PostgresListener>();
  return {
    kind: 'postgres',
    prisma,
    sql,
    async transaction(work) {
      const client = await pipelined.connect();
      let broken = false;
      // A connection lost while checked out is reported here (the pool listens only to idle ones): without a
      // listener it would be an uncaught error that ends the process. The query under way fails by itself.
      const lost = () => (broken = true);
      client.on('error', lost);
      // What is sent in one turn of the event loop leaves in one write: on loopback a write costs
      // about as much as a small statement's execution (most of the cost is waking the other side).
      const stream = (client as unknown as pg.Client).connection.stream;
      let corked = false;
      const oneWrite = () => {
        if (corked) return;
        corked = true;
        stream.cork();
        process.nextTick(() => {
          corked = false;
          stream.uncork();
        });
      };
      oneWrite();
      const begun = client.query('BEGIN');
      begun.catch(() => {});
      let committed: Promise<pg.QueryResult> | undefined;
      // What was sent behind COMMIT (commit's `after`): the connection goes back to the pool once it has run.
      let followed: Promise<void> = Promise.resolve();
      // Each statement's answer also waits for BEGIN's, so nothing is sent on the strength of a statement
      // that ran outside the transaction. Marked handled at once: `work` may throw before awaiting one.
      const send: Sql = (text, params = []) => {
        if (committed) return Promise.reject(new Error('a statement after COMMIT'));
        oneWrite();
        const rows = Promise.all([begun, client.query(prepared(text, params))]).then(([, result]) => result.rows);
        rows.catch(() => {});
        return rows;
      };
      const commit = (after?: Statement) => {
        if (committed) return followed;
        oneWrite();
        committed = client.query('COMMIT');
        committed.catch(() => {});
        if (after)
          followed = client.query(prepared(after[0], after[1])).then(
            () => {},
            (error: unknown) => {
              broken = true;
              log.warn({ err: error }, 'the statement sent behind a COMMIT failed; its connection is closed');
            },
          );
        return followed;
      };
      try {
        const result = await work(send, commit);
        commit();
        // COMMIT in a transaction that a failed statement aborted rolls back (and says so).
        if ((await committed!).command !== 'COMMIT') throw new Error('the transaction was rolled back');
        return result;
      } catch (error) {
        // A connection that cannot even roll back is not given back to the pool (after COMMIT there is nothing to roll back).
        if (!committed) await client.query('ROLLBACK').catch(() => (broken = true));
        else await committed.catch(() => (broken = true));
        throw error;
      } finally {
        void followed.then(() => {
          client.removeListener('error', lost);
          client.release(broken);
        });
      }
    },
    async migrate() {
      const migrationAdapter = postgresMigrationAdapter(options.url);
      try {
        return await applyMigrations(migrationAdapter);
      } finally {
        await migrationAdapter.close();
      }
    },
    async listen(channel, listener) {
      const subscription = new PostgresListener(options.url, channel, listener, log, {
        intervalMs: options.listenHeartbeatMs ?? 10_000,
        timeoutMs: options.listenHeartbeatTimeoutMs ?? 5_000,
        // Over a pooled connection: the listening one cannot be trusted to tell on itself.
        notify: async (heartbeatChannel, payload) => void (await pool.query('SELECT pg_notify($1, $2)', [heartbeatChannel, payload])),
      });
      listeners.add(subscription);
      await subscription.start();
      return async () => {
        listeners.delete(subscription);
        await subscription.stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((subscription) => subscription.stop()));
      await Promise.all([prisma.$disconnect(), pipelined.end()]);
      // Prisma ends the pool only if it ever used it; the plain-SQL paths may have used it alone.
      if (!pool.ending) await pool.end();
    },
  };
}

/**
 * The hot paths' statements are prepared once per connection (named by a hash
 * of their text), so PostgreSQL parses and plans them once instead of on every
 * call: that was about a quarter of its CPU under the order-submission load.
 */
const statementNames = new Map<string, string>();
function prepared(text: string, params: readonly unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `sql_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
  return { name, text, values: params as unknown[] };
}

/** How a listener checks its connection (see PostgresListener). */
type Heartbeat = {
  intervalMs: number;
  timeoutMs: number;
  /** Sends a notification over another connection; fails when the database cannot be reached. */
  notify(channel: string, payload: string): Promise<void>;
};

/**
 * A dedicated connection that LISTENs, reconnecting with back-off when it is lost
 * (a pooled connection cannot be used: LISTEN belongs to one session).
 *
 * A connection can also die without closing (an idle NAT mapping that expired, a firewall dropping
 * its packets): nothing arrives any more, and TCP notices only after many minutes. So every
 * `intervalMs` the listener notifies itself from a pooled connection, on a channel of its own that
 * only this connection LISTENs to (so no listener, on any instance or version, ever sees a
 * heartbeat as a notification); when the echo does not come within `timeoutMs`, the connection
 * is dropped and replaced, like one that closed. A heartbeat that cannot be sent (the database is
 * unreachable) proves nothing about the connection: it is skipped, and tried again next interval.
 * TCP keepalive keeps NAT mappings open and catches what the heartbeat cannot check meanwhile.
 */
class PostgresListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 500;
  /** Unique to this listener, so that only it hears its heartbeats. */
  private readonly heartbeatChannel: string;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** The heartbeat under way, if any: its number, on which connection, and whether it came back. */
  private ping: { client: pg.Client; payload: string; heard: boolean; timer?: NodeJS.Timeout } | undefined;
  private pings = 0;
  /** When the current connection last delivered anything (a notification or a heartbeat), or was made. */
  private heardAt = 0;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly listener: NotificationListener,
    private readonly log: Logger,
    private readonly heartbeat: Heartbeat,
  ) {
    this.heartbeatChannel = `${channel}_heartbeat_${randomBytes(8).toString('hex')}`;
  }

  /** The first connection must succeed; later losses are retried in the background. */
  async start(): Promise<void> {
    await this.connect();
    this.heartbeatTimer = setInterval(() => this.sendHeartbeat(), this.heartbeat.intervalMs);
    this.heartbeatTimer.unref();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client.on('notification', (message) => {
      if (client === this.client) this.heardAt = Date.now();
      if (message.channel === this.heartbeatChannel) this.heardEcho(client, message.payload);
      else if (message.channel === this.channel && message.payload !== undefined) this.listener.onNotification(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.heartbeatChannel}"`);
      // Last, so that pg_stat_activity shows which listener this is (the fault tests find it by this text).
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      drop(client);
      throw error;
    }
    if (this.stopped) {
      // stop() was called while this (re)connection was under way.
      await close(client);
      return;
    }
    this.client = client;
    this.heardAt = Date.now();
    this.retryDelayMs = 500;
  }

  private sendHeartbeat(): void {
    const client = this.client;
    // One at a time: a heartbeat still being sent (the pool is slow or waiting for a connection) is not yet overdue.
    if (this.stopped || !client || this.ping) return;
    const ping: NonNullable<PostgresListener['ping']> = { client, payload: String((this.pings += 1)), heard: false };
    this.ping = ping;
    this.heartbeat.notify(this.heartbeatChannel, ping.payload).then(
      () => {
        if (this.ping !== ping) return;
        if (ping.heard) this.ping = undefined;
        // Timed from when PostgreSQL took the NOTIFY, so that a slow pool is not blamed on this connection.
        else ping.timer = setTimeout(() => this.checkEcho(ping), this.heartbeat.timeoutMs);
      },
      (error: unknown) => {
        if (this.ping === ping) this.ping = undefined;
        this.log.debug({ err: error, channel: this.channel }, 'notifications heartbeat not sent');
      },
    );
  }

  private heardEcho(client: pg.Client, payload: string | undefined): void {
    const ping = this.ping;
    if (!ping || ping.client !== client || payload !== ping.payload) return;
    ping.heard = true;
    // Not yet timed when the echo beats the NOTIFY's own answer: then the answer ends the heartbeat.
    if (ping.timer) {
      clearTimeout(ping.timer);
      this.ping = undefined;
    }
  }

  private checkEcho(ping: NonNullable<PostgresListener['ping']>): void {
    // Timers run before the event loop reads its sockets: after a stall of the whole process, the echo
    // may be waiting unread. Let it be read first (setImmediate runs after the sockets are polled).
    setImmediate(() => {
      if (this.ping !== ping) return;
      this.ping = undefined;
      if (ping.heard || this.stopped || this.client !== ping.client) return;
      const silentMs = Date.now() - this.heardAt;
      this.log.warn(
        { channel: this.channel, silentMs, heartbeatTimeoutMs: this.heartbeat.timeoutMs },
        `notifications connection silent for ${silentMs} ms (no heartbeat back); dropping it and reconnecting`,
      );
      this.replace(ping.client);
    });
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.stopped || this.client !== client) return;
    this.log.warn({ err: error, channel: this.channel }, 'notifications connection lost; reconnecting');
    this.replace(client);
  }

  private replace(client: pg.Client): void {
    this.client = undefined;
    clearTimeout(this.ping?.timer);
    this.ping = undefined;
    drop(client);
    this.listener.onLost?.();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.retryTimer = setTimeout(async () => {
      if (this.stopped) return;
      try {
        await this.connect();
        if (this.stopped) return;
        this.log.info({ channel: this.channel }, 'notifications connection restored');
        this.listener.onReconnected?.();
      } catch (error) {
        this.log.warn({ err: error, channel: this.channel }, 'notifications reconnect failed');
        this.retryDelayMs = Math.min(this.retryDelayMs * 2, 10_000);
        this.scheduleReconnect();
      }
    }, this.retryDelayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.ping?.timer);
    this.ping = undefined;
    const client = this.client;
    this.client = undefined;
    if (client) await close(client);
  }
}

/** Closes a connection at once, without the goodbye that `end()` waits for (which a dead link never answers). */
function drop(client: pg.Client): void {
  client.end().catch(() => {});
  client.connection.stream.destroy();
}

/** Ends a connection politely, but drops it if the server does not answer within a second. */
async function close(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
  await Promise.race([client.end().catch(() => {}), waited]);
  clearTimeout(timer);
  client.connection.stream.destroy();
}

async function openPglite(options: { dataDir: string; template?: Blob }, log: Logger): Promise<Database> {
  const inMemory = options.dataDir.startsWith('memory://');
  if (!inMemory) await mkdir(options.dataDir, { recursive: true });
  // Before PGlite touches the directory: a second process's mere opening can ruin it (data-dir-lock.ts).
  const unlock = inMemory ? () => {} : lockDataDir(options.dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(inMemory ? undefined : options.dataDir, { loadDataDir: options.template });
  } catch (error) {
    unlock();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), transactionOptions: TRANSACTION_DEFAULTS });
  return {
    kind: 'pglite',
    prisma,
    sql: async (text, params = []) => (await pglite.query<Record<string, unknown>>(text, params as unknown[])).rows,
    // PGlite runs one transaction at a time (Prisma's included).
    // COMMIT follows `work` here whether or not it called commit(): nothing is gained by sending it sooner
    // in-process. As on PostgreSQL, a statement that failed fails the transaction even if `work` did not wait for it.
    // commit's `after` runs last inside the transaction: run after it, another transaction could come in between.
    // The same effect here: notifications are delivered at commit, and PGlite runs with fsync off (so a commit
    // that skips its flush, as the live bus's statement asks for, skips nothing).
    async transaction(work) {
      // What commit() returns: settled once the transaction is over (its `after` ran inside it).
      let over = () => {};
      const ended = new Promise<void>((resolve) => (over = resolve));
      try {
        return await pglite.transaction(async (tx) => {
          let committed = false;
          let after: Statement | undefined;
          const sent: Promise<unknown>[] = [];
          const send: Sql = (text, params = []) => {
            if (committed) return Promise.reject(new Error('a statement after COMMIT'));
            const rows = tx.query<Record<string, unknown>>(text, params as unknown[]).then((result) => result.rows);
            rows.catch(() => {});
            sent.push(rows);
            return rows;
          };
          const result = await work(send, (then) => {
            committed = true;
            after ??= then;
            return ended;
          });
          await Promise.all(sent);
          if (after) {
            // Within a savepoint: should it fail, the transaction stands, as on PostgreSQL.
            await tx.exec('SAVEPOINT after_commit');
            await tx.query(after[0], after[1] as unknown[]).then(
              () => tx.exec('RELEASE SAVEPOINT after_commit'),
              (error: unknown) => {
                log.warn({ err: error }, 'the statement sent behind a COMMIT failed');
                return tx.exec('ROLLBACK TO SAVEPOINT after_commit');
              },
            );
          }
          return result;
        });
      } finally {
        over();
      }
    },
    migrate: () => applyMigrations(pgliteMigrationAdapter(pglite)),
    // PGlite delivers NOTIFYs from its own queries in-process: one instance, one server.
    async listen(channel, listener) {
      const unlisten = await pglite.listen(channel, (payload) => listener.onNotification(payload));
      return unlisten;
    },
    async close() {
      await prisma.$disconnect();
      // Without this the process may hang on exit, and an on-disk database may be left unclean.
      try {
        await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}
