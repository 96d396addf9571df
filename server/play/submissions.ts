/**
 * Order submissions: the one way orders are stored, for a player and for the
 * game master entering them for a power, one at a time or many together.
 *
 * Submissions arriving together are stored in one transaction (group commit):
 * it locks every game concerned (in id order, so batches never deadlock),
 * reads the games, their seats and the phases named (from caches while their
 * rows are unchanged, row-cache.ts), judges each submission with the engine
 * (`judgeSubmission`), inserts the accepted ones in one statement, brings
 * back to the board the players who had been away ("the player is back":
 * missed deadlines reset, civil disorder ends), numbers and logs their live
 * events in one statement (notified once the transaction has committed, in
 * plain SQL: server/bus/live-bus.ts says why), logs the game master's entries,
 * then processes early any game in which a submission said "ready" and
 * everyone now is. Each submission gets its own answer (a refused one does not
 * stop the others). A lone submission is a batch of one, at the next turn of
 * the event loop; while a batch is in flight the next one gathers until it
 * ends (or until enough wait, `BatchOptions.gatherWhileBusy`).
 *
 * On PostgreSQL a batch is one round trip (the statements pipelined, see
 * Database.transaction) when the caches hold every game and phase it names:
 * it is judged on them, and BEGIN, the lock, a check that those rows are
 * still as cached (`rows_unchanged`, a database function that raises an error
 * when one has changed), the insert, the events' log, COMMIT and the events'
 * notifications go out together. Should a row have changed, the check rolls
 * the transaction back (and nothing is notified) and the batch runs again the
 * long way, in two round trips: BEGIN, the lock and the read; then the insert,
 * the events' log, COMMIT and the notifications. A batch that may
 * process a phase (someone said "ready") or log the game master's entry runs
 * in a Prisma transaction, which the engine's processing needs.
 *
 * The serial order this stands for: the batch's submissions in arrival order,
 * then the readiness checks. Should a whole batch fail for a reason other than
 * the database being unavailable (say one game's processing hits a bug),
 * nothing of it was stored, and each submission runs again alone, so only its
 * own answer is the failure. Submissions are numbered as they are inserted
 * (`seq`, under the games' locks): the one acknowledged last counts.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { checkOrders, formatOrder, frozenState, powersToOrder, type GameState, type Order, type Variant } from '../../shared/index.ts';
import type { CheckedOrder, OrderSubmission, OrdersInputSchema, SubmitOrdersRequestSchema } from '../../shared/api/play.ts';
import { mayView, seatOf as seatOfViewer, type Absence } from '../access/policy.ts';
import type { Auth } from '../auth/caller.ts';
import { sqlOf, type Sql, type Statement, type Transaction } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../errors.ts';
import { HELD_NOTIFICATIONS, loggingStatement, publicationStatement, type Publication } from '../bus/live-bus.ts';
import {
  makeContext,
  requireActive,
  requireActingPower,
  requireGameMaster,
  seatOf,
  withLockedGame,
  type GameContext,
  type LoadedGame,
  type LoadedPlayer,
} from './context.ts';
import { logGmAction } from './gm-log.ts';
import { latestSubmissions, openPhaseNamed, positionOf, requireOpenPhase, type PhaseRow } from './phases.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { compactOrders, type StoredAcceptedOrder } from '../db/tables/submissions.ts';
import { playerStatusEvent } from '../views/phase.ts';
import { readyView, submissionView, submittedView } from '../views/submission.ts';
import { processIfAllReady } from './process.ts';
import { RowCache } from './row-cache.ts';
import { GAME_JSON_SQL, loadedGameOf } from './stored-game.ts';

type User = Auth['user'];
export type SubmitBody = z.output<typeof SubmitOrdersRequestSchema>;
export type SubmitResult = { submission: OrderSubmission; checked: CheckedOrder[]; phaseProcessed: boolean };

/** A submission to store: by a player for their power, or by the game master for `asGameMaster.power`. */
export type SubmissionRequest = { user: User; gameId: string; phaseIndex: number; body: SubmitBody; asGameMaster?: { power: string } };
type Job = SubmissionRequest & { resolve: (result: SubmitResult) => void; reject: (error: unknown) => void };
type Outcome = { ok: true; value: SubmitResult } | { ok: false; error: HttpError };
/** A batch's answers, and when its live events' notifications have left (plain SQL: sent behind its COMMIT). */
type Stored = { outcomes: Outcome[]; notified: Promise<void> };

