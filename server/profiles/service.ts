/**
 * A player's public page: the games they play, played (until the game master handed their seat on) and run,
 * how those ended for them, and how many deadlines they kept. What the viewer may see of it is views/profile.ts;
 * reliability is counted over the games shown.
 */
import type { FastifyInstance } from 'fastify';
import type { UserProfile } from '../../shared/api/profiles.ts';
import { notFound } from '../errors.ts';
import { reliability } from '../play/seat-rules.ts';
import { gameInclude } from '../views/game.ts';
import { partIn, userProfileView, type Part } from '../views/profile.ts';
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
