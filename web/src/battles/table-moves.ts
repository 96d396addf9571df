/**
 * A move on the measured table as the board plans it, the same for both table rulesets: what may move (a ship, a
 * group of ships, a squadron), the kinds of move it has (each a few numbers: a turn or wheel, a distance, a turn
 * after), the action those numbers make, and where the engine puts the bases, or its reason for refusing. A drag
 * of the ghost and a turn of its handle only set the numbers, so the numeric entry and the drag are the same
 * move; the engine decides every time (its `check`, and its own plan for where the bases end).
 */
import type { Base, Point } from '../../../shared/naval/table/index.ts';
import { headingOf, normalizeHeading, sub, turnBetween } from '../../../shared/naval/table/index.ts';

/** The numbers of a move: what each means depends on the kind (see `MoveKind.fields`). */
export interface MoveNumbers {
  /** Degrees, + to starboard: the turn before the run, the wheel, the slant, or the new heading's offset. */
  readonly turn: number;
  /** The run, in the table's unit. */
  readonly distance: number;
  /** Degrees turned at the end of the run (a single ship), or the run before a column's turn. */
  readonly after: number;
}

export const NO_MOVE: MoveNumbers = { turn: 0, distance: 0, after: 0 };

export interface MoveField {
  readonly key: keyof MoveNumbers;
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/** One kind of move a mover has ("Turn, then ahead", "Wheel, then ahead", "Back water"). */
export interface MoveKind {
  readonly id: string;
  readonly label: string;
  readonly fields: readonly MoveField[];
  /** What the drag sets: a turn toward the pointer and the run to it (`toward`), or only the run back (`back`). */
  readonly drag: 'toward' | 'back';
  /** What the handle sets: the turn after the run, or the turn (wheel) itself. */
  readonly handle: 'after' | 'turn' | null;
  /** The allowance this kind of move is measured against. */
  readonly allowance: number;
}

/** Where the engine puts the bases for a move, or why it will not. */
export interface Planned {
  readonly action: unknown;
  /** Where each base ends: the engine's own plan when legal; the plain geometry of the numbers when refused. */
  readonly bases: readonly Base[];
  readonly refusal: string | null;
  /** The allowance used, as the rules measure it. */
  readonly used: number;
  /** The enemy the run comes into contact with, when the move is an attack on it (Oi Navarcoi!). */
  readonly target?: { readonly id: string; readonly name: string } | null;
  /**
   * A diekplous or periplous: where the attacker ends if only it passes its test (the dashed outline) and the way
   * it goes there from the contact, with the four outcomes in words.
   */
  readonly outcome?: { readonly bases: readonly Base[]; readonly path: readonly Point[]; readonly words: string } | null;
}

/** The ways an attack may be made (Oi Navarcoi!): a plain melee, or the two manoeuvres. */
export const MANOEUVRES = ['melee', 'diekplous', 'periplous'] as const;
export type Manoeuvre = (typeof MANOEUVRES)[number];

export interface Mover {
  /** Its key on the board (a ship's or squadron's id, or a group's ids joined). */
  readonly key: string;
  readonly name: string;
  /** The pieces on the board it moves (ship or squadron ids). */
  readonly pieces: readonly string[];
  readonly bases: readonly Base[];
  /** Where a drag is measured from: the middle of its bases, and its heading. */
  readonly anchor: Point;
  readonly heading: number;
  readonly kinds: readonly MoveKind[];
  /** The move's plan; a run into an enemy is an attack made as `manoeuvre` (a plain melee unless said). */
  plan(kind: string, numbers: MoveNumbers, manoeuvre?: Manoeuvre): Planned;
  /**
   * The enemies it may attack now (the engine's legal attacks), and the move that attacks one as `manoeuvre` (or
   * else in a plain melee): its kind and numbers. Absent where a ruleset declares no attacks in the move.
   */
  readonly targets?: readonly string[];
  aim?(target: string, manoeuvre: Manoeuvre): { kind: string; numbers: MoveNumbers } | null;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const tenth = (v: number) => Math.round(v * 10) / 10;

/**
 * The longest run the board asks the engine about: past the allowance (so that the engine, not the board, says a
 * move is too long) and within both rulesets' action schemas.
 */
export const LONGEST_RUN = 50;

/**
 * Keeps each number within its field's limits, rounded to its step: turns within the rules' limits, runs from 0
 * to LONGEST_RUN (a run past the allowance is the engine's to refuse, with its reason).
 */
export function withinFields(kind: MoveKind, n: MoveNumbers): MoveNumbers {
  const out = { ...NO_MOVE };
  for (const f of kind.fields) {
    const max = f.key === 'turn' ? f.max : Math.max(f.max, LONGEST_RUN);
    out[f.key] = clamp(Math.round(n[f.key] / f.step) * f.step, f.min, max);
  }
  for (const k of ['turn', 'distance', 'after'] as const) out[k] = tenth(out[k]);
  return out;
}

/**
 * The numbers a drag of the mover's middle to `to` asks for: a turn toward it and the run to it, or the run back
 * along the keel. Kept within the fields' limits; the engine may still refuse the result.
 */
export function dragged(mover: Mover, kind: MoveKind, to: Point, was: MoveNumbers): MoveNumbers {
  const v = sub(to, mover.anchor);
  const run = Math.hypot(v.x, v.y);
  if (kind.drag === 'back') {
    const back = -(v.x * Math.sin((mover.heading * Math.PI) / 180) + v.y * Math.cos((mover.heading * Math.PI) / 180));
    return withinFields(kind, { ...was, distance: Math.max(0, back) });
  }
  const turn = run < 1e-9 ? 0 : turnBetween(mover.heading, headingOf(v));
  return withinFields(kind, { ...was, turn, distance: run });
}

/** The numbers the handle asks for when pointed along `heading` from the ghost's middle. */
export function rotated(mover: Mover, kind: MoveKind, heading: number, was: MoveNumbers): MoveNumbers {
  if (kind.handle === 'after') return withinFields(kind, { ...was, after: turnBetween(normalizeHeading(mover.heading + was.turn), heading) });
  if (kind.handle === 'turn') return withinFields(kind, { ...was, turn: turnBetween(mover.heading, heading) });
  return was;
}

/** A turn in words ("20° right"). */
export const turnWords = (degrees: number): string => (Math.abs(degrees) < 0.05 ? 'no turn' : `${Math.abs(tenth(degrees))}° ${degrees > 0 ? 'right' : 'left'}`);
