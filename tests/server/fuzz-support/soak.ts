/**
 * The long versions of the server fuzzers, for `npm run soak`:
 * - `api`: every route of the OpenAPI document, `runsPerRoute` generated
 *   requests each (tests/server/fuzz-api.test.ts runs 60);
 * - `live`: websocket clients sending generated, malformed, oversized and
 *   flooding frames while a well-behaved client must keep being answered.
 * Bounded in count, loopback only; each prints what it did and throws on failure.
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import { LIVE_LIMITS } from '../../../shared/api/live.ts';
import { Browser, startTestApp } from '../helpers/app.ts';
import { connect, listen } from '../helpers/live.ts';
import { ApiFuzzer, operationsOf } from './api-fuzz.ts';
import { garbage } from './json-schema-arbitrary.ts';
import { buildWorld } from './world.ts';

export async function soakApi(runsPerRoute: number, seed = Date.now() % 1_000_000): Promise<void> {
  const testApp = await startTestApp({
    settings: { importRateLimit: { max: 1_000_000, windowMs: 60_000 }, authRateLimit: { max: 1_000_000, windowMs: 60_000 } },
  });
  try {
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const fuzzer = new ApiFuzzer(testApp.app, document, await buildWorld(testApp.app));
    await fuzzer.setUp();
    console.log(`api: seed ${seed}, ${runsPerRoute} requests per route`);
    for (const [i, operation] of operationsOf(document).entries()) {
      await fuzzer.fuzz(operation, runsPerRoute, seed + i);
      const statuses = Object.entries(Object.fromEntries(fuzzer.report.byRoute.get(operation.key) ?? [])).map(([status, n]) => `${status}×${n}`);
      console.log(`  ${operation.key.padEnd(62)} ${statuses.join(' ')}`);
    }
    console.log(`api: ${fuzzer.report.requests} requests, no 5xx, every 4xx a JSON error naming the problem`);
  } finally {
    await testApp.close();
  }
}

/** Frames a hostile or broken client might send. */
const frame = fc.oneof(
  fc.constantFrom('ping', 'subscribe', 'unsubscribe').chain((type) =>
    fc.record(
      {
        type: fc.constant(type),
        channel: fc.oneof(
          fc.constant('lobby'),
          fc.uuid().map((id) => `game:${id}`),
          fc.string({ maxLength: 60 }),
          garbage,
        ),
      },
      { requiredKeys: ['type'] },
    ),
  ),
  garbage,
  fc.string({ maxLength: 200 }),
  fc.constant('{"type":"subscribe","channel":'),
);

export async function soakLive(clients: number, messagesPerClient: number, seed = Date.now() % 1_000_000): Promise<void> {
  const testApp = await startTestApp();
  try {
    const url = await listen(testApp.app);
    const users = await Promise.all(Array.from({ length: Math.ceil(clients / 10) }, () => new Browser(testApp.app).register()));
    const calm = await connect(url, { cookie: users[0].cookie! });
    await calm.next('welcome');
    // Within the size limit (the oversized frame is sent on purpose below).
    const samples = fc
      .sample(frame, { numRuns: messagesPerClient * 2, seed })
      .map((sample) => (typeof sample === 'string' ? sample : (JSON.stringify(sample) ?? 'null')))
      .filter((text) => Buffer.byteLength(text) <= LIVE_LIMITS.maxMessageBytes)
      .slice(0, messagesPerClient);
    const closes = new Map<number, number>();
    let sent = 0;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const client = await connect(url, { cookie: users[c % users.length].cookie! }).catch(() => null);
        if (!client) return; // over the per-user socket limit: refused, as it should be
        for (const [k, sample] of samples.entries()) {
          if (client.socket.readyState !== WebSocket.OPEN) break;
          // Some clients end with an oversized frame half-way (closed with 1009).
          const oversized = c % 5 === 4 && k === Math.floor(samples.length / 2);
          client.socket.send(oversized ? 'x'.repeat(LIVE_LIMITS.maxMessageBytes + 1) : sample);
          sent += 1;
          // Half the clients pace themselves under the rate limit; the others flood.
          if (c % 2 === 0 && k % 20 === 19)
            await new Promise((resolve) => setTimeout(resolve, (20 * LIVE_LIMITS.messageWindowMs) / LIVE_LIMITS.maxMessagesPerWindow + 50));
        }
        if (client.socket.readyState === WebSocket.OPEN) client.socket.close();
        const { code } = await client.closed;
        closes.set(code, (closes.get(code) ?? 0) + 1);
      }),
    );
    // The well-behaved client was never disturbed, and the server still answers.
    calm.send({ type: 'ping' });
    await calm.next('pong');
    const health = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    if (health.statusCode !== 200) throw new Error(`health after the live soak: ${health.statusCode}`);
    calm.socket.close();
    console.log(
      `live: ${clients} clients sent ${sent} frames; close codes ${JSON.stringify(Object.fromEntries(closes))}; the calm client and /api/health still answered`,
    );
  } finally {
    await testApp.close();
  }
}