export type BatchOptions = {
  /** Batches in flight at once (each holds a database connection). */
  concurrency: number;
  /** Most submissions in one batch. */
  maxBatch: number;
  /**
   * While a batch is in flight, the next one starts only when it ends or when this many submissions wait for it
   * (whichever comes first); with none in flight, a batch starts at once. Fewer, larger batches cost PostgreSQL
   * and the server less a submission (a transaction, its commit and its statements' round trip are a batch's).
   * Only plain-SQL batches are waited for: one that may process a phase could hold the next for long.
   */
  gatherWhileBusy: number;
};

/** Text: one order per line, blank lines ignored. Structured: as given. */
function ordersOf(input: z.output<typeof OrdersInputSchema>): { list: (Order | string)[]; text: string } {
  if (typeof input === 'string') {
    const list = input
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line.length > 0);
    return { list, text: list.join('\n') };
  }
  return { list: input, text: input.map((order) => formatOrder(order)).join('\n') };
}

/**
 * The engine's verdict on a submission for `power` in `phase` (whose position
 * is `position`): what to store, or the HttpError to answer (409 nothing to
 * order, 422 refused orders with the verdict on each). Writes nothing.
 */
export function judgeSubmission(context: GameContext, phase: Pick<PhaseRow, 'name'>, position: GameState, power: string, body: SubmitBody) {
  if (!powersToOrder(context.variant, position).includes(power)) {
    throw conflict('nothing_to_order', `${power} has no orders to give in ${phase.name}`);
  }
  const { list, text } = ordersOf(body.orders);
  const checked = checkOrders(context.variant, position, power, list);
  if (!checked.ok) throw unprocessable('orders_rejected', checked.error, { orders: [] });
  const verdicts: CheckedOrder[] = checked.value.map((verdict) =>
    verdict.accepted
      ? { accepted: true, input: verdict.input, text: verdict.text, order: verdict.order, ...(verdict.unit ? { unit: verdict.unit } : {}) }
      : verdict,
  );
  const refused = verdicts.filter((verdict) => !verdict.accepted);
  if (refused.length > 0) {
    const reasons = verdicts
      // Each reason is a sentence; in this list they are parted by semicolons, so without their full stops.
      .map((verdict, i) => (verdict.accepted ? null : `order ${i + 1} "${verdict.input}": ${verdict.reason.replace(/\.$/, '')}`))
      .filter((line) => line !== null);
    throw unprocessable('orders_rejected', `${refused.length} of ${verdicts.length} orders refused, nothing stored: ${reasons.join('; ')}`, {
      orders: verdicts,
    });
  }
  // All accepted (a refusal was thrown above); stored without the verdict's flag.
  const orders = verdicts.filter((verdict) => verdict.accepted).map(({ accepted: _accepted, ...order }) => order);
  return { text, verdicts, orders };
}

/** Who submits for which power: a player their own; the game master (who does not play) the power named. */
function submitterOf(context: GameContext, job: SubmissionRequest): { power: string; seat: LoadedPlayer; byGameMaster: boolean; sitting: boolean } {
  if (!job.asGameMaster) {
    requireActive(context);
    // A player's own power, or the one they sit for while its player is away (access/policy.ts sittingFor).
    return { ...requireActingPower(context), byGameMaster: false };
  }
  requireGameMaster(context);
  // Orders typed for a rival would be orders no rival gave; a player's own go through the player's route.
  if (context.playsAsGameMaster)
    throw forbidden('game_master_plays', 'a game master who also plays a power enters no orders for powers (submit your own as a player)');
  requireActive(context);
  return { power: job.asGameMaster.power, seat: seatOf(context, job.asGameMaster.power), byGameMaster: true, sitting: false };
}

