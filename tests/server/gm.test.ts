/**
 * Game-master tools through the API: process now, deadlines, replacing a
 * player, civil disorder, entering orders, rolling back and re-adjudicating,
 * and the audit log the players read.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { getVariant } from '../../shared/index.ts';
import { randomOrders, seeded } from '../support/random-game.ts';
import { registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, ordersByPower, startGame } from './helpers/play.ts';
import { expectReproducible } from './helpers/reproduce.ts';
import { connect, listen, settled, watchGame } from './helpers/live.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  // An ended game may be re-opened for an hour (tests here roll finished games back).
  testApp = await startTestApp({ settings: { finalAfterMs: 3600_000 } });
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const variant = getVariant('diadochi-v')!;

type Master = Awaited<ReturnType<typeof startGame>>['master'];
type SeatLine = { power: string; playerStatus: string; missedDeadlines: number };
/** A power's line in the game's current phase (its player's standing), as the game master reads it. */
const seatLine = async (master: Master, gameId: string, power: string) =>
  ((await currentPhase(master, gameId)).powers as SeatLine[]).find((entry) => entry.power === power)!;
/** The current phase's deadline passes (moved into the past), and the scheduler processes it. */
async function passDeadline(master: Master, gameId: string) {
  const { index } = await currentPhase(master, gameId);
  await app.prisma.phase.updateMany({ where: { gameId, index }, data: { deadlineAt: new Date(Date.now() - 1000) } });
  expect(await app.scheduler.processDue()).toBe(1);
}

describe('deadlines and processing', () => {
  test('the game master extends and shortens the deadline within limits, and processes at once; all of it logged for the players', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const start = Date.parse((await currentPhase(master, gameId)).deadlineAt!);

    const extended = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 3600 });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(Date.parse((await currentPhase(master, gameId)).deadlineAt!)).toBe(start + 3600_000);
    const shortened = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: -7200 });
    expect(shortened.statusCode).toBe(200);
    expect(Date.parse((await currentPhase(master, gameId)).deadlineAt!)).toBe(start - 3600_000);

    const tooFar = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 31 * 24 * 3600 });
    expect(tooFar.statusCode).toBe(400);
    const beyondCap = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { deadlineAt: new Date(Date.now() + 40 * 24 * 3600_000).toISOString() });
    expect(beyondCap.statusCode).toBe(422);
    expect(beyondCap.json().error).toMatchObject({ code: 'deadline_out_of_range', message: expect.stringContaining('30 days') });
    const past = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { deadlineAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.json().error.code).toBe('deadline_out_of_range');
    const both = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 1, deadlineAt: new Date().toISOString() });
    expect(both.json().error.message).toContain('exactly one');
    // Players may not.
    expect((await byPower.get(powers[0])!.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 60 })).json().error.code).toBe(
      'not_game_master',
    );

    const processed = await master.request('POST', `/api/games/${gameId}/gm/process`);
    expect(processed.statusCode, processed.body).toBe(200);
    expect(processed.json().action).toMatchObject({ action: 'process-now', actor: master.user, details: { phase: 0, next: 'Fall 240 BC Movement' } });
    expect((await currentPhase(master, gameId)).index).toBe(1);

    const log = (await byPower.get(powers[1])!.request('GET', `/api/games/${gameId}/gm/log`)).json().actions;
    expect(log.map((entry: { action: string }) => entry.action)).toEqual(['change-deadline', 'change-deadline', 'process-now']);
    expect(log[0].details).toMatchObject({ phase: 0, from: new Date(start).toISOString(), to: new Date(start + 3600_000).toISOString() });
  });
  test('processing before the deadline (the game master, or everyone ready) misses nobody; the deadline passing does', async () => {
    const { gameId, master } = await startGame(app);
    type Line = { power: string; mustOrder: boolean; playerStatus: string; missedDeadlines: number };
    // Nobody orders for three phases, each processed early: enough to put every power in civil disorder, had deadlines passed.
    for (let round = 0; round < 3; round++) expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    const phase = await currentPhase(master, gameId);
    for (const line of phase.powers as Line[]) expect(line, line.power).toMatchObject({ playerStatus: 'active', missedDeadlines: 0 });

    // The same silence at the deadline counts, for the powers that had to order.
    const mustOrder = (phase.powers as Line[]).filter((line) => line.mustOrder).map((line) => line.power);
    expect(mustOrder.length).toBeGreaterThan(0);
    await passDeadline(master, gameId);
    const after = await currentPhase(master, gameId);
    expect(after.index).toBe(phase.index + 1);
    for (const line of after.powers as Line[]) expect(line.missedDeadlines, line.power).toBe(mustOrder.includes(line.power) ? 1 : 0);
  });
});

