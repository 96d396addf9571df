/**
 * The schema of a power's standing (the supply table), apart from the code that computes it (summary.ts), so
 * that what computes it in the browser (the sandbox, the board) does not bring zod with it.
 */
import { z } from 'zod';
import { LoanSchema } from '../state/schema.ts';

/** A power's standing, as the supply table shows it. */
export const PowerSummarySchema = z.object({
  power: z.string(),
  /** Centres it owns (lent out or not). */
  centres: z.array(z.string()).describe('Centres it owns (lent out or not)'),
  /** Units its held centres support now: owned and not lent out, plus borrowed; destroyed centres give nothing. */
  supply: z.number().int().describe('Units its held centres support now (owned and not lent out, plus borrowed)'),
  units: z.number().int(),
  /** Builds (positive) or removals (negative) if the adjustment were now. */
  adjustment: z.number().int().describe('Builds (positive) or removals (negative) if the adjustment were now'),
  /** Units covered by supply from its own centres not lent out: the count towards victory in Diadochi V. */
  selfSupporting: z.number().int().describe('Units covered by its own centres not lent out (Diadochi V victory count)'),
  loansOut: z.array(LoanSchema),
  loansIn: z.array(LoanSchema),
});
export type PowerSummary = z.infer<typeof PowerSummarySchema>;
