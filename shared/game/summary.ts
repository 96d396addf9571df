import { findProvince, type Variant } from '../variant/load.ts';
import { compileBoard } from '../state/board.ts';
import { z } from 'zod';
import { LoanSchema, type GameState } from '../state/schema.ts';
import { compileEconomy, keptSupply, supplyFor, unitCount } from './economy.ts';

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

export function powerSummary(v: Variant, state: GameState): PowerSummary[] {
  const board = compileBoard(v, state.units);
  const eco = compileEconomy(v, state);
  if (!board.ok || !eco.ok) return [];
  return v.powers.map((power, w) => {
    const units = unitCount(board.value, w);
    const supply = supplyFor(v, eco.value, w);
    return {
      power,
      centres: v.centres.filter((c) => eco.value.owner[c] === w).map((c) => v.provinceIds[c]),
      supply,
      units,
      adjustment: supply - units,
      selfSupporting: Math.min(units, keptSupply(v, eco.value, w)),
      loansOut: state.loans.filter((l) => l.from === power),
      loansIn: state.loans.filter((l) => l.to === power && v.rules.holder(eco.value, findProvince(v, l.centre)) === w),
    };
  });
}
