/**
 * A player's public page: the games they play and run, how those ended for them, and how many deadlines they
 * kept. Only what the viewer may already know is shown: a private game to those who may see it, and a seat in
 * an anonymous game once the game has ended (before that, to the player, the game master and administrators),
 * as the game's own page reveals it. Totals and reliability are counted over the games shown.
 */
import type { FastifyInstance } from 'fastify';
import type { GameOutcome } from '../../shared/api/games.ts';
import type { GameResult, ProfileGame, UserProfile } from '../../shared/api/profiles.ts';
import { Prisma } from '../db/database.ts';
import { notFound } from '../errors.ts';
import { canView, gameInclude, revealsPlayers, toSummary, type LoadedGame } from '../games/lobby.ts';
import type { Attendance, SeatBefore } from '../play/process.ts';
import { playerStatusOnWire } from '../play/phases.ts';
import type { Auth } from '../types.ts';

type Viewer = Auth['user'] | null;
type Seat = LoadedGame['players'][number];

export async function userProfile(app: FastifyInstance, viewer: Viewer, username: string): Promise<UserProfile> {
  const user = await app.prisma.user.findUnique({ where: { usernameKey: username.trim().toLowerCase() }, select: { id: true, username: true, createdAt: true } });
  if (!user) throw notFound(`no player is called "${username}"`);
  const games = await app.prisma.game.findMany({
    where: { status: { not: 'cancelled' }, OR: [{ gameMasterId: user.id }, { players: { some: { userId: user.id } } }] },
    include: gameInclude,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });

  const shown: Array<{ game: LoadedGame; seat: Seat | undefined }> = [];
  for (const game of games) {
    if (!canView(game, viewer)) continue;
    const seat = game.players.find((player) => player.userId === user.id);
    // A seat in an anonymous game is told only where the game's own page would tell it.
    if (seat && viewer?.id !== user.id && !revealsPlayers(game, viewer)) {
      if (game.gameMasterId !== user.id) continue;
      shown.push({ game, seat: undefined });
      continue;
    }
    shown.push({ game, seat });
  }

  const list: ProfileGame[] = shown.map(({ game, seat }) => ({
    game: toSummary(game, viewer),
    role: seat ? 'player' : 'game-master',
    power: seat?.power ?? null,
    playerStatus: seat ? playerStatusOnWire(seat.status) : null,
    result: seat?.power && game.status === 'finished' && game.outcome ? resultOf(game.outcome as GameOutcome, seat.power) : null,
  }));
  const played = list.filter((entry) => entry.role === 'player');
  return {
    user: { id: user.id, username: user.username },
    memberSince: user.createdAt.toISOString(),
    games: list,
    totals: {
      playing: played.filter((entry) => entry.game.status === 'active').length,
      finished: played.filter((entry) => entry.game.status === 'finished').length,
      won: played.filter((entry) => entry.result === 'won').length,
      drawn: played.filter((entry) => entry.result === 'drew').length,
      lost: played.filter((entry) => entry.result === 'lost').length,
      eliminated: played.filter((entry) => entry.playerStatus === 'eliminated').length,
    },
    reliability: await reliability(app, user.id, shown.flatMap(({ game, seat }) => (seat?.power ? [{ gameId: game.id, seatId: seat.id, power: seat.power }] : []))),
  };
}

/** A victory or a concession wins for the powers it names; a draw is shared by those it names; the others lost. */
function resultOf(outcome: GameOutcome, power: string): GameResult {
  if (!outcome.powers.includes(power)) return 'lost';
  return outcome.kind === 'draw' ? 'drew' : 'won';
}

/**
 * The phases processed while this user held the seat (the seat's holder as processing found it) in which its
 * power had to order, and how many of those deadlines passed without the player's orders.
 */
async function reliability(app: FastifyInstance, userId: string, seats: Array<{ gameId: string; seatId: string; power: string }>) {
  if (seats.length === 0) return { phases: 0, missed: 0 };
  const bySeatGame = new Map(seats.map((seat) => [seat.gameId, seat]));
  const phases = await app.prisma.phase.findMany({
    where: { gameId: { in: [...bySeatGame.keys()] }, status: 'processed', attendance: { not: Prisma.DbNull } },
    select: { gameId: true, seatsBefore: true, attendance: true },
  });
  let due = 0;
  let missed = 0;
  for (const phase of phases) {
    const seat = bySeatGame.get(phase.gameId)!;
    const held = ((phase.seatsBefore ?? []) as SeatBefore[]).some((before) => before.id === seat.seatId && before.userId === userId);
    const attendance = phase.attendance as Attendance | null;
    if (!held || !attendance?.due.includes(seat.power)) continue;
    due += 1;
    if (attendance.missed.includes(seat.power)) missed += 1;
  }
  return { phases: due, missed };
}
