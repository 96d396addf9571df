/**
 * A user's absences as they see them: for each game of theirs, whether their sitter will play the seat there
 * (access/policy.ts `sittingFor` decides when it comes to it). In a game that hides names from them (anonymous,
 * not yet final) nothing says whether the sitter plays in it; elsewhere the reason is given. And the absences
 * in which they sit for someone, with the seats they play meanwhile.
 */
import type { Vacation, VacationList } from '../../shared/api/vacations.ts';
import { VACATION_LIMITS } from '../../shared/api/vacations.ts';
import type { Prisma } from '../db/database.ts';
import type { Auth } from '../auth/caller.ts';
import { revealsNames, type GameFacts } from '../access/policy.ts';
import { viewed } from './viewed.ts';

type User = Auth['user'];
export type VacationRow = Prisma.VacationGetPayload<{ include: { sitter: { select: { id: true; username: true } } } }>;
export type OwnGame = { power: string | null; game: GameFacts & { id: string; name: string } };
type SittingRow = Prisma.VacationGetPayload<{ include: { user: { select: { id: true; username: true } } } }>;

function sitterInGame(user: User, sitter: { id: string; username: string }, { game, power }: OwnGame): Vacation['games'][number] {
  const base = { gameId: game.id, name: game.name, power };
  // The game master is named on every game's page: saying so hides nothing.
  if (game.gameMasterId === sitter.id)
    return { ...base, sitter: 'sitter-runs', note: `${sitter.username} runs this game: a game master sits for no power in it` };
  if (!revealsNames(game, { id: user.id, isAdmin: false }))
    return {
      ...base,
      sitter: 'unless-sitter-plays',
      note: `an anonymous game: ${sitter.username} sits for you unless they play in it (which it does not tell)`,
    };
  const theirs = game.players.find((seat) => seat.userId === sitter.id);
  if (theirs)
    return {
      ...base,
      sitter: 'sitter-plays',
      note: `${sitter.username} plays ${theirs.power ?? 'a seat'} in this game: no sitter here (nobody plays two powers of one game)`,
    };
  return { ...base, sitter: 'sits', note: `${sitter.username} plays ${power ?? 'your seat'} while you are away` };
}

export function vacationListView(
  user: User,
  data: { vacations: VacationRow[]; games: OwnGame[]; sitting: { row: SittingRow; games: OwnGame[] }[]; mostDaysInAYear: number },
): VacationList {
  const { maxDays, maxDaysPerYear, maxUpcoming } = VACATION_LIMITS;
  return viewed({
    vacations: data.vacations.map((row) => ({
      id: row.id,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      sitter: row.sitter,
      createdAt: row.createdAt.toISOString(),
      games: row.sitter ? data.games.map((game) => sitterInGame(user, row.sitter!, game)) : [],
    })),
    // Only the seats the policy lets them take: not where they play or run the game themselves.
    sitting: data.sitting.map(({ row, games }) => ({
      vacationId: row.id,
      for: row.user,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      games: games
        .filter(({ game, power }) => power && game.gameMasterId !== user.id && !game.players.some((seat) => seat.userId === user.id))
        .map(({ game, power }) => ({ gameId: game.id, name: game.name, power: power! })),
    })),
    mostDaysInAYear: data.mostDaysInAYear,
    limits: { maxDays, maxDaysPerYear, maxUpcoming },
  });
}
