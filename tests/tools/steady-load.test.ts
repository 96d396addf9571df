import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { steadyConnections, steadyLoad } from '../../bench/steady-load.ts';

/** A server that answers each request after `holdMs(i)` and notes when each arrived. */
async function slowServer(holdMs: (i: number) => number) {
  const arrivals: number[] = [];
  const server = http.createServer((request, response) => {
    const i = arrivals.push(performance.now()) - 1;
    request.resume();
    if (request.url === '/missing') response.statusCode = 404;
    setTimeout(() => response.end(request.url === '/missing' ? undefined : 'ok'), holdMs(i));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, server };
}

let close: (() => void) | undefined;
afterEach(() => close?.());

describe('the steady load of the benchmark', () => {
  it('spreads requests evenly over the run instead of sending them in bursts', async () => {
    const { base, arrivals, server } = await slowServer(() => 5);
    close = () => server.close();
    const result = await steadyLoad(base, { rate: 1000, seconds: 1.5, connections: 16, next: () => ({ method: 'GET', path: '/', headers: {} }) });
    expect(result).toMatchObject({ sent: 1500, ok: 1500, non2xx: 0, errors: 0 });
    // 100 a window of 100 ms when steady (autocannon's paced mode sends several times that in some windows and
    // next to nothing in others); a timer made late by a busy machine shifts a few requests to the next window.
    const counts = Array.from({ length: 14 }, () => 0);
    for (const at of arrivals) {
      const window = Math.floor((at - arrivals[0]) / 100);
      if (window < counts.length) counts[window]++;
    }
    expect(counts.filter((count) => count >= 50 && count <= 150).length).toBeGreaterThanOrEqual(11);
    expect(result.latencies[0]).toBeGreaterThanOrEqual(4);
    expect(result.ratePerSecond).toBeGreaterThan(800);
  });

  it('charges a stall to every request due during it, counted from when each was due', async () => {
    // The 50th request is held 300 ms; with one connection, the ~300 requests due meanwhile wait behind it.
    const { base, server } = await slowServer((i) => (i === 50 ? 300 : 0));
    close = () => server.close();
    const result = await steadyLoad(base, { rate: 1000, seconds: 1, connections: 1, next: () => ({ method: 'GET', path: '/', headers: {} }) });
    expect(result.ok).toBe(1000);
    const overStall = result.latencies.filter((latency) => latency > 100).length;
    // Measured from sending, only the held request would be slow; from its due time, each one queued behind it is late.
    expect(overStall).toBeGreaterThan(100);
    expect(result.latencies.at(-1)).toBeGreaterThan(290);
  });

  it('counts answers that are not 2xx apart from the latencies', async () => {
    const { base, server } = await slowServer(() => 0);
    close = () => server.close();
    let i = 0;
    const result = await steadyLoad(base, {
      rate: 500,
      seconds: 0.2,
      connections: 4,
      next: () => ({ method: 'GET', path: i++ % 2 ? '/missing' : '/', headers: {} }),
    });
    expect(result).toMatchObject({ sent: 100, ok: 50, non2xx: 50, errors: 0 });
    expect(result.latencies).toHaveLength(50);
  });

  it('runs a warm-up and the measured run on the same connections when given a pool, and leaves it open', async () => {
    // Held long enough that the first run needs all four connections (some 10 requests would be in flight).
    const { base, server } = await slowServer(() => 20);
    let connections = 0;
    server.on('connection', () => connections++);
    const pool = steadyConnections(base, 4);
    close = () => {
      void pool.destroy();
      server.close();
    };
    const next = () => ({ method: 'GET' as const, path: '/', headers: {} });
    await steadyLoad(base, { rate: 500, seconds: 0.3, connections: pool, next });
    const opened = connections;
    const measured = await steadyLoad(base, { rate: 500, seconds: 0.3, connections: pool, next });
    expect(measured).toMatchObject({ sent: 150, ok: 150, errors: 0 });
    expect(opened).toBe(4);
    expect(connections).toBe(4);
    expect(pool.closed).toBe(false);
  });
});
