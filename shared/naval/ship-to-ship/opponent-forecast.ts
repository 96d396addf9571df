/**
 * The computer opponent's forecast of an enemy ship's turn: where it may be at the end of each movement phase,
 * from every plot it may legally make (each as likely as any other, since the opponent cannot read minds) mixed
 * with keeping its course. It is a spread of chances over hexes, phase by phase: the chance the ship is in a hex
 * and its facing there, the chance it moves into a hex and from which side, and the chance it crosses from one
 * hex into another (for bow-to-bow meetings). No dice are rolled: the spread is exact over the listed plots.
 */
import { type Facing, type Hex, directionTo, roundHex, turn } from '../hex.ts';
import { type Step, legalPlots, stepTo } from './plot.ts';
import { RULES, movesInPhase } from './rules.ts';
import type { ShipPlot, ShipState, State } from './state.ts';

export const PHASES = 6;

/** A hex as a number, for fast lookups (the sea's coordinates are bounded well inside ±500). */
export const keyOf = (h: Hex): number => (h.q + 500) * 2000 + (h.r + 500);

/** The hex of a key made by `keyOf`. */
export const hexOfKey = (key: number): Hex => ({ q: Math.floor(key / 2000) - 500, r: (key % 2000) - 500 });

/** A ship's hexes and facings, phase by phase (index 0: the turn's start), and whether it moved in each phase. */
export interface Track {
  readonly hexes: Hex[];
  readonly facings: Facing[];
  readonly moved: boolean[];
}

/** Where a plot takes a ship if nothing stops it: `stops` hexes (other ships that will not move) halt it. */
export function trackOf(ship: ShipState, plot: Pick<ShipPlot, 'steps' | 'pivot'>, stops?: (h: Hex) => boolean): Track {
  const steps = [...plot.steps] as Step[];
  const speed = plot.steps === 'B' ? 1 : steps.length;
  let hex = ship.hex;
  let facing = turn(ship.facing, plot.pivot);
  const hexes = [hex];
  const facings = [facing];
  const moved = [false];
  let done = 0;
  let stopped = false;
  for (let p = 1; p <= PHASES; p++) {
    let went = false;
    if (!stopped && done < steps.length && movesInPhase(RULES, speed, p)) {
      const next = stepTo(hex, facing, steps[done++]);
      facing = next.facing;
      if (stops?.(next.hex)) stopped = true;
      else {
        hex = next.hex;
        went = true;
      }
    }
    hexes.push(hex);
    facings.push(facing);
    moved.push(went);
  }
  return { hexes, facings, moved };
}

/** An enemy ship's turn as chances. */
export interface Forecast {
  readonly ship: ShipState;
  /** Per phase (1..6): hex → chance it is there at the phase's end, by its facing. */
  readonly occupies: Map<number, Float64Array>[];
  /** Per phase: hex → chance it moves into the hex in that phase, by the side of the hex it comes from (× 6) and its facing. */
  readonly arrives: Map<number, Float64Array>[];
  /**
   * Per phase: hex → chance it moves into the hex in that phase, by its declared speed (0 for going astern, which
   * moves as speed 1 and never rams), the side it comes from and its facing: `(speed * 6 + side) * 6 + facing`. In a
   * race for a hex the faster ship gets there first and is rammed by the other.
   */
  readonly racers: Map<number, Float64Array>[];
  /** Per phase: `from * 2^22 + to` hex keys → chance it crosses from one into the other in that phase. */
  readonly crosses: Map<number, number>[];
  /** Where it is likely to be at the turn's end: the mean of its end hexes, and its likeliest facing there. */
  readonly end: { q: number; r: number; facing: Facing; hex: Hex };
  /** How far it can possibly get this turn, in hexes. */
  readonly reach: number;
  /** Where it may end the turn, each hex and facing with its chance, likeliest first. */
  readonly ends: readonly { hex: Hex; facing: Facing; chance: number }[];
}

/** Declared speeds told apart in a race (0 is going astern). */
export const RACER_SPEEDS = 8;
const RACER_SLOTS = RACER_SPEEDS * 36;

