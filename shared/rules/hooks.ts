/**
 * The seams through which a variant's own rules change the standard game.
 *
 * The engine's core (shared/game, shared/phases) knows the standard rules
 * only, and calls these hooks wherever a variant may differ: whose supply a
 * centre counts for and how much, where a power may build and how many
 * fleets, orders a variant adds to the movement phase, what happens at the
 * Winter count, and who has won. `standardRules` (standard.ts) is the
 * standard game; each rule of a variant is a module (shared/rules/diadochi/…)
 * that takes the rules before it and changes what it changes, and a variant
 * declares the modules it plays with (shared/rules/index.ts). godip's
 * `common.Variant` is the model: the core is given the variant's functions;
 * it never imports a variant.
 *
 * Only types are imported here, so the core can depend on this file without
 * depending on any variant's rules.
 */
import type { Board } from '../state/board.ts';
import type { GameState } from '../state/schema.ts';
import type { Order } from '../orders/types.ts';
import type { OrderResult } from '../phases/results.ts';
import type { PhaseEvent } from '../phases/events.ts';
import type { MovementOutcome } from '../phases/movement/resolve.ts';
import type { Result } from '../result.ts';
import type { Variant } from '../variant/load.ts';

/**
 * The supply-centre side of a position, in integers. `owner` is the standard game's; the other fields belong to the
 * rules that use them (special build centres, destroyed centres, loans) and stay empty in a variant without them.
 */
export interface Economy {
  /** Owner power index per province (-1: neutral, or not a centre). */
  owner: Int8Array;
  /** Controller of special build centres (rules/diadochi/build-centres.ts). */
  control: Int8Array;
  /** Destroyed supply centres (rules/diadochi/destroy-rebuild.ts). */
  destroyed: Uint8Array;
  /** Loans of centres, each link of a chain (rules/diadochi/loans.ts). */
  loans: { centre: number; from: number; to: number }[];
}

/** A rule's part of the stored state (GameState): read into the economy (naming what is wrong), and written back. */
export interface StatePart {
  read(v: Variant, state: GameState, eco: Economy, problems: string[]): void;
  write(v: Variant, eco: Economy, out: Partial<GameState>): void;
  /** The part in a new game's first position (empty when not given). */
  initial?(v: Variant): Partial<GameState>;
}

/** What a rule that adds movement orders sees after the movement is resolved, for one unit that gave such an order. */
export interface RuledOrderStep {
  readonly v: Variant;
  readonly state: GameState;
  readonly board: Board;
  readonly eco: Economy;
  readonly out: MovementOutcome;
  readonly unit: number;
  readonly order: Order;
  /** The order's result as the resolver explained it (a hold): the rule rewrites it. */
  readonly result: OrderResult;
  readonly events: PhaseEvent[];
}

/** Orders a rule adds to the movement phase: the unit holds, and the rule carries out the order after resolution. */
export interface MovementOrderRule {
  readonly kinds: readonly Order['kind'][];
  /** Whether the order (of one of `kinds`, for the power's own unit `unit`) may be given now, or why not. */
  check(board: Board, eco: Economy, unit: number, order: Order): Result<true>;
  /** Such orders the unit could give now, for order entry. */
  legal(board: Board, eco: Economy, unit: number): Order[];
  /** Carries the order out for a unit that was not dislodged, rewriting its result; `failed` when it was. */
  carryOut(step: RuledOrderStep): void;
  failed(step: RuledOrderStep): void;
  /** After every unit's order is carried out: the rule's part of the state after the phase (e.g. rebuilds under way). */
  after?(step: { v: Variant; state: GameState; next: Partial<GameState>; carried: readonly RuledOrderStep[] }): void;
}

/**
 * A step of the Winter count after the standard captures, in the order the variant lists its rules. `before` is
 * the economy as the count found it.
 */
export type CountStep = (v: Variant, eco: Economy, board: Board, events: PhaseEvent[], before: Readonly<Economy>) => void;

export interface Rules {
  /** The rule modules in force, in order (empty for the standard game). */
  readonly names: readonly string[];
  /** Parts of the stored state that rules add (read and written in this order). */
  readonly stateParts: readonly StatePart[];

  /** The power whose supply a centre counts for (its owner in the standard game), or -1. */
  holder(eco: Economy, centre: number): number;
  /** Whether the centre supplies anyone at all (a destroyed centre does not). */
  supplies(eco: Economy, centre: number): boolean;
  /** What the centre supplies to `holder`. */
  centreSupply(eco: Economy, centre: number, holder: number): number;
  /** Whether the power owns the centre and keeps its supply (has not lent it out). */
  keeps(eco: Economy, centre: number, power: number): boolean;
  /** A centre changed owner (captured, or neutral again): what depended on its owner ends. */
  ownerChanged(eco: Economy, centre: number): void;

  /** Whether the power may build in `province` now; and, when it may not, why not (a sentence). */
  mayBuild(eco: Economy, board: Board, power: number, province: number): boolean;
  buildRefusal(eco: Economy, board: Board, power: number, province: number): string;
  /** Fleets one power may build in one adjustment phase. */
  readonly maxFleetBuilds: number;

  /** Movement orders the variant adds (destroy and rebuild, in Diadochi V). */
  readonly movementOrders: readonly MovementOrderRule[];
  /** The Winter count after the standard captures: further changes of centres (rebels). */
  readonly afterCapture: readonly CountStep[];

  /** When victory is checked: at the Winter count (the standard game), or once the adjustments are made. */
  readonly victoryCheck: 'count' | 'after-adjustments';
  /** The powers that meet the victory condition now. */
  victors(eco: Economy, board: Board): number[];
}

/** A rule of a variant: whether the variant's data declares it, and how it changes the rules before it. */
export interface RuleModule {
  readonly name: string;
  /** One sentence on what it does, for the Game tab and the README. */
  readonly summary: string;
  declaredBy(data: Variant['data']): boolean;
  extend(base: Rules, v: Variant): Rules;
}
