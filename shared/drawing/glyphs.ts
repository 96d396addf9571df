/**
 * Orders as shapes on the map: arrows for moves, retreats, supports and
 * convoys, marks for holds, destroys, rebuilds, builds and removals. Drawn for
 * orders being entered (planned) and for adjudicated ones (with the engine's
 * result code: moved, bounced, cut, dislodged…). Geometry only; the map
 * component styles them.
 */
import { findLocation, formatOrder, parseOrder, type Order, type OrderResult, type PhaseType, type Variant } from '../index.ts';
import { locationPoint, type Point } from './overlay.ts';

export type Outcome = 'planned' | 'success' | 'failure' | 'illegal';

/** Every shape says which order it is (`text`: "A Rav - Cis", with the result's reason once adjudicated). */
interface GlyphBase {
  power: string;
  outcome: Outcome;
  ref: number;
  text: string;
}
export type Glyph = GlyphBase &
  (
    | { kind: 'arrow'; style: 'move' | 'convoyed-move' | 'retreat'; from: Point; to: Point }
    | { kind: 'support'; from: Point; to: Point; target: Point; hold: boolean }
    | { kind: 'convoy'; from: Point; to: Point }
    | {
        kind: 'mark';
        symbol: 'hold' | 'destroy' | 'rebuild' | 'build' | 'remove' | 'disband' | 'dislodged';
        at: Point;
        /** What a build builds (an army or a fleet, drawn as the counter to come), when the order says. */
        unit?: 'army' | 'fleet';
      }
  );

/** One order to draw: planned (no result yet) or adjudicated. `ref` lets a click on the shape find the order again. */
export interface DrawnOrder {
  power: string;
  order: Order;
  result?: OrderResult;
  ref: number;
}

/** Counters are ~9 units in radius: arrows stop short of the unit they point at. */
const COUNTER_RADIUS = 11;

function outcomeOf(d: DrawnOrder): Outcome {
  if (!d.result) return 'planned';
  if (d.result.code === 'illegal') return 'illegal';
  return d.result.success ? 'success' : 'failure';
}

function shorten(from: Point, to: Point, by: number): Point {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  const len = Math.hypot(dx, dy);
  if (len <= by * 1.5) return to;
  return [to[0] - (dx / len) * by, to[1] - (dy / len) * by];
}

function describe(d: DrawnOrder): string {
  const text = d.result?.order ?? formatOrder(d.order);
  return d.result ? `${d.power}: ${text}. ${d.result.reason}` : `${d.power}: ${text}`;
}

const mid = (a: Point, b: Point): Point => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

/**
 * Shapes for a set of orders. Moves are drawn first, so supports and convoys can aim at them.
 * Arrows leave from the edge of the moving unit's counter and stop at the edge of a counter standing
 * at the destination (`occupied`, province ids), or at the destination's point when it is empty, so
 * that moves between neighbouring provinces stay visible.
 */
export function glyphsFor(v: Variant, orders: readonly DrawnOrder[], occupied: ReadonlySet<string> = new Set()): Glyph[] {
  const out: Glyph[] = [];
  const moveByUnit = new Map<string, { from: Point; to: Point }>();
  const point = (loc: string) => locationPoint(v, loc);
  const province = (loc: string) => {
    const l = findLocation(v, loc);
    return l < 0 ? loc : v.provinceIds[v.locationProvince[l]];
  };

  for (const d of orders) {
    const o = d.order;
    const outcome = outcomeOf(d);
    if (o.kind === 'move' || o.kind === 'retreat') {
      const from = point(o.unit.at);
      const to = point(o.to);
      if (!from || !to) continue;
      const style = o.kind === 'retreat' ? 'retreat' : o.viaConvoy ? 'convoyed-move' : 'move';
      const end = shorten(from, to, occupied.has(province(o.to)) ? COUNTER_RADIUS : 2);
      const start = shorten(end, from, COUNTER_RADIUS * 0.6);
      out.push({ kind: 'arrow', style, from: start, to: end, power: d.power, outcome, ref: d.ref, text: describe(d) });
      moveByUnit.set(province(o.unit.at), { from, to });
    }
  }
  for (const d of orders) {
    const o = d.order;
    const outcome = outcomeOf(d);
    const mark = (symbol: Extract<Glyph, { kind: 'mark' }>['symbol'], at: string, unit?: 'army' | 'fleet') => {
      const p = point(at);
      if (p) out.push({ kind: 'mark', symbol, at: p, power: d.power, outcome, ref: d.ref, text: describe(d), ...(unit ? { unit } : {}) });
    };
    switch (o.kind) {
      case 'hold':
        // A unit that held without an order is marked only if it was dislodged (below).
        if (d.result?.code !== 'unordered') mark('hold', o.unit.at);
        break;
      case 'destroy':
        mark('destroy', o.unit.at);
        break;
      case 'rebuild':
        mark('rebuild', o.unit.at);
        break;
      case 'disband':
        mark('disband', o.unit.at);
        break;
      case 'remove':
        mark('remove', o.unit.at);
        break;
      case 'build':
        mark('build', o.at, o.unitType);
        break;
      case 'support': {
        const from = point(o.unit.at);
        const target = point(o.supported.at);
        if (!from || !target) break;
        if (o.to === undefined) {
          out.push({
            kind: 'support',
            from,
            to: shorten(from, target, COUNTER_RADIUS + 3),
            target,
            hold: true,
            power: d.power,
            outcome,
            ref: d.ref,
            text: describe(d),
          });
        } else {
          // Aim at the supported move's arrow when it is drawn, else at the destination.
          const dest = point(o.to);
          if (!dest) break;
          const move = moveByUnit.get(province(o.supported.at));
          const aim = move ? mid(mid(move.from, move.to), move.to) : dest;
          out.push({ kind: 'support', from, to: shorten(from, aim, 3), target: aim, hold: false, power: d.power, outcome, ref: d.ref, text: describe(d) });
        }
        break;
      }
      case 'convoy': {
        const from = point(o.unit.at);
        const armyFrom = point(o.army.at);
        const dest = point(o.to);
        if (!from || !armyFrom || !dest) break;
        out.push({ kind: 'convoy', from, to: shorten(from, mid(armyFrom, dest), 2), power: d.power, outcome, ref: d.ref, text: describe(d) });
        break;
      }
      default:
        break;
    }
    // A unit dislodged while carrying out its order is marked where it stood.
    if (d.result?.dislodgedBy && 'unit' in o) mark('dislodged', o.unit.at);
  }
  return separated(out);
}

