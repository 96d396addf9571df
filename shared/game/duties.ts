import { findPower, type Variant } from '../variant/load.ts';
import { compileBoard } from '../state/board.ts';
import type { GameState } from '../state/schema.ts';
import { compileEconomy, buildSites, supplyFor, unitCount } from './economy.ts';

/**
 * Which powers have orders to give in this phase: in movement, those with
 * units; in retreats, those with dislodged units; in adjustments, those with
 * a removal to make or a build they could place. A deadline waits only for
 * these, and only these can miss it.
 */
export function powersToOrder(v: Variant, state: GameState): string[] {
  if (state.winners) return [];
  const out = new Set<string>();
  if (state.phase.type === 'movement') for (const u of state.units) out.add(u.power);
  else if (state.phase.type === 'retreat') for (const d of state.dislodged) out.add(d.power);
  else {
    const board = compileBoard(v, state.units);
    const eco = compileEconomy(v, state);
    if (!board.ok || !eco.ok) return [];
    for (let w = 0; w < v.powers.length; w++) {
      const diff = supplyFor(v, eco.value, w) - unitCount(board.value, w);
      if (diff < 0 || (diff > 0 && buildSites(v, eco.value, board.value, w).length > 0)) out.add(v.powers[w]);
    }
  }
  return v.powers.filter((p) => out.has(p));
}

/** Powers still in the game: with a unit or a centre. The others are eliminated. */
export function survivors(v: Variant, state: GameState): string[] {
  const alive = new Set<string>(state.units.map((u) => u.power));
  for (const w of Object.values(state.owners)) alive.add(w);
  return v.powers.filter((p) => alive.has(p) && findPower(v, p) >= 0);
}
