/**
 * The deadline scheduler. Deadlines live in the database (`phases.deadline_at`);
 * every server instance runs this loop, which claims due phases one at a time:
 *
 *   BEGIN;
 *   SELECT … FROM phases p JOIN games g … WHERE p.status = 'open' AND p.deadline_at <= now
 *     AND g.status = 'active' AND g.paused_at IS NULL
 *     ORDER BY p.deadline_at LIMIT 1 FOR UPDATE OF g SKIP LOCKED;
 *   -- re-check the phase with a fresh read, adjudicate, store, open the next phase
 *   COMMIT;
 *
 * Exactly once: the game row's lock is the one every change to a game's play
 * takes (play/context.ts), so two instances can never hold it together — the
 * second skips the game — and processing marks the phase processed in the
 * same transaction, so whoever gets the lock next finds it no longer open. A
 * crash or lost connection rolls the whole transaction back: the phase stays
 * open and due, and any instance processes it at its next tick (also after a
 * restart). The unique (game, index) of phases is the last safety net.
 *
 * No timer is the source of truth: the loop polls every `intervalMs`, and
 * `wake()` (a ready flag, a shortened deadline) only makes it look sooner.
 * Why not a job-queue library (pg-boss, graphile-worker): the phase row already
 * is the job, and claiming it in the transaction that adjudicates is what makes
 * it exactly-once; a separate queue would need its own completion kept in step
 * with ours.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Prisma, type PrismaClient } from '../db/database.ts';
import { processPhase, type PlayEnv } from './process.ts';
import { grantGrace } from './grace.ts';
import { PollingLoop } from './polling-loop.ts';

export type SchedulerOptions = {
  /** Off in most tests, which call processDue() themselves. */
  enabled: boolean;
  intervalMs: number;
  /** Phases processed at most per tick, so one tick cannot run for ever. */
  batch: number;
  /** Due phases processed at once, each in its own transaction (1 when not given; PGlite runs them one after another anyway). */
  concurrency?: number;
};

type Claim = 'none' | 'processed' | 'skipped' | 'graced' | 'failed';

export class PhaseScheduler {
  /** Since start: phases processed, claims found already done or no longer due, phases given grace instead, and failed attempts (rolled back). */
  readonly stats = { processed: 0, skipped: 0, graced: 0, failed: 0 };
  // A full batch: more may be due (many deadlines falling together); go on at once.
  private readonly loop: PollingLoop;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly play: PlayEnv,
    private readonly log: FastifyBaseLogger,
    readonly options: SchedulerOptions,
  ) {
    this.loop = new PollingLoop(async () => (await this.processDue()) >= options.batch, options.intervalMs, log, 'deadline scheduler tick failed');
  }

  start(): void {
    if (this.options.enabled) this.loop.start();
  }

  /** Stops the loop and waits for a tick under way (graceful shutdown). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Look for due phases now rather than at the next tick (a latency optimisation only). */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Processes the phases due at `now` (tests pass a later time to simulate the
   * clock), one transaction each; returns how many this call processed.
   */
  async processDue(now: Date = new Date(), limit = this.options.batch): Promise<number> {
    let processed = 0;
    let inFlight = 0;
    // Phases this call skipped or failed on, so it moves on to the others.
    const passed: string[] = [];
    // Several workers, each claiming the next due phase of a game the others do not hold (SKIP LOCKED).
    const worker = async () => {
      while (processed + inFlight < limit) {
        inFlight += 1;
        let claim: Claim;
        try {
          claim = await this.claimAndProcess(now, passed);
        } finally {
          inFlight -= 1;
        }
        if (claim === 'none') break;
        if (claim === 'processed') processed += 1;
        else if (claim === 'skipped') this.stats.skipped += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.options.concurrency ?? 1) }, worker));
    return processed;
  }

  private async claimAndProcess(now: Date, passed: string[]): Promise<Claim> {
    let claimed: string | undefined;
    const at = now.toISOString();
    try {
      return await this.prisma.$transaction(async (tx): Promise<Claim> => {
        const exclude = passed.length > 0 ? Prisma.sql`AND p.id NOT IN (${Prisma.join(passed.map((id) => Prisma.sql`${id}::uuid`))})` : Prisma.empty;
        const rows = await tx.$queryRaw<Array<{ phase_id: string; game_id: string; index: number }>>`
          SELECT p.id::text AS phase_id, g.id::text AS game_id, p.index
          FROM phases p JOIN games g ON g.id = p.game_id
          WHERE p.status = 'open' AND p.deadline_at <= ${at}::timestamptz
            AND g.status = 'active' AND g.paused_at IS NULL ${exclude}
          ORDER BY p.deadline_at
          LIMIT 1
          FOR UPDATE OF g SKIP LOCKED`;
        if (rows.length === 0) return 'none';
        const { phase_id: phaseId, game_id: gameId, index } = rows[0];
        claimed = phaseId;
        this.log.debug({ gameId, phaseId, phaseIndex: index }, 'claimed a due phase');
        // The row was chosen from a snapshot taken before the lock: read again now that we hold it
        // (another instance may have processed it, or the game master moved the deadline or paused).
        const still = await tx.$queryRaw<Array<{ id: string }>>`
          SELECT p.id::text AS id FROM phases p JOIN games g ON g.id = p.game_id
          WHERE p.id = ${phaseId}::uuid AND p.status = 'open' AND p.deadline_at <= ${at}::timestamptz
            AND g.status = 'active' AND g.paused_at IS NULL`;
        if (still.length === 0) {
          passed.push(phaseId);
          return 'skipped';
        }
        // A power whose player sent nothing may be owed grace (play/grace.ts): the deadline moves, the phase waits.
        const grace = await grantGrace(tx, this.play, gameId, phaseId, now);
        if (grace) {
          this.log.info({ gameId, phase: grace.phase.name, powers: grace.powers, deadlineAt: grace.deadlineAt }, 'grace given at the deadline');
          passed.push(phaseId);
          this.stats.graced += 1;
          return 'graced';
        }
        const result = await processPhase(tx, this.play, gameId, phaseId, now);
        if (!result) {
          passed.push(phaseId);
          return 'skipped';
        }
        if ('held' in result) this.log.info({ gameId, phase: result.held.name, seas: result.seas }, 'phase held for its sea battles at its deadline');
        else this.log.info({ gameId, phase: result.processed.name, next: result.next?.name ?? null }, 'phase processed at its deadline');
        this.stats.processed += 1;
        return 'processed';
      });
    } catch (error) {
      if (claimed === undefined) throw error;
      // Rolled back: the phase stays open and due; later ticks try again.
      this.log.error({ err: error, phaseId: claimed }, 'processing a due phase failed');
      passed.push(claimed);
      this.stats.failed += 1;
      return 'failed';
    }
  }
}
