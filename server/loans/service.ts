/**
 * Diadochi V loans through the API. A loan is made or ended on the open
 * phase's position with the engine's lendCentre / endLoanOf (the engine
 * refuses what rule 9 forbids, with its reason, and any change while an
 * adjustment is open, `loansChangeable`); the action is appended to the
 * phase's loan actions, so the phase is adjudicated with it and stays
 * reproducible, and the loans table follows (sync.ts). Loans are public.
 */
import type { FastifyInstance } from 'fastify';
import { endLoanOf, lendCentre, loansChangeable } from '../../shared/index.ts';
import type { LoanAction } from '../../shared/api/play.ts';
import type { Db, Transaction } from '../db/database.ts';
import { conflict, forbidden, notFound, unprocessable } from '../errors.ts';
import { requireActive, requirePower, viewableGame, withLockedGame, type GameContext, type Viewer } from '../play/context.ts';
import { latestPosition, openPhase, positionOf, type PhaseRow } from '../play/phases.ts';
import { phaseValues } from '../db/tables/phases.ts';
import type { Auth } from '../auth/caller.ts';
import { syncLoans } from '../play/loan-sync.ts';
import { loanChangedEvent, loanListView, loanView } from '../views/loan.ts';

export async function listLoans(db: Db, viewer: Viewer, gameId: string) {
  const context = await viewableGame(db, gameId, viewer);
  const current = (await latestPosition(db, context))?.loans ?? [];
  const rows = await db.loan.findMany({ where: { gameId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return loanListView(current, rows);
}

async function record(app: FastifyInstance, tx: Transaction, context: GameContext, phase: PhaseRow, action: LoanAction, reason: string) {
  const actions = [...phase.loanActions, action];
  await tx.phase.update({ where: { id: phase.id }, data: phaseValues({ loanActions: actions }) });
  const position = positionOf(context.variant, { stateBefore: phase.stateBefore, loanActions: actions });
  const changes = await syncLoans(tx, context.game.id, phase.index, position.loans, reason);
  for (const change of changes) await app.bus.publish(tx, `game:${context.game.id}`, loanChangedEvent(context.game.id, change, action.by));
  return changes;
}

function requireLoansPlayable(context: GameContext) {
  requireActive(context);
  const { power, seat } = requirePower(context);
  if (seat.status === 'eliminated') throw conflict('game_not_active', `${power} has been eliminated`);
  return power;
}

export async function createLoan(app: FastifyInstance, user: Auth['user'], gameId: string, body: { centre: string; to: string }) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    const power = requireLoansPlayable(context);
    const phase = await openPhase(tx, gameId);
    const loan = { centre: body.centre, from: power, to: body.to };
    const position = positionOf(context.variant, phase);
    const now = loansChangeable(position);
    if (!now.ok) throw unprocessable('loan_refused', now.error);
    const result = lendCentre(context.variant, position, loan);
    if (!result.ok) throw unprocessable('loan_refused', result.error);
    const changes = await record(app, tx, context, phase, { action: 'lend', ...loan, by: power, at: new Date().toISOString() }, `ended by ${power}`);
    const made = changes.find((change) => change.action === 'lend');
    return loanView(await tx.loan.findUniqueOrThrow({ where: { id: made!.id } }));
  });
}

export async function endLoan(app: FastifyInstance, user: Auth['user'], gameId: string, loanId: string) {
  return withLockedGame(app, gameId, user, async (tx, context) => {
    const power = requireLoansPlayable(context);
    const row = await tx.loan.findFirst({ where: { id: loanId, gameId } });
    if (!row) throw notFound('no loan with that id in this game');
    if (row.status !== 'active') throw conflict('conflict', `that loan has already ended (${row.status})`);
    if (power !== row.lenderPower && power !== row.borrowerPower) {
      throw forbidden('forbidden', `only ${row.lenderPower} or ${row.borrowerPower} can end this loan`);
    }
    const phase = await openPhase(tx, gameId);
    const loan = { centre: row.centre, from: row.lenderPower, to: row.borrowerPower };
    const position = positionOf(context.variant, phase);
    const now = loansChangeable(position);
    if (!now.ok) throw unprocessable('loan_refused', now.error);
    const result = endLoanOf(context.variant, position, loan);
    if (!result.ok) throw unprocessable('loan_refused', result.error);
    await record(app, tx, context, phase, { action: 'end', ...loan, by: power, at: new Date().toISOString() }, `ended by ${power}`);
    return loanView(await tx.loan.findUniqueOrThrow({ where: { id: row.id } }));
  });
}
