/** Positions the web tests order on: the real Diadochi V start, and small ones built for one situation each. */
import { getVariant, initialState, type GameState, type Unit } from '../../shared/index.ts';

export const variant = getVariant('diadochi-v')!;
export const start: GameState = initialState(variant);

/** The start with other units and phase, centres as at the start. */
export function position(units: Unit[], phase: Partial<GameState['phase']> = {}, extra: Partial<GameState> = {}): GameState {
  return { ...start, units, phase: { ...start.phase, ...phase }, ...extra };
}
