import { deepFreeze } from '../freeze.ts';
import { isFrozenState, markFrozenState } from './frozen.ts';
import { GameStateSchema, type GameState } from './schema.ts';

/**
 * The engine's entry points validate the state they are given, which copies
 * and walks all of it. A caller that reads one stored state and asks many
 * questions of it (the server judges every order submission against the
 * phase's position) would pay that on each call. A state frozen by
 * `frozenState` has been validated once and can no longer change, so the
 * entry points take it as it is.
 */
/** Validates `input` (defaults filled in), or takes it as it is when it came from `frozenState`. */
export function readState(input: unknown): ReturnType<typeof GameStateSchema.safeParse> {
  if (isFrozenState(input)) return { success: true, data: input as GameState };
  return GameStateSchema.safeParse(input);
}

/** `state`, validated, deep-frozen (mutating it throws) and recognised by every engine entry point. */
export function frozenState(input: unknown): GameState {
  const state = readState(input);
  if (!state.success) throw state.error;
  if (!isFrozenState(state.data)) {
    deepFreeze(state.data);
    markFrozenState(state.data);
  }
  return state.data;
}
