/**
 * No request kills the server or takes it past its memory budget: the
 * production build (`npm run build:server`) run as `npm start` runs it (heap
 * capped at 160 MB, the database client's WebAssembly on the baseline
 * compiler, glibc's malloc threshold fixed), on PostgreSQL, under the imports
 * and exports an attacker can send without limit of their own
 * (fuzz-support/memory-attack.ts): bodies of empty arrays and objects,
 * different strings and keys, at and just over the limits, deeply nested
 * bodies, a body whose validation would report millions of problems, several
 * of the costliest at once, the largest imports at once, an oversized
 * submission text, and many logged-out exports at once of the largest game an
 * import can create and of a long game. Afterwards it answers, it never
 * exited, its log has no heap errors, and its resident memory (sampled every
 * 20 ms) stayed under RSS_BUDGET. `npm run soak -- memory` attacks five times
 * over, with more readers.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from './helpers/database.ts';
import { IMPORT_LIMITS } from '../../shared/api/archive.ts';
import { memoryScenario, RSS_BUDGET } from './fuzz-support/memory-attack.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const MB = 1024 * 1024;

describe.skipIf(!usingPostgres)('the production server under memory attacks', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  test(`bodies at and past the limits (${IMPORT_LIMITS.bodyBytes / MB} MiB, ${IMPORT_LIMITS.jsonItems} values and keys, ${IMPORT_LIMITS.jsonKeys} different keys), nested, many at once; the largest and a long game exported by many at once`, async () => {
    const report = await memoryScenario({ databaseUrl: database.url!, rounds: 1, exporters: 12, longGamePhases: 150 });
    console.log(`memory attack, RSS ${(report.rssBefore / MB).toFixed(0)} MB before:\n  ${report.steps.join('\n  ')}`);
    expect(report.health).toBe(200);
    expect(report.exited).toBe(false);
    expect(report.heapErrors).toEqual([]);
    expect(report.rssPeak).toBeGreaterThan(0);
    expect(report.rssPeak, `RSS peak ${(report.rssPeak / MB).toFixed(0)} MB`).toBeLessThan(RSS_BUDGET);
  });
});
