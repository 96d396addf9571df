/**
 * Order submissions as their readers see them: a power's own, to its player, at any time; everyone's once the phase
 * is processed (in an export, and kept with a phase a roll-back discards: access/policy.ts `adjudicationIsPublic`).
 * One shape for all of them: the record (what an export and a discarded phase keep) and, on the API, the record
 * with its id and phase.
 */
import type { PhaseRef } from '../../shared/api/games.ts';
import type { CheckedOrder, OrderSubmission } from '../../shared/api/play.ts';
import type { SubmissionRecord } from '../db/tables/phases.ts';
import type { SubmissionRow } from '../db/tables/submissions.ts';
import { viewed } from './viewed.ts';

/** What a submission is, whichever way it was read (its row, or the fields the order batches insert). */
export type SubmissionFacts = Pick<SubmissionRow, 'power' | 'text' | 'orders' | 'ready' | 'byGameMaster' | 'createdAt'>;

/** A submission as an export and a discarded phase keep it. */
export function submissionRecord(row: SubmissionFacts): SubmissionRecord {
  return {
    power: row.power,
    text: row.text,
    orders: row.orders,
    ready: row.ready,
    byGameMaster: row.byGameMaster,
    submittedAt: row.createdAt.toISOString(),
  };
}

export function submissionView(phaseIndex: number, row: SubmissionFacts & { id: string }): OrderSubmission {
  return { id: row.id, phaseIndex, ...submissionRecord(row) };
}

/** Your power's submissions in a phase, the latest (the one that counts) first. */
export function myOrdersView(phase: PhaseRef, power: string, mustOrder: boolean, rows: Array<SubmissionFacts & { id: string }>) {
  const history = rows.map((row) => submissionView(phase.index, row));
  return viewed({ phase, power, mustOrder, current: history[0] ?? null, history });
}

/** What storing a submission answers: the submission, the engine's verdict on each order, and whether the phase was processed at once. */
export function submittedView(submission: OrderSubmission, checked: CheckedOrder[]) {
  return viewed({ submission, checked, phaseProcessed: false });
}

/** What saying ready (or not) answers. */
export function readyView(power: string, ready: boolean, phaseProcessed: boolean) {
  return viewed({ power, ready, phaseProcessed });
}
