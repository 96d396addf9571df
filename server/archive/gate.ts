/**
 * A bounded number of places for heavy requests (imports, exports): a request
 * waits for a place, a few may wait at once and each only so long; past that
 * it is refused with 503 `server_busy` and Retry-After. The place is held until
 * the response is over (sent, or the client gone) and the handler has returned,
 * so what the request holds in memory is gone or going before the next one
 * starts. p-limit keeps the queue.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import pLimit from 'p-limit';
import { HttpError } from '../errors.ts';

export type GateOptions = { what: string; concurrent: number; maxWaiting: number; maxWaitMs: number };

const busy = (what: string, retryAfterSeconds: number) =>
  new HttpError(503, 'server_busy', `the server is busy with other ${what}; try again in ${retryAfterSeconds} seconds`);

/** A place held by one request; `done` frees it (once, whoever calls it first). */
type Hold = { handlerRunning: boolean; closed: boolean; release: () => void };

export class Gate {
  private readonly limit;
  private readonly holds = new WeakMap<FastifyRequest, Hold>();

  constructor(private readonly options: GateOptions) {
    this.limit = pLimit(options.concurrent);
  }

  get active(): number {
    return this.limit.activeCount;
  }

  get waiting(): number {
    return this.limit.pendingCount;
  }

  /**
   * Waits for a place for this request (or throws 503), and frees it once the response is
   * over and the handler (run through `run`) has returned.
   */
  async enter(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const retryAfter = Math.max(1, Math.round(this.options.maxWaitMs / 1000));
    reply.header('retry-after', String(retryAfter));
    if (this.limit.activeCount >= this.options.concurrent && this.limit.pendingCount >= this.options.maxWaiting) throw busy(this.options.what, retryAfter);
    const release = await new Promise<() => void>((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        reject(busy(this.options.what, retryAfter));
      }, this.options.maxWaitMs);
      void this.limit(() => {
        // Its turn came after it gave up (or its client left): the place passes on.
        if (gaveUp || reply.raw.destroyed) {
          clearTimeout(timer);
          if (!gaveUp) reject(busy(this.options.what, retryAfter));
          return;
        }
        clearTimeout(timer);
        return new Promise<void>((free) => resolve(free));
      });
    });
    let released = false;
    const hold: Hold = {
      handlerRunning: false,
      closed: false,
      release: () => {
        if (released) return;
        released = true;
        release();
      },
    };
    reply.removeHeader('retry-after');
    this.holds.set(request, hold);
    const onClose = () => {
      hold.closed = true;
      if (!hold.handlerRunning) hold.release();
    };
    if (reply.raw.destroyed || reply.raw.writableFinished) onClose();
    else reply.raw.once('close', onClose);
  }

  /** Runs the request's handler while it holds its place (the place stays held until it returns). */
  async run<T>(request: FastifyRequest, handler: () => Promise<T>): Promise<T> {
    const hold = this.holds.get(request);
    if (!hold) return handler();
    // The client left between reading the body and here: nothing to do for it.
    if (hold.closed) throw busy(this.options.what, 1);
    hold.handlerRunning = true;
    try {
      return await handler();
    } finally {
      hold.handlerRunning = false;
      if (hold.closed) hold.release();
    }
  }
}
