/**
 * Order submissions in batches (group commit). Submissions arriving together
 * are stored in one transaction: it locks every game concerned (in id order,
 * so batches never deadlock), reads the games, their players and the phases
 * named (from caches while their rows are unchanged, see row-cache.ts),
 * judges each submission with the engine exactly as one at a time would
 * (`judgeSubmission`: same checks, same answers), inserts the accepted ones
 * in one statement, publishes their live events in one, then processes early
 * any game in which a submission said "ready" and everyone now is. Each
 * submission gets its own answer (a refused one does not stop the others).
 * On PostgreSQL a batch is one round trip (the statements pipelined, see
 * Database.transaction) when the caches hold every game and phase it names:
 * it is judged on them, and BEGIN, the lock, a check that those rows are
 * still as cached, the insert, the publication and COMMIT go out together.
 * Should a row have changed, the check fails the transaction (nothing is
 * stored) and the batch runs again the long way, in two round trips: BEGIN,
 * the lock and the read; then the insert, the publication and COMMIT.
 *
 * The serial order this stands for: the batch's submissions in arrival order,
 * then the readiness checks. A few batches run at once (the rest wait and
 * join the next batch), so under load batches grow and the cost per
 * submission shrinks, while a lone submission goes at once (at the next turn
 * of the event loop). Should a whole batch fail for a reason other than the
 * database being unavailable (say one game's processing hits a bug), nothing
 * of it was stored, and each submission is retried alone, so only its own
 * answer is the failure.
 */
import { randomFillSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CheckedOrder, OrderSubmission } from '../../shared/api/play.ts';
import { frozenState, type GameState, type Variant } from '../../shared/index.ts';
import { sqlOf, type Sql, type Transaction } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { HttpError, notFound } from '../errors.ts';
import { publicationStatement, type Publication } from '../live/bus.ts';
import { mayView } from '../access/policy.ts';
import { makeContext, requireActive, requirePower, TX_OPTIONS, type LoadedGame } from '../play/context.ts';
import { playerStatusOnWire, positionOf, requireOpenPhase, type PhaseRow } from '../play/phases.ts';
import { processIfAllReady } from '../play/process.ts';
import type { Auth } from '../types.ts';
import { RowCache } from './row-cache.ts';
import { judgeSubmission, submitOrders, type SubmitBody } from './service.ts';

type User = Auth['user'];
export type SubmitResult = { submission: OrderSubmission; checked: CheckedOrder[]; phaseProcessed: boolean };
type Job = { user: User; gameId: string; phaseIndex: number; body: SubmitBody; resolve: (result: SubmitResult) => void; reject: (error: unknown) => void };
type Outcome = { ok: true; value: SubmitResult } | { ok: false; error: HttpError };

export type BatchOptions = {
  /** Batches in flight at once (each holds a database connection). */
  concurrency: number;
  /** Most submissions in one batch. */
  maxBatch: number;
};

export class SubmissionBatcher {
  private waiting: Job[] = [];
  private running = 0;
  /** Games held by the batches in flight. */
  private readonly busyGames = new Set<string>();
  /** Games with their seats, and phases with their positions, as last read (row-cache.ts). */
  private readonly games = new RowCache<LoadedGame>(2_000);
  private readonly positions = new RowCache<CachedPhase>(2_000);
  private scheduled = false;
  /**
   * Since start: batches run and submissions in them; batches judged on the caches alone, and those of
   * them that found a row changed and ran again the long way (for the logs and tests).
   */
  readonly stats = { batches: 0, submissions: 0, largest: 0, retriedAlone: 0, busyMs: 0, fromCache: 0, changedSinceCached: 0 };

  constructor(
    private readonly app: FastifyInstance,
    private readonly options: BatchOptions = { concurrency: 3, maxBatch: 128 },
  ) {}