/** A sitter's first act for a power in an absence is logged, which takes a Prisma transaction: the batch runs again in one. */
class SitterNeedsLog extends Error {}

/**
 * The game master's log says, once per absence and game, that a sitter acts for a power (the sitter's name under
 * `users`, hidden where the game hides names). Under the game's lock, so it is written once.
 */
export async function logSittingOnce(tx: Transaction, app: FastifyInstance, context: GameContext): Promise<void> {
  const sitting = context.sitting;
  if (!sitting || !context.viewer) return;
  const gameId = context.game.id;
  const logged = await tx.$queryRaw<{ n: number }[]>`
    SELECT 1 AS n FROM game_master_actions WHERE game_id = ${gameId}::uuid AND action = 'sitter' AND details->>'absenceId' = ${sitting.absenceId} LIMIT 1`;
  if (logged.length > 0) return;
  await logGmAction(tx, app.bus, gameId, null, 'sitter', {
    power: sitting.seat.power,
    until: sitting.until.toISOString(),
    absenceId: sitting.absenceId,
    users: { sitter: context.viewer.username },
  });
}

/** The absences covering now in which the user sits for a player of the game (as `sitterAbsences` in context.ts, in plain SQL). */
const SITTER_ABSENCES_SQL = `
SELECT v.id::text AS id, v.user_id::text AS user_id, v.sitter_id::text AS sitter_id,
  round(extract(epoch FROM v.starts_at) * 1000)::text AS starts_ms, round(extract(epoch FROM v.ends_at) * 1000)::text AS ends_ms
FROM vacations v JOIN players p ON p.user_id = v.user_id AND p.game_id = $2::uuid
WHERE v.sitter_id = $1::uuid AND v.cancelled_at IS NULL AND v.starts_at <= $3::timestamptz AND v.ends_at > $3::timestamptz
ORDER BY v.created_at`;

async function withSitterAbsences(sql: Sql, game: LoadedGame, user: User, now: Date): Promise<LoadedGame> {
  const rows = await sql(SITTER_ABSENCES_SQL, [user.id, game.id, now.toISOString()]);
  if (rows.length === 0) return game;
  const absences: Absence[] = rows.map((row) => ({
    id: row.id as string,
    userId: row.user_id as string,
    sitterId: row.sitter_id as string,
    startsAt: new Date(Number(row.starts_ms)),
    endsAt: new Date(Number(row.ends_ms)),
  }));
  // A copy: the cached game is every viewer's.
  return { ...game, absences };
}

