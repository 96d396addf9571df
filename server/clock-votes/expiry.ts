/**
 * The clock votes' expiry loop: an open vote whose time ran out (`closes_at`), whose phase ended or whose game is
 * no longer active is closed when that happens, not when someone next reads it, so its players are told (mail, push:
 * notify/game-events.ts) and the game master's log is written at the time. Every instance runs it, on the
 * scheduler's settings (SCHEDULER_ENABLED, SCHEDULER_INTERVAL_MS); tests drive it with `expireDue(now)`.
 *
 * Once: each vote is settled in a transaction that takes its game's lock (play/context.ts: the lock every change to
 * a game's votes takes) with SKIP LOCKED, and reads the open vote again under it (service.ts `settleLocked`), so two
 * instances never close one vote twice (the second skips the game, or finds the vote closed), and a request voting
 * at the same moment runs wholly before or after. A game whose lock is held is looked at again next round. A crash
 * rolls the transaction back: the vote stays open and due for any instance.
 *
 * Its own loop rather than a hook in the core's scheduler, as the battles' deadlines (battles/deadlines.ts): the core
 * imports no domain, and the claim is a query on this domain's table.
 */
import type { FastifyInstance } from 'fastify';
import type { SchedulerOptions } from '../play/scheduler.ts';
import { PollingLoop } from '../play/polling-loop.ts';
import { settleLocked } from './service.ts';

type DueVote = { id: string; gameId: string };

export class ClockVoteExpiry {
  /** Since start: votes closed by this loop, votes found settled already or whose game was busy, failed attempts (rolled back). */
  readonly stats = { closed: 0, skipped: 0, failed: 0 };
  private readonly loop: PollingLoop;

  constructor(
    private readonly app: FastifyInstance,
    readonly options: Pick<SchedulerOptions, 'enabled' | 'intervalMs' | 'batch'>,
  ) {
    this.loop = new PollingLoop(
      async () => (await this.expireDue()) >= options.batch,
      options.intervalMs,
      app.log.child({ module: 'clock-vote-expiry' }),
      'clock vote expiry tick failed',
    );
  }

  start(): void {
    if (this.options.enabled) this.loop.start();
  }

  /** Stops the loop and waits for a round under way (graceful shutdown). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Open votes due to close at `now` (tests pass a later time), soonest first. */
  private dueVotes(now: Date, limit: number): Promise<DueVote[]> {
    return this.app.prisma.$queryRaw<DueVote[]>`
      SELECT v.id::text AS "id", v.game_id::text AS "gameId"
      FROM clock_votes v JOIN games g ON g.id = v.game_id
      WHERE v.status = 'open' AND (
        v.closes_at <= ${now.toISOString()}::timestamptz
        OR g.status <> 'active'
        OR NOT EXISTS (SELECT 1 FROM phases p WHERE p.game_id = v.game_id AND p.status = 'open' AND p.index = v.phase_index))
      ORDER BY v.closes_at
      LIMIT ${limit}`;
  }

  /** Closes the votes due at `now`, each in its own transaction holding its game's lock; returns how many this call closed. */
  async expireDue(now: Date = new Date(), limit = this.options.batch): Promise<number> {
    let closed = 0;
    for (const vote of await this.dueVotes(now, limit)) {
      try {
        const outcome = await this.app.prisma.$transaction(async (tx) => {
          const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text AS id FROM games WHERE id = ${vote.gameId}::uuid FOR UPDATE SKIP LOCKED`;
          if (locked.length === 0) return null;
          return settleLocked(this.app, tx, vote.gameId, now);
        });
        if (outcome?.id === vote.id && outcome.status !== 'open') {
          closed += 1;
          this.stats.closed += 1;
          this.app.log.info({ gameId: vote.gameId, voteId: vote.id, status: outcome.status }, 'clock vote closed by the expiry loop');
        } else this.stats.skipped += 1;
      } catch (error) {
        this.stats.failed += 1;
        this.app.log.error({ err: error, gameId: vote.gameId, voteId: vote.id }, 'closing a clock vote failed; it stays open');
      }
    }
    return closed;
  }
}
