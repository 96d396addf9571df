/**
 * Where a contested sea's battle mark stands: in the sea, beside the unit's place, clear of every unit counter, order
 * glyph and province name around it (the mark once stood just above the name, over the fleet that won the sea).
 * Pure geometry on the drawing's points, so it is tested for every sea without a browser.
 */
import type { Glyph } from '../../../shared/drawing/glyphs.ts';
import type { ProvinceShape } from './drawing.ts';

type Point = readonly [number, number];

/** An axis-aligned box in the drawing's units. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The mark's radius before scaling: its disc (10) with half its edge and the lift's shadow. */
export const MARK_RADIUS = 11.6;
/** A counter's half-width and half-height before scaling, its edge included (a fleet is the wider, an army the taller). */
const UNIT_HALF: Point = [11, 8.6];
/** A dislodged counter's halo and bolt reach further (MapUnits.svelte). */
const DISLODGED_HALF: Point = [12.5, 14];
/** Room kept between the mark and whatever it stands beside. */
const GAP = 2;

export interface UnitOnMap {
  at: Point;
  dislodged: boolean;
}

export interface NameOnMap {
  x: number;
  /** Where the name is written now (it drops as the names and counters grow). */
  y: number;
  width: number;
}

export interface MarkScene {
  /** The seas' outlines (any province shape: those not asked about are ignored). */
  provinces: readonly ProvinceShape[];
  /** Each province's unit point: a unit in it stands there (the sea's own is where its winner's fleet will be). */
  unitPoint: (province: string) => Point | null;
  units: readonly UnitOnMap[];
  names: readonly NameOnMap[];
  glyphs: readonly Glyph[];
  /** The counters' growth on screen (PanZoom.counterScale), which the mark shares. */
  scale: number;
  /** The names' size (PanZoom.labelSize). */
  labelSize: number;
  /** The arrows' growth (PanZoom.glyphScale) and the marks' (counterScale / 1.25). */
  glyphScale: number;
}

/** The box a counter covers at `scale`. */
export function unitBox(u: UnitOnMap, scale: number): Box {
  const [hx, hy] = u.dislodged ? DISLODGED_HALF : UNIT_HALF;
  return { x0: u.at[0] - hx * scale, y0: u.at[1] - hy * scale, x1: u.at[0] + hx * scale, y1: u.at[1] + hy * scale };
}

/** The box a name covers (written centred on its point, its middle on the line). */
export function nameBox(n: NameOnMap, size: number): Box {
  return { x0: n.x - n.width / 2, y0: n.y - size * 0.62, x1: n.x + n.width / 2, y1: n.y + size * 0.62 };
}

/** The box the mark covers, centred at `at`. */
export function markBox(at: Point, scale: number): Box {
  const r = MARK_RADIUS * scale;
  return { x0: at[0] - r, y0: at[1] - r, x1: at[0] + r, y1: at[1] + r };
}

export const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** The distance from `p` to the segment a–b. */
export function segmentDistance(p: Point, a: Point, b: Point): number {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** A glyph as lines (with their half-width) and discs the mark must keep off. */
function glyphShapes(g: Glyph, glyphScale: number, markScale: number): { lines: [Point, Point, number][]; discs: [Point, number][] } {
  // An arrow's head is about four shafts wide; a support's ring is 12 round its target, a mark up to 22 (a flame).
  if (g.kind === 'arrow') return { lines: [[g.from, g.to, 6 * glyphScale]], discs: [] };
  if (g.kind === 'convoy') return { lines: [[g.from, g.to, 2 * glyphScale]], discs: [[g.to, 3]] };
  if (g.kind === 'support') return { lines: [[g.from, g.to, 2 * glyphScale]], discs: g.hold ? [[g.target, 13]] : [[g.to, 2.5]] };
  return { lines: [], discs: [[g.at, 22 * markScale]] };
}

/** A shape's rings as lists of points, read once per shape (M/L/Z paths with absolute points, as label-room.ts reads them). */
const ringCache = new WeakMap<ProvinceShape, Point[][]>();
function ringsOf(shape: ProvinceShape): Point[][] {
  let rings = ringCache.get(shape);
  if (!rings) {
    rings = [];
    for (const ring of shape.d.split(/[Zz]/)) {
      const numbers = ring.match(/-?\d*\.?\d+(?:e-?\d+)?/g);
      if (!numbers || numbers.length < 6) continue;
      const points: Point[] = [];
      for (let i = 0; i + 1 < numbers.length; i += 2) points.push([Number(numbers[i]), Number(numbers[i + 1])]);
      rings.push(points);
    }
    ringCache.set(shape, rings);
  }
  return rings;
}

/** The distance from `p` to the shape's nearest edge, or -1 when `p` lies outside it (even-odd, as it is filled). */
export function depthInside(shape: ProvinceShape, p: Point): number {
  let inside = false;
  let nearest = Number.POSITIVE_INFINITY;
  for (const ring of ringsOf(shape)) {
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i];
      const b = ring[(i + 1) % ring.length];
      if (a[1] <= p[1] !== b[1] <= p[1] && p[0] < a[0] + ((p[1] - a[1]) * (b[0] - a[0])) / (b[1] - a[1])) inside = !inside;
      nearest = Math.min(nearest, segmentDistance(p, a, b));
    }
  }
  return inside ? nearest : -1;
}

