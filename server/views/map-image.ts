/**
 * A phase's map as a picture, as anyone who may see the game may see it: the position, and the orders with their
 * results once the phase is processed (access/policy.ts `adjudicationIsPublic`), never before; powers by name, never
 * a player's. So one picture of a phase serves every viewer allowed the game (the routes check that right per request,
 * server/map-images/), and the picture a mail attaches is the same.
 *
 * A processed phase is drawn as the board first shows it: the position after it (units moved, centres taken) with
 * the orders' shapes over it. The variant's drawing is its maps/<variant>/map.svg; a variant without one has no picture.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { powerSummary, resultsAsNow, type Unit, type Variant } from '../../shared/index.ts';
import { drawnResults, glyphsFor, type Glyph } from '../../shared/drawing/glyphs.ts';
import { composeMapImage } from '../../shared/drawing/map-image.ts';
import { describeUnit, locationPoint } from '../../shared/drawing/overlay.ts';
import { adjudicationIsPublic } from '../access/policy.ts';
import type { PhaseRecord } from '../db/tables/phases.ts';
import { positionOf } from '../play/phases.ts';

/** What of a phase the picture needs. */
export type PicturedPhase = Pick<
  PhaseRecord,
  'index' | 'name' | 'status' | 'engineVersion' | 'stateBefore' | 'loanActions' | 'results' | 'disbanded' | 'stateAfter'
>;

/** The folder holding package.json above this module: from the sources (server/views/) or the bundle (dist/server/) alike. */
function projectRootAbove(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${file}`);
  }
}
const mapsDir = path.join(projectRootAbove(fileURLToPath(import.meta.url)), 'maps');

/** Drawings read once per process (about 100 KB each), by file; null: the variant has none. */
const drawings = new Map<string, string | null>();

/** The variant's drawing (`<folder>/<variant>/map.svg`, the project's maps/ by default), or null when the variant is not drawn. */
export function mapDrawingOf(variantId: string, folder: string = mapsDir): string | null {
  // Variant ids are the shipped ones (letters, digits, dashes): never a path of a caller's choosing.
  if (!/^[a-z0-9-]+$/.test(variantId)) return null;
  const file = path.join(folder, variantId, 'map.svg');
  if (!drawings.has(file)) drawings.set(file, existsSync(file) ? readFileSync(file, 'utf8') : null);
  return drawings.get(file) ?? null;
}

/** The red cross where a unit with nowhere to retreat was disbanded (the board's mark for it). */
function disbandGlyphs(variant: Variant, disbanded: readonly Unit[]): Glyph[] {
  return disbanded.flatMap((u) => {
    const at = locationPoint(variant, u.at);
    const text = `${describeUnit(variant, u)} had nowhere to retreat and was disbanded`;
    return at ? [{ kind: 'mark' as const, symbol: 'disband' as const, at, power: u.power, outcome: 'success' as const, ref: -1, text }] : [];
  });
}

/** What the picture shows: the position, and the orders' shapes only once the phase is processed. */
export function picturedPosition(variant: Variant, phase: PicturedPhase) {
  const before = positionOf(variant, phase);
  if (!adjudicationIsPublic(phase)) return { position: before, glyphs: [] as Glyph[] };
  const position = phase.stateAfter ?? before;
  const occupied = new Set(position.units.map((u) => u.at.split('/')[0]));
  const results = resultsAsNow(phase.results ?? [], phase.engineVersion);
  return {
    position,
    glyphs: [...glyphsFor(variant, drawnResults(variant, before.phase.type, results), occupied), ...disbandGlyphs(variant, phase.disbanded ?? [])],
  };
}

/** The phase's picture as an SVG document, or null when the variant has no drawing. */
export function phaseMapSvg(variant: Variant, game: { name: string }, phase: PicturedPhase): string | null {
  const drawing = mapDrawingOf(variant.id);
  if (drawing === null) return null;
  const { position, glyphs } = picturedPosition(variant, phase);
  const centres = new Map(powerSummary(variant, position).map((s) => [s.power, s.centres.length]));
  return composeMapImage({ drawing, variant, position, glyphs, caption: `${game.name} · ${phase.name}`, centres });
}
