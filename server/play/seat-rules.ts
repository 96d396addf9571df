/**
 * Who may join a game or take a seat in one: a player's record (the deadlines they kept, over every seat they held)
 * against the game's minimums. In the core because the lobby (games/), offered seats (seats/) and players' pages
 * (profiles/) read the same record.
 */
import { Prisma, type Db } from '../db/database.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { forbidden } from '../errors.ts';
import { plural } from '../../shared/text/plural.ts';

/**
 * The phases processed while this user held a seat (its holder as processing found it, whoever holds it now) in
 * which its power had to order, and how many of those deadlines passed without the player's orders. Also what
 * a game's minimum of deadlines kept is judged by (`checkSeatRules`).
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

/**
 * The game's rules for whoever joins it or takes a seat in it: a minimum share of deadlines kept (counted as the
 * players' pages count it, over every seat the user has held) and a minimum of finished games played. 403
 * `seat_rule_unmet` naming the rule and where the user stands. A user with no deadline yet has missed none.
 */
export async function checkSeatRules(
  db: Db,
  game: { minDeadlinesKept: number; minFinishedGames: number },
  user: { id: string },
  doing: 'join this game' | 'take a seat in this game',
): Promise<void> {
  if (game.minFinishedGames > 0) {
    const finished = await db.player.count({ where: { userId: user.id, game: { status: 'finished' } } });
    if (finished < game.minFinishedGames) {
      throw forbidden(
        'seat_rule_unmet',
        `to ${doing} you need at least ${plural(game.minFinishedGames, 'finished game')} (the game's minimum of finished games); you have finished ${finished}`,
      );
    }
  }
  if (game.minDeadlinesKept > 0) {
    const held = await db.game.findMany({
      where: { status: { not: 'cancelled' }, players: { some: { OR: [{ userId: user.id }, { formerUserIds: { has: user.id } }] } } },
      select: { id: true, players: { select: { id: true, power: true } } },
    });
    const { phases, missed } = await reliability(db, user.id, held);
    const kept = phases - missed;
    if (phases > 0 && kept * 100 < game.minDeadlinesKept * phases) {
      throw forbidden(
        'seat_rule_unmet',
        `to ${doing} you need to have kept at least ${game.minDeadlinesKept} % of your deadlines (the game's minimum of deadlines kept); you kept ${kept} of ${phases} (${Math.floor((kept * 100) / phases)} %)`,
      );
    }
  }
}
