/**
 * A side that lets its time run out: the computer acts for it, once, and the log says so. Several server instances
 * (their own connection pools on PostgreSQL) race over the same due battles and each is taken over exactly once;
 * nothing happens before the deadline; in Classis the computer plays the rest of the late side's activation; the
 * loop started with the app finds a due battle by itself; watchers of the battle's channel hear of it.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { BattleDeadlines } from '../../server/battles/deadlines.ts';
import { ComputerPool } from '../../server/battles/computer-pool.ts';
import type { Transaction } from '../../server/db/database.ts';
import { Browser, startSecondInstance, startTestApp, type TestApp } from './helpers/app.ts';
import { openUnfinished } from './helpers/battles.ts';
import { connect, listen } from './helpers/live.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let player: Browser;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  player = await new Browser(app).register();
}, 60_000);
afterAll(() => testApp.close(), 60_000);
/** The computer's worker threads of the loops and expiries this file runs itself. */
const computer = new ComputerPool();
afterAll(() => computer.close());

/** Another server instance on the same database. */
const instance = (): Promise<FastifyInstance> => startSecondInstance(testApp);

const deadlinesOf = (server: FastifyInstance, enabled = false) =>
  new BattleDeadlines(server.prisma, { bus: server.bus, log: server.log, computer, play: server.play }, server.log, { enabled, intervalMs: 50, batch: 100 });

/** A ship-to-ship duel: Rhodes played by `player` (an hour a turn), Macedon by the computer, which plots at once. */
async function duelAgainstTheComputer(): Promise<{ id: string; deadlineAt: string }> {
  const response = await player.request('POST', '/api/battles', {
    title: 'Against the clock',
    ruleset: 'ship-to-ship',
    scenario: 'duel',
    seats: [{ side: 'macedon', player: 'computer' }],
    join: 'rhodes',
    clock: { pace: 'correspondence', hoursPerTurn: 1 },
  });
  expect(response.statusCode, response.body).toBe(201);
  const battle = response.json();
  expect(battle.turn).toMatchObject({ kind: 'simultaneous', waiting: ['rhodes'] });
  return battle;
}

const hoursFrom = (iso: string, hours: number) => new Date(new Date(iso).getTime() + hours * 3600_000);

