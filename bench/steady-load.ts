/**
 * HTTP requests at a steady rate, open loop: request i is due at start + i / rate
 * whatever became of the requests before it, and its latency counts from when it
 * was due. A server that falls behind is charged for the wait (the correction for
 * coordinated omission), and one that keeps up sees its load spread evenly.
 *
 * Why not autocannon's `overallRate`: autocannon 9 gives each connection its
 * share of the second, which the connection sends back to back as answers come,
 * and then it waits for the next second. 2,000/s over 64 connections arrives in
 * bursts of up to ~10,000/s with lulls between them. Its correction also assumes
 * an interval of `ceil(1 / rate)` = 1 ms, so an answer taking L ms is recorded as L
 * samples of L, L-1, … 1 ms (the README gives the measurement).
 * autocannon stays for the closed-loop figure (the most the server takes).
 *
 * The client is http-connections.ts: keep-alive connections at little CPU per
 * request (the generator shares the two cores with what it measures); requests
 * due while every connection is busy wait in its queue, and that wait is part
 * of their latency.
 */
import { HttpConnections, type HttpRequest } from './http-connections.ts';

export type SteadyRequest = HttpRequest;

export type SteadyOptions = {
  /** Requests a second. */
  rate: number;
  seconds: number;
  /**
   * Keep-alive connections (the most requests in flight): how many to open for this run (closed after it),
   * or a pool from `steadyConnections` to send on and leave open (a warm-up, then the measured run on the
   * same connections).
   */
  connections: number | HttpConnections;
  /** The next request to send. */
  next: () => SteadyRequest;
  /** How long to wait for the last answers after the last request is due. */
  drainMs?: number;
};

/** `count` keep-alive connections to `base`, one request at a time on each. */
export function steadyConnections(base: string, count: number): HttpConnections {
  return new HttpConnections(base, count);
}

export type SteadyResult = {
  /** Requests due in the run (all sent). */
  sent: number;
  /** Answered with a 2xx. */
  ok: number;
  /** Answered with another status. */
  non2xx: number;
  /** Failed without an answer, or unanswered when the drain ended. */
  errors: number;
  /** Answers a second, from the first request's due time to the last answer. */
  ratePerSecond: number;
  /** Latencies (ms) of the 2xx answers, from due to answered, ascending. */
  latencies: number[];
};

export async function steadyLoad(base: string, options: SteadyOptions): Promise<SteadyResult> {
  const { connections } = options;
  const owned = typeof connections === 'number';
  const pool = owned ? steadyConnections(base, connections) : connections;
  const latencies: number[] = [];
  let sent = 0;
  let non2xx = 0;
  let errors = 0;
  let settled = 0;
  let lastAnswer = 0;
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const start = performance.now();

  const send = (due: number) => {
    const request = options.next();
    pool.request(request).then(
      (statusCode) => {
        lastAnswer = performance.now();
        if (statusCode >= 200 && statusCode < 300) latencies.push(lastAnswer - due);
        else non2xx++;
        settled++;
      },
      () => {
        errors++;
        settled++;
      },
    );
  };

  // A 1 ms timer sends every request that has fallen due; a late timer is caught up at once, not skipped.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) send(start + sent++ * interval);
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });

  const drainUntil = performance.now() + (options.drainMs ?? 30_000);
  while (settled < sent && performance.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 5));
  // Counted before the pool is destroyed, which fails what is still unanswered (a pool passed in is left open).
  const failed = errors + (sent - settled);
  const answered = [...latencies].sort((a, b) => a - b);
  if (owned) await pool.destroy();
  return {
    sent,
    ok: answered.length,
    non2xx,
    errors: failed,
    ratePerSecond: lastAnswer > start ? (answered.length * 1000) / (lastAnswer - start) : 0,
    latencies: answered,
  };
}
