/**
 * Deadlines moved by declared absences (play/deadlines.ts): a phase whose
 * deadline falls in an active player's absence is due at the absence's end when
 * the game honours absences; not when it does not, nor when the player named a
 * sitter, nor for a cancelled absence. Absences are inserted as rows (their
 * routes are another module's).
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame } from './helpers/play.ts';
import { deferOpenDeadlines } from '../../server/play/deadlines.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
});
afterAll(() => testApp.close());

const DAY_MS = 24 * 3600_000;
const durations = { movement: 86_400, retreat: 86_400, adjustment: 86_400 };
// Processed at `at`, the next phase is due a day later, in the middle of the absence (which ends three days later).
const at = new Date('2027-05-03T10:00:00Z');
const absence = { startsAt: new Date(at.getTime() - DAY_MS), endsAt: new Date(at.getTime() + 3 * DAY_MS) };

async function nextDeadline(honourVacations: boolean, vacation: (players: { userId: string }[], master: string) => Record<string, unknown>) {
  const { gameId, players, master } = await startGame(app, { deadlines: durations, correspondence: { grace: { seconds: 0, perPlayer: 0 }, honourVacations } });
  const seats = players.map((player) => ({ userId: player.user!.id }));
  await app.prisma.vacation.create({ data: { userId: seats[2].userId, ...absence, ...vacation(seats, master.user!.id) } });
  expect(await app.scheduler.processDue(at)).toBe(1);
  const phase = await currentPhase(players[0], gameId);
  expect(phase.index).toBe(1);
  return phase.deadlineAt;
}

describe("a deadline in a player's absence", () => {
  test('moves to the end of the absence when the game honours absences', async () => {
    expect(await nextDeadline(true, () => ({}))).toBe(absence.endsAt.toISOString());
  });

  test('stays when the game does not honour absences', async () => {
    expect(await nextDeadline(false, () => ({}))).toBe(new Date(at.getTime() + DAY_MS).toISOString());
  });

  test('stays when the player named a sitter, who plays the seat meanwhile', async () => {
    expect(await nextDeadline(true, (seats) => ({ sitterId: seats[3].userId }))).toBe(new Date(at.getTime() + DAY_MS).toISOString());
  });

  test('stays when the absence was cancelled', async () => {
    expect(await nextDeadline(true, () => ({ cancelledAt: new Date(at.getTime() - 2 * DAY_MS) }))).toBe(new Date(at.getTime() + DAY_MS).toISOString());
  });

  test('overlapping absences of two players chain, and a clock puts the deadline on its time after them', async () => {
    const { gameId, players } = await startGame(app, {
      deadlines: durations,
      correspondence: { grace: { seconds: 0, perPlayer: 0 }, honourVacations: true, deadlineClock: { time: '20:00', timeZone: 'UTC', daysOff: [] } },
    });
    await app.prisma.vacation.create({ data: { userId: players[0].user!.id, ...absence } });
    // Another player away from the first one's return until Friday 7 May, noon.
    await app.prisma.vacation.create({ data: { userId: players[1].user!.id, startsAt: absence.endsAt, endsAt: new Date('2027-05-07T12:00:00Z') } });
    expect(await app.scheduler.processDue(at)).toBe(1);
    expect((await currentPhase(players[0], gameId)).deadlineAt).toBe('2027-05-07T20:00:00.000Z');
  });

  test('the absence of a player in civil disorder does not hold the game', async () => {
    const { gameId, players } = await startGame(app, { deadlines: durations, correspondence: { grace: { seconds: 0, perPlayer: 0 }, honourVacations: true } });
    await app.prisma.vacation.create({ data: { userId: players[2].user!.id, ...absence } });
    await app.prisma.player.updateMany({ where: { gameId, userId: players[2].user!.id }, data: { status: 'civil_disorder' } });
    expect(await app.scheduler.processDue(at)).toBe(1);
    expect((await currentPhase(players[0], gameId)).deadlineAt).toBe(new Date(at.getTime() + DAY_MS).toISOString());
  });
});

describe('an absence declared while a phase is open', () => {
  test("moves the open phase's deadline in the games that honour absences, and tells the players why; not in the others", async () => {
    const honouring = await startGame(app, { deadlines: durations, correspondence: { grace: { seconds: 0, perPlayer: 0 }, honourVacations: true } });
    const player = honouring.players[1];
    // The same user plays in a game that does not honour absences.
    const ignoring = await startGame(app, { deadlines: durations, correspondence: { grace: { seconds: 0, perPlayer: 0 }, honourVacations: false } });
    await app.prisma.player.updateMany({ where: { gameId: ignoring.gameId, userId: ignoring.players[1].user!.id }, data: { userId: player.user!.id } });
    const before = Date.parse((await currentPhase(player, honouring.gameId)).deadlineAt!);
    const ignoredBefore = (await currentPhase(player, ignoring.gameId)).deadlineAt;
    const endsAt = new Date(before + 2 * DAY_MS);
    await app.prisma.vacation.create({ data: { userId: player.user!.id, startsAt: new Date(before - DAY_MS), endsAt } });

    const moved = await app.prisma.$transaction((tx) => deferOpenDeadlines(tx, app.bus, player.user!.id));
    expect(moved).toEqual([honouring.gameId]);
    expect((await currentPhase(player, honouring.gameId)).deadlineAt).toBe(endsAt.toISOString());
    expect((await currentPhase(player, ignoring.gameId)).deadlineAt).toBe(ignoredBefore);
    const [logged] = await app.prisma.$queryRaw<Array<{ event: unknown }>>`
      SELECT event FROM live_events WHERE channel = ${`game:${honouring.gameId}`} ORDER BY seq DESC LIMIT 1`;
    expect(logged.event).toMatchObject({ type: 'deadline.changed', deadlineAt: endsAt.toISOString(), reason: 'vacation' });
    // Asked again, nothing more moves.
    expect(await app.prisma.$transaction((tx) => deferOpenDeadlines(tx, app.bus, player.user!.id))).toEqual([]);
  });
});
