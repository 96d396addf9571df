/**
 * The computer opponent's look at the turn after this one. The chase (opponent-chase.ts) counts the hexes a ship
 * still needs to lie pointed at an enemy's beam or stern, but the enemy moves on next turn too, and a place a few
 * hexes off may leave a ram within reach of far more of its moves than a place next to it. So for the plots it rates
 * best this turn, the opponent looks at where each leaves its ship (hex, facing, speed, hexes gone straight) and
 * where the enemy it goes for is likeliest to end this turn (each with the speed and straight run that brought it
 * there): from each such meeting of places it takes its best plot of the next turn against the enemy's whole spread
 * of moves from there, and averages over the enemy's ends. Next turn it will know where the enemy ended, so the
 * best plot is taken for each end apart.
 */
import { type Hex, distance } from '../hex.ts';
import { type Forecast, PHASES, type Track, forecast, keyOf, trackOf } from './opponent-forecast.ts';
import { legalPlots } from './plot.ts';
import { RULES } from './rules.ts';
import { type ShipPlot, type ShipState, type State, statsOf } from './state.ts';

/** A ship as a plot leaves it at the turn's end, ready to plot the next. */
export function shipAfter(ship: ShipState, plot: Pick<ShipPlot, 'steps' | 'pivot'>, t: Track): ShipState {
  const astern = plot.steps === 'B';
  let moved = 0;
  for (let p = 1; p <= PHASES; p++) if (t.moved[p]) moved++;
  let since = ship.sinceTurn;
  for (const step of plot.steps.slice(0, moved)) since = step === 'F' ? since + 1 : step === 'B' ? since : 0;
  const declaredMax = !astern && plot.steps.length > statsOf(ship).cruisingSpeed;
  const stopped = !astern && moved < plot.steps.length;
  return {
    ...ship,
    hex: t.hexes[PHASES],
    facing: t.facings[PHASES],
    speed: stopped ? 0 : astern ? -1 : plot.steps.length,
    sinceTurn: since,
    wentMax: declaredMax,
    maxTurnsUsed: ship.maxTurnsUsed + (declaredMax ? 1 : 0),
    afterRam: 'none',
    pivot: 'none',
  };
}

/** One place an enemy may end this turn at, with its chance and its spread of moves next turn from there. */
export interface EnemyEnd {
  readonly chance: number;
  readonly hex: Hex;
  readonly forecast: Forecast;
}

/**
 * The likeliest `count` places (hex, facing, speed and straight run) where `enemy` ends this turn, by the forecast's
 * weights (keeping its course with chance `keepCourse`, the rest spread over its legal plots), each with its forecast
 * for next turn. Their chances are scaled to add up to 1.
 */
export function enemyEnds(state: State, enemy: ShipState, keepCourse: number, count: number): EnemyEnd[] {
  const plots = legalPlots(state, enemy);
  const straight =
    enemy.speed > 0 ? plots.find((p) => p.pivot === 0 && p.steps === 'F'.repeat(enemy.speed)) : plots.find((p) => p.steps === '' && p.pivot === 0);
  const groups = new Map<string, { chance: number; ship: ShipState }>();
  for (const plot of plots) {
    const w = (1 - (straight ? keepCourse : 0)) / plots.length + (plot === straight ? keepCourse : 0);
    const t = trackOf(enemy, plot);
    const after = shipAfter(enemy, plot, t);
    const circle = statsOf(after).turningCircle;
    const key = `${keyOf(after.hex)}:${after.facing}:${after.speed}:${Math.min(after.sinceTurn, circle)}:${after.wentMax ? 1 : 0}`;
    const g = groups.get(key);
    if (g) g.chance += w;
    else groups.set(key, { chance: w, ship: after });
  }
  const top = [...groups.values()].sort((a, b) => b.chance - a.chance || keyOf(a.ship.hex) - keyOf(b.ship.hex)).slice(0, count);
  const mass = top.reduce((sum, g) => sum + g.chance, 0);
  return top.map((g) => ({ chance: g.chance / Math.max(1e-9, mass), hex: g.ship.hex, forecast: forecast(state, g.ship, keepCourse) }));
}

/** How a plot of the next turn is rated against one enemy's spread of moves: the meeting's worth (opponent.ts). */
export type RateNext = (t: Track, plot: ShipPlot, after: ShipState, f: Forecast) => number;

/**
 * What the place `after` (our ship as this turn's plot leaves it) is worth next turn: over the enemy's likeliest
 * ends, the best of our next plots against its moves from each, by `rate`. Enemy ends beyond `within` hexes of the
 * place count `beyond` (no next-turn meeting can reach them: what a turn without one is worth, 0 unless counted).
 */
export function nextTurnValue(
  state: State,
  after: ShipState,
  ends: readonly EnemyEnd[],
  within: number,
  rate: RateNext,
  stops?: (h: Hex) => boolean,
  beyond = 0,
): number {
  const near = ends.filter((e) => distance(after.hex, e.hex) <= within);
  if (near.length === 0) return beyond;
  const far = ends.reduce((sum, e) => sum + e.chance, 0) - near.reduce((sum, e) => sum + e.chance, 0);
  const plots = legalPlots(state, after);
  const tracks = plots.map((p) => trackOf(after, p, stops));
  let sum = 0;
  for (const e of near) {
    let best = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < plots.length; i++) {
      const v = rate(tracks[i], plots[i], after, e.forecast);
      if (v > best) best = v;
    }
    if (best > Number.NEGATIVE_INFINITY) sum += e.chance * best;
  }
  return sum + far * beyond;
}

/** The key of a ship's place for the next turn: hex, facing, speed, straight run (up to its circle), maximum speed. */
export const placeKey = (s: ShipState): string =>
  `${keyOf(s.hex)}:${s.facing}:${s.speed}:${Math.min(s.sinceTurn, statsOf(s).turningCircle)}:${s.wentMax ? 1 : 0}:${s.maxTurnsUsed >= RULES.maxSpeedTurnsPerGame ? 1 : 0}`;
