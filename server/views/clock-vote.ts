/**
 * The clock votes of a game as a viewer sees them: everyone who may see the game sees them (like the draw votes),
 * ballots by power, with the player's name only where the game shows names (access/policy.ts via the context).
 */
import type { ClockVote, ClockVotes } from '../../shared/api/clock-votes.ts';
import type { Prisma } from '../db/database.ts';
import { shownUser, type GameContext } from '../play/context.ts';
import { viewed } from './viewed.ts';

export type ClockVoteRow = Prisma.ClockVoteGetPayload<{ include: { ballots: true } }>;

/** Why a decided vote failed, as far as its record tells. */
function reasonOf(row: ClockVoteRow): string | null {
  if (row.status !== 'failed' || !row.decidedAt) return null;
  if (row.decidedAt.getTime() >= row.closesAt.getTime()) return 'time ran out before enough powers agreed';
  if (row.ballots.some((ballot) => !ballot.agree)) return 'too many powers disagreed';
  return 'its phase ended, or the clock could no longer change that way';
}

function voteView(context: GameContext, row: ClockVoteRow): ClockVote {
  const seats = new Map(context.game.players.map((seat) => [seat.power, seat.user]));
  return {
    id: row.id,
    kind: row.kind,
    extendSeconds: row.extendSeconds,
    phaseIndex: row.phaseIndex,
    proposedBy: row.proposedByPower,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    closesAt: row.closesAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    reason: reasonOf(row),
    ballots: row.ballots.map((ballot) => ({ power: ballot.power, agree: ballot.agree, user: shownUser(context, seats.get(ballot.power) ?? null) })),
  };
}

/** The open vote, the latest decided ones (newest first), the rule and who votes. */
export function clockVotesView(
  context: GameContext,
  rows: ClockVoteRow[],
  facts: { rule: ClockVotes['rule']; voters: string[]; needed: number; yourPower: string | null },
): ClockVotes {
  const open = rows.find((row) => row.status === 'open');
  return viewed({
    ...facts,
    open: open ? voteView(context, open) : null,
    recent: rows
      .filter((row) => row.status !== 'open')
      .slice(0, 10)
      .map((row) => voteView(context, row)),
  });
}
