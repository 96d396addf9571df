/**
 * The loans table mirrors the engine: after anything that changes the loans of
 * the open phase's position (a loan made or ended, a phase processed — a
 * capture ends loans —, a roll-back, an import), `syncLoans` makes the active
 * rows exactly the links of that position. The rows are the history; the
 * engine's state is the truth.
 */
import type { Loan } from '../../shared/index.ts';
import type { Transaction } from '../db/database.ts';

const key = (loan: { centre: string; from: string; to: string }) => `${loan.centre}\u0000${loan.from}\u0000${loan.to}`;

export type LoanChange = { action: 'lend' | 'end'; centre: string; lender: string; borrower: string; id: string };

export async function syncLoans(
  tx: Transaction,
  gameId: string,
  phaseIndex: number,
  links: readonly Loan[],
  endReason: string,
  endStatus: 'returned' | 'cancelled' = 'returned',
): Promise<LoanChange[]> {
  const active = await tx.loan.findMany({ where: { gameId, status: 'active' }, orderBy: { createdAt: 'asc' } });
  const wanted = new Set(links.map(key));
  const changes: LoanChange[] = [];
  const kept = new Set<string>();
  for (const row of active) {
    const k = key({ centre: row.centre, from: row.lenderPower, to: row.borrowerPower });
    if (wanted.has(k) && !kept.has(k)) {
      kept.add(k);
      continue;
    }
    await tx.loan.update({ where: { id: row.id }, data: { status: endStatus, endedInPhase: phaseIndex, endReason } });
    changes.push({ action: 'end', centre: row.centre, lender: row.lenderPower, borrower: row.borrowerPower, id: row.id });
  }
  for (const link of links) {
    if (kept.has(key(link))) continue;
    kept.add(key(link));
    const row = await tx.loan.create({
      data: { gameId, lenderPower: link.from, borrowerPower: link.to, centre: link.centre, startedInPhase: phaseIndex },
    });
    changes.push({ action: 'lend', centre: link.centre, lender: link.from, borrower: link.to, id: row.id });
  }
  return changes;
}