describe('pausing the clock', () => {
  const HOUR = 3600_000;
  /** Pretends the clock was paused `ms` earlier than it was (a test cannot wait for hours). */
  const pausedEarlier = async (gameId: string, ms: number) => {
    const game = await app.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    await app.prisma.game.update({ where: { id: gameId }, data: { pausedAt: new Date(game.pausedAt!.getTime() - ms) } });
  };

  test('the game lists say the clock is paused, to a visitor who plays no part in the game, until it is resumed', async () => {
    const { gameId, master } = await startGame(app);
    const visitor = (await registeredBrowsers(app, 1))[0];
    const listed = async () => {
      const list = await visitor.request('GET', '/api/games?filter=active&limit=100');
      expect(list.statusCode, list.body).toBe(200);
      return list.json().games.find((game: { id: string }) => game.id === gameId);
    };
    expect((await listed()).pausedAt).toBeNull();
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    expect(Date.parse((await listed()).pausedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await master.request('POST', `/api/games/${gameId}/gm/resume`)).statusCode).toBe(200);
    expect((await listed()).pausedAt).toBeNull();
  });

  test('an open lobby hears a public game paused, resumed, ended and rolled back, so its lists are redrawn; a moved deadline and a private game stay off it', async () => {
    const { gameId, master } = await startGame(app);
    const hidden = await startGame(app, { private: true });
    const visitor = (await registeredBrowsers(app, 1))[0];
    const lobby = await connect(await listen(app), { cookie: visitor.cookie! });
    lobby.send({ type: 'subscribe', channel: 'lobby' });
    await lobby.next('subscribed');
    const heard = async () =>
      (await settled(lobby)).flatMap((message) => (message.type === 'event' && message.event.type !== 'game.created' ? [message.event] : []));

    expect((await hidden.master.request('POST', `/api/games/${hidden.gameId}/gm/pause`)).statusCode).toBe(200);
    expect((await hidden.master.request('POST', `/api/games/${hidden.gameId}/gm/end`, { outcome: 'draw' })).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 3600 })).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/resume`)).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'draw' })).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 })).statusCode).toBe(200);
    await vi.waitFor(async () => expect(await heard()).toHaveLength(4));
    expect(await heard()).toEqual([
      expect.objectContaining({ type: 'deadline.changed', gameId, paused: true }),
      expect.objectContaining({ type: 'deadline.changed', gameId, paused: false }),
      expect.objectContaining({ type: 'game.finished', gameId, outcome: expect.objectContaining({ kind: 'draw' }) }),
      expect.objectContaining({ type: 'deadline.changed', gameId, paused: false }),
    ]);
    lobby.socket.close();
  });

  test('a deadline set while the game is paused is kept as set on resume: only the time paused after it was set moves it', async () => {
    const { gameId, master } = await startGame(app);
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    // Paused for six hours, then the game master sets the deadline on purpose.
    await pausedEarlier(gameId, 6 * HOUR);
    const chosen = new Date(Date.now() + 5 * 24 * HOUR);
    chosen.setUTCMilliseconds(0);
    const set = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { deadlineAt: chosen.toISOString() });
    expect(set.statusCode, set.body).toBe(200);
    const resumed = await master.request('POST', `/api/games/${gameId}/gm/resume`);
    expect(resumed.statusCode, resumed.body).toBe(200);
    // Not six hours later: at most the second or two the test took since the deadline was set.
    const after = Date.parse((await currentPhase(master, gameId)).deadlineAt!);
    expect(after - chosen.getTime()).toBeGreaterThanOrEqual(0);
    expect(after - chosen.getTime()).toBeLessThan(5_000);
    expect(resumed.json().action.details.pausedSeconds).toBeLessThan(5);

    // Extended during a pause, then paused three more hours: the extension stays, and those three hours count.
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    await pausedEarlier(gameId, 2 * HOUR);
    expect((await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 3600 })).statusCode).toBe(200);
    await pausedEarlier(gameId, 3 * HOUR);
    expect((await master.request('POST', `/api/games/${gameId}/gm/resume`)).statusCode).toBe(200);
    const again = Date.parse((await currentPhase(master, gameId)).deadlineAt!);
    expect(again - after - 4 * HOUR).toBeGreaterThanOrEqual(0);
    expect(again - after - 4 * HOUR).toBeLessThan(5_000);

    // Without a change during the pause, the whole pause still counts.
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    await pausedEarlier(gameId, 2 * HOUR);
    expect((await master.request('POST', `/api/games/${gameId}/gm/resume`)).statusCode).toBe(200);
    const third = Date.parse((await currentPhase(master, gameId)).deadlineAt!);
    expect(third - again - 2 * HOUR).toBeGreaterThanOrEqual(0);
    expect(third - again - 2 * HOUR).toBeLessThan(5_000);
  });

  test('a phase re-opened by a roll-back while the game is paused keeps its new deadline on resume', async () => {
    const { gameId, master } = await startGame(app);
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    await pausedEarlier(gameId, 10 * HOUR);
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 })).statusCode).toBe(200);
    const reopened = Date.parse((await currentPhase(master, gameId)).deadlineAt!);
    expect((await master.request('POST', `/api/games/${gameId}/gm/resume`)).statusCode).toBe(200);
    expect(Date.parse((await currentPhase(master, gameId)).deadlineAt!) - reopened).toBeLessThan(5_000);
  });
});

describe('deadline changes that do not move the deadline', () => {
  test('are refused, with a message in words, and leave nothing in the log', async () => {
    const { gameId, master } = await startGame(app);
    const deadline = (await currentPhase(master, gameId)).deadlineAt!;
    const zero = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.message).toContain('would not move');
    const same = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { deadlineAt: deadline });
    expect(same.statusCode).toBe(422);
    expect(same.json().error).toMatchObject({ code: 'deadline_out_of_range', message: expect.stringContaining('would not move') });
    const tooFar = await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 31 * 24 * 3600 });
    expect(tooFar.json().error.issues).toEqual([{ path: 'body.extendBySeconds', message: expect.stringContaining('at most 30 days') }]);
    expect((await currentPhase(master, gameId)).deadlineAt).toBe(deadline);
    expect((await master.request('GET', `/api/games/${gameId}/gm/log`)).json().actions).toEqual([]);
  });
});

describe('seats', () => {
  test('replacing a player hands the power over; civil disorder stops the phase waiting for a power', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const [replaced, disorderly, ...rest] = powers;
    const [newcomer] = await registeredBrowsers(app, 1);
    const previous = byPower.get(replaced)!;

    const handed = await master.request('POST', `/api/games/${gameId}/gm/replace`, { power: replaced, username: newcomer.user!.username });
    expect(handed.statusCode, handed.body).toBe(200);
    expect(handed.json().action.details).toEqual({ power: replaced, users: { from: previous.user!.username, to: newcomer.user!.username } });
    expect((await previous.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: '', ready: true })).statusCode).toBe(403);
    expect((await newcomer.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: '', ready: true })).statusCode).toBe(200);
    const seat = (await master.request('GET', `/api/games/${gameId}`)).json().players.find((p: { power: string }) => p.power === replaced);
    expect(seat).toMatchObject({ user: newcomer.user, status: 'active' });
    // A user already seated cannot take a second power.
    const twice = await master.request('POST', `/api/games/${gameId}/gm/replace`, { power: rest[0], username: newcomer.user!.username });
    expect(twice.statusCode).toBe(409);

    for (const power of rest) {
      const reply = await byPower.get(power)!.request('POST', `/api/games/${gameId}/phases/0/ready`, { ready: true });
      expect(reply.json()).toEqual({ power, ready: true, phaseProcessed: false });
    }
    // Everyone but the silent power is ready: putting it in civil disorder processes the phase at once.
    const disorder = await master.request('POST', `/api/games/${gameId}/gm/civil-disorder`, { power: disorderly });
    expect(disorder.statusCode, disorder.body).toBe(200);
    const phase = await currentPhase(master, gameId);
    expect(phase.index).toBe(1);
    // Processed early (everyone else ready): the power in civil disorder missed no deadline.
    expect(phase.powers.find((line) => line.power === disorderly)).toMatchObject({ playerStatus: 'civil-disorder', missedDeadlines: 0 });
    expect((await master.request('POST', `/api/games/${gameId}/gm/civil-disorder`, { power: disorderly })).statusCode).toBe(409);
    expect((await master.request('POST', `/api/games/${gameId}/gm/civil-disorder`, { power: 'Atlantis' })).statusCode).toBe(404);
  });
});

describe('missed deadlines when the game master orders', () => {
  test("the game master's orders for an absent player neither count as missed nor bring the player back; the player's own orders do", async () => {
    const { gameId, master, byPower, powers } = await startGame(app, { maxMissedDeadlines: 3 });
    const [absent, overruled, silent] = powers;
    const line = (power: string) => seatLine(master, gameId, power);
    const pastDeadline = () => passDeadline(master, gameId);
    // Spring: nobody orders, and everyone misses the deadline.
    await pastDeadline();
    for (const power of powers) expect(await line(power), power).toMatchObject({ playerStatus: 'active', missedDeadlines: 1 });
    expect((await master.request('POST', `/api/games/${gameId}/gm/civil-disorder`, { power: absent })).statusCode).toBe(200);

    // Fall: the game master orders for the absent power; the overruled player orders, and the game master replaces those orders.
    expect((await master.request('PUT', `/api/games/${gameId}/gm/phases/1/orders/${absent}`, { orders: '' })).statusCode).toBe(200);
    expect((await byPower.get(overruled)!.request('PUT', `/api/games/${gameId}/phases/1/orders`, { orders: '' })).statusCode).toBe(200);
    expect((await master.request('PUT', `/api/games/${gameId}/gm/phases/1/orders/${overruled}`, { orders: '' })).statusCode).toBe(200);
    await pastDeadline();
    expect(await line(absent)).toMatchObject({ playerStatus: 'civil-disorder', missedDeadlines: 1 });
    expect(await line(overruled)).toMatchObject({ playerStatus: 'active', missedDeadlines: 0 });
    expect(await line(silent)).toMatchObject({ playerStatus: 'active', missedDeadlines: 2 });
  });
});

describe('missed deadlines and a roll-back', () => {
  test('a roll-back gives back the missed-deadline counts and civil disorder that the discarded processing brought', async () => {
    const { gameId, master, byPower, powers } = await startGame(app, { maxMissedDeadlines: 2 });
    const [keen, idle] = powers;
    const line = (power: string) => seatLine(master, gameId, power);
    const pastDeadline = () => passDeadline(master, gameId);
    // Spring: only the keen power orders. Fall: nobody does, and the idle power falls into civil disorder.
    expect((await byPower.get(keen)!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: '' })).statusCode).toBe(200);
    await pastDeadline();
    expect(await line(idle)).toMatchObject({ playerStatus: 'active', missedDeadlines: 1 });
    await pastDeadline();
    expect(await line(idle)).toMatchObject({ playerStatus: 'civil-disorder', missedDeadlines: 2 });
    expect(await line(keen)).toMatchObject({ playerStatus: 'active', missedDeadlines: 1 });

    // Back to Fall: as it was while Fall was open.
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 1 })).statusCode).toBe(200);
    expect(await line(idle)).toMatchObject({ playerStatus: 'active', missedDeadlines: 1 });
    expect(await line(keen)).toMatchObject({ playerStatus: 'active', missedDeadlines: 0 });
    // Back to Spring: nobody had missed anything.
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 })).statusCode).toBe(200);
    for (const power of powers) expect(await line(power), power).toMatchObject({ playerStatus: 'active', missedDeadlines: 0 });
  });
});

describe('orders by the game master, and roll-backs', () => {
  test('the game master enters orders for powers, rolls back two phases, and processing again gives the same results', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const rnd = seeded(99);

    const refused = await master.request('PUT', `/api/games/${gameId}/gm/phases/0/orders/${powers[0]}`, { orders: 'A Nowhere - Elsewhere' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: { code: 'orders_rejected' }, orders: [{ accepted: false, input: 'A Nowhere - Elsewhere' }] });

    // Three phases, every order entered by the game master.
    for (let i = 0; i < 3; i++) {
      const phase = await currentPhase(master, gameId);
      const orders = ordersByPower(randomOrders(variant, phase.state, rnd));
      for (const line of phase.powers.filter((entry) => entry.mustOrder)) {
        const list = orders.get(line.power) ?? [];
        const entered = await master.request('PUT', `/api/games/${gameId}/gm/phases/${phase.index}/orders/${line.power}`, { orders: list });
        if (entered.statusCode === 422) {
          const kept = list.filter((_, k) => entered.json().orders[k].accepted);
          expect((await master.request('PUT', `/api/games/${gameId}/gm/phases/${phase.index}/orders/${line.power}`, { orders: kept })).statusCode).toBe(200);
        } else expect(entered.statusCode, entered.body).toBe(200);
      }
      expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    }
    const mine = (await byPower.get(powers[0])!.request('GET', `/api/games/${gameId}/phases/0/orders`)).json();
    expect(mine.current).toMatchObject({ byGameMaster: true });

    const before = (await master.request('GET', `/api/games/${gameId}/phases/1`)).json();
    const rolled = await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 1 });
    expect(rolled.statusCode, rolled.body).toBe(200);
    expect(rolled.json().action).toMatchObject({ action: 'rollback', details: { phase: 1, discarded: [before.name, expect.any(String), expect.any(String)] } });
    const phases = (await master.request('GET', `/api/games/${gameId}/phases`)).json().phases;
    expect(phases.map((phase: { index: number; status: string }) => [phase.index, phase.status])).toEqual([
      [0, 'processed'],
      [1, 'open'],
    ]);
    const reopened = (await master.request('GET', `/api/games/${gameId}/phases/1`)).json();
    expect(reopened).toMatchObject({ status: 'open', orders: null, results: null, stateAfter: null });
    expect(reopened.powers.filter((line: { submitted: boolean }) => line.submitted).length).toBeGreaterThan(0);

    // The discarded phases stay in the audit trail (the export's discardedPhases).
    const exported = (await master.request('GET', `/api/games/${gameId}/export`)).json();
    expect(exported.discardedPhases.map((phase: { index: number }) => phase.index)).toEqual([1, 2, 3]);
    expect(exported.discardedPhases[0]).toMatchObject({ results: before.results, stateAfter: before.stateAfter, rollback: exported.gmLog.length - 1 });
    expect(exported.discardedPhases[0].submissions.length).toBeGreaterThan(0);

    // Re-adjudicated with the same orders: the same results and the same next position.
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    const again = (await master.request('GET', `/api/games/${gameId}/phases/1`)).json();
    expect(again.results).toEqual(before.results);
    expect(again.stateAfter).toEqual(before.stateAfter);
    expect(await expectReproducible(app, gameId)).toBe(2);

    const actions = (await byPower.get(powers[2])!.request('GET', `/api/games/${gameId}/gm/log`))
      .json()
      .actions.map((entry: { action: string }) => entry.action);
    expect(actions.filter((action: string) => action === 'process-now')).toHaveLength(4);
    expect(actions).toContain('enter-orders');
    expect(actions).toContain('rollback');
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 2 })).json().error.code).toBe('conflict');
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 9 })).statusCode).toBe(400);
  });

  test("the log says the game master's orders replaced others only when orders were saved for the power", async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    expect((await master.request('PUT', `/api/games/${gameId}/gm/phases/0/orders/${powers[0]}`, { orders: '' })).statusCode).toBe(200);
    expect((await byPower.get(powers[1])!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: '', ready: false })).statusCode).toBe(200);
    expect((await master.request('PUT', `/api/games/${gameId}/gm/phases/0/orders/${powers[1]}`, { orders: '' })).statusCode).toBe(200);
    const entered = (await byPower.get(powers[2])!.request('GET', `/api/games/${gameId}/gm/log`))
      .json()
      .actions.filter((entry: { action: string }) => entry.action === 'enter-orders');
    expect(entered.map((entry: { details: { power: string; replaced: boolean } }) => [entry.details.power, entry.details.replaced]).sort()).toEqual([
      [powers[0], false],
      [powers[1], true],
    ]);
  });

  test('a roll-back keeps the orders saved but not the Ready ticks: one power ticking Ready again does not process the phase', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    for (const power of powers) {
      const saved = await byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: '', ready: power !== powers[0] });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 })).statusCode).toBe(200);
    const reopened = await currentPhase(master, gameId);
    for (const line of reopened.powers) expect(line, line.power).toMatchObject({ submitted: true, ready: false });
    const ready = await byPower.get(powers[0])!.request('POST', `/api/games/${gameId}/phases/0/ready`, { ready: true });
    expect(ready.json()).toMatchObject({ ready: true, phaseProcessed: false });
    expect((await currentPhase(master, gameId)).index).toBe(0);
  });

  test('rolling back a finished game re-opens it', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    for (const power of powers) await byPower.get(power)!.request('POST', `/api/games/${gameId}/votes`, { kind: 'draw' });
    expect((await master.request('GET', `/api/games/${gameId}`)).json().status).toBe('finished');
    const rolled = await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 });
    expect(rolled.statusCode, rolled.body).toBe(200);
    expect((await master.request('GET', `/api/games/${gameId}`)).json()).toMatchObject({ status: 'active', outcome: null, currentPhase: { index: 0 } });
    expect((await master.request('GET', `/api/games/${gameId}/votes`)).json().draw).toEqual([]);
  });
});

describe('ending the game', () => {
  test('the game master ends the game as a draw among some survivors: votes dropped, everyone told, the export imports, and a rollback to the open phase re-opens it', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const player = byPower.get(powers[0])!;
    expect((await player.request('POST', `/api/games/${gameId}/votes`, { kind: 'draw' })).statusCode).toBe(200);

    // Only the game master; a draw needs two powers; a concession names one.
    expect((await player.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'draw' })).json().error.code).toBe('not_game_master');
    const alone = await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'draw', powers: [powers[1]] });
    expect(alone.statusCode).toBe(409);
    expect(alone.json().error.message).toMatch(/at least two surviving powers.*concession/);
    const twoWinners = await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'concession', powers: [powers[1], powers[2]] });
    expect(twoWinners.statusCode).toBe(400);
    expect(twoWinners.json().error.issues).toEqual([{ path: 'body.powers', message: 'a concession names exactly one power, the one conceded to' }]);
    expect((await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'draw', powers: ['Atlantis', powers[1]] })).statusCode).toBe(404);
    expect((await master.request('GET', `/api/games/${gameId}`)).json().status).toBe('active');

    // Named in any order, recorded in the variant's.
    const sharing = [powers[3], powers[1]];
    const watching = await watchGame(await listen(app), player.cookie!, gameId);
    const ended = await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'draw', powers: sharing });
    expect(ended.statusCode, ended.body).toBe(200);
    const outcome = { kind: 'draw', powers: variant.powers.filter((power) => sharing.includes(power)) };
    expect(ended.json().action).toMatchObject({ action: 'end-game', details: { phase: 0, phaseName: 'Spring 240 BC Movement', outcome } });
    expect((await player.request('GET', `/api/games/${gameId}`)).json()).toMatchObject({ status: 'finished', outcome, pausedAt: null });
    const told = (await settled(watching)).flatMap((message) => (message.type === 'event' ? [message.event] : []));
    watching.socket.close();
    expect(told).toContainEqual({ type: 'game.finished', gameId, outcome });
    expect((await player.request('GET', `/api/games/${gameId}/votes`)).json()).toMatchObject({ draw: [], outcome });
    expect((await player.request('GET', `/api/games/${gameId}/phases/current`)).json().deadlineAt).toBeNull();
    expect((await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'draw' })).json().error.code).toBe('game_not_active');

    // The archive keeps it: its export imports as a finished game with the same outcome.
    const exported = (await master.request('GET', `/api/games/${gameId}/export`)).json();
    const imported = await master.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body).toBe(201);
    expect((await master.request('GET', `/api/games/${imported.json().id}`)).json()).toMatchObject({ status: 'finished', outcome });
    // And the copy's export imports again (its log ends with the import, after the game master's ending).
    const copied = (await master.request('GET', `/api/games/${imported.json().id}/export`)).json();
    expect(copied.gmLog.map((entry: { action: string }) => entry.action).slice(-2)).toEqual(['end-game', 'import']);
    const again = await master.request('POST', '/api/games/import', { export: copied });
    expect(again.statusCode, again.body.slice(0, 300)).toBe(201);

    // Undone: the same phase is open again, with a new deadline, and nothing discarded.
    const reopened = await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json().action.details).toMatchObject({ phase: 0, discarded: [], gameHadEnded: true });
    const game = (await player.request('GET', `/api/games/${gameId}`)).json();
    expect(game).toMatchObject({ status: 'active', outcome: null, currentPhase: { index: 0 } });
    expect(game.currentPhase.deadlineAt).not.toBeNull();
    expect((await master.request('GET', `/api/games/${gameId}/phases`)).json().phases).toHaveLength(1);
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 })).json().error.code).toBe('conflict');
  });

  test('a concession to one power, with every survivor as the default of a draw', async () => {
    const { gameId, master, powers } = await startGame(app);
    const conceded = await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'concession', powers: [powers[2]] });
    expect(conceded.statusCode, conceded.body).toBe(200);
    expect((await master.request('GET', `/api/games/${gameId}`)).json().outcome).toEqual({ kind: 'concession', powers: [powers[2]] });

    const other = await startGame(app);
    expect((await other.master.request('POST', `/api/games/${other.gameId}/gm/end`, { outcome: 'draw' })).json().action.details.outcome).toEqual({
      kind: 'draw',
      powers: variant.powers,
    });
  });
});
