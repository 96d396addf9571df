import { findPower, findProvince, type Variant } from '../variant/load.ts';
import { compileBoard } from '../state/board.ts';
import { z } from 'zod';
import { LoanSchema, type GameState, type Loan } from '../state/schema.ts';
import { compileEconomy, economyToState, endLoan, holderOf, lend, ownSupply, supplyFor, unitCount } from './economy.ts';
import { err, ok, type Result } from '../result.ts';

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
      selfSupporting: Math.min(units, ownSupply(v, eco.value, w)),
      loansOut: state.loans.filter((l) => l.from === power),
      loansIn: state.loans.filter((l) => l.to === power && holderOf(eco.value, findProvince(v, l.centre)) === w),
    };
  });
}

/**
 * Whether loans may be made or ended in this phase: not during an adjustment. It counts the loans as they
 * stood when it opened (rule 9: a loan counts from the next adjustment, and the borrower of an ended one has
 * until then to find other support), so the builds and removals being ordered do not change under the players.
 */
export function loansChangeable(state: GameState): Result<true> {
  return state.phase.type === 'adjustment'
    ? err('Loans are not made or ended during an adjustment, which counts them as they stood when it opened; wait for the next phase.')
    : ok(true);
}

/** Lend a centre now; it counts from the next adjustment (Diadochi V rule 9). */
export function lendCentre(v: Variant, state: GameState, loan: Loan): Result<GameState> {
  const board = compileBoard(v, state.units);
  const eco = compileEconomy(v, state);
  if (!board.ok || !eco.ok) return err('The game state is invalid.');
  const centre = findProvince(v, loan.centre);
  const from = findPower(v, loan.from);
  const to = findPower(v, loan.to);
  if (centre < 0) return err(`"${loan.centre}" is not a province on this map.`);
  if (from < 0 || to < 0) return err(`"${from < 0 ? loan.from : loan.to}" is not a power in this game.`);
  const r = lend(v, eco.value, board.value, centre, from, to, state.dislodged.filter((u) => u.power === loan.from).length);
  if (!r.ok) return r;
  return ok({ ...state, ...economyToState(v, r.value) });
}

/** End a loan (either side may); any onward loan of the same centre ends with it. */
export function endLoanOf(v: Variant, state: GameState, loan: Loan): Result<GameState> {
  const eco = compileEconomy(v, state);
  if (!eco.ok) return err('The game state is invalid.');
  const centre = findProvince(v, loan.centre);
  const from = findPower(v, loan.from);
  const to = findPower(v, loan.to);
  if (centre < 0 || from < 0 || to < 0) return err('That loan does not exist.');
  const r = endLoan(v, eco.value, centre, from, to);
  if (!r.ok) return r;
  return ok({ ...state, ...economyToState(v, r.value) });
}

