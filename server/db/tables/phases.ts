/**
 * The `phases` and `discarded_phases` tables: one shape, PhaseRecord, read from either. A phase keeps the position
 * it opened with and the loan actions taken during it; once processed, what the engine made of it (the orders
 * adjudicated, results, events, disbanded units, the position after) and, for the live table, the seats as
 * processing found them and the deadlines kept. A discarded phase (a roll-back's) keeps its submissions too, and
 * was processed when it has a `processedAt`.
 *
 * Positions are large: they are parsed once, where the row is read, by the engine's `frozenState` (validated,
 * deep-frozen, and then taken by every engine entry point without being validated again, shared/state/checked.ts).
 * Queries that need no position select none (see `PHASE_HEADER`).
 */
import { z } from 'zod';
import { frozenState, OrderResultSchema, OrderSchema, PhaseEventSchema, UnitSchema } from '../../../shared/index.ts';
import { ExportEncoding } from '../../../shared/api/archive.ts';
import { LoanActionSchema } from '../../../shared/api/play.ts';
import type { Prisma } from '../database.ts';
import { nullable, parser, storedRows, storedValues, type Parsed } from './stored.ts';

/** What the engine adjudicated: its SubmittedOrder with the structured order. */
export const StoredOrderSchema = z.object({ power: z.string(), order: OrderSchema });
export type StoredOrder = z.output<typeof StoredOrderSchema>;

/** A seat as processing found it (phases.seats_before): what a roll-back to that phase gives back. */
export const SeatBeforeSchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  missedDeadlines: z.number().int(),
  status: z.enum(['active', 'civil_disorder', 'eliminated']),
});
export type SeatBefore = z.output<typeof SeatBeforeSchema>;

/**
 * Deadlines kept in a phase (phases.attendance): `due`, the powers that had to order, but those the game master
 * alone ordered for; `missed`, those of them whose players sent none before the deadline passed.
 */
export const AttendanceSchema = z.object({ due: z.array(z.string()), missed: z.array(z.string()) });
export type Attendance = z.output<typeof AttendanceSchema>;

/** A submission as a discarded phase (and an export) keeps it. */
export type SubmissionRecord = z.output<typeof ExportEncoding.submission>;

/** The JSON columns both tables share. */
const recordColumns = {
  stateBefore: frozenState,
  loanActions: parser(z.array(LoanActionSchema)),
  orders: nullable(parser(z.array(StoredOrderSchema))),
  results: nullable(parser(z.array(OrderResultSchema))),
  events: nullable(parser(z.array(PhaseEventSchema))),
  disbanded: nullable(parser(z.array(UnitSchema))),
  stateAfter: nullable(frozenState),
};

const phaseColumns = {
  ...recordColumns,
  seatsBefore: nullable(parser(z.array(SeatBeforeSchema))),
  attendance: nullable(parser(AttendanceSchema)),
};
const discardedColumns = { ...recordColumns, submissions: parser(z.array(ExportEncoding.submission)) };
/** What each JSON column holds: what its parser reads, and what is written to it. */
type Held<C extends Record<string, (stored: unknown) => unknown>> = { [K in keyof C]: ReturnType<C[K]> };

/** A row of `phases` (of any selection with its id), its JSON columns parsed. */
export const phaseOf = storedRows('phases', phaseColumns);
const discardedRowOf = storedRows('discarded_phases', discardedColumns);

/** The writers of the JSON columns, typed as they are read. */
export const phaseValues = storedValues<Held<typeof phaseColumns>>();
export const discardedPhaseValues = storedValues<Held<typeof discardedColumns>>();

export type PhaseRow = Parsed<Prisma.PhaseGetPayload<object>, typeof phaseColumns>;

/** A phase, from either table. */
export type PhaseRecord = Pick<
  PhaseRow,
  | 'id'
  | 'gameId'
  | 'index'
  | 'name'
  | 'kind'
  | 'status'
  | 'deadlineAt'
  | 'processedAt'
  | 'engineVersion'
  | 'stateBefore'
  | 'loanActions'
  | 'orders'
  | 'results'
  | 'events'
  | 'disbanded'
  | 'stateAfter'
>;

export type DiscardedPhase = PhaseRecord & { gmActionId: string; discardedAt: Date; submissions: SubmissionRecord[] };

/** A row of `discarded_phases` as a phase: processed when it was (its `processedAt`), open otherwise. */
export function discardedPhaseOf(row: Prisma.DiscardedPhaseGetPayload<object>): DiscardedPhase {
  const parsed = discardedRowOf(row);
  return { ...parsed, status: parsed.processedAt ? 'processed' : 'open' };
}

/** A phase's fields without its positions and records: for lists, references, and lookups that need no position. */
export const PHASE_HEADER = {
  id: true,
  gameId: true,
  index: true,
  name: true,
  kind: true,
  status: true,
  deadlineAt: true,
  processedAt: true,
  engineVersion: true,
} as const satisfies Prisma.PhaseSelect;