describe('a deadline that passes', () => {
  test('makes the computer act for the late side exactly once, however many instances race for it', async () => {
    const battles = await Promise.all([1, 2, 3, 4].map(() => duelAgainstTheComputer()));
    const racers = [app, await instance(), await instance()];
    const loops = racers.map((racer) => deadlinesOf(racer));
    try {
      // Not before the deadline.
      expect(await loops[0].processDue(hoursFrom(battles[0].deadlineAt, -0.1))).toBe(0);
      const expiry = hoursFrom(battles[3].deadlineAt, 0.5);
      const counts = await Promise.all(loops.flatMap((loop) => [loop.processDue(expiry), loop.processDue(expiry)]));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(battles.length);
      expect(loops.map((loop) => loop.stats.failed)).toEqual([0, 0, 0]);
      for (const battle of battles) {
        const log = (await player.request('GET', `/api/battles/${battle.id}/log`)).json();
        const late = log.entries.filter((entry: { by: string }) => entry.by === 'deadline');
        expect(late, battle.id).toHaveLength(1);
        expect(late[0]).toMatchObject({ side: 'rhodes', note: "Rhodes's time ran out: the computer acted for it.", hidden: false });
        const detail = (await player.request('GET', `/api/battles/${battle.id}`)).json();
        // The turn was resolved; the computer has plotted the next one; Rhodes has a new hour from the expiry.
        expect(detail.turn).toMatchObject({ kind: 'simultaneous', waiting: ['rhodes'] });
        expect(detail.actionCount).toBe(3);
        expect(new Date(detail.deadlineAt).getTime()).toBe(expiry.getTime() + 3600_000);
      }
      // Done: nothing is due any more at that time.
      expect(await loops[1].processDue(expiry)).toBe(0);
    } finally {
      await Promise.all(racers.slice(1).map((racer) => racer.close()));
    }
  });

  test('an expiry cut off before it commits (a crash, a SIGKILL) leaves nothing behind: the battle stays due, and is taken over once', async () => {
    const battle = await duelAgainstTheComputer();
    const expiry = hoursFrom(battle.deadlineAt, 0.5);
    const before = await app.prisma.battle.findUniqueOrThrow({ where: { id: battle.id } });
    // Everything an expiry does, in its transaction, which then dies before COMMIT: the loop's own database, whose
    // transactions run for real but throw just before they would commit.
    const countsBeforeDying: number[] = [];
    const dying = new Proxy(app.prisma, {
      get(target, property) {
        if (property === '$transaction')
          return (work: (tx: Transaction) => Promise<unknown>, options?: Parameters<typeof target.$transaction>[1]) =>
            target.$transaction(async (tx) => {
              await work(tx);
              countsBeforeDying.push((await tx.battle.findUniqueOrThrow({ where: { id: battle.id } })).actionCount);
              throw new Error('the process died here');
            }, options);
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const cutOff = new BattleDeadlines(dying, { bus: app.bus, log: app.log, computer, play: app.play }, app.log, {
      enabled: false,
      intervalMs: 50,
      batch: 100,
    });
    expect(await cutOff.processDue(expiry)).toBe(0);
    expect(countsBeforeDying).toContain(3);
    expect(cutOff.stats.failed).toBeGreaterThanOrEqual(1);
    const untouched = await app.prisma.battle.findUniqueOrThrow({ where: { id: battle.id } });
    expect({ count: untouched.actionCount, deadline: untouched.deadlineAt, state: untouched.state }).toEqual({
      count: before.actionCount,
      deadline: before.deadlineAt,
      state: before.state,
    });
    expect(await app.prisma.battleAction.count({ where: { battleId: battle.id } })).toBe(1);
    expect(await deadlinesOf(app).processDue(expiry)).toBeGreaterThanOrEqual(1);
    const log = (await player.request('GET', `/api/battles/${battle.id}/log`)).json();
    expect(log.entries.filter((entry: { by: string }) => entry.by === 'deadline')).toHaveLength(1);
  });

  test('a player who acts in time keeps the computer out of it', async () => {
    const battle = await duelAgainstTheComputer();
    const detail = (await player.request('GET', `/api/battles/${battle.id}?legalActions=true`)).json();
    const acted = await player.request('POST', `/api/battles/${battle.id}/actions`, { action: detail.legalActions[0].action, expected: detail.actionCount });
    expect(acted.statusCode, acted.body).toBe(200);
    // The turn resolved (the computer had plotted); the next one's hour runs from the action: nothing is due before it.
    const next = acted.json();
    expect(next).toMatchObject({ actionCount: 3, turn: { kind: 'simultaneous', waiting: ['rhodes'] } });
    expect(new Date(next.deadlineAt).getTime()).toBeGreaterThan(new Date(battle.deadlineAt).getTime());
    expect(await deadlinesOf(app).processDue(new Date(new Date(next.deadlineAt).getTime() - 1000))).toBe(0);
    const log = (await player.request('GET', `/api/battles/${battle.id}/log`)).json();
    expect(log.entries.some((entry: { by: string }) => entry.by === 'deadline')).toBe(false);
  });

  test('in Classis, the computer plays the rest of the late side’s activation', async () => {
    const open = async () =>
      (
        await player.request('POST', '/api/battles', {
          title: 'Classis against the clock',
          ruleset: 'classis',
          scenario: 'training-duel',
          seats: [{ side: 'cilicia', player: 'computer' }],
          join: 'rhodes',
          clock: { pace: 'live', minutesPerTurn: 5 },
        })
      ).json();
    const battle = await openUnfinished(open);
    expect(battle.turn).toMatchObject({ kind: 'side', side: 'rhodes' });
    const decisionOf = async () => (await app.prisma.battle.findUniqueOrThrow({ where: { id: battle.id } })).decision;
    const activationBefore = await decisionOf();
    const expiry = new Date(new Date(battle.deadlineAt).getTime() + 60_000);
    expect(await deadlinesOf(app).processDue(expiry)).toBe(1);
    const log = (await player.request('GET', `/api/battles/${battle.id}/log`)).json();
    const late = log.entries.filter((entry: { by: string }) => entry.by === 'deadline');
    expect(late.length).toBeGreaterThanOrEqual(1);
    expect(late.every((entry: { side: string }) => entry.side === 'rhodes')).toBe(true);
    const after = (await player.request('GET', `/api/battles/${battle.id}`)).json();
    // Another activation is awaited now (not the rest of the late one), with a full five minutes from the expiry.
    expect(await decisionOf()).not.toBe(activationBefore);
    if (after.status !== 'finished') {
      expect(after.turn.kind).toBe('side');
      expect(new Date(after.deadlineAt).getTime()).toBeGreaterThan(expiry.getTime());
    }
  });

  test('the loop running with the app finds a due battle by itself; watchers hear of it', async () => {
    const battle = await duelAgainstTheComputer();
    const socket = await connect(await listen(app), { cookie: player.cookie! });
    socket.send({ type: 'subscribe', channel: `battle:${battle.id}` });
    await socket.next('subscribed');
    await app.prisma.battle.update({ where: { id: battle.id }, data: { deadlineAt: new Date(Date.now() - 1000) } });
    const loop = deadlinesOf(app, true);
    loop.start();
    try {
      const heard = await socket.next('event', (message) => message.event.type === 'battle.changed', 10_000);
      expect(heard.event).toMatchObject({ type: 'battle.changed', battleId: battle.id, what: 'acted', actionCount: 3 });
    } finally {
      await loop.stop();
      socket.socket.close();
    }
    expect(loop.stats.expired).toBe(1);
  });
});