/** Directions tried around the unit's place, in order: beside it first (left and right), then below, then above. */
const ANGLES = [180, 0, 150, 30, 210, 330, 120, 60, 240, 300, 90, 270];

/**
 * Where the sea's mark stands: the first place around the sea's unit point, ring by ring outwards, where the mark
 * lies inside the sea and covers no counter, name or order glyph (then the same with only its middle in the sea,
 * then anywhere that near); where none is free, the place in the sea covering the fewest of them.
 */
export function seaMarkPlace(sea: string, scene: MarkScene): Point | null {
  const shape = scene.provinces.find((p) => p.id === sea);
  const home = scene.unitPoint(sea);
  if (!shape || !home) return null;
  const s = scene.scale;
  const r = MARK_RADIUS * s;
  const markScale = s / 1.25;
  const blocking = [...scene.units.map((u) => unitBox(u, s)), ...scene.names.map((n) => nameBox(n, scene.labelSize))];
  // The sea's own unit point holds a counter after the results, or will hold the winner's: kept free always.
  blocking.push(unitBox({ at: home, dislodged: false }, s));
  const shapes = scene.glyphs.map((g) => glyphShapes(g, scene.glyphScale, markScale));
  const lines = shapes.flatMap((g) => g.lines);
  const discs = shapes.flatMap((g) => g.discs);
  const covered = (at: Point): number => {
    const box = markBox(at, s);
    const grown = { x0: box.x0 - GAP, y0: box.y0 - GAP, x1: box.x1 + GAP, y1: box.y1 + GAP };
    return (
      blocking.filter((b) => overlaps(grown, b)).length +
      lines.filter(([a, b, half]) => segmentDistance(at, a, b) < r + half + GAP).length +
      discs.filter(([c, radius]) => Math.hypot(at[0] - c[0], at[1] - c[1]) < r + radius + GAP).length
    );
  };
  // Wholly inside the sea if it can be, else with its middle in the sea (a narrow strait's mark may reach its coast),
  // else beside the sea's unit wherever it hides nothing (a small sea between islands, every coast around it held).
  let best: { at: Point; covers: number } | null = null;
  const first = (UNIT_HALF[0] + MARK_RADIUS) * s + GAP;
  for (const depth of [r, 0, Number.NEGATIVE_INFINITY]) {
    for (let ring = 0; ring < 10; ring++) {
      const distance = first + ring * 6 * s;
      for (const angle of ANGLES) {
        const at: Point = [home[0] + distance * Math.cos((angle * Math.PI) / 180), home[1] + distance * Math.sin((angle * Math.PI) / 180)];
        if (depthInside(shape, at) < depth) continue;
        const covers = covered(at);
        if (covers === 0) return at;
        if (!best || covers < best.covers) best = { at, covers };
      }
    }
  }
  return best?.at ?? [home[0], home[1] - (UNIT_HALF[1] + MARK_RADIUS) * s - GAP];
}
