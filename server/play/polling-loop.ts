/**
 * The polling loop every background worker of an instance runs: the deadline scheduler (scheduler.ts), the naval
 * battles' deadlines (battles/deadlines.ts), the outbox's delivery (notify/delivery.ts) and the deadline reminders
 * (notify/reminders.ts). Each round calls `round`, which does the work and says whether more may be waiting (a full
 * batch: go on at once); otherwise the next round is `intervalMs` later. `wake()` asks for a round now (a latency
 * optimisation only: the database, not a timer, says what is due). One round at a time; its timers do not keep the
 * process alive; `stop()` waits for the round under way.
 */
import type { FastifyBaseLogger } from 'fastify';

export class PollingLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    /** One round of work; true when more may be waiting. */
    private readonly round: () => Promise<boolean>,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
    /** Logged (warn) when a round throws; the loop goes on. */
    private readonly failure: string,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops the loop and waits for a round under way (graceful shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Look now rather than at the next round. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => this.tick(), delayMs);
    this.timer.unref();
  }

  private tick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .then((more) => {
        if (more) this.again = true;
      })
      .catch((error: unknown) => this.log.warn({ err: error }, this.failure))
      .finally(() => {
        this.running = undefined;
        const soon = this.again && !this.stopped;
        this.again = false;
        this.schedule(soon ? 0 : this.intervalMs);
      });
  }
}
