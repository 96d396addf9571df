/**
 * Loans as everyone who may see the game sees them: loans are public (they change the supply table everyone sees),
 * and name powers, never players. The list, a loan, its record in an export, and the live event of a change.
 */
import type { Loan } from '../../shared/index.ts';
import type { ExportedGame } from '../../shared/api/archive.ts';
import type { LiveEvent } from '../../shared/api/live.ts';
import type { LoanRecord } from '../../shared/api/loans.ts';
import type { Prisma } from '../db/database.ts';
import type { LoanChange } from '../play/loan-sync.ts';
import { viewed } from './viewed.ts';

type LoanRow = Prisma.LoanGetPayload<object>;

/** A loan in an export: as the API shows it, without this server's id. */
export function loanRecord(row: LoanRow): ExportedGame['loans'][number] {
  return {
    centre: row.centre,
    lender: row.lenderPower,
    borrower: row.borrowerPower,
    status: row.status,
    startedInPhase: row.startedInPhase,
    endedInPhase: row.endedInPhase,
    endReason: row.endReason,
    createdAt: row.createdAt.toISOString(),
  };
}

export function loanView(row: LoanRow): LoanRecord {
  return viewed({ id: row.id, ...loanRecord(row) });
}

/** The links in force in the current position (the engine's), and every loan of the game, newest first. */
export function loanListView(current: readonly Loan[], rows: LoanRow[]) {
  return viewed({ current: [...current], loans: rows.map(loanView) });
}

/** A loan made or ended (`by`: the power that acted; null when processing ended it). */
export function loanChangedEvent(gameId: string, change: LoanChange, by: string | null): Extract<LiveEvent, { type: 'loan.changed' }> {
  return { type: 'loan.changed', gameId, action: change.action, centre: change.centre, lender: change.lender, borrower: change.borrower, by };
}
