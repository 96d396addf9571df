import { findProvince, type Variant } from '../variant/load.ts';
import { compileBoard } from '../state/board.ts';
import type { GameState } from '../state/schema.ts';
import type { PowerSummary } from './summary-schema.ts';
import { compileEconomy, keptSupply, supplyFor, unitCount } from './economy.ts';

export type { PowerSummary };

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