  submit(user: User, gameId: string, phaseIndex: number, body: SubmitBody): Promise<SubmitResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ user, gameId, phaseIndex, body, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // Submissions whose requests are read in this turn of the event loop go together.
      setImmediate(() => {
        this.scheduled = false;
        this.pump();
      });
    });
  }

  /**
   * Starts batches while there is room. Batches in flight never share a game:
   * a submission for a game that a running batch holds waits for the next
   * batch, instead of its batch waiting on that game's row lock (and holding
   * every other game it locked meanwhile).
   */
  private pump(): void {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const jobs: Job[] = [];
      const left: Job[] = [];
      for (const job of this.waiting) {
        if (jobs.length < this.options.maxBatch && !this.busyGames.has(job.gameId)) jobs.push(job);
        else left.push(job);
      }
      if (jobs.length === 0) return;
      this.waiting = left;
      const games = new Set(jobs.map((job) => job.gameId));
      for (const game of games) this.busyGames.add(game);
      this.running += 1;
      void this.run(jobs).finally(() => {
        for (const game of games) this.busyGames.delete(game);
        this.running -= 1;
        this.pump();
      });
    }
  }

  private async run(jobs: Job[]): Promise<void> {
    this.stats.batches += 1;
    this.stats.submissions += jobs.length;
    this.stats.largest = Math.max(this.stats.largest, jobs.length);
    let outcomes: Outcome[];
    const started = performance.now();
    try {
      // Plain SQL, unless a game may have to be processed (the engine's processing runs in a Prisma transaction).
      outcomes = jobs.some((job) => job.body.ready)
        ? await this.app.prisma.$transaction((tx) => this.store(sqlOf(tx), tx, jobs), TX_OPTIONS)
        : await this.storePlain(jobs);
      this.stats.busyMs += performance.now() - started;
      if (this.stats.batches % 200 === 0) {
        const { batches, submissions, largest, busyMs, fromCache, changedSinceCached } = this.stats;
        this.app.log.debug({ batches, submissions, largest, meanBatch: submissions / batches, meanMs: busyMs / batches, fromCache, changedSinceCached }, 'order submission batches');
      }
    } catch (error) {
      if (jobs.length === 1 || isDatabaseUnavailable(error)) {
        for (const job of jobs) job.reject(error);
        return;
      }
      // Rolled back, nothing stored: each alone, so only the one at fault fails.
      this.app.log.warn({ err: error, submissions: jobs.length }, 'a batch of order submissions failed; storing them one at a time');
      this.stats.retriedAlone += jobs.length;
      for (const job of jobs) await submitOrders(this.app, job.user, job.gameId, job.phaseIndex, job.body).then(job.resolve, job.reject);
      return;
    }
    outcomes.forEach((outcome, i) => (outcome.ok ? jobs[i].resolve(outcome.value) : jobs[i].reject(outcome.error)));
  }

  /** In plain SQL: in one round trip when the caches hold everything the batch names, else (or should that fail) the long way. */
  private async storePlain(jobs: Job[]): Promise<Outcome[]> {
    const cached = this.cachedRead(jobs);
    if (cached) {
      this.stats.fromCache += 1;
      try {
        return await this.app.database.transaction((sql, commit) => this.store(sql, null, jobs, commit, cached));
      } catch (error) {
        if (!isChangedSinceRead(error)) throw error;
        this.stats.changedSinceCached += 1;
      }
    }
    return this.app.database.transaction((sql, commit) => this.store(sql, null, jobs, commit));
  }

  /** Every game and phase the batch names, as the caches hold them; null if they miss any. */
  private cachedRead(jobs: Job[]): Read | null {
    const read: Read = new Map();
    for (const job of jobs) {
      let found = read.get(job.gameId);
      if (!found) {
        const game = this.games.held(job.gameId);
        if (!game) return null;
        found = { game: game.value, version: game.version, phases: new Map() };
        read.set(job.gameId, found);
      }
      if (found.phases.has(job.phaseIndex)) continue;
      const phase = this.positions.held(`${job.gameId}/${job.phaseIndex}`);
      if (!phase) return null;
      found.phases.set(job.phaseIndex, { ...phase.value.row, version: phase.version, stored: null, position: phase.value.position });
    }
    return read;
  }

  /** The phase's position: from the cache when it holds this version of the row, else from the row (then cached). */
  private async positionOf(sql: Sql, variant: Variant, gameId: string, phase: ReadPhase): Promise<GameState> {
    const key = `${gameId}/${phase.index}`;
    const cached = this.positions.get(key, phase.version);
    if (cached) return cached.position;
    // Not sent when the cache held it at the time of the read; another batch may have evicted it since.
    const stored = phase.stored ?? ((await sql(PHASE_STATE_SQL, [phase.id]))[0] as ReadPhase['stored'] & object);
    // Frozen by the cache, and so taken by the engine without being validated again (shared/state/checked.ts).
    const position = frozenState(positionOf(variant, stored));
    const { id, index, name, status } = phase;
    this.positions.set(key, phase.version, { row: { id, index, name, status }, position });
    return position;
  }

  /**
   * Locks the batch's games, then reads them with their seats and the phases named: what the
   * caches hold as it is now comes from the caches, the rest from the rows (then cached).
   * The read is a statement of its own so that it sees whatever committed before the locks were granted.
   * `together`: the two may be sent at once (see `inOrder`).
   */
  private async read(sql: Sql, jobs: Job[], together: boolean): Promise<Read> {
    const wanted = new Map<string, Set<number>>();
    for (const job of jobs) {
      const indexes = wanted.get(job.gameId) ?? new Set<number>();
      wanted.set(job.gameId, indexes.add(job.phaseIndex));
    }
    const ids = [...wanted.keys()].sort();
    const named: NamedVersions[] = ids.map((id) => ({
      id,
      version: this.games.version(id),
      phases: [...wanted.get(id)!].map((index) => ({ index, version: this.positions.version(`${id}/${index}`) })),
    }));
    const [, rows] = await inOrder(together, [() => sql(LOCK_GAMES_SQL, [ids]), () => sql(READ_SQL, [JSON.stringify(named), ids])]);
    const read: Read = new Map();
    for (const row of rows) {
      const id = row.id as string;
      const version = row.version as string;
      let game = row.game === null ? this.games.get(id, version) : undefined;
      if (!game) {
        // Evicted since the query was sent (by another batch): read again, whole.
        const fresh = row.game === null ? (await sql(READ_SQL, [JSON.stringify([{ id, version: null, phases: [] }]), [id]]))[0] : row;
        game = loadedGame(fresh);
        this.games.set(id, fresh.version as string, game);
      }
      const phases = new Map<number, ReadPhase>();
      for (const phase of JSON.parse(row.phases as string) as ReadPhase[]) phases.set(phase.index, phase);
      read.set(id, { game, version, phases });
    }
    return read;
  }

  /**
   * The batch in one transaction: `sql` runs its statements; `tx`, when given, is the same transaction for
   * Prisma (to process phases); without it, `commit` sends COMMIT along with the last statements.
   * `cached`: the batch is judged on what the caches hold (`cachedRead`), and the statements that store
   * it are sent behind the lock and a check that the rows are still those (else the check fails them all).
   */
  private async store(sql: Sql, tx: Transaction | null, jobs: Job[], commit = () => {}, cached: Read | null = null): Promise<Outcome[]> {
    const read = cached ?? (await this.read(sql, jobs, tx === null));

    const outcomes: Array<Outcome | { pending: { phaseIndex: number; row: StoredRow; verdicts: CheckedOrder[] } }> = [];
    const rows: StoredRow[] = [];
    const publications: Publication[] = [];
    const seatsBack = new Map<string, 'active' | 'eliminated'>();
    const lastReady = new Map<string, number>();
    for (const [i, job] of jobs.entries()) {
      try {
        const found = read.get(job.gameId);
        if (!found || !mayView(found.game, job.user)) throw notFound('no game with that id');
        const { game } = found;
        const context = makeContext(game, job.user);
        requireActive(context);
        const { power, seat } = requirePower(context);
        const phase = requireOpenPhase(found.phases.get(job.phaseIndex), job.phaseIndex);
        // Without a pause when the batch was read from the caches: its statements then leave in one write.
        const position = phase.position ?? (await this.positionOf(sql, context.variant, game.id, phase));
        const { text, verdicts, orders } = judgeSubmission(context, phase, position, power, job.body);
        const row: StoredRow = { id: nextId(), game_id: game.id, phase_id: phase.id, power, submitted_by_id: job.user.id, text, orders, ready: job.body.ready };
        rows.push(row);
        const channel = `game:${game.id}` as const;
        publications.push({ channel, event: { type: 'orders.status', gameId: game.id, phaseIndex: phase.index, power, submitted: true, ready: job.body.ready } });
        // The player is back at the board: missed deadlines reset, civil disorder ends (once per seat).
        if ((seat.missedDeadlines !== 0 || seat.status === 'civil_disorder') && !seatsBack.has(seat.id)) {
          const status = seat.status === 'civil_disorder' ? 'active' : seat.status;
          seatsBack.set(seat.id, status);
          publications.push({ channel, event: { type: 'player.status', gameId: game.id, power, status: playerStatusOnWire(status), missedDeadlines: 0, replaced: false } });
        }
        if (job.body.ready) lastReady.set(game.id, i);
        outcomes[i] = { pending: { phaseIndex: phase.index, row, verdicts } };
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        outcomes[i] = { ok: false, error };
      }
    }

    // Worked out before anything is sent: COMMIT may follow the statements without waiting for them,
    // so nothing after it may fail but the statements themselves (a failed one makes COMMIT roll back).
    const publication = publicationStatement(publications);
    // Judged on the caches, nothing was sent yet: the games are locked now, and the rows checked unchanged.
    const checked = cached ? lockAndCheck(sql, cached) : [];
    const written = inOrder(tx === null, [
      async () => (rows.length > 0 ? sql(INSERT_SQL, [JSON.stringify(rows)]) : []),
      async () => (seatsBack.size > 0 ? sql(SEATS_BACK_SQL, [JSON.stringify([...seatsBack].map(([id, status]) => ({ id, status })))]) : []),
      async () => (publication ? sql(...publication) : []),
    ]);
    if (tx === null) commit();
    // Answered in the order sent: should the check fail, its failure comes first (the statements behind it fail because it did).
    const [, [inserted]] = await Promise.all([Promise.all(checked), written]);
    const createdAt = new Map<string, Date>();
    for (const stored of inserted) createdAt.set(stored.id as string, new Date(Number(stored.created_ms)));
    // Early processing where a submission said ready (the last ready one of the game learns whether it happened).
    const processedBy = new Set<number>();
    if (tx) for (const [gameId, index] of lastReady) if (await processIfAllReady(tx, this.app.play, gameId, new Date())) processedBy.add(index);

    return outcomes.map((outcome, i) => {
      if ('ok' in outcome) return outcome;
      const { phaseIndex, row, verdicts } = outcome.pending;
      const submission: OrderSubmission = {
        id: row.id,
        phaseIndex,
        power: row.power,
        text: row.text,
        orders: row.orders as OrderSubmission['orders'],
        ready: row.ready,
        byGameMaster: false,
        submittedAt: createdAt.get(row.id)!.toISOString(),
      };
      return { ok: true, value: { submission, checked: verdicts, phaseProcessed: processedBy.has(i) } };
    });
  }
}

