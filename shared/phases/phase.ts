/**
 * What the three kinds of phase have in common: the position they are played from (compiled once), the orders
 * as the engine reads them, and what adjudicating one gives. Each kind is a module of its own (movement/,
 * retreat/, adjustment/) that checks, resolves and explains its orders; game/process.ts and game/check-orders.ts
 * only pick the module of the phase.
 */
import type { Variant } from '../variant/load.ts';
import { boardBytes, compileBoard, type Board } from '../state/board.ts';
import { Tables } from '../state/tables.ts';
import { isFrozenState } from '../state/frozen.ts';
import type { GameState, Unit } from '../state/schema.ts';
import type { Order } from '../orders/types.ts';
import { compileEconomy, economyBytes, type Economy } from '../game/economy.ts';
import { err, ok, type Result } from '../result.ts';
import type { OrderResult } from './results.ts';
import type { PhaseEvent } from './events.ts';

/** A position compiled for the engine: its units as a board, its centres as an economy. */
export interface Position {
  readonly v: Variant;
  readonly state: GameState;
  readonly board: Board;
  readonly eco: Economy;
}

const compiled = new WeakMap<Variant, WeakMap<GameState, Result<Position, string[]>>>();

/**
 * The position of `state`, compiled; once for a frozen state (shared/state/frozen.ts), which cannot change: the
 * server judges every order submission of a phase against one. The board and economy must not be written to
 * (adjudication copies the economy it changes).
 */
export function positionOf(v: Variant, state: GameState): Result<Position, string[]> {
  const frozen = isFrozenState(state);
  const compile = (): Result<Position, string[]> => {
    // One buffer for the board's and the economy's tables (see shared/state/tables.ts), its own when it is cached.
    const tables = new Tables(boardBytes(v, state.units.length) + economyBytes(v), frozen);
    const board = compileBoard(v, state.units, tables);
    if (!board.ok) return err(board.error.map((e) => `state.units: ${e}`));
    const eco = compileEconomy(v, state, tables);
    if (!eco.ok) return err(eco.error.map((e) => `state: ${e}`));
    return ok({ v, state, board: board.value, eco: eco.value });
  };
  if (!frozen) return compile();
  let byState = compiled.get(v);
  if (!byState) compiled.set(v, (byState = new WeakMap()));
  let position = byState.get(state);
  if (!position) byState.set(state, (position = compile()));
  return position;
}

/** An order that could be read, with its power and its canonical text. */
export interface ReadOrder {
  power: number;
  order: Order;
  text: string;
}

export interface PhaseOutcome {
  /** One result per distinct order given, plus one for each unit that had no order. */
  results: OrderResult[];
  /** The next phase to be played (empty retreat and adjustment phases are skipped). */
  next: GameState;
  events: PhaseEvent[];
  /** Dislodged units disbanded at once because they had nowhere to retreat. */
  disbanded: Unit[];
}