/** How far apart two lines that share a path are drawn (each half of it to its own right). */
export const SHARED_PATH_GAP = 9;

type Line = Extract<Glyph, { from: Point; to: Point }>;
const isLine = (g: Glyph): g is Line => g.kind !== 'mark';

/** Whether two lines lie along one path: nearly parallel, nearly on one line, and overlapping along it. */
function sharePath(a: Line, b: Line): boolean {
  const dx = a.to[0] - a.from[0];
  const dy = a.to[1] - a.from[1];
  const len = Math.hypot(dx, dy);
  if (len === 0) return false;
  const [ux, uy] = [dx / len, dy / len];
  const ex = b.to[0] - b.from[0];
  const ey = b.to[1] - b.from[1];
  const blen = Math.hypot(ex, ey);
  if (blen === 0 || Math.abs(ux * ey - uy * ex) / blen > 0.15) return false;
  // Distance of b's ends from a's line, and where they fall along it.
  const off = (p: Point) => Math.abs((p[0] - a.from[0]) * uy - (p[1] - a.from[1]) * ux);
  if (off(b.from) > 4 || off(b.to) > 4) return false;
  const along = (p: Point) => (p[0] - a.from[0]) * ux + (p[1] - a.from[1]) * uy;
  const [lo, hi] = [Math.min(along(b.from), along(b.to)), Math.max(along(b.from), along(b.to))];
  return hi > 4 && lo < len - 4;
}

/**
 * Lines that share a path (a head-to-head: two moves against each other; a support drawn along a move) are moved
 * apart, so that neither hides the other: each to its own right, which parts two lines running against each other;
 * of two running the same way, the second goes to its left.
 */
function separated(glyphs: Glyph[]): Glyph[] {
  const side = new Map<number, number>();
  for (let i = 0; i < glyphs.length; i++) {
    const a = glyphs[i];
    if (!isLine(a)) continue;
    for (let j = i + 1; j < glyphs.length; j++) {
      const b = glyphs[j];
      if (!isLine(b) || !sharePath(a, b)) continue;
      const same = (a.to[0] - a.from[0]) * (b.to[0] - b.from[0]) + (a.to[1] - a.from[1]) * (b.to[1] - b.from[1]) > 0;
      if (!side.has(i)) side.set(i, 1);
      if (!side.has(j)) side.set(j, same ? -side.get(i)! : side.get(i)!);
    }
  }
  return glyphs.map((g, i) => {
    const s = side.get(i);
    if (!s || !isLine(g)) return g;
    const len = Math.hypot(g.to[0] - g.from[0], g.to[1] - g.from[1]);
    // The right of the direction of travel (y grows downwards on screen).
    const nx = (-(g.to[1] - g.from[1]) / len) * s * (SHARED_PATH_GAP / 2);
    const ny = ((g.to[0] - g.from[0]) / len) * s * (SHARED_PATH_GAP / 2);
    const move = (p: Point): Point => [p[0] + nx, p[1] + ny];
    return g.kind === 'support'
      ? { ...g, from: move(g.from), to: move(g.to), target: g.hold ? g.target : move(g.target) }
      : { ...g, from: move(g.from), to: move(g.to) };
  });
}

/**
 * Adjudicated results as drawable orders: each result's order text is read
 * back with the engine's parser (results carry canonical text), in the phase
 * it was given in. Results that cannot be drawn (unreadable orders) are still
 * listed by the results panel.
 */
export function drawnResults(v: Variant, phase: PhaseType, results: readonly OrderResult[]): DrawnOrder[] {
  const out: DrawnOrder[] = [];
  results.forEach((result, ref) => {
    // Illegal orders were never carried out, and units without orders simply held: both are listed, not drawn,
    // unless the unit was dislodged, which the map must show.
    if (result.code === 'illegal' || (result.code === 'unordered' && !result.dislodgedBy)) return;
    const parsed = parseOrder(v, result.order, phase);
    if (parsed.ok) out.push({ power: result.power, order: parsed.value, result, ref });
  });
  return out;
}