/**
 * Statements in call order: all sent at once when `together` (a plain-SQL transaction runs them
 * in call order, pipelined on PostgreSQL: one round trip), else each after the answer to the one
 * before (a Prisma transaction promises no order for statements under way together).
 */
async function inOrder<T extends unknown[]>(together: boolean, statements: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  if (together) return (await Promise.all(statements.map((statement) => statement()))) as T;
  const results: unknown[] = [];
  for (const statement of statements) results.push(await statement());
  return results as T;
}

type StoredRow = { id: string; game_id: string; phase_id: string; power: string; submitted_by_id: string; text: string; orders: unknown; ready: boolean };

/** The games a batch names, each with the version of its rows and the phases named (from READ_SQL, or from the caches). */
type Read = Map<string, { game: LoadedGame; version: string; phases: Map<number, ReadPhase> }>;
/** Games and phases by id and index, with the versions of their rows that the caches hold (null: none). */
type NamedVersions = { id: string; version: string | null; phases: Array<{ index: number; version: string | null }> };

/** The games' locks (as `read` takes them), then the check that the games and phases judged on are still as read. */
function lockAndCheck(sql: Sql, read: Read): Array<Promise<unknown>> {
  const ids = [...read.keys()].sort();
  const versions: NamedVersions[] = ids.map((id) => {
    const { version, phases } = read.get(id)!;
    return { id, version, phases: [...phases.values()].map((phase) => ({ index: phase.index, version: phase.version })) };
  });
  return [sql(LOCK_GAMES_SQL, [ids]), sql(UNCHANGED_SQL, [JSON.stringify(versions)])];
}

