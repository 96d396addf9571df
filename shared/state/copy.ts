/**
 * The next state made from the last one with the fields a phase changes. Spreading a state (`{ ...state, units }`)
 * is what the code means, but V8 copies objects of the many shapes states arrive in (stored JSON, a new game, the
 * engine's own) on its slow path, property by property. A state with exactly the schema's fields in the schema's
 * order (every state the engine or the schema makes, bar a won game) is copied as one object literal instead: the
 * same keys in the same order, so the same object and the same JSON, and one shape for every state the engine
 * makes.
 */
import type { DislodgedUnit, GameState, Phase, Unit } from './schema.ts';

/** The schema's fields in its order (GameStateSchema), `winners` aside. */
const FIELDS = ['variant', 'phase', 'units', 'dislodged', 'standoffs', 'owners', 'control', 'destroyed', 'rebuilding', 'loans'];

/** Whether `state`'s own keys are exactly `FIELDS`, in that order. */
function inSchemaOrder(state: GameState): boolean {
  const keys = Object.keys(state);
  if (keys.length !== FIELDS.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== FIELDS[i]) return false;
  return true;
}

/**
 * `{ ...state, phase, units, dislodged, standoffs }` with only the fields given (undefined: as they were); fields the
 * state lacks are added in that order, as the spread would.
 */
export function stateWith(state: GameState, phase?: Phase, units?: Unit[], dislodged?: DislodgedUnit[], standoffs?: string[]): GameState {
  if (inSchemaOrder(state))
    return {
      variant: state.variant,
      phase: phase === undefined ? state.phase : phase,
      units: units === undefined ? state.units : units,
      dislodged: dislodged === undefined ? state.dislodged : dislodged,
      standoffs: standoffs === undefined ? state.standoffs : standoffs,
      owners: state.owners,
      control: state.control,
      destroyed: state.destroyed,
      rebuilding: state.rebuilding,
      loans: state.loans,
    };
  const next: GameState = { ...state };
  if (phase !== undefined) next.phase = phase;
  if (units !== undefined) next.units = units;
  if (dislodged !== undefined) next.dislodged = dislodged;
  if (standoffs !== undefined) next.standoffs = standoffs;
  return next;
}

/**
 * The units of a next state, made by copying a template rather than from an object literal. V8 follows each
 * literal's allocation site, and once the objects from one have mostly outlived a young-generation collection (the
 * states a caller keeps: a game's history, a cache, a test's played game) it allocates every later one in the old
 * generation, where those that die young (most next states: stored and dropped) are only reclaimed by full
 * collections. V8 keeps no allocation site for a copy (the spread): it is allocated young. The same keys in the same order as the
 * literal `{ power, type, at }`, so the same JSON.
 */
const UNIT: Unit = { power: '', type: 'army', at: '' };

export function unitOf(power: string, type: Unit['type'], at: string): Unit {
  const u = { ...UNIT };
  u.power = power;
  u.type = type;
  u.at = at;
  return u;
}
