import type { GameState } from '../state/schema.ts';

/** A special build centre that changed hands at the end of a phase (rule 5). */
export interface ControlChange {
  province: string;
  from: string | null;
  to: string;
}

/**
 * Special build centres whose controller differs between two positions. Derived from the states rather than
 * recorded as a phase event, so phases adjudicated before it was shown keep reproducing as they were stored.
 */
export function controlChanges(before: GameState, after: GameState): ControlChange[] {
  return Object.entries(after.control)
    .filter(([province, to]) => before.control[province] !== to)
    .map(([province, to]) => ({ province, from: before.control[province] ?? null, to }))
    .sort((a, b) => (a.province < b.province ? -1 : 1));
}