const CHANGED_SINCE_READ = 'rows changed since they were read';

/**
 * Versions of rows, from PostgreSQL's `xmin` (see row-cache.ts): a game's is its row's and its seats'; a
 * phase's, its row's. One text for each, used by the read and by the check alike.
 */
const GAME_VERSION = (g: string) =>
  `${g}.xmin::text || coalesce((SELECT string_agg(' ' || s.id::text || '/' || s.xmin::text, '' ORDER BY s.id) FROM players s WHERE s.game_id = ${g}.id), '')`;
const PHASE_VERSION = (p: string) => `${p}.id::text || '/' || ${p}.xmin::text`;

/**
 * True when every game and phase named still has the version sent; otherwise the statement fails, and with
 * it the transaction. After the lock, so that it sees whatever committed before the lock was granted, as the
 * read would have. Plain SQL has no statement to raise an error: a text that is not a boolean, cast to one,
 * fails with that text as its message (built from the rows, so the planner cannot work it out in advance).
 */
const UNCHANGED_SQL = `
SELECT CASE WHEN bool_and(now IS NOT DISTINCT FROM sent) THEN true
  ELSE ('${CHANGED_SINCE_READ}: ' || count(*) FILTER (WHERE now IS DISTINCT FROM sent) || ' of the games and phases of this batch')::boolean END AS unchanged
FROM (
  SELECT n.version AS sent, (SELECT ${GAME_VERSION('g')} FROM games g WHERE g.id = n.id) AS now
  FROM json_to_recordset($1::json) AS n(id uuid, version text, phases json)
  UNION ALL
  SELECT k.version, (SELECT ${PHASE_VERSION('p')} FROM phases p WHERE p.game_id = n.id AND p.index = k.index)
  FROM json_to_recordset($1::json) AS n(id uuid, version text, phases json), json_to_recordset(n.phases) AS k(index int, version text)
) AS versions`;

