/**
 * The states `frozenState` (checked.ts) has validated and deep-frozen. Apart
 * from checked.ts so that the engine can recognise them without importing the
 * schema (zod stays out of the game page's first load).
 */
const frozenStates = new WeakSet<object>();

export function isFrozenState(state: unknown): boolean {
  return typeof state === 'object' && state !== null && frozenStates.has(state);
}

/** Only for `frozenState`, once the state is validated and deep-frozen. */
export function markFrozenState(state: object): void {
  frozenStates.add(state);
}
