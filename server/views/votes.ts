/**
 * Draw votes and concessions as everyone who may see the game sees them: votes are public, and name powers, never
 * players. The tally, and a vote's record in an export.
 */
import type { ExportedGame } from '../../shared/api/archive.ts';
import type { GameOutcome } from '../../shared/api/games.ts';
import type { Prisma } from '../db/database.ts';
import { viewed } from './viewed.ts';

type VoteRow = Prisma.DrawVoteGetPayload<object>;

/** The survivors, who votes for a draw and who concedes to whom (in the order cast), and the outcome once they agreed. */
export function votesView(survivors: string[], rows: VoteRow[], outcome: GameOutcome | null) {
  return viewed({
    survivors,
    draw: rows.filter((row) => row.kind === 'draw').map((row) => row.power),
    concessions: rows.filter((row) => row.kind === 'concede').map((row) => ({ power: row.power, to: row.powers[0] })),
    outcome,
  });
}

export function voteRecord(row: VoteRow): ExportedGame['votes'][number] {
  return { power: row.power, kind: row.kind, powers: row.powers, phaseIndex: row.phaseIndex };
}