export class SubmissionBatcher {
  private waiting: Job[] = [];
  private running = 0;
  /** Of those, batches in plain SQL (quick: no phase to process, no log to write), which the next batch may wait for. */
  private plainRunning = 0;
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
    private readonly options: BatchOptions = { concurrency: 3, maxBatch: 128, gatherWhileBusy: 16 },
  ) {}

  /** Stores a submission (in the batch that is forming) and answers it as if it had been stored alone. */
  submit(request: SubmissionRequest): Promise<SubmitResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...request, resolve, reject });
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
   * every other game it locked meanwhile). While one is in flight, the next
   * gathers until it ends or `gatherWhileBusy` submissions wait: at a steady
   * rate a batch per turn of the event loop held a few submissions, each batch
   * paying for a transaction, its commit and a round trip.
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
      if (this.plainRunning > 0 && jobs.length < this.options.gatherWhileBusy) return;
      this.waiting = left;
      const games = new Set(jobs.map((job) => job.gameId));
      for (const game of games) this.busyGames.add(game);
      const plain = !needsPrisma(jobs);
      this.running += 1;
      if (plain) this.plainRunning += 1;
      void this.run(jobs).finally(() => {
        for (const game of games) this.busyGames.delete(game);
        this.running -= 1;
        if (plain) this.plainRunning -= 1;
        this.pump();
      });
    }
  }

  private async run(jobs: Job[], alone = false): Promise<void> {
    this.stats.batches += 1;
    this.stats.submissions += jobs.length;
    this.stats.largest = Math.max(this.stats.largest, jobs.length);
    let stored: Stored;
    const started = performance.now();
    try {
      const prismaTransaction = () => this.app.prisma.$transaction((tx) => this.store(sqlOf(tx), tx, jobs));
      stored = needsPrisma(jobs)
        ? await prismaTransaction()
        : await this.storePlain(jobs).catch((error) => {
            // Nothing stored: a sitter's entry in the game master's log wants the Prisma transaction.
            if (error instanceof SitterNeedsLog) return prismaTransaction();
            throw error;
          });
      this.stats.busyMs += performance.now() - started;
      if (this.stats.batches % 200 === 0) {
        const { batches, submissions, largest, busyMs, fromCache, changedSinceCached } = this.stats;
        this.app.log.debug(
          { batches, submissions, largest, meanBatch: submissions / batches, meanMs: busyMs / batches, fromCache, changedSinceCached },
          'order submission batches',
        );
      }
    } catch (error) {
      if (alone || jobs.length === 1 || isDatabaseUnavailable(error)) {
        for (const job of jobs) job.reject(error);
        return;
      }
      // Rolled back, nothing stored: each alone, so only the one at fault fails.
      this.app.log.warn({ err: error, submissions: jobs.length }, 'a batch of order submissions failed; storing them one at a time');
      this.stats.retriedAlone += jobs.length;
      for (const job of jobs) await this.run([job], true);
      return;
    }
    stored.outcomes.forEach((outcome, i) => (outcome.ok ? jobs[i].resolve(outcome.value) : jobs[i].reject(outcome.error)));
    // After the answers; before the games are free for the next batch, so that a game's notifications leave in order.
    await stored.notified;
  }

  /** In plain SQL: in one round trip when the caches hold everything the batch names, else (or should that fail) the long way. */
  private async storePlain(jobs: Job[]): Promise<Stored> {
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
    // Parsed here, where the row enters memory (the phases' repository), then cached: not again while it is unchanged.
    // Frozen by the cache, and so taken by the engine without being validated again (shared/state/checked.ts).
    const position = frozenState(positionOf(variant, phaseOf({ id: phase.id, ...stored })));
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
        game = loadedGameOf(JSON.parse(fresh.game as string));
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
   * Prisma (to process phases, to log the game master's entries); without it, `commit` sends COMMIT along with
   * the last statements. `cached`: the batch is judged on what the caches hold (`cachedRead`), and the statements
   * that store it are sent behind the lock and a check that the rows are still those (else the check fails them all).
   */
  private async store(
    sql: Sql,
    tx: Transaction | null,
    jobs: Job[],
    commit: (after?: Statement) => Promise<void> = async () => {},
    cached: Read | null = null,
  ): Promise<Stored> {
    const read = cached ?? (await this.read(sql, jobs, tx === null));

    const outcomes: Array<Outcome | { pending: { phaseIndex: number; row: StoredRow; verdicts: CheckedOrder[]; phaseId: string; replaced?: boolean } }> = [];
    const rows: StoredRow[] = [];
    const publications: Publication[] = [];
    const seatsBack = new Map<string, 'active' | 'eliminated'>();
    const lastReady = new Map<string, number>();
    for (const [i, job] of jobs.entries()) {
      try {
        const found = read.get(job.gameId);
        if (!found) throw notFound('no game with that id');
        const now = new Date();
        // Someone without a seat may be sitting for an absent player: their absences are read (rarely: else a 403).
        const game = job.asGameMaster || seatOfViewer(found.game, job.user) ? found.game : await withSitterAbsences(sql, found.game, job.user, now);
        if (!mayView(game, job.user)) throw notFound('no game with that id');
        const context = makeContext(game, job.user, now);
        const { power, seat, byGameMaster, sitting } = submitterOf(context, job);
        const phase = requireOpenPhase(found.phases.get(job.phaseIndex), job.phaseIndex);
        // Without a pause when the batch was read from the caches: its statements then leave in one write.
        const position = phase.position ?? (await this.positionOf(sql, context.variant, game.id, phase));
        const { text, verdicts, orders } = judgeSubmission(context, phase, position, power, job.body);
        if (sitting) {
          if (!tx) throw new SitterNeedsLog();
          await logSittingOnce(tx, this.app, context);
        }
        const row: StoredRow = {
          game_id: game.id,
          phase_id: phase.id,
          power,
          submitted_by_id: job.user.id,
          by_game_master: byGameMaster,
          text,
          orders,
          ready: job.body.ready,
        };
        rows.push(row);
        const channel = `game:${game.id}` as const;
        publications.push({
          channel,
          event: { type: 'orders.status', gameId: game.id, phaseIndex: phase.index, power, submitted: true, ready: job.body.ready },
        });
        // The player is back at the board: missed deadlines reset, civil disorder ends (once per seat). Not for
        // orders the game master entered: the power was not left unordered, but its player did not come back either.
        if (!byGameMaster) playerBack(game, seat, seatsBack, publications);
        if (job.body.ready) lastReady.set(game.id, i);
        // Whether the game master's log may say these orders replace others (by the player or the game master).
        const replaced = byGameMaster
          ? (await sql(HAS_SUBMISSION_SQL, [phase.id, power]))[0].exists === true || rows.slice(0, -1).some((r) => r.phase_id === phase.id && r.power === power)
          : undefined;
        outcomes[i] = { pending: { phaseIndex: phase.index, row, verdicts, phaseId: phase.id, replaced } };
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        outcomes[i] = { ok: false, error };
      }
    }

    // Worked out before anything is sent: COMMIT may follow the statements without waiting for them,
    // so nothing after it may fail but the statements themselves (a failed one makes COMMIT roll back).
    // In plain SQL the events are logged here and notified after COMMIT (server/bus/live-bus.ts says why).
    const publication = tx ? publicationStatement(publications) : loggingStatement(publications);
    // Judged on the caches, nothing was sent yet: the games are locked now, and the rows checked unchanged.
    const checked = cached ? lockAndCheck(sql, cached) : [];
    const written = inOrder(tx === null, [
      async () => (rows.length > 0 ? sql(INSERT_SQL, insertParameters(rows)) : []),
      async () => (seatsBack.size > 0 ? sql(SEATS_BACK_SQL, [JSON.stringify([...seatsBack].map(([id, status]) => ({ id, status })))]) : []),
      async () => (publication ? sql(...publication) : []),
    ]);
    // In plain SQL the events' notifications go right behind COMMIT, in the same write.
    const notified = tx === null ? commit(publication ? HELD_NOTIFICATIONS : undefined) : Promise.resolve();
    // Answered in the order sent: should the check fail, its failure comes first (the statements behind it fail because it did).
    const [, [inserted]] = await Promise.all([Promise.all(checked), written]);
    // In the order given (their numbers were taken in that order).
    const stored = inserted
      .map((row) => ({ id: row.id as string, seq: BigInt(row.seq as string), createdAt: new Date(Number(row.created_ms)) }))
      .sort((a, b) => (a.seq < b.seq ? -1 : 1));

    const answers = outcomes.map((outcome) => {
      if ('ok' in outcome) return outcome;
      const { phaseIndex, row, verdicts } = outcome.pending;
      const { id, createdAt } = stored.shift()!;
      const submission = submissionView(phaseIndex, {
        id,
        power: row.power,
        text: row.text,
        orders: row.orders,
        ready: row.ready,
        byGameMaster: row.by_game_master,
        createdAt,
      });
      return { ok: true as const, value: submittedView(submission, verdicts) };
    });
    if (tx) {
      // The game master's entries, in its log (the orders themselves stay secret there: how many, not which).
      for (const [i, job] of jobs.entries()) {
        const outcome = outcomes[i];
        if (!job.asGameMaster || 'ok' in outcome) continue;
        const { phaseIndex, row, replaced } = outcome.pending;
        const phaseName = read.get(job.gameId)!.phases.get(phaseIndex)!.name;
        await logGmAction(tx, this.app.bus, job.gameId, job.user.id, 'enter-orders', {
          power: row.power,
          phase: phaseIndex,
          phaseName,
          orders: row.text.split('\n').filter(Boolean).length,
          ready: row.ready,
          replaced,
        });
      }
      // Early processing where a submission said ready (the last ready one of the game learns whether it happened).
      for (const [gameId, index] of lastReady) {
        const answer = answers[index];
        if (answer.ok && (await processIfAllReady(tx, this.app.play, gameId, new Date()))) answer.value.phaseProcessed = true;
      }
    }
    return { outcomes: answers, notified };
  }
}

/** Plain SQL, unless a game may have to be processed or the game master's entry logged (in a Prisma transaction). */
function needsPrisma(jobs: readonly SubmissionRequest[]): boolean {
  return jobs.some((job) => job.body.ready || job.asGameMaster);
}

/** Seats whose players are back at the board: missed deadlines reset, and the status given (civil disorder ends); their live events. */
function playerBack(game: LoadedGame, seat: LoadedPlayer, back: Map<string, 'active' | 'eliminated'>, publications: Publication[]): void {
  if ((seat.missedDeadlines === 0 && seat.status !== 'civil_disorder') || back.has(seat.id)) return;
  const status = seat.status === 'civil_disorder' ? 'active' : seat.status;
  back.set(seat.id, status);
  publications.push({ channel: `game:${game.id}`, event: playerStatusEvent(game.id, { power: seat.power!, userId: seat.userId }, status, 0) });
}

/**
 * Ready or not: the flag of the power's latest submission. Ready with no submission stores an empty one (every unit
 * holds), so that the power is not counted as having missed the deadline. The player is back at the board; a phase
 * everyone is ready for is processed at once.
 */
export async function setReady(app: FastifyInstance, user: User, gameId: string, phaseIndex: number, ready: boolean) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    requireActive(context);
    const { power, seat, sitting } = requireActingPower(context);
    const phase = await openPhaseNamed(tx, gameId, phaseIndex);
    if (sitting) await logSittingOnce(tx, app, context);
    if (!powersToOrder(context.variant, positionOf(context.variant, phase)).includes(power))
      throw conflict('nothing_to_order', `${power} has no orders to give in ${phase.name}`);
    const latest = (await latestSubmissions(tx, phase.id)).get(power);
    if (latest?.ready === ready) return readyView(power, ready, false);
    const sql = sqlOf(tx);
    if (latest) await tx.orderSubmission.update({ where: { id: latest.id }, data: { ready } });
    else if (ready) {
      const row: StoredRow = { game_id: gameId, phase_id: phase.id, power, submitted_by_id: user.id, by_game_master: false, text: '', orders: [], ready: true };
      await sql(INSERT_SQL, insertParameters([row]));
    } else return readyView(power, ready, false);
    const publications: Publication[] = [
      { channel: `game:${gameId}`, event: { type: 'orders.status', gameId, phaseIndex: phase.index, power, submitted: true, ready } },
    ];
    const back = new Map<string, 'active' | 'eliminated'>();
    playerBack(context.game, seat, back, publications);
    if (back.size > 0) await sql(SEATS_BACK_SQL, [JSON.stringify([...back].map(([id, status]) => ({ id, status })))]);
    await app.bus.publishAll(tx, publications);
    const phaseProcessed = ready && (await processIfAllReady(tx, app.play, gameId, new Date()));
    return readyView(power, ready, phaseProcessed);
  });
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

