/**
 * Grace for missed orders (play/grace.ts): at the deadline, a power whose
 * player sent nothing gets the deadline moved once by the game's grace, and
 * every player sees why; a power that sent something (even not ready) gets
 * none; a seat's grace runs out after `perPlayer` uses; at the extended
 * deadline the phase is processed as ever (no-orders hold, missed deadlines and
 * civil disorder counted as without grace).
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { listen, settled, watchGame } from './helpers/live.ts';
import { currentPhase, startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 90_000 });

let testApp: TestApp;
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
});
afterAll(() => testApp.close());

const HOUR = 3600;
const DAY = 24 * HOUR;
const settings = (perPlayer: number) => ({
  deadlines: { movement: DAY, retreat: DAY, adjustment: DAY },
  maxMissedDeadlines: 2,
  correspondence: { grace: { seconds: 6 * HOUR, perPlayer } },
});

async function phaseRow(gameId: string, index: number) {
  return app.prisma.phase.findFirstOrThrow({ where: { gameId, index } });
}
async function seatOf(gameId: string, power: string) {
  return app.prisma.player.findFirstOrThrow({ where: { gameId, power } });
}

describe('grace at a missed deadline', () => {
  test('the power that sent nothing gets one extension; the others see the new deadline and why; then the phase is processed with its units holding', async () => {
    const { gameId, byPower, players } = await startGame(app, settings(1));
    const phase = await currentPhase(players[0], gameId);
    const late = phase.powers.filter((p) => p.mustOrder).map((p) => p.power)[0];
    // Everyone else sends something: most ready, one not ready (still a submission).
    const others = phase.powers.filter((p) => p.mustOrder && p.power !== late).map((p) => p.power);
    for (const [i, power] of others.entries()) {
      const sent = await byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/${phase.index}/orders`, { orders: [], ready: i > 0 });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    const watcher = byPower.get(others[0])!;
    const socket = await watchGame(url, watcher.cookie!, gameId);
    try {
      const deadline = Date.parse(phase.deadlineAt!);
      // At the deadline: not processed, the deadline six hours later, the late power named.
      expect(await app.scheduler.processDue(new Date(deadline + 1000))).toBe(0);
      const extended = deadline + 6 * HOUR * 1000;
      const after = await currentPhase(players[0], gameId);
      expect(after.index).toBe(phase.index);
      expect(Date.parse(after.deadlineAt!)).toBe(extended);
      const event = await socket.next('event', (message) => message.event.type === 'deadline.changed');
      expect(event.event).toMatchObject({
        type: 'deadline.changed',
        gameId,
        phaseIndex: phase.index,
        deadlineAt: new Date(extended).toISOString(),
        paused: false,
        reason: 'grace',
        powers: [late],
      });
      expect((await phaseRow(gameId, phase.index)).graceGrantedTo).toEqual([late]);
      expect((await seatOf(gameId, late)).graceUsed).toBe(1);
      for (const power of others) expect((await seatOf(gameId, power)).graceUsed).toBe(0);

      // Still before the extended deadline: nothing happens; the grace is given once, so at it the phase is processed.
      expect(await app.scheduler.processDue(new Date(extended - 1000))).toBe(0);
      expect(await app.scheduler.processDue(new Date(extended + 1000))).toBe(1);
      const processed = await phaseRow(gameId, phase.index);
      expect(processed.status).toBe('processed');
      // Nothing was ordered for the late power: its units held where they stood.
      const { state } = await currentPhase(players[0], gameId);
      const lateUnitsBefore = phase.state.units.filter((unit) => unit.power === late);
      for (const unit of lateUnitsBefore) expect(state.units).toContainEqual(unit);
      // Missed deadlines counted once, as without grace.
      expect((await seatOf(gameId, late)).missedDeadlines).toBe(1);
      expect((await settled(socket)).filter((m) => m.type === 'event' && m.event.type === 'deadline.changed')).toHaveLength(1);
    } finally {
      socket.socket.close();
    }
  });

  test('after perPlayer uses no more grace: the phase is processed at its deadline, and civil disorder follows as usual', async () => {
    const { gameId, players } = await startGame(app, settings(1));
    const first = await currentPhase(players[0], gameId);
    const mustOrder = first.powers.filter((p) => p.mustOrder).map((p) => p.power);
    // Nobody orders: each power gets its one grace in the first phase.
    expect(await app.scheduler.processDue(new Date(Date.parse(first.deadlineAt!) + 1000))).toBe(0);
    expect([...(await phaseRow(gameId, first.index)).graceGrantedTo].sort()).toEqual([...mustOrder].sort());
    const extended = Date.parse((await currentPhase(players[0], gameId)).deadlineAt!);
    expect(await app.scheduler.processDue(new Date(extended + 1000))).toBe(1);

    // The next phase: their grace is spent, so it is processed at its deadline.
    const second = await currentPhase(players[0], gameId);
    const secondMustOrder = second.powers.filter((p) => p.mustOrder && p.playerStatus === 'active').map((p) => p.power);
    expect(secondMustOrder.length).toBeGreaterThan(0);
    expect(await app.scheduler.processDue(new Date(Date.parse(second.deadlineAt!) + 1000))).toBe(1);
    expect((await phaseRow(gameId, second.index)).graceGrantedTo).toEqual([]);
    // Two missed deadlines (maxMissedDeadlines 2): civil disorder, grace or not.
    for (const power of secondMustOrder) {
      const seat = await seatOf(gameId, power);
      expect(seat).toMatchObject({ missedDeadlines: 2, status: 'civil_disorder', graceUsed: 1 });
    }
  });

  test('when every power sent something (ready or not), nobody gets grace', async () => {
    const { gameId, byPower, players } = await startGame(app, settings(2));
    const phase = await currentPhase(players[0], gameId);
    for (const { power } of phase.powers.filter((p) => p.mustOrder)) {
      expect((await byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/${phase.index}/orders`, { orders: [], ready: false })).statusCode).toBe(
        200,
      );
    }
    expect(await app.scheduler.processDue(new Date(Date.parse(phase.deadlineAt!) + 1000))).toBe(1);
    expect((await phaseRow(gameId, phase.index)).graceGrantedTo).toEqual([]);
  });

  test('a game without grace processes at the deadline', async () => {
    const { gameId, players } = await startGame(app, { ...settings(2), correspondence: { grace: { seconds: 0, perPlayer: 2 } } });
    const phase = await currentPhase(players[0], gameId);
    expect(await app.scheduler.processDue(new Date(Date.parse(phase.deadlineAt!) + 1000))).toBe(1);
  });

  test('a deadline the scheduler reaches after the grace would have run out (no instance was running) still gives the whole grace from then', async () => {
    const { gameId, players } = await startGame(app, settings(1));
    const phase = await currentPhase(players[0], gameId);
    const late = new Date(Date.parse(phase.deadlineAt!) + 2 * DAY * 1000);
    // (Other tests' games fall due by then too, and are processed: this game's phase is not.)
    await app.scheduler.processDue(late);
    expect((await phaseRow(gameId, phase.index)).status).toBe('open');
    expect(Date.parse((await currentPhase(players[0], gameId)).deadlineAt!)).toBe(late.getTime() + 6 * HOUR * 1000);
  });
});
