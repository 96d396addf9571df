/**
 * A held phase's seas past their deadline (the campaign's battle hours) that nobody fought or decided are
 * auto-resolved (from-sea.ts): the computer fights each out and its battle decides the sea. A loop on every
 * instance, as the battles' own deadlines (deadlines.ts): the core lists the seas due (`heldSeasPastDeadline`), and
 * each is claimed under the game's lock, where its status is read again, so that of two instances racing for a sea
 * one opens its battle and the other finds it `fighting` and passes (exactly once). A crash after the claim leaves a
 * battle of two computer seats that the battles' deadline loop plays out (from-sea.ts AUTO_RESOLVE_GRACE_MS).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from '../db/database.ts';
import { PollingLoop } from '../play/polling-loop.ts';
import type { SchedulerOptions } from '../play/scheduler.ts';
import { heldSeasPastDeadline } from '../play/sea-battles.ts';
import { autoResolveExpired } from './from-sea.ts';
import type { BattleEnv } from './play.ts';

export class SeaDeadlines {
  /** Since start: seas auto-resolved, seas found taken by another instance, failed attempts. */
  readonly stats = { resolved: 0, skipped: 0, failed: 0 };
  private readonly loop: PollingLoop;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly env: BattleEnv,
    private readonly log: FastifyBaseLogger,
    readonly options: Pick<SchedulerOptions, 'enabled' | 'intervalMs' | 'batch'>,
  ) {
    this.loop = new PollingLoop(async () => (await this.processDue()) >= options.batch, options.intervalMs, log, 'sea battle deadline tick failed');
  }

  start(): void {
    if (this.options.enabled) this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Auto-resolves the seas due at `now` (tests pass a later time); how many this call resolved. */
  async processDue(now: Date = new Date(), limit = this.options.batch): Promise<number> {
    let resolved = 0;
    for (const due of await heldSeasPastDeadline(this.prisma, now, limit)) {
      try {
        if (await autoResolveExpired(this.env, this.prisma, due, now)) {
          resolved += 1;
          this.stats.resolved += 1;
          this.log.info({ gameId: due.gameId, sea: due.sea, phase: due.phaseIndex }, 'a sea battle’s deadline passed: the computer fought it out');
        } else this.stats.skipped += 1;
      } catch (error) {
        this.stats.failed += 1;
        this.log.error({ err: error, gameId: due.gameId, sea: due.sea }, 'auto-resolving a sea past its deadline failed');
      }
    }
    return resolved;
  }
}
