/**
 * Every route of the OpenAPI document, fuzzed from its own schemas (see
 * fuzz-support/api-fuzz.ts): thousands of requests, valid-shaped, mutated and
 * garbage, by nobody, players, the game master and an administrator. No 5xx;
 * every 4xx a JSON error naming the problem. `npm run soak -- api` runs the
 * long version. A route the document does not list, or one without runs, fails.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { ApiFuzzer, operationsOf } from './fuzz-support/api-fuzz.ts';
import type { OpenApiDocument } from './fuzz-support/json-schema-arbitrary.ts';
import { buildWorld, documentedRoutes, servedRoutes } from './fuzz-support/world.ts';

vi.setConfig({ testTimeout: 120_000 });

/** Requests per route in `npm test` (the soak sends many more). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

let testApp: TestApp;
let app: FastifyInstance;
let fuzzer: ApiFuzzer;
let document: OpenApiDocument;

beforeAll(async () => {
  testApp = await startTestApp({ settings: { importRateLimit: { max: 100_000, windowMs: 60_000 } } });
  app = testApp.app;
  document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
  fuzzer = new ApiFuzzer(app, document, await buildWorld(app));
  await fuzzer.setUp();
}, 120_000);
afterAll(() => testApp.close(), 60_000);

describe('API fuzzing', () => {
  test('the OpenAPI document lists every route the server serves, so every route is fuzzed', () => {
    const served = servedRoutes(app);
    expect(served.length).toBeGreaterThan(30);
    expect(documentedRoutes(document)).toEqual(served);
  });

  // One test per route of the document: a new route gets its fuzzer by being documented.
  test('every route: no 5xx, every 4xx a JSON error that names the problem', async () => {
    const operations = operationsOf(document);
    for (const [i, operation] of operations.entries()) {
      const t = performance.now();
      await fuzzer.fuzz(operation, RUNS, SEED + i);
      if (process.env.FUZZ_REPORT) console.log(`TOTAL ${operation.key} ${Math.round(performance.now() - t)}`);
    }
    for (const operation of operations) {
      const answered = [...(fuzzer.report.byRoute.get(operation.key)?.values() ?? [])].reduce((sum, n) => sum + n, 0);
      expect(answered, `${operation.key} was fuzzed`).toBeGreaterThanOrEqual(RUNS);
    }
    expect(fuzzer.report.requests).toBeGreaterThanOrEqual(operations.length * RUNS);
    if (process.env.FUZZ_REPORT) {
      for (const [key, statuses] of fuzzer.report.byRoute) {
        console.log(`${key}: ${Math.round(fuzzer.report.milliseconds.get(key) ?? 0)} ms`, Object.fromEntries(statuses));
      }
    }
  }, 300_000);
});
