/**
 * What every naval battle ruleset is to the rest of the product: a battle state, who must act now, the legal
 * actions of a side, `apply` (state, action, dice → state and log), the outcome, and what each side may see.
 *
 * Engines are pure and deterministic: everything random comes from the dice they are handed, so a battle
 * replays exactly from its set-up, its seed and its actions (replay.ts). States are plain JSON.
 */
import type { z } from 'zod';
import type { Dice, Roll } from './dice.ts';
import type { Facing, Hex } from './hex.ts';
import type { Sea } from './sea.ts';

export type RulesetId = 'classis' | 'ship-to-ship' | 'diadochi-naval' | 'oi-navarcoi';

/** A side of a battle: its id in the set-up ("a", "b") and its name ("Antigonus"). */
export interface SideInfo {
  readonly id: string;
  readonly name: string;
}

/** One line of a battle's log: what happened, in words with the numbers, and the dice and table row behind it. */
export interface LogLine {
  readonly text: string;
  readonly rolls: readonly Roll[];
  /** The table and row it was read from ("Ram results", "-3 or -2: crippled"). */
  readonly table?: { readonly name: string; readonly row: string };
}

/** Who must act now. */
export type Turn =
  /** One side acts; the others wait. */
  | { readonly kind: 'side'; readonly side: string; readonly prompt: string }
  /** Every side listed acts, in secret, before anything is resolved (plotting); `waiting` have not yet. */
  | { readonly kind: 'simultaneous'; readonly sides: readonly string[]; readonly waiting: readonly string[]; readonly prompt: string }
  | { readonly kind: 'over' };

export interface Outcome {
  /** The winning side, or null for a battle nobody won. */
  readonly winner: string | null;
  readonly reason: string;
}

/** A refused action, with a code a client can act on and a sentence saying why. */
export interface Refusal {
  readonly code: string;
  readonly message: string;
}

/** What `apply` gives back. */
export type Applied<S> = { ok: true; state: S; log: LogLine[] } | { ok: false; error: Refusal };

/** A ship as the board draws it, whatever the ruleset. */
export interface Counter {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly type: string;
  readonly hex: Hex;
  readonly facing: Facing;
  /** Short marks for its state: "crippled", "grappled", "2 holes", "captured", "green", "expert", "flagship", … */
  readonly marks: readonly string[];
  readonly squadron?: string;
  readonly flagship?: boolean;
  /** Gone from the board (sunk: its wreck stays where it sank if the ruleset keeps wrecks). */
  readonly sunk?: boolean;
}

/** The board at one moment: the sea, the ships, the wrecks. */
export interface BoardView {
  readonly sea: Sea;
  readonly counters: readonly Counter[];
  readonly wrecks: readonly Hex[];
  /** Where the wind blows from, if the battle uses wind. */
  readonly wind?: Facing;
}

export interface Ruleset<Setup, State, Action> {
  readonly id: RulesetId;
  readonly title: string;
  /** The battle's set-up as a client sends it and a scenario file holds it. */
  readonly setupSchema: z.ZodType<Setup>;
  readonly actionSchema: z.ZodType<Action>;
  readonly stateSchema: z.ZodType<State>;
  /** The sides a set-up names. */
  sides(setup: Setup): SideInfo[];
  /** The battle's first state; rolls what the set-up leaves to the dice (crews, commanders, wind). */
  start(setup: Setup, dice: Dice): { state: State; log: LogLine[] };
  turn(state: State): Turn;
  /**
   * Every action `side` may take now. Where an action moves several ships at once (a squadron's move in
   * Classis, a turn's plot in the ship-to-ship rules), the list holds each ship's choices and `check`
   * accepts any combination of them that is legal together.
   */
  legalActions(state: State, side: string): Action[];
  /** Whether `side` may take `action` now, and if not why. */
  check(state: State, side: string, action: Action): Refusal | null;
  /** Takes the action (checked first: an illegal one is refused and changes nothing). */
  apply(state: State, side: string, action: Action, dice: Dice): Applied<State>;
  outcome(state: State): Outcome | null;
  /** The state as `viewer` may see it (null: an onlooker, or an umpire when `umpire`): the other side's secret plots gone. */
  redact(state: State, viewer: string | null): State;
  /** The board, for drawing. */
  board(state: State): BoardView;
  /** An action in words, for the log and the buttons ("Nike rams Leon"). */
  describe(state: State, action: Action): string;
  /**
   * What decision the battle waits for, for the clock: a deadline runs from when a decision falls due until it is
   * taken, and a new one starts when this text changes (a Classis activation; a turn's plotting).
   */
  decision(state: State): string;
  /** The computer opponent, which plays a side alone or fills an absent one. */
  readonly opponent: Opponent<State, Action>;
}

/** Any ruleset, as the registry and the server hold them. */
// biome-ignore lint/suspicious/noExplicitAny: a registry of rulesets of different state and action types
export type AnyRuleset = Ruleset<any, any, any>;

/** A computer opponent: picks one of `side`'s legal actions; `random` (from 0 to 1) is its own, never the battle's dice. */
export type Opponent<State, Action> = (state: State, side: string, random: () => number) => Action;
