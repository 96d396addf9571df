/**
 * The measured table as the table board draws it, the same for both table rulesets: the table's size and unit,
 * its terrain, and each piece (a Diadochi ship, an Oi Navarcoi! squadron of stands) as the bases it stands on
 * with its side, name and marks. Also the drawing's arithmetic: north is up (the SVG's y runs down), the scale
 * bar's round length, the forward arc's outline.
 */
import { type TableView as DiadochiView, tableView as diadochiTable } from '../../../shared/naval/diadochi-naval/view.ts';
import { tableView as oiTable } from '../../../shared/naval/oi-navarcoi/view.ts';
import type { State as DiadochiState } from '../../../shared/naval/diadochi-naval/state.ts';
import type { State as OiState } from '../../../shared/naval/oi-navarcoi/state.ts';
import { type Base, type Point, cornersOf, fromLocal } from '../../../shared/naval/table/index.ts';

export const TABLE_RULESETS = ['diadochi-naval', 'oi-navarcoi'] as const;
export type TableRulesetId = (typeof TABLE_RULESETS)[number];

/** Whether a battle of this ruleset is played on the measured table (any id the page may meet). */
export const isTableRuleset = (id: string): id is TableRulesetId => (TABLE_RULESETS as readonly string[]).includes(id);

export interface TablePiece {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  /** "penteres", "epi mias": what it is, for its label. */
  readonly type: string;
  readonly bases: readonly Base[];
  readonly marks: readonly string[];
  readonly flagship: boolean;
  /** Sunk or captured ships are drawn faded (a prize stays on the table). */
  readonly faded: boolean;
}

export interface TableTerrain {
  readonly id: string;
  readonly kind: 'land' | 'island' | 'beach';
  readonly name: string;
  readonly outline: readonly Point[];
}

export interface TablePicture {
  /** "cable" or "inch". */
  readonly unit: string;
  readonly width: number;
  readonly depth: number;
  readonly terrain: readonly TableTerrain[];
  readonly pieces: readonly TablePiece[];
  /** Flotsam (Oi Navarcoi!): drawn as hatched bases no one owns. */
  readonly flotsam: readonly Base[];
  /** The missile range, drawn round the selected ship while a move is planned (Diadochi); null where none. */
  readonly missileRange: number | null;
}

function diadochiPicture(view: DiadochiView): TablePicture {
  return {
    unit: view.unit,
    width: view.width,
    depth: view.depth,
    terrain: view.terrain,
    pieces: view.ships
      .filter((s) => s.status !== 'sunk')
      .map((s) => ({
        id: s.id,
        name: s.name,
        side: s.side,
        type: s.type,
        bases: [{ x: s.x, y: s.y, heading: s.heading, width: s.width, length: s.length }],
        marks: s.marks,
        flagship: s.flagship,
        faded: s.status === 'captured',
      })),
    flotsam: [],
    missileRange: view.ranges.missile,
  };
}

/** An Oi Navarcoi! state with the deployment handed in and not yet revealed (one's own, as for a Diadochi plot) put on the table. */
function oiPlaced(state: OiState): OiState {
  if (state.phase !== 'deploy') return state;
  type Placed = { squadron: string; x: number; y: number; heading: number; formation: OiState['squadrons'][number]['formation'] };
  const placements = Object.values(state.pending ?? {}).flatMap((a) => (a as { placements?: Placed[] } | null)?.placements ?? []);
  if (placements.length === 0) return state;
  const at = new Map(placements.map((p) => [p.squadron, p]));
  return {
    ...state,
    squadrons: state.squadrons.map((q) => {
      const p = at.get(q.id);
      return p ? { ...q, x: p.x, y: p.y, heading: p.heading, formation: p.formation } : q;
    }),
  };
}

function oiPicture(state: OiState): TablePicture {
  const view = oiTable(oiPlaced(state));
  return {
    unit: 'inch',
    width: view.width,
    depth: view.depth,
    terrain: view.terrain,
    pieces: view.squadrons.map((q) => ({
      id: q.id,
      name: q.name,
      side: q.side,
      type: q.marks[0] ?? '',
      bases: q.stands,
      marks: q.marks,
      flagship: q.marks.includes('strategos'),
      faded: q.marks.includes('routing'),
    })),
    flotsam: view.flotsam,
    missileRange: null,
  };
}