/** A submission as INSERT_SQL takes it (column names). */
type StoredRow = {
  game_id: string;
  phase_id: string;
  power: string;
  submitted_by_id: string;
  by_game_master: boolean;
  text: string;
  orders: StoredAcceptedOrder[];
  ready: boolean;
};

/** INSERT_SQL's parameter: the rows, their orders as the column holds them (db/tables/submissions.ts). */
function insertParameters(rows: readonly StoredRow[]): [string] {
  return [JSON.stringify(rows.map((row) => ({ ...row, orders: compactOrders(row.orders) })))];
}

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

/**
 * Versions of rows, from PostgreSQL's `xmin` (see row-cache.ts): a game's is its row's and its seats'; a
 * phase's, its row's. One text for each, used by the read and by the check alike.
 */
const GAME_VERSION = (g: string) =>
  `${g}.xmin::text || coalesce((SELECT string_agg(' ' || s.id::text || '/' || s.xmin::text, '' ORDER BY s.id) FROM players s WHERE s.game_id = ${g}.id), '')`;
const PHASE_VERSION = (p: string) => `${p}.id::text || '/' || ${p}.xmin::text`;

/**
 * Whether every game and phase named still has the version sent: `rows_unchanged` (a function of the
 * database's, see its migration) raises an error otherwise, which rolls the transaction back. After the
 * lock, so that it sees whatever committed before the lock was granted, as the read would have.
 */
