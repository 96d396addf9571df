/**
 * Players and a game master at work on a server that may be down, killed or
 * without its database: clients submit legal orders (sometimes ready, so
 * phases are also processed early) and the game master keeps pulling each
 * phase's deadline a fraction of a second ahead, so phases fall due all the
 * time. Every acknowledged (2xx) submission is recorded, every HTTP answer
 * counted by status, and a connection that fails (server down) is retried
 * after a moment. An answer no fault excuses (a 4xx other than 409/422, a
 * 5xx other than 503) ends the load with an error.
 */
import type { Order } from '../../../shared/index.ts';
import { call, currentPhase, HttpStatusError, legalOrders, type Game, type User } from './client.ts';
import type { Acknowledged } from './verify.ts';

export type Load = {
  acknowledged: Acknowledged[];
  /** HTTP status → how many answers; `network` for requests that got no answer. */
  statuses: Map<number | 'network', number>;
  /** 503 bodies seen (to check they say what happened). */
  unavailable: Array<{ code: string; retryAfter: string | null }>;
  /** Rejects as soon as an answer is not one a fault excuses. */
  failed: Promise<never>;
  /** Resolves once `count` submissions in all have been acknowledged. */
  acknowledgedCount(count: number): Promise<void>;
  stop(): Promise<void>;
};

export function driveLoad(options: { base: string; games: Game[]; master: User; submitters: number; random: () => number; readyShare?: number }): Load {
  const { base, games, master, random } = options;
  const acknowledged: Acknowledged[] = [];
  const statuses = new Map<number | 'network', number>();
  const unavailable: Load['unavailable'] = [];
  let running = true;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const count = (key: number | 'network') => statuses.set(key, (statuses.get(key) ?? 0) + 1);

  /** Runs one request: counts its answer; rethrows what no fault excuses. */
  async function attempt<T>(request: () => Promise<T>): Promise<T | null> {
    try {
      const result = await request();
      count(200);
      return result;
    } catch (error) {
      if (!(error instanceof HttpStatusError)) {
        count('network');
        await pause(100); // the server is down: a moment before trying again
        return null;
      }
      count(error.status);
      if (error.status === 503) {
        const body = JSON.parse(error.body) as { error: { code: string } };
        unavailable.push({ code: body.error.code, retryAfter: error.retryAfter });
        await pause(50);
        return null;
      }
      if (error.status === 409 || error.status === 422) return null; // the phase moved on meanwhile
      throw error;
    }
  }

  const submitter = async () => {
    while (running) {
      const game = games[Math.floor(random() * games.length)];
      const seat = game.seats[Math.floor(random() * game.seats.length)];
      const phase = await attempt(() => currentPhase(base, seat.user.token, game.id));
      if (phase?.status !== 'open' || !phase.powers.find((p) => p.power === seat.power)?.mustOrder) continue;
      const orders: Order[] = legalOrders(phase.state, seat.power, random);
      const ready = random() < (options.readyShare ?? 0.15);
      const response = await attempt(() =>
        call<{ submission: { id: string } }>(base, 'PUT', `/api/games/${game.id}/phases/${phase.index}/orders`, {
          token: seat.user.token,
          body: { orders, ready },
        }),
      );
      if (!response) continue;
      acknowledged.push({ id: response.submission.id, gameId: game.id, phaseIndex: phase.index, power: seat.power, orders });
      for (const waiter of waiters.filter((w) => w.count <= acknowledged.length)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const deadliner = async () => {
    while (running) {
      for (const game of games) {
        if (!running) break;
        const phase = await attempt(() => currentPhase(base, master.token, game.id));
        if (phase?.status !== 'open' || !phase.deadlineAt || Date.parse(phase.deadlineAt) < Date.now() + 2000) continue;
        const at = new Date(Date.now() + 50 + Math.floor(random() * 500)).toISOString();
        await attempt(() => call(base, 'POST', `/api/games/${game.id}/gm/deadline`, { token: master.token, body: { deadlineAt: at } }));
      }
    }
  };
  const loops = [...Array.from({ length: options.submitters }, submitter), deadliner()];
  const failed = Promise.race(loops.map((loop) => loop.then(() => new Promise<never>(() => {}))));
  failed.catch(() => {});
  return {
    acknowledged,
    statuses,
    unavailable,
    failed,
    acknowledgedCount(target) {
      if (acknowledged.length >= target) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count: target, resolve }));
    },
    async stop() {
      running = false;
      await Promise.race([Promise.all(loops), failed]);
    },
  };
}

/** A fault's timing or a retry's back-off (not a wait for an event). */
export function pause(ms: number): Promise<null> {
  return new Promise((resolve) => setTimeout(() => resolve(null), ms));
}