/**
 * A Diadochi state with the plots handed in and not yet revealed put on the table: the state a seat is sent holds
 * only its own plot, so a side sees its ships where it plotted them until both plots are in.
 */
function plotted(state: DiadochiState): DiadochiState {
  const plots = Object.values(state.deployments ?? {}).flat();
  if (state.stage !== 'deploy' || plots.length === 0) return state;
  const at = new Map(plots.map((p) => [p.ship, p]));
  return { ...state, ships: state.ships.map((s) => (at.has(s.id) ? { ...s, x: at.get(s.id)!.x, y: at.get(s.id)!.y, heading: at.get(s.id)!.heading } : s)) };
}

/** The picture of a table ruleset's state. */
export function tablePicture(ruleset: TableRulesetId, state: unknown): TablePicture {
  return ruleset === 'diadochi-naval' ? diadochiPicture(diadochiTable(plotted(state as DiadochiState))) : oiPicture(state as OiState);
}

/** A table point in the drawing (x east; the SVG's y down, so north is up). */
export const svgPoint = (p: Point, depth: number): Point => ({ x: p.x, y: depth - p.y });
/** The table point under a drawing point. */
export const tablePoint = (p: Point, depth: number): Point => ({ x: p.x, y: depth - p.y });

const fixed = (n: number) => Math.round(n * 1000) / 1000;

/** A base's outline as SVG points. */
export function basePoints(b: Base, depth: number): string {
  return cornersOf(b)
    .map((c) => svgPoint(c, depth))
    .map((c) => `${fixed(c.x)},${fixed(c.y)}`)
    .join(' ');
}

/** The bow: a triangle on the front edge pointing the way the base heads. */
export function bowPoints(b: Base, depth: number): string {
  const tip = fromLocal(b, b.length / 2, 0);
  const left = fromLocal(b, b.length / 2 - Math.min(b.length, b.width) * 0.45, -b.width * 0.35);
  const right = fromLocal(b, b.length / 2 - Math.min(b.length, b.width) * 0.45, b.width * 0.35);
  return [tip, right, left]
    .map((c) => svgPoint(c, depth))
    .map((c) => `${fixed(c.x)},${fixed(c.y)}`)
    .join(' ');
}

export function outlinePoints(outline: readonly Point[], depth: number): string {
  return outline
    .map((c) => svgPoint(c, depth))
    .map((c) => `${fixed(c.x)},${fixed(c.y)}`)
    .join(' ');
}

/** The middle of a group of bases (a squadron's stands, a group of ships), or of an outline's corners. */
export function middleOf(points: readonly Point[]): Point {
  const n = Math.max(1, points.length);
  return { x: points.reduce((s, b) => s + b.x, 0) / n, y: points.reduce((s, b) => s + b.y, 0) / n };
}

/** The scale bar's length: the roundest of 1, 2, 5 × 10ⁿ units near a fifth of the table's width. */
export function scaleBarLength(width: number): number {
  const target = width / 5;
  const power = 10 ** Math.floor(Math.log10(target));
  for (const k of [5, 2, 1]) if (k * power <= target) return k * power;
  return power;
}

/** A length in the table's unit, in words ("3.5 cables", "1 inch"). */
export function lengthWords(n: number, unit: string): string {
  const v = Math.round(n * 10) / 10;
  const plural = unit === 'inch' ? 'inches' : `${unit}s`;
  return `${v} ${v === 1 ? unit : plural}`;
}

/**
 * The forward arc of a base as an SVG path: everything ahead of the line along its stern edge (the Diadochi
 * Naval Rules' forward arc), drawn out to `radius` from the middle of the stern edge as a half disc.
 */
export function forwardArcPath(b: Base, radius: number, depth: number): string {
  const stern = fromLocal(b, -b.length / 2, 0);
  const at = (deg: number) => svgPoint({ x: stern.x + Math.sin((deg * Math.PI) / 180) * radius, y: stern.y + Math.cos((deg * Math.PI) / 180) * radius }, depth);
  const [left, ahead, right] = [at(b.heading - 90), at(b.heading), at(b.heading + 90)];
  const r = fixed(radius);
  return `M${fixed(left.x)},${fixed(left.y)} A${r},${r} 0 0 1 ${fixed(ahead.x)},${fixed(ahead.y)} A${r},${r} 0 0 1 ${fixed(right.x)},${fixed(right.y)} Z`;
}
