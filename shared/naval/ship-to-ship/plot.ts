/**
 * Plotting: what one ship may plot for a turn (its speeds by acceleration and maximum speed, its turns by the
 * turning circle, pivots after a ram, backing off) and whether a side's plot is legal.
 */
import { type Facing, type Hex, neighbour, turn } from '../hex.ts';
import type { Refusal } from '../ruleset.ts';
import { impassable } from '../sea.ts';
import { RULES } from './rules.ts';
import { type ShipPlot, type ShipState, type State, fightOf, statsOf } from './state.ts';

export type Step = 'F' | 'L' | 'R' | 'B';

/** The facing after a step's turn and the hex it enters. */
export function stepTo(hex: Hex, facing: Facing, step: Step): { hex: Hex; facing: Facing } {
  if (step === 'B') return { hex: neighbour(hex, turn(facing, 3)), facing };
  const f = step === 'L' ? turn(facing, -1) : step === 'R' ? turn(facing, 1) : facing;
  return { hex: neighbour(hex, f), facing: f };
}

/** What the ship may plot this turn, before the turning circle and the sea are walked. */
export interface PlotLimits {
  /** The forward speeds it may declare, lowest first. */
  readonly speeds: readonly number[];
  readonly astern: boolean;
  readonly pivots: readonly number[];
  /** Why it is held to one plot (grappled, backing off), for the refusal. */
  readonly forced?: { readonly steps: '' | 'B'; readonly why: string };
}

export function plotLimits(state: State, ship: ShipState): PlotLimits {
  if (fightOf(state, ship.id)) return { speeds: [0], astern: false, pivots: [0], forced: { steps: '', why: 'it is grappled in a boarding fight' } };
  if (ship.afterRam === 'must-back') {
    const blocked = impassable(state.sea, state.wrecks);
    const astern = !blocked(stepTo(ship.hex, ship.facing, 'B').hex);
    return astern
      ? { speeds: [], astern: true, pivots: [0], forced: { steps: 'B', why: 'a rammer must back off one hex the turn after its ram' } }
      : { speeds: [0], astern: false, pivots: [0], forced: { steps: '', why: 'it must back off but the hex astern is blocked' } };
  }
  const stats = statsOf(ship);
  const start = ship.afterRam === 'backed-off' ? 0 : ship.speed;
  const top = ship.maxTurnsUsed < RULES.maxSpeedTurnsPerGame ? stats.maxSpeed : stats.cruisingSpeed;
  const hi = Math.max(0, Math.min(top, start + stats.maxAcceleration));
  const lo = Math.min(Math.max(0, start - stats.maxAcceleration), hi);
  const speeds: number[] = [];
  for (let s = lo; s <= hi; s++) speeds.push(s);
  const pivots = ship.pivot === 'any' ? [0, -1, 1, -2, 2, 3] : ship.pivot === 'one' ? [0, -1, 1] : [0];
  return { speeds, astern: start - stats.maxAcceleration <= -RULES.backwardsSpeed, pivots };
}

/** Walks a plot's steps from where the ship is: null if every hex is open sea and every turn keeps the turning circle. */
function walkProblem(ship: ShipState, steps: string, pivot: number, blocked: (h: Hex) => boolean): string | null {
  const circle = statsOf(ship).turningCircle;
  let hex = ship.hex;
  let facing = turn(ship.facing, pivot);
  let since = ship.sinceTurn;
  for (const [i, step] of [...steps].entries()) {
    if (step === 'L' || step === 'R') {
      if (since < circle) return `step ${i + 1} turns after ${since} hex${since === 1 ? '' : 'es'} straight; its turning circle needs ${circle}`;
      since = 0;
    } else if (step === 'F') since++;
    const next = stepTo(hex, facing, step as Step);
    if (blocked(next.hex)) return `step ${i + 1} runs into land, a reef, a wreck or off the board`;
    hex = next.hex;
    facing = next.facing;
  }
  return null;
}