const UNCHANGED_SQL = `
SELECT rows_unchanged(bool_and(now IS NOT DISTINCT FROM sent), count(*) FILTER (WHERE now IS DISTINCT FROM sent)) AS unchanged
FROM (
  SELECT n.version AS sent, (SELECT ${GAME_VERSION('g')} FROM games g WHERE g.id = n.id) AS now
  FROM json_to_recordset($1::json) AS n(id uuid, version text, phases json)
  UNION ALL
  SELECT k.version, (SELECT ${PHASE_VERSION('p')} FROM phases p WHERE p.game_id = n.id AND p.index = k.index)
  FROM json_to_recordset($1::json) AS n(id uuid, version text, phases json), json_to_recordset(n.phases) AS k(index int, version text)
) AS versions`;

/** The check's failure (UNCHANGED_SQL): nothing was stored, and the batch may run again the long way. */
function isChangedSinceRead(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P0001' && String((error as Error).message).startsWith('rows changed since they were read');
}

/** Locks the games, always in id order (so that batches never deadlock). */
const LOCK_GAMES_SQL = `SELECT id FROM games WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`;

/**
 * Each game named, with the version of its row and its seats' rows, and the phases named (each with
 * its version). The game with its seats, their users and its game master (stored-game.ts), and a phase's
 * state and loan actions, come only where the version sent (what the cache holds) is not the current one.
 * JSON as text (PostgreSQL and PGlite alike).
 */