export const crossKey = (from: number, to: number): number => from * 4_194_304 + to;

const add = (map: Map<number, Float64Array>, key: number, slot: number, p: number, size = 6) => {
  let row = map.get(key);
  if (!row) {
    row = new Float64Array(size);
    map.set(key, row);
  }
  row[slot] += p;
};

/**
 * The forecast of `ship`'s turn. `keepCourse` is the weight given to its holding its last speed straight on
 * (where that is a legal plot); the rest is spread evenly over its legal plots.
 */
export function forecast(state: State, ship: ShipState, keepCourse: number): Forecast {
  const plots = legalPlots(state, ship);
  const straight = ship.speed > 0 ? plots.find((p) => p.pivot === 0 && p.steps === 'F'.repeat(ship.speed)) : plots.find((p) => p.steps === '' && p.pivot === 0);
  const weights = plots.map((p) => (1 - (straight ? keepCourse : 0)) / plots.length + (p === straight ? keepCourse : 0));
  const occupies = Array.from({ length: PHASES + 1 }, () => new Map<number, Float64Array>());
  const arrives = Array.from({ length: PHASES + 1 }, () => new Map<number, Float64Array>());
  const crosses = Array.from({ length: PHASES + 1 }, () => new Map<number, number>());
  const racers = Array.from({ length: PHASES + 1 }, () => new Map<number, Float64Array>());
  const facingAtEnd = new Float64Array(6);
  let q = 0;
  let r = 0;
  let reach = 0;
  plots.forEach((plot, i) => {
    const w = weights[i];
    const t = trackOf(ship, plot);
    const speed = plot.steps === 'B' ? 0 : Math.min(RACER_SPEEDS - 1, plot.steps.length);
    reach = Math.max(reach, plot.steps.length);
    for (let p = 1; p <= PHASES; p++) {
      const at = keyOf(t.hexes[p]);
      add(occupies[p], at, t.facings[p], w);
      if (t.moved[p]) {
        const from = directionTo(t.hexes[p], t.hexes[p - 1]);
        if (from !== null) {
          add(arrives[p], at, from * 6 + t.facings[p], w, 36);
          add(racers[p], at, (speed * 6 + from) * 6 + t.facings[p], w, RACER_SLOTS);
        }
        const k = crossKey(keyOf(t.hexes[p - 1]), at);
        crosses[p].set(k, (crosses[p].get(k) ?? 0) + w);
      }
    }
    q += w * t.hexes[PHASES].q;
    r += w * t.hexes[PHASES].r;
    facingAtEnd[t.facings[PHASES]] += w;
  });
  let facing: Facing = ship.facing;
  for (let f = 0; f < 6; f++) if (facingAtEnd[f] > facingAtEnd[facing]) facing = f as Facing;
  const ends: { hex: Hex; facing: Facing; chance: number }[] = [];
  for (const [key, row] of occupies[PHASES]) for (let f = 0; f < 6; f++) if (row[f] > 0) ends.push({ hex: hexOfKey(key), facing: f as Facing, chance: row[f] });
  ends.sort((x, y) => y.chance - x.chance || keyOf(x.hex) - keyOf(y.hex) || x.facing - y.facing);
  return { ship, occupies, arrives, racers, crosses, end: { q, r, facing, hex: roundHex(q, r) }, reach, ends };
}

/** Hex distance between a hex and a point between hexes (a forecast's mean). */
export function distanceTo(h: Hex, q: number, r: number): number {
  const dq = h.q - q;
  const dr = h.r - r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

/**
 * Hexes gone straight since its last turn when a ship ends a track (the steps it carried out), counted up to its
 * turning circle: beyond that they change nothing, so ways of ending alike are reckoned once.
 */
export function sinceAfter(ship: ShipState, plot: Pick<ShipPlot, 'steps'>, t: Track, circle: number): number {
  let since = ship.sinceTurn;
  let moved = 0;
  for (let p = 1; p <= PHASES; p++) if (t.moved[p]) moved++;
  for (const step of plot.steps.slice(0, moved)) since = step === 'F' ? since + 1 : step === 'B' ? since : 0;
  return Math.min(since, circle);
}
