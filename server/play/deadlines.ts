/**
 * The deadline of a phase as it opens (the first one, play/first-phase.ts; each
 * next one, play/process.ts): the phase's duration from the game's settings, put
 * on the game's clock when it has one (shared/clock/deadline.ts), then moved
 * past the absences its players declared when the game honours them.
 *
 * Absences that count: not cancelled, of a user who holds an active seat (a
 * seat in civil disorder is not waited for anyway), and with no sitter named —
 * a sitter plays the seat meanwhile, so the game need not wait.
 */
import { type Absence, MAX_VACATION_MOVE_MS, phaseDeadline } from '../../shared/clock/deadline.ts';
import type { Transaction } from '../db/database.ts';
import { correspondenceOf } from '../db/tables/games.ts';
import { seaBattleOf, type SeaBattleRow } from '../db/tables/sea-battles.ts';
import type { LiveBus } from '../bus/live-bus.ts';
import { notifyDeadlineMoved } from '../notify/game-events.ts';
import type { NotifyEnv } from '../notify/unsubscribe.ts';

/** When a phase of game `gameId` opening at `openedAt` with `durationSeconds` falls due. */
export async function newPhaseDeadline(tx: Transaction, gameId: string, durationSeconds: number, openedAt: Date): Promise<Date> {
  const game = await tx.game.findUniqueOrThrow({
    where: { id: gameId },
    select: {
      graceSeconds: true,
      gracePerPlayer: true,
      deadlineClock: true,
      deadlineTimeZone: true,
      deadlineDaysOff: true,
      honourVacations: true,
      voteRule: true,
      seatApproval: true,
      minDeadlinesKept: true,
      minFinishedGames: true,
    },
  });
  const { deadlineClock, honourVacations } = correspondenceOf(game);
  const absences = honourVacations ? await absencesOf(tx, gameId, openedAt, durationSeconds) : [];
  return phaseDeadline(openedAt, durationSeconds, deadlineClock, absences);
}

/** The game's active players' absences (no sitter, not cancelled) that a deadline of this phase could fall in. */
async function absencesOf(tx: Transaction, gameId: string, openedAt: Date, durationSeconds: number): Promise<Absence[]> {
  const seats = await tx.player.findMany({ where: { gameId, status: 'active', userId: { not: null } }, select: { userId: true } });
  const userIds = seats.flatMap(({ userId }) => (userId ? [userId] : []));
  if (userIds.length === 0) return [];
  // A clock puts the deadline at most 8 days past the duration, and absences move it 14 days more (and a week to the clock again).
  const horizon = new Date(openedAt.getTime() + durationSeconds * 1000 + MAX_VACATION_MOVE_MS + 16 * 24 * 3600 * 1000);
  return tx.vacation.findMany({
    where: { userId: { in: userIds }, cancelledAt: null, sitterId: null, endsAt: { gt: openedAt }, startsAt: { lt: horizon } },
    select: { startsAt: true, endsAt: true },
    orderBy: { startsAt: 'asc' },
  });
}

/**
 * An absence declared (or its sitter removed) after a phase opened: the open phases of the user's games that honour
 * absences, whose deadline now falls in a counted absence, move to its end (and to the clock's next time), as they
 * would have had the absence been known when the phase opened; everyone in the game is told (`deadline.changed`,
 * reason `vacation`). Paused games are left alone (their deadline moves on resume anyway). Returns the games moved.
 * Meant for the vacation routes, in the transaction that stores the absence.
 */
export async function deferOpenDeadlines(tx: Transaction, bus: LiveBus, userId: string, notify?: NotifyEnv): Promise<string[]> {
  const phases = await tx.phase.findMany({
    where: {
      status: 'open',
      deadlineAt: { not: null },
      game: { status: 'active', pausedAt: null, honourVacations: true, players: { some: { userId, status: 'active' } } },
    },
    select: { id: true, gameId: true, index: true, deadlineAt: true },
  });
  const moved: string[] = [];
  for (const phase of phases) {
    // Under the game's lock, as every change to its play: processing or the game master may be at it.
    await tx.$queryRaw`SELECT id FROM games WHERE id = ${phase.gameId}::uuid FOR UPDATE`;
    const current = await tx.phase.findUnique({ where: { id: phase.id }, select: { status: true, deadlineAt: true } });
    if (current?.status !== 'open' || !current.deadlineAt) continue;
    const game = await tx.game.findUniqueOrThrow({
      where: { id: phase.gameId },
      select: { deadlineClock: true, deadlineTimeZone: true, deadlineDaysOff: true },
    });
    const clock =
      game.deadlineClock && game.deadlineTimeZone ? { time: game.deadlineClock, timeZone: game.deadlineTimeZone, daysOff: game.deadlineDaysOff } : null;
    const absences = await absencesOf(tx, phase.gameId, current.deadlineAt, 0);
    // The deadline as it stands is the phase's "duration": only absences move it, never earlier.
    const deadlineAt = phaseDeadline(current.deadlineAt, 0, clock, absences);
    if (deadlineAt.getTime() <= current.deadlineAt.getTime()) continue;
    await tx.phase.update({ where: { id: phase.id }, data: { deadlineAt } });
    await bus.publish(tx, `game:${phase.gameId}`, {
      type: 'deadline.changed',
      gameId: phase.gameId,
      phaseIndex: phase.index,
      deadlineAt: deadlineAt.toISOString(),
      paused: false,
      reason: 'vacation',
    });
    if (notify) await notifyDeadlineMoved(tx, notify, phase.gameId, { phaseId: phase.id, deadlineAt, reason: 'vacation', powers: [] });
    moved.push(phase.gameId);
  }
  return moved;
}

/**
 * The seas of a held campaign phase still waiting for a decision (not being fought: a battle's result decides those),
 * in the order they were found; their deadline is when they are auto-resolved.
 */
export async function waitingSeas(tx: Transaction, phaseId: string) {
  return (await tx.seaBattle.findMany({ where: { phaseId, status: 'undecided' }, orderBy: { createdAt: 'asc' } })).map((row) => seaBattleOf(row));
}

/**
 * The clock stood still for `pausedMs`: the held phase's seas still waiting move by as much, as the phase deadline
 * does, so a pause takes none of the battles' time. Returns the seas moved (for sea.changed).
 */
export async function moveSeaDeadlines(tx: Transaction, phaseId: string, pausedMs: number): Promise<SeaBattleRow[]> {
  if (pausedMs <= 0) return [];
  const moved: SeaBattleRow[] = [];
  for (const row of await waitingSeas(tx, phaseId)) {
    if (!row.deadlineAt) continue;
    const deadlineAt = new Date(row.deadlineAt.getTime() + pausedMs);
    moved.push(seaBattleOf(await tx.seaBattle.update({ where: { id: row.id }, data: { deadlineAt } })));
  }
  return moved;
}
