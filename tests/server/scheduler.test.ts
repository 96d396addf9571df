/**
 * The deadline scheduler: each due phase is processed exactly once, however
 * many instances race for it (separate connection pools on PostgreSQL); a
 * failure rolls everything back and leaves the phase due; the loop runs by
 * itself, picks up phases that fell due while no instance was running, stops
 * on close, and pausing stops the clock.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { SchedulerOptions } from '../../server/play/scheduler.ts';
import { Browser, registeredBrowsers, startSecondInstance, startTestApp, testSettings, type TestApp } from './helpers/app.ts';

vi.setConfig({ testTimeout: 120_000 });

let testApp: TestApp;
let app: FastifyInstance;
let master: Browser;
let players: Browser[];

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  master = await new Browser(app).register();
  players = await registeredBrowsers(app, 5);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

/** Another server instance on the same database, its scheduler set as given. */
const instance = (scheduler: Partial<SchedulerOptions> = {}): Promise<FastifyInstance> =>
  startSecondInstance(testApp, { scheduler: { ...testSettings.scheduler!, ...scheduler } });

/** Started Diadochi V games, mastered by `master` and played by the same five players. */
async function startedGames(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    // Without grace for missed orders (tests/server/grace.test.ts has it): nobody orders here.
    const created = await master.request('POST', '/api/games', {
      name: `Race ${i}`,
      variant: 'diadochi-v',
      joinAsPlayer: false,
      correspondence: { grace: { seconds: 0, perPlayer: 0 } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    for (const player of players) expect((await player.request('POST', `/api/games/${id}/join`, {})).statusCode).toBe(200);
    ids.push(id);
  }
  return ids;
}

async function phasesOf(gameId: string) {
  return app.prisma.phase.findMany({ where: { gameId }, orderBy: { index: 'asc' } });
}

const later = (days: number) => new Date(Date.now() + days * 24 * 3600_000);

describe('exactly once', () => {
  test('several instances racing over many due phases process each exactly once', async () => {
    const games = await startedGames(10);
    const racers = [app, await instance(), await instance()];
    try {
      for (const [round, days] of [
        [1, 2],
        [2, 4],
      ] as const) {
        // Every instance runs two scheduler passes at once, all at a time when every game's phase is due.
        const counts = await Promise.all(racers.flatMap((racer) => [racer.scheduler.processDue(later(days)), racer.scheduler.processDue(later(days))]));
        expect(counts.reduce((a, b) => a + b, 0)).toBe(games.length);
        for (const gameId of games) {
          const phases = await phasesOf(gameId);
          expect(phases.map((phase) => [phase.index, phase.status])).toEqual([...Array.from({ length: round }, (_, i) => [i, 'processed']), [round, 'open']]);
        }
      }
      // Not one attempt failed (e.g. on the unique (game, index) safety net): the locks kept the racers apart.
      expect(racers.map((racer) => racer.scheduler.stats.failed)).toEqual([0, 0, 0]);
      // Nothing is due any more.
      expect(await racers[1].scheduler.processDue(later(4))).toBe(0);
    } finally {
      await Promise.all(racers.slice(1).map((racer) => racer.close()));
    }
  });

  test('a failure rolls the whole processing back: the phase stays due and is processed later; other games go on', async () => {
    const [broken, fine] = await startedGames(2);
    // A row in the way of the next phase (the unique (game, index) safety net) makes processing fail after it has written.
    const [first] = await phasesOf(broken);
    await app.prisma.phase.create({
      data: { gameId: broken, index: 1, name: 'obstacle', kind: 'movement', status: 'processed', stateBefore: first.stateBefore as object },
    });
    const failedBefore = app.scheduler.stats.failed;
    expect(await app.scheduler.processDue(later(2))).toBe(1);
    expect(app.scheduler.stats.failed).toBe(failedBefore + 1);
    const after = await phasesOf(broken);
    expect(after[0]).toMatchObject({ status: 'open', processedAt: null, stateAfter: null, results: null });
    expect((await phasesOf(fine)).map((phase) => phase.status)).toEqual(['processed', 'open']);
    const seats = await app.prisma.player.findMany({ where: { gameId: broken } });
    expect(seats.every((seat) => seat.missedDeadlines === 0)).toBe(true);

    await app.prisma.phase.delete({ where: { id: after[1].id } });
    expect(await app.scheduler.processDue(later(2))).toBe(1);
    expect((await phasesOf(broken)).map((phase) => [phase.index, phase.status])).toEqual([
      [0, 'processed'],
      [1, 'open'],
    ]);
    const missed = await app.prisma.player.findMany({ where: { gameId: broken } });
    expect(missed.every((seat) => seat.missedDeadlines === 1)).toBe(true);
  });
});

describe('the loop', () => {
  test('processes due phases by itself, stops on close, and catches up after a restart', async () => {
    const [gameId] = await startedGames(1);
    const running = await instance({ enabled: true, intervalMs: 50 });
    try {
      await app.prisma.phase.updateMany({ where: { gameId, index: 0 }, data: { deadlineAt: new Date(Date.now() - 1000) } });
      await vi.waitFor(async () => expect((await phasesOf(gameId)).map((phase) => phase.status)).toEqual(['processed', 'open']), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await running.close();
    }

    // While no instance runs a scheduler, a due phase waits…
    await app.prisma.phase.updateMany({ where: { gameId, index: 1 }, data: { deadlineAt: new Date(Date.now() - 1000) } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await phasesOf(gameId)).map((phase) => phase.status)).toEqual(['processed', 'open']);
    // …and the next instance to start processes it.
    const restarted = await instance({ enabled: true, intervalMs: 50 });
    try {
      await vi.waitFor(async () => expect((await phasesOf(gameId)).map((phase) => phase.status)).toEqual(['processed', 'processed', 'open']), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await restarted.close();
    }
  });

  test('a paused game is not processed; resuming moves the deadline by the time paused', async () => {
    const [gameId] = await startedGames(1);
    const [phase] = await phasesOf(gameId);
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    // Far past its deadline, yet not processed (other tests' games may be, hence per-game checks).
    await app.scheduler.processDue(new Date(phase.deadlineAt!.getTime() + 3600_000));
    expect((await phasesOf(gameId)).map((p) => p.status)).toEqual(['open']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resumed = await master.request('POST', `/api/games/${gameId}/gm/resume`);
    expect(resumed.statusCode, resumed.body).toBe(200);
    const [moved] = await phasesOf(gameId);
    const shift = moved.deadlineAt!.getTime() - phase.deadlineAt!.getTime();
    expect(shift).toBeGreaterThanOrEqual(300);
    expect(shift).toBeLessThan(10_000);
    expect(resumed.json().action.details.pausedSeconds).toBeGreaterThanOrEqual(0);
    await app.scheduler.processDue(new Date(moved.deadlineAt!.getTime() - 1));
    expect((await phasesOf(gameId)).map((p) => p.status)).toEqual(['open']);
    await app.scheduler.processDue(new Date(moved.deadlineAt!.getTime() + 1));
    expect((await phasesOf(gameId)).map((p) => p.status)).toEqual(['processed', 'open']);
  });
});