/** The check's failure (UNCHANGED_SQL: SQLSTATE 22P02 with this text): nothing was stored, and the batch may run again the long way. */
function isChangedSinceRead(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '22P02' && String((error as Error).message).includes(CHANGED_SINCE_READ);
}

/** Locks the games, always in id order (so that batches never deadlock). */
const LOCK_GAMES_SQL = `SELECT id FROM games WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`;

/**
 * Each game named, with the version of its row and its seats' rows, and the phases named (each with
 * its version). The game with its seats, their users and its game master (as `gameContextInclude`
 * would have them), and a phase's state and loan actions, come only where the version sent (what
 * the cache holds) is not the current one. JSON as text (PostgreSQL and PGlite alike).
 */
const READ_SQL = `
SELECT g.id::text AS id, v.version,
  CASE WHEN v.version = n.version THEN NULL ELSE row_to_json(g)::text END AS game,
  CASE WHEN v.version = n.version THEN NULL ELSE
    (SELECT coalesce(json_agg(json_build_object('player', row_to_json(p), 'user', CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'username', u.username) END) ORDER BY p.id), '[]'::json)
       FROM players p LEFT JOIN users u ON u.id = p.user_id WHERE p.game_id = g.id)::text END AS players,
  CASE WHEN v.version = n.version THEN NULL ELSE
    (SELECT json_build_object('id', m.id, 'username', m.username) FROM users m WHERE m.id = g.game_master_id)::text END AS game_master,
  (SELECT coalesce(json_agg(json_build_object('id', p.id, 'index', p.index, 'name', p.name, 'status', p.status, 'version', ${PHASE_VERSION('p')},
      'stored', CASE WHEN ${PHASE_VERSION('p')} = k.version THEN NULL ELSE json_build_object('stateBefore', p.state_before, 'loanActions', p.loan_actions) END)), '[]'::json)
     FROM json_to_recordset(n.phases) AS k(index int, version text) JOIN phases p ON p.game_id = g.id AND p.index = k.index)::text AS phases
FROM games g
JOIN json_to_recordset($1::json) AS n(id uuid, version text, phases json) ON n.id = g.id
-- OFFSET 0: worked out once per game, not once per use.
CROSS JOIN LATERAL (SELECT ${GAME_VERSION('g')} AS version OFFSET 0) v
-- The ids again as an array: a plan that looks the games up by key (the JSON's length is unknown to the planner).
WHERE g.id = ANY($2::uuid[])`;