const READ_SQL = `
SELECT g.id::text AS id, v.version,
  CASE WHEN v.version = n.version THEN NULL ELSE (${GAME_JSON_SQL('g')})::text END AS game,
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

/** Whether the power has a submission in the phase already. */
const HAS_SUBMISSION_SQL = `SELECT EXISTS (SELECT 1 FROM order_submissions WHERE phase_id = $1::uuid AND power = $2) AS exists`;

/** A phase as READ_SQL gives it: what the checks need, its version, and its stored position unless the cache holds it. */
type ReadPhase = PhaseFields & { version: string; stored: { stateBefore: unknown; loanActions: unknown } | null; position?: GameState };
type PhaseFields = Pick<PhaseRow, 'id' | 'index' | 'name' | 'status'>;
/** What the cache keeps of a phase: the fields the checks need, and its position. */
type CachedPhase = { row: PhaseFields; position: GameState };

/**
 * In the order given, which is also the order of their `seq` (taken here, under the games' locks). Ids are the
 * database's: random, as nothing is ordered by them.
 */
const INSERT_SQL = `
INSERT INTO order_submissions (id, game_id, phase_id, power, submitted_by_id, by_game_master, text, orders, ready)
SELECT gen_random_uuid(), r.game_id, r.phase_id, r.power, r.submitted_by_id, r.by_game_master, r.text, r.orders, r.ready
FROM ROWS FROM (json_to_recordset($1::json) AS (game_id uuid, phase_id uuid, power text, submitted_by_id uuid, by_game_master boolean, text text, orders json, ready boolean))
  WITH ORDINALITY AS r(game_id, phase_id, power, submitted_by_id, by_game_master, text, orders, ready, n)
ORDER BY r.n
RETURNING id::text AS id, seq::text AS seq, round(extract(epoch FROM created_at) * 1000)::text AS created_ms`;

/** Seats whose players are back at the board: missed deadlines reset, and the status given (civil disorder ends). */
const SEATS_BACK_SQL = `
UPDATE players p SET missed_deadlines = 0, status = b.status::player_status
FROM json_to_recordset($1::json) AS b(id uuid, status text)
WHERE p.id = b.id`;
