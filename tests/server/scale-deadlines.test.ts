/**
 * Many deadlines falling due at once: the scheduler works through them
 * several at a time (SCHEDULER_CONCURRENCY, each in its own transaction) and
 * goes straight on past a full batch instead of sleeping until its next
 * interval. Each phase once, as ever. (The figures for 1,000 and 2,000 games
 * are in `npm run bench -- server`.)
 */
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startSiblingApp, startTestApp, type TestApp } from './helpers/app.ts';
import { startGame } from './helpers/play.ts';
import { buildApp } from '../../server/app.ts';
import { testSettings } from './helpers/app.ts';
import { usingPostgres } from './helpers/database.ts';

vi.setConfig({ testTimeout: 120_000 });

let testApp: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

test('a burst of due phases is processed several at a time, past the batch size, without waiting for the next interval', async () => {
  const games: string[] = [];
  for (let i = 0; i < 12; i++) games.push((await startGame(app)).gameId);
  // A scheduler whose next look would come only in a minute, five phases a batch, three at a time.
  const settings = { ...testSettings, scheduler: { enabled: true, intervalMs: 60_000, batch: 5, concurrency: 3 } };
  const running = usingPostgres ? await buildApp({ database: testApp.database.options, settings }) : await startSiblingApp(app, { settings });
  await running.ready();
  try {
    const started = Date.now();
    await app.prisma.phase.updateMany({ where: { gameId: { in: games }, index: 0 }, data: { deadlineAt: new Date(Date.now() - 1000) } });
    running.scheduler.wake();
    await vi.waitFor(async () => expect(await app.prisma.phase.count({ where: { gameId: { in: games }, status: 'processed' } })).toBe(games.length), {
      timeout: 50_000,
      interval: 50,
    });
    expect(Date.now() - started).toBeLessThan(50_000);
    expect(running.scheduler.stats).toMatchObject({ processed: 12, failed: 0 });
    // Exactly once: one processed phase and one open phase per game.
    const phases = await app.prisma.phase.groupBy({ by: ['gameId', 'status'], where: { gameId: { in: games } }, _count: true });
    expect(phases.every((row) => row._count === 1)).toBe(true);
    expect(phases).toHaveLength(24);
  } finally {
    await running.close();
  }
});
