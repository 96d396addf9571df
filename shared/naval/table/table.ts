/**
 * The table: its width (west to east) and depth (south to north) in the ruleset's unit, its terrain (land,
 * islands, beaches: simple polygons) and what each edge and each piece of terrain is to each side (friendly,
 * neutral, enemy). Where a base may stand: on the table, off the land, clear of every other base.
 */
import { z } from 'zod';
import { type Base, cornersOf } from './base.ts';
import { type Polygon, convexOverlapsSimple, distanceToSimple, segmentsCross, shrunk, signedArea } from './polygon.ts';
import { TOUCH, overlapping } from './relations.ts';
import type { Point } from './vector.ts';

export const EDGES = ['north', 'east', 'south', 'west'] as const;
export type Edge = (typeof EDGES)[number];

export const STANDINGS = ['friendly', 'neutral', 'enemy'] as const;
export type Standing = (typeof STANDINGS)[number];

const PointSchema = z.object({ x: z.number().finite().min(-10_000).max(10_000), y: z.number().finite().min(-10_000).max(10_000) }).strict();

/** Land no ship enters; a beach is land ships may touch and land on (the rules say what that means). */
export const TERRAIN_KINDS = ['land', 'island', 'beach'] as const;

const sideId = z.string().min(1).max(40);

export const TerrainSchema = z
  .object({
    id: z.string().min(1).max(40),
    kind: z.enum(TERRAIN_KINDS),
    name: z.string().max(60).default(''),
    /** A simple polygon (no self-crossing), either winding. */
    outline: z.array(PointSchema).min(3).max(200),
    /** What it is to each side; sides not named: neutral. */
    standing: z.record(sideId, z.enum(STANDINGS)).default({}),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (Math.abs(signedArea(t.outline)) === 0) ctx.addIssue({ code: 'custom', path: ['outline'], message: `terrain ${t.id} has no area` });
    const o = t.outline;
    for (let i = 0; i < o.length; i++)
      for (let j = i + 2; j < o.length; j++) {
        if (i === 0 && j === o.length - 1) continue;
        if (segmentsCross(o[i], o[(i + 1) % o.length], o[j], o[(j + 1) % o.length]))
          ctx.addIssue({ code: 'custom', path: ['outline'], message: `terrain ${t.id}'s outline crosses itself (edges ${i + 1} and ${j + 1})` });
      }
  });
export type Terrain = z.infer<typeof TerrainSchema>;

export const TableSchema = z
  .object({
    /** The unit every length of the battle is in, for the log and the board ("cable", "inch"). */
    unit: z.string().min(1).max(20),
    width: z.number().finite().positive().max(1_000),
    depth: z.number().finite().positive().max(1_000),
    terrain: z.array(TerrainSchema).max(40).default([]),
    /** What each edge is to each side (a side's own edge is usually friendly); not named: neutral. */
    edges: z.record(sideId, z.partialRecord(z.enum(EDGES), z.enum(STANDINGS))).default({}),
  })
  .strict();
export type Table = z.infer<typeof TableSchema>;

/** Whether a base lies wholly on the table (its outline may run along an edge). */
export function onTable(table: Pick<Table, 'width' | 'depth'>, b: Base, tolerance = TOUCH): boolean {
  return cornersOf(b).every((p) => p.x >= -tolerance && p.x <= table.width + tolerance && p.y >= -tolerance && p.y <= table.depth + tolerance);
}

/** The terrain a convex shape's inside overlaps by more than the tolerance (touching a shore is not overlapping it). */
export const terrainUnderShape = (table: Pick<Table, 'terrain'>, shape: Polygon, tolerance = TOUCH): Terrain[] => {
  const inner = shrunk(shape, tolerance);
  return table.terrain.filter((t) => convexOverlapsSimple(inner, t.outline));
};

/** The terrain a base's inside overlaps (touching a shore is not overlapping it). */
export const terrainUnder = (table: Pick<Table, 'terrain'>, b: Base): Terrain[] => terrainUnderShape(table, cornersOf(b));

/** The terrain a base touches or overlaps (a ship beached, or run against a cape). */
export const terrainTouching = (table: Pick<Table, 'terrain'>, b: Base, tolerance = TOUCH): Terrain[] =>
  table.terrain.filter((t) => distanceToSimple(cornersOf(b), t.outline) <= tolerance);

/** The nearest distance from a base to a piece of terrain. */
export const distanceToTerrain = (b: Base, t: Terrain): number => distanceToSimple(cornersOf(b), t.outline);

/** Which edge a point is nearest to (ties: north, east, south, west in that order). */
export function nearestEdge(table: Pick<Table, 'width' | 'depth'>, p: Point): Edge {
  const d: Record<Edge, number> = { north: table.depth - p.y, east: table.width - p.x, south: p.y, west: p.x };
  return EDGES.reduce((best, e) => (d[e] < d[best] ? e : best), 'north' as Edge);
}

/** Which edges a base crosses or touches (it is leaving the table by them). */
export function edgesReached(table: Pick<Table, 'width' | 'depth'>, b: Base, tolerance = TOUCH): Edge[] {
  const c = cornersOf(b);
  const out: Edge[] = [];
  if (c.some((p) => p.y >= table.depth - tolerance)) out.push('north');
  if (c.some((p) => p.x >= table.width - tolerance)) out.push('east');
  if (c.some((p) => p.y <= tolerance)) out.push('south');
  if (c.some((p) => p.x <= tolerance)) out.push('west');
  return out;
}

/** What an edge or a piece of terrain is to a side. */
export const edgeStanding = (table: Pick<Table, 'edges'>, side: string, edge: Edge): Standing => table.edges[side]?.[edge] ?? 'neutral';
export const terrainStanding = (t: Terrain, side: string): Standing => t.standing[side] ?? 'neutral';

export type Placing = { ok: true } | { ok: false; reason: string };

/**
 * Whether a base may stand where it is: on the table (unless `offTable` allows it, as for a column running off
 * the edge at set-up), off the land, and not overlapping any of `others`.
 */
export function placing(
  table: Table,
  b: Base,
  others: readonly { readonly id: string; readonly name?: string; readonly base: Base }[],
  options: { offTable?: boolean } = {},
): Placing {
  if (!options.offTable && !onTable(table, b)) return { ok: false, reason: 'it would be off the table' };
  const land = terrainUnder(table, b);
  if (land.length) return { ok: false, reason: `it would run onto ${land[0].name || land[0].id}` };
  const hit = others.find((o) => overlapping(o.base, b));
  if (hit) return { ok: false, reason: `it would overlap ${hit.name ?? hit.id}` };
  return { ok: true };
}
