/**
 * Draws a variant's map from real geography.
 *
 *   npm run mapgen -- <variant>                          writes maps/<variant>/{geometry.json,map.svg} and
 *                                                        variant.json (all of it, or only its draw points)
 *   MAPGEN_SCALE=1 npm run mapgen -- <variant>           a quicker, coarser draft; commit only the default scale 2
 *   MAPGEN_DEBUG_PNG=/tmp/p.png npm run mapgen -- <v>    also writes a raster preview of the partition
 *   MAPGEN_PREVIEW_SVG=/tmp/m.svg npm run mapgen -- <v>  also writes the SVG there, even when the drawing fails
 *   MAPGEN_DRY_RUN=1 npm run mapgen -- <variant>         checks the drawing against the data and writes nothing under maps/
 *
 * The variant's source is tools/mapgen/variants/<variant>.ts (a MapSource, see source.ts).
 * A hand-written variant fails, writing nothing under maps/, when its drawing's borders differ
 * from its data's adjacency; every difference is listed.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMap, type HandWrittenData, withDrawPoints } from './generator.ts';
import type { MapSource } from './source.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

const available = () =>
  readdirSync(join(here, 'variants'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();

const id = process.argv[2];
if (!id || !available().includes(id)) {
  console.error(`usage: npm run mapgen -- <variant>, where <variant> is one of: ${available().join(', ')}`);
  process.exit(2);
}
const source = ((await import(`./variants/${id}.ts`)) as { default: MapSource }).default;
if (source.id !== id) throw new Error(`tools/mapgen/variants/${id}.ts describes ${source.id}, not ${id}`);
const outDir = join(root, 'maps', id);
const variantPath = join(outDir, 'variant.json');

const readData = (): { text: string; data: HandWrittenData } => {
  if (!existsSync(variantPath)) throw new Error(`${variantPath} does not exist: a hand-written variant's data comes first`);
  const text = readFileSync(variantPath, 'utf8');
  const data = JSON.parse(text) as HandWrittenData;
  // Only the draw points change: the file must already be in the form it is written back in.
  if (`${JSON.stringify(data, null, 2)}\n` !== text)
    throw new Error(
      `${variantPath} is not formatted as JSON.stringify(data, null, 2) with a final newline; the generator would rewrite more than its draw points`,
    );
  return { text, data };
};

const started = Date.now();
const result = generateMap(source, {
  scale: Number(process.env.MAPGEN_SCALE ?? 2),
  debugPng: process.env.MAPGEN_DEBUG_PNG,
  data: source.data.kind === 'hand-written' ? readData().data : undefined,
  log: (...a) => console.log(...a),
});
if (process.env.MAPGEN_PREVIEW_SVG) writeFileSync(process.env.MAPGEN_PREVIEW_SVG, result.svg);

const failures = [...result.problems.map((p) => `PROBLEM: ${p}`), ...result.mismatches];
if (failures.length > 0) {
  for (const f of failures) console.error(`  ${f}`);
  console.error(
    `${id}: the drawing does not match (${result.mismatches.length} adjacency differences, ${result.problems.length} problems); nothing written under maps/`,
  );
  process.exit(1);
}

if (process.env.MAPGEN_DRY_RUN) {
  console.log(`${id}: ${result.summary}; the drawing matches; dry run, nothing written under maps/`);
  process.exit(0);
}
writeFileSync(join(outDir, 'geometry.json'), result.geometry);
writeFileSync(join(outDir, 'map.svg'), result.svg);
if (result.variant !== undefined) writeFileSync(variantPath, result.variant);
// Re-read right before writing: another edit to the data since the start must survive.
if (result.draw) writeFileSync(variantPath, withDrawPoints(readData().text, result.draw));
if (result.readmeTable !== undefined) {
  const readmePath = join(outDir, 'README.md');
  let readme = existsSync(readmePath) ? readFileSync(readmePath, 'utf8') : '';
  const start = '<!-- province-table:start -->';
  const end = '<!-- province-table:end -->';
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a >= 0 && b > a) {
    readme = `${readme.slice(0, a + start.length)}\n${result.readmeTable}\n${readme.slice(b)}`;
    writeFileSync(readmePath, readme);
  }
}
console.log(`${id}: ${result.summary}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
