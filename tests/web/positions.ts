/** Positions the web tests order on: the real Diadochi V start, and small ones built for one situation each. */
import { getVariant, initialState, type GameState, type Unit } from '../../shared/index.ts';

export const variant = getVariant('diadochi-v')!;
export const start: GameState = initialState(variant);

/** The start with other units and phase, centres as at the start. */
export function position(units: Unit[], phase: Partial<GameState['phase']> = {}, extra: Partial<GameState> = {}): GameState {
  return { ...start, units, phase: { ...start.phase, ...phase }, ...extra };
}

/**
 * Winter 240 BC Adjustment, as a tester reached it: Rome's fleet out of Neapolis and army out of Brundisium,
 * Cisalpine Gaul taken (3 builds, on Nea and Bru), Carthage's army out of Hadrumetum (1 build, on Had).
 */
export const adjustment: GameState = {
  ...start,
  units: start.units.map((u) => (u.at === 'Nea' ? { ...u, at: 'NTY' } : u.at === 'Bru' ? { ...u, at: 'Cis' } : u.at === 'Had' ? { ...u, at: 'Num' } : u)),
  owners: { ...start.owners, Cis: 'Rome' },
  phase: { season: 'winter', year: 240, type: 'adjustment' },
};
