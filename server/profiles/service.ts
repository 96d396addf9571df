/**
 * A player's public page: the games they play, played (until the game master handed their seat on) and run,
 * how those ended for them, and how many deadlines they kept. Only what the viewer may already know is shown
 * (access/policy.ts): a private game to those who may see it, and a seat in an anonymous game once its result is
 * final (before that, to the player, and a game master or administrator who does not play in it), as the game's own
 * page reveals it. Totals and
 * reliability are counted over the games shown.
 */
import type { FastifyInstance } from 'fastify';
import type { GameOutcome } from '../../shared/api/games.ts';
import type { GameResult, ProfileGame, UserProfile } from '../../shared/api/profiles.ts';
import { Prisma } from '../db/database.ts';
import { notFound } from '../errors.ts';
import { mayView, revealsNames } from '../access/policy.ts';
import { gameInclude, gameSummaryView, type LoadedGame } from '../views/game.ts';
import type { Attendance, SeatBefore } from '../play/process.ts';
import { playerStatusOnWire } from '../play/phases.ts';
import type { Auth } from '../auth/caller.ts';

type Viewer = Auth['user'] | null;
type Seat = LoadedGame['players'][number];

export async function userProfile(app: FastifyInstance, viewer: Viewer, username: string): Promise<UserProfile> {
  const user = await app.prisma.user.findUnique({ where: { usernameKey: username.trim().toLowerCase() }, select: { id: true, username: true, createdAt: true } });
  if (!user) throw notFound(`no player is called "${username}"`);
  const games = await app.prisma.game.findMany({
    where: {
      status: { not: 'cancelled' },
      OR: [{ gameMasterId: user.id }, { players: { some: { userId: user.id } } }, { players: { some: { formerUserIds: { has: user.id } } } }],
    },
    include: gameInclude,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });

  // Each game with the seat the user holds, or else the one they held last (handed on since).
  const shown: Array<{ game: LoadedGame; seat: Seat | undefined; replaced: boolean }> = [];
  for (const game of games) {
    if (!mayView(game, viewer)) continue;
    const held = game.players.find((player) => player.userId === user.id);
    const handedOn = held ? undefined : game.players.find((player) => player.formerUserIds.includes(user.id));
    const seat = held ?? handedOn;
    // A seat in an anonymous game is told only where the game's own page would tell it.
    if (seat && viewer?.id !== user.id && !revealsNames(game, viewer)) {
      if (game.gameMasterId === user.id) shown.push({ game, seat: undefined, replaced: false });
      continue;
    }
    shown.push({ game, seat, replaced: !!handedOn });
  }

  const list: ProfileGame[] = shown.map(({ game, seat, replaced }) => ({
    game: gameSummaryView(game, viewer),
    role: seat ? 'player' : 'game-master',
    power: seat?.power ?? null,
    playerStatus: seat && !replaced ? playerStatusOnWire(seat.status) : null,
    replaced,
    result: seat?.power && !replaced && game.status === 'finished' && game.outcome ? resultOf(game.outcome as GameOutcome, seat.power) : null,
  }));
  const played = list.filter((entry) => entry.role === 'player');
  return {
    user: { id: user.id, username: user.username },
    memberSince: user.createdAt.toISOString(),
    games: list,
    totals: {
      playing: played.filter((entry) => entry.game.status === 'active' && !entry.replaced).length,
      finished: played.filter((entry) => entry.game.status === 'finished' && !entry.replaced).length,
      won: played.filter((entry) => entry.result === 'won').length,
      drawn: played.filter((entry) => entry.result === 'drew').length,
      lost: played.filter((entry) => entry.result === 'lost').length,
      eliminated: played.filter((entry) => entry.playerStatus === 'eliminated').length,
      replaced: played.filter((entry) => entry.replaced).length,
    },
    reliability: await reliability(app, user.id, shown.flatMap(({ game, seat }) => (seat ? [game] : []))),
  };
}

/** A victory or a concession wins for the powers it names; a draw is shared by those it names; the others lost. */
function resultOf(outcome: GameOutcome, power: string): GameResult {
  if (!outcome.powers.includes(power)) return 'lost';
  return outcome.kind === 'draw' ? 'drew' : 'won';
}

/**
 * The phases processed while this user held a seat (its holder as processing found it, whoever holds it now) in
 * which its power had to order, and how many of those deadlines passed without the player's orders.
 */
async function reliability(app: FastifyInstance, userId: string, games: LoadedGame[]) {
  if (games.length === 0) return { phases: 0, missed: 0 };
  const powerOfSeat = new Map(games.flatMap((game) => game.players.flatMap((seat) => (seat.power ? [[seat.id, seat.power] as const] : []))));
  const phases = await app.prisma.phase.findMany({
    where: { gameId: { in: games.map((game) => game.id) }, status: 'processed', attendance: { not: Prisma.DbNull } },
    select: { seatsBefore: true, attendance: true },
  });
  let due = 0;
  let missed = 0;
  for (const phase of phases) {
    const attendance = phase.attendance as Attendance | null;
    for (const seat of (phase.seatsBefore ?? []) as SeatBefore[]) {
      const power = seat.userId === userId ? powerOfSeat.get(seat.id) : undefined;
      if (!power || !attendance?.due.includes(power)) continue;
      due += 1;
      if (attendance.missed.includes(power)) missed += 1;
    }
  }
  return { phases: due, missed };
}