/** A phase's stored position (when the cache has lost it between the read and its use). */
const PHASE_STATE_SQL = `SELECT state_before AS "stateBefore", loan_actions AS "loanActions" FROM phases WHERE id = $1::uuid`;

/** A phase as READ_SQL gives it: what the checks need, its version, and its stored position unless the cache holds it. */
type ReadPhase = PhaseFields & { version: string; stored: { stateBefore: unknown; loanActions: unknown } | null; position?: GameState };
type PhaseFields = Pick<PhaseRow, 'id' | 'index' | 'name' | 'status'>;
/** What the cache keeps of a phase: the fields the checks need, and its position. */
type CachedPhase = { row: PhaseFields; position: GameState };

/** In the batch's order, which is also the order of their `seq` (taken here, under the games' locks). */
const INSERT_SQL = `
INSERT INTO order_submissions (id, game_id, phase_id, power, submitted_by_id, by_game_master, text, orders, ready)
SELECT r.id, r.game_id, r.phase_id, r.power, r.submitted_by_id, false, r.text, r.orders, r.ready
FROM ROWS FROM (json_to_recordset($1::json) AS (id uuid, game_id uuid, phase_id uuid, power text, submitted_by_id uuid, text text, orders jsonb, ready boolean))
  WITH ORDINALITY AS r(id, game_id, phase_id, power, submitted_by_id, text, orders, ready, n)
ORDER BY r.n
RETURNING id::text AS id, round(extract(epoch FROM created_at) * 1000)::text AS created_ms`;

/** Seats whose players are back at the board: missed deadlines reset, and the status given (civil disorder ends). */
const SEATS_BACK_SQL = `
UPDATE players p SET missed_deadlines = 0, status = b.status::player_status
FROM json_to_recordset($1::json) AS b(id uuid, status text)
WHERE p.id = b.id`;

/** Column name → field name, worked out once per column (this runs for every row of every batch). */
const fieldNames = new Map<string, string>();
const fieldOf = (column: string) => {
  let field = fieldNames.get(column);
  if (field === undefined) fieldNames.set(column, (field = column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())));
  return field;
};

/** A row as row_to_json gives it → the model as Prisma gives it: camelCase fields, Dates, the enum names Prisma uses. */
function model(json: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column in json) {
    const field = fieldOf(column);
    const value = json[column];
    out[field] = field.endsWith('At') && typeof value === 'string' ? new Date(value) : value;
  }
  return out;
}

function loadedGame(row: Record<string, unknown>): LoadedGame {
  const players = (JSON.parse(row.players as string) as Array<{ player: Record<string, unknown>; user: { id: string; username: string } | null }>).map(({ player, user }) => {
    const seat = model(player);
    // The enum's database value is "civil-disorder"; Prisma's name for it is civil_disorder.
    if (seat.status === 'civil-disorder') seat.status = 'civil_disorder';
    return { ...seat, user };
  });
  return { ...model(JSON.parse(row.game as string)), players, gameMaster: JSON.parse(row.game_master as string) } as unknown as LoadedGame;
}

/** Random bytes drawn from a pool refilled 4 KiB at a time (one system call per 512 ids, not one per id). */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function randomBytes8(): Buffer {
  if (poolOffset + 8 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 8;
  return pool.subarray(poolOffset - 8, poolOffset);
}

/**
 * UUID version 7 ids that increase strictly within this process (a counter in
 * the random bits within a millisecond), as the database's own ids would. (Which
 * submission is the latest is told by `seq`, not by ids or times.)
 */
let lastMs = 0;
let counter = 0;
function nextId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    counter = 0;
  }
  const random = randomBytes8();
  const hex = ms.toString(16).padStart(12, '0');
  const randA = (0x7000 | counter).toString(16);
  const randB = ((random[0] & 0x3f) | 0x80).toString(16).padStart(2, '0') + random.toString('hex', 1, 8);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${randA}-${randB.slice(0, 4)}-${randB.slice(4, 16)}`;
}
