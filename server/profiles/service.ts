/**
 * A player's public page: the games they play, played (until the game master handed their seat on) and run,
 * how those ended for them, and how many deadlines they kept. What the viewer may see of it is views/profile.ts;
 * reliability is counted over the games shown.
 */
import type { FastifyInstance } from 'fastify';
import type { UserProfile } from '../../shared/api/profiles.ts';
import { Prisma, type Db } from '../db/database.ts';
import { notFound } from '../errors.ts';
import { gameInclude } from '../views/game.ts';
import { partIn, userProfileView, type Part } from '../views/profile.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { gameOf } from '../db/tables/games.ts';
import type { Auth } from '../auth/caller.ts';

type Viewer = Auth['user'] | null;

export async function userProfile(app: FastifyInstance, viewer: Viewer, username: string): Promise<UserProfile> {
  const user = await app.prisma.user.findUnique({
    where: { usernameKey: username.trim().toLowerCase() },
    select: { id: true, username: true, createdAt: true },
  });
  if (!user) throw notFound(`no player is called "${username}"`);
  const rows = await app.prisma.game.findMany({
    where: {
      status: { not: 'cancelled' },
      OR: [{ gameMasterId: user.id }, { players: { some: { userId: user.id } } }, { players: { some: { formerUserIds: { has: user.id } } } }],
    },
    include: gameInclude,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  const parts = rows.map((row) => partIn(gameOf(row), user, viewer)).filter((part): part is Part => part !== null);
  const reliable = await reliability(
    app.prisma,
    user.id,
    parts.flatMap(({ game, seat }) => (seat ? [game] : [])),
  );
  return userProfileView(user, parts, reliable, viewer);
}

/**
 * The phases processed while this user held a seat (its holder as processing found it, whoever holds it now) in
 * which its power had to order, and how many of those deadlines passed without the player's orders. Also what
 * a game's minimum of deadlines kept is judged by (server/seats/).
 */
export async function reliability(db: Db, userId: string, games: ReadonlyArray<{ id: string; players: ReadonlyArray<{ id: string; power: string | null }> }>) {
  if (games.length === 0) return { phases: 0, missed: 0 };
  const powerOfSeat = new Map(games.flatMap((game) => game.players.flatMap((seat) => (seat.power ? [[seat.id, seat.power] as const] : []))));
  const phases = await db.phase.findMany({
    where: { gameId: { in: games.map((game) => game.id) }, status: 'processed', attendance: { not: Prisma.DbNull } },
    select: { id: true, seatsBefore: true, attendance: true },
  });
  let due = 0;
  let missed = 0;
  for (const row of phases) {
    const { attendance, seatsBefore } = phaseOf(row);
    for (const seat of seatsBefore ?? []) {
      const power = seat.userId === userId ? powerOfSeat.get(seat.id) : undefined;
      if (!power || !attendance?.due.includes(power)) continue;
      due += 1;
      if (attendance.missed.includes(power)) missed += 1;
    }
  }
  return { phases: due, missed };
}
