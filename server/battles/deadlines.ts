/**
 * The battles' deadline loop: when a side lets its time run out, the computer acts for it. Modelled on the game
 * scheduler (server/play/scheduler.ts), with the battle row as the job: every instance loops, and in one
 * transaction claims one due battle —
 *
 *   SELECT id FROM battles WHERE status = 'active' AND deadline_at <= now
 *     ORDER BY deadline_at LIMIT 1 FOR UPDATE SKIP LOCKED;   -- alone: no lock kept
 *   -- the computer thinks out its moves from the battle as read, in the worker pool, holding nothing
 *   BEGIN; lock the battle; still due, at the same count and decision? the planned moves are taken (the rules
 *   check each again), the next deadline is set; COMMIT   -- else the plan is dropped (play.ts planThenSettle)
 *
 * Exactly once: the row lock is the one every change to a battle takes (stored.ts `lockBattle`), so two instances
 * never expire a battle together (the second skips it) and a player's action and the expiry never interleave; the
 * expiry moves the deadline in the same transaction, so whoever holds the lock next finds it no longer due. A crash
 * (SIGKILL included) rolls everything back: the battle stays due, and any instance expires it at its next tick.
 *
 * Its own loop rather than a hook in the core's scheduler: the core imports no domain (.dependency-cruiser.cjs),
 * the claim is a query on this domain's own table, and a generic job hook would add to the core an interface that
 * only this domain would use; the loop is a few dozen lines and shares the scheduler's settings (tests turn both
 * off and drive them with `processDue`).
 */
import type { FastifyBaseLogger } from 'fastify';
import { Prisma, type PrismaClient } from '../db/database.ts';
import type { SchedulerOptions } from '../play/scheduler.ts';
import { PollingLoop } from '../play/polling-loop.ts';
import type { LoadedBattle } from '../views/battle.ts';
import { type BattleEnv, planThenSettle } from './play.ts';

type Claim = 'none' | 'expired' | 'skipped' | 'failed';

export class BattleDeadlines {
  /** Since start: battles expired, claims found no longer due, failed attempts (rolled back). */
  readonly stats = { expired: 0, skipped: 0, failed: 0 };
  private readonly loop: PollingLoop;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly env: BattleEnv,
    private readonly log: FastifyBaseLogger,
    readonly options: Pick<SchedulerOptions, 'enabled' | 'intervalMs' | 'batch'>,
  ) {
    this.loop = new PollingLoop(async () => (await this.processDue()) >= options.batch, options.intervalMs, log, 'battle deadline tick failed');
  }

  start(): void {
    if (this.options.enabled) this.loop.start();
  }

  /** Stops the loop and waits for a tick under way (graceful shutdown). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Expires the battles due at `now` (tests pass a later time), one transaction each; returns how many this call expired. */
  async processDue(now: Date = new Date(), limit = this.options.batch): Promise<number> {
    let expired = 0;
    const passed: string[] = [];
    while (expired < limit) {
      const claim = await this.claimAndExpire(now, passed);
      if (claim === 'none') break;
      if (claim === 'expired') expired += 1;
      else if (claim === 'skipped') this.stats.skipped += 1;
    }
    return expired;
  }

  private async claimAndExpire(now: Date, passed: string[]): Promise<Claim> {
    let claimed: string | undefined;
    const at = now.toISOString();
    try {
      // Which battle is due, skipping one whose change is being written; no lock is kept while the computer thinks.
      const exclude = passed.length > 0 ? Prisma.sql`AND id NOT IN (${Prisma.join(passed.map((id) => Prisma.sql`${id}::uuid`))})` : Prisma.empty;
      const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
        SELECT id::text AS id FROM battles
        WHERE status = 'active' AND deadline_at <= ${at}::timestamptz ${exclude}
        ORDER BY deadline_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return 'none';
      const id = rows[0].id;
      claimed = id;
      const due = (battle: LoadedBattle | null) =>
        battle !== null && battle.status === 'active' && battle.deadlineAt !== null && battle.deadlineAt.getTime() <= now.getTime() ? { battle } : null;
      // The computer acts for each human side that owed the decision, until it is taken (Classis: the rest of the
      // activation; ship-to-ship: the plot), the log saying so; then for its own seats; then the clock. No worker free
      // to act for the late side: nothing is written, the battle stays due (the next tick retries) rather than the
      // late side getting a new deadline.
      const settled = await planThenSettle(this.env, this.prisma, id, {
        see: due,
        planFrom: ({ battle }) => (battle.decision === null ? {} : { late: { decision: battle.decision } }),
        unplanned: 'fail',
        now,
      });
      // Not due when read, or someone acted meanwhile, another instance expired it first, or it was called off.
      if (settled === null) {
        passed.push(id);
        return 'skipped';
      }
      // Due again at once only when the computer still owes moves (at most a batch of them per claim).
      if (settled.to.deadlineAt !== null && settled.to.deadlineAt.getTime() <= now.getTime()) passed.push(id);
      // Said once committed: a process killed before its COMMIT never claims an expiry that did not happen.
      this.log.info({ battleId: id, actions: settled.to.actionCount - settled.from.actionCount }, 'battle deadline passed: the computer acted');
      this.stats.expired += 1;
      return 'expired';
    } catch (error) {
      if (claimed === undefined) throw error;
      this.log.error({ err: error, battleId: claimed }, 'expiring a battle deadline failed');
      passed.push(claimed);
      this.stats.failed += 1;
      return 'failed';
    }
  }
}
