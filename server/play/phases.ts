/**
 * Phases as stored, and the engine's view of them. A phase row keeps the
 * state it opened with (`stateBefore`) and the loan actions taken during it;
 * the position it is adjudicated from is stateBefore with those actions
 * applied by the engine (lendCentre / endLoanOf), in order. Rows are read
 * through their repositories (db/tables/), which parse their JSON columns;
 * what a viewer sees of a phase is views/phase.ts.
 */
import { endLoanOf, frozenState, lendCentre, type GameState, type Variant } from '../../shared/index.ts';
import type { LoanAction } from '../../shared/api/play.ts';
import type { Db } from '../db/database.ts';
import { phaseOf, type PhaseRow, type StoredOrder } from '../db/tables/phases.ts';
import { submissionOf, type SubmissionRow } from '../db/tables/submissions.ts';
import { conflict, notFound } from '../errors.ts';

export type { PhaseRow, StoredOrder, SubmissionRow };

/** A state from outside the database (an import), validated once and frozen: the engine takes it without validating it again. */
export function parseState(json: unknown): GameState {
  return frozenState(json);
}

/** Applies loan actions with the engine; a refusal means the stored data is corrupt (they were checked when taken). */
export function applyLoanActions(variant: Variant, state: GameState, actions: readonly LoanAction[]): GameState {
  let current = state;
  for (const action of actions) {
    const loan = { centre: action.centre, from: action.from, to: action.to };
    const result = action.action === 'lend' ? lendCentre(variant, current, loan) : endLoanOf(variant, current, loan);
    if (!result.ok) throw new Error(`stored loan action ${JSON.stringify(action)} is refused by the engine: ${result.error}`);
    current = result.value;
  }
  return current;
}

/** The position the phase is (or was) adjudicated from. */
export function positionOf(variant: Variant, phase: { stateBefore: GameState; loanActions: readonly LoanAction[] }): GameState {
  return applyLoanActions(variant, phase.stateBefore, phase.loanActions);
}

/** The position of the game's last phase (the one being played, or the one it ended in); null before it has started. */
export async function latestPosition(db: Db, context: { game: { id: string }; variant: Variant }): Promise<GameState | null> {
  const last = phaseOf(
    await db.phase.findFirst({ where: { gameId: context.game.id }, orderBy: { index: 'desc' }, select: { id: true, stateBefore: true, loanActions: true } }),
  );
  return last && positionOf(context.variant, last);
}

/** The game's open phase; 409 when there is none (the game is not being played). */
export async function openPhase(db: Db, gameId: string): Promise<PhaseRow> {
  const phase = phaseOf(await db.phase.findFirst({ where: { gameId, status: 'open' }, orderBy: { index: 'desc' } }));
  if (!phase) throw conflict('phase_closed', 'no phase is open for orders in this game');
  return phase;
}

/** The open phase, which must be the one the request names (orders for a past phase are refused). */
export async function openPhaseNamed(db: Db, gameId: string, index: number): Promise<PhaseRow> {
  return requireOpenPhase(phaseOf(await db.phase.findUnique({ where: { gameId_index: { gameId, index } } })), index);
}

/** The phase a request names (already read), which must exist (404) and be open (409 phase_closed). */
export function requireOpenPhase<P extends Pick<PhaseRow, 'status' | 'name'>>(phase: P | null | undefined, index: number): P {
  if (!phase) throw notFound(`no phase ${index} in this game`);
  if (phase.status === 'held') throw conflict('phase_closed', `phase ${index} (${phase.name}) awaits its sea battles: its orders are final`);
  if (phase.status !== 'open') throw conflict('phase_closed', `phase ${index} (${phase.name}) has been processed; it takes no more orders`);
  return phase;
}

/** The latest submission of each power in a phase: the last stored (`seq`, the order they were acknowledged in). */
export async function latestSubmissions(db: Db, phaseId: string): Promise<Map<string, SubmissionRow>> {
  const rows = await db.orderSubmission.findMany({ where: { phaseId }, orderBy: { seq: 'desc' } });
  const latest = new Map<string, SubmissionRow>();
  // Only the ones that count are parsed: a power that submitted many times has its earlier ones read but not used.
  for (const row of rows) if (!latest.has(row.power)) latest.set(row.power, submissionOf(row));
  return latest;
}

/** The orders that count: each power's latest submission, accepted orders only (what the player was told counts). */
export function ordersToAdjudicate(latest: Map<string, SubmissionRow>): StoredOrder[] {
  const orders: StoredOrder[] = [];
  for (const [power, submission] of [...latest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const accepted of submission.orders) orders.push({ power, order: accepted.order });
  }
  return orders;
}