/** Whether one ship's plot is legal now; null if it is. */
export function checkShipPlot(state: State, ship: ShipState, plot: ShipPlot): Refusal | null {
  const normal = plotLimits(state, ship);
  const slowing = plot.steps !== 'B' && !normal.forced && plot.steps.length < normal.speeds[0] && enumerate(state, ship, normal).length === 0;
  const limits = slowing ? slowed(normal) : normal;
  const name = ship.name;
  if (limits.forced && (plot.steps !== limits.forced.steps || plot.pivot !== 0))
    return { code: 'forced_plot', message: `${name} must plot ${limits.forced.steps === 'B' ? 'one hex astern (B)' : 'no move'}: ${limits.forced.why}` };
  if (!limits.pivots.includes(plot.pivot))
    return {
      code: 'no_pivot',
      message:
        limits.pivots.length === 1
          ? `${name} cannot turn in place this turn (only after a ram or a fight)`
          : `${name} may turn in place only one hexside this turn (after backing off)`,
    };
  if (plot.steps === 'B') {
    if (plot.pivot !== 0) return { code: 'no_pivot', message: `${name} cannot turn in place and go astern in one turn` };
    if (!limits.astern)
      return { code: 'no_astern', message: `${name} is going ahead too fast to go astern this turn (its acceleration is ${statsOf(ship).maxAcceleration})` };
  } else if (!limits.speeds.includes(plot.steps.length)) {
    const [lo, hi] = [limits.speeds[0], limits.speeds[limits.speeds.length - 1]];
    return { code: 'bad_speed', message: `${name} may move ${lo} to ${hi} hexes this turn, not ${plot.steps.length}` };
  }
  const problem = walkProblem(ship, plot.steps, plot.pivot, impassable(state.sea, state.wrecks));
  if (problem) return { code: 'bad_path', message: `${name}: ${problem}` };
  for (const target of plot.targets) {
    const t = state.ships.find((s) => s.id === target);
    if (!t || t.side === ship.side) return { code: 'bad_target', message: `${name}: ${target} is not an enemy ship of this battle` };
  }
  return null;
}

/** A plot holds every turn's fire and boarding orders at their defaults. */
export const defaultOrders = { fire: 'first', targets: [], board: false, rake: false } as const satisfies Partial<ShipPlot>;

/** Every movement a ship may plot this turn, with default orders: speeds, pivots, every turn the circle allows. */
export function legalPlots(state: State, ship: ShipState): ShipPlot[] {
  const limits = plotLimits(state, ship);
  const plots = enumerate(state, ship, limits);
  // Hemmed in by land or wrecks at a speed it cannot shed in one turn: it may slow as far as it must.
  return plots.length ? plots : enumerate(state, ship, slowed(limits));
}

/** The limits of a ship that cannot keep its speed without running into the sea's obstacles: any speed up to its highest. */
function slowed(limits: PlotLimits): PlotLimits {
  const hi = limits.speeds.length ? limits.speeds[limits.speeds.length - 1] : 0;
  return { ...limits, speeds: Array.from({ length: hi + 1 }, (_, i) => i) };
}

function enumerate(state: State, ship: ShipState, limits: PlotLimits): ShipPlot[] {
  const plan = (steps: string, pivot: number): ShipPlot => ({ ship: ship.id, steps, pivot, ...defaultOrders, targets: [] });
  if (limits.forced) return [plan(limits.forced.steps, 0)];
  const blocked = impassable(state.sea, state.wrecks);
  const circle = statsOf(ship).turningCircle;
  const maxSpeed = limits.speeds.length ? limits.speeds[limits.speeds.length - 1] : 0;
  const out: ShipPlot[] = [];
  for (const pivot of limits.pivots) {
    const walk = (steps: string, hex: Hex, facing: Facing, since: number) => {
      if (limits.speeds.includes(steps.length)) out.push(plan(steps, pivot));
      if (steps.length >= maxSpeed) return;
      for (const step of ['F', 'L', 'R'] as const) {
        if (step !== 'F' && since < circle) continue;
        const next = stepTo(hex, facing, step);
        if (blocked(next.hex)) continue;
        walk(steps + step, next.hex, next.facing, step === 'F' ? since + 1 : 0);
      }
    };
    walk('', ship.hex, turn(ship.facing, pivot), ship.sinceTurn);
    if (limits.astern && pivot === 0 && !blocked(stepTo(ship.hex, ship.facing, 'B').hex)) out.push(plan('B', 0));
  }
  return out;
}
