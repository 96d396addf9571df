/**
 * Diadochi V loans (rule 9): a power lends a centre it holds to another, at any
 * time; either side may end a loan. Every change counts at the next adjustment.
 * Loans are public: they change the supply table everyone sees.
 */
import { z } from 'zod';
import { IdSchema, TimestampSchema } from './common.ts';
import { PowerIdSchema } from './games.ts';
import { LoanSchema } from './play.ts';

export const CreateLoanRequestSchema = z
  .object({
    centre: z.string().trim().min(1, 'is required').max(16).describe('Province id of the centre, e.g. "Gad"'),
    to: PowerIdSchema.describe('The borrower'),
  })
  .meta({ id: 'CreateLoanRequest' });

export const LoanRecordSchema = z
  .object({
    id: IdSchema,
    centre: z.string(),
    lender: z.string(),
    borrower: z.string(),
    status: z.enum(['active', 'returned', 'cancelled']),
    startedInPhase: z.number().int(),
    endedInPhase: z.number().int().nullable(),
    endReason: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'LoanRecord' });
export type LoanRecord = z.infer<typeof LoanRecordSchema>;

export const LoanListSchema = z
  .object({
    /** The links in force in the open phase's position (the engine's view). */
    current: z.array(LoanSchema),
    /** Every loan of the game, newest first. */
    loans: z.array(LoanRecordSchema),
  })
  .meta({ id: 'LoanList' });

export const LoanParamsSchema = z.object({ gameId: IdSchema, loanId: IdSchema });
