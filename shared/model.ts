/**
 * The engine's compiled model of a game: a variant (its map as integer
 * tables, with the rules it plays with), a board (its units), an economy (its
 * centres), and the hooks through which a variant's own rules change the
 * standard game.
 *
 * The hooks are the seams the engine's core (shared/game, shared/phases)
 * calls wherever a variant may differ: whose supply a centre counts for and
 * how much, where a power may build and how many fleets, orders a variant
 * adds to the movement phase, what happens at the Winter count, and who has
 * won. The standard game is shared/rules/standard.ts; each rule of a variant
 * is a module (shared/rules/diadochi/…) that takes the rules before it and
 * changes what it changes, and a variant declares the modules it plays with in
 * its data (shared/rules/index.ts). godip's `common.Variant` is the model: the
 * core is given the variant's functions; it never imports a variant.
 *
 * Types only, in one module: a variant holds its rules, and the rules take
 * variants and boards, so these types name each other.
 */
import type { ParsedMapData } from './variant/schema.ts';
import type { RuleOptions } from './variant/options.ts';
import type { GameState } from './state/schema.ts';
import type { Order } from './orders/types.ts';
import type { OrderResult } from './phases/results.ts';
import type { PhaseEvent } from './phases/events.ts';
import type { Result } from './result.ts';

/**
 * A loaded variant: the map data compiled into integer tables.
 *
 * Provinces are numbered 0..P-1 in data order. Locations (where a unit can
 * stand) are numbered so that location p is province p itself; named coasts
 * follow from P upwards. Adjacency is kept both as lists (to iterate) and as
 * flat matrices (to test in O(1)) since maps are small.
 */
export interface Variant {
  readonly id: string;
  readonly name: string;
  readonly data: ParsedMapData;
  readonly options: RuleOptions;
  /** The rules the variant plays with: the standard game and the rule modules its data declares (shared/rules/). */
  readonly rules: Rules;

  readonly powers: readonly string[];
  readonly powerAbbreviations: readonly string[];

  readonly provinceCount: number;
  readonly provinceIds: readonly string[];
  readonly provinceNames: readonly string[];
  readonly provinceKind: Uint8Array;

  readonly locationCount: number;
  readonly locationIds: readonly string[];
  /** Province of each location. */
  readonly locationProvince: Int16Array;
  /** Coast locations of each province (empty when it has no named coasts). */
  readonly coasts: readonly (readonly number[])[];

  /** Army moves, province to province. */
  readonly armyAdjacent: readonly (readonly number[])[];
  readonly armyMatrix: Uint8Array;
  /** Fleet moves, location to location. */
  readonly fleetAdjacent: readonly (readonly number[])[];
  readonly fleetMatrix: Uint8Array;
  /** Province to province, for any unit type, ignoring coasts: used for supports and distances. */
  readonly anyMatrix: Uint8Array;

  readonly isCentre: Uint8Array;
  /** Supply of a centre for a given power index (0 for non-centres). Row-major [province * powers + power]. */
  readonly supplyTable: Uint8Array;
  readonly isBuildCentre: Uint8Array;
  readonly isRebel: Uint8Array;
  readonly isIndestructible: Uint8Array;
  /** Power index whose home centre this is, or -1. */
  readonly homeOf: Int8Array;
  readonly centres: readonly number[];

  /** Case-insensitive lookups. */
  readonly provinceByName: ReadonlyMap<string, number>;
  /** Exact location ids (`spa/nc`), the fast path of findLocation. */
  readonly locationById: ReadonlyMap<string, number>;
  readonly powerByName: ReadonlyMap<string, number>;
}

/**
 * Units compiled into integer arrays for the engine's hot paths. Built once
 * per phase from the JSON units; never mutated after construction.
 */
export interface Board {
  readonly variant: Variant;
  readonly count: number;
  readonly province: Int16Array;
  readonly location: Int16Array;
  readonly power: Int8Array;
  readonly type: Uint8Array;
  /** Unit index standing in each province, or -1. */
  readonly unitAt: Int16Array;
}

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
