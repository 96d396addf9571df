/**
 * Every shipped variant that has a drawing (maps/<variant>/map.svg) is pictured with no code of its own: its starting
 * position as SVG (every unit, every owned province filled with its owner's pattern, every power in the band) and as
 * a PNG of the drawing's size plus the band, each power's colour where its units stand. So is a variant that exists
 * only in the tests (tests/fixtures/three-isles: its variant.json and map.svg), from its own files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { initialState, MapDataSchema, powerSummary, type Variant } from '../../shared/index.ts';
import { compileVariant } from '../../shared/variant/load.ts';
import { composeRules } from '../../shared/rules/index.ts';
import { locationPoint } from '../../shared/drawing/overlay.ts';
import { BAND_HEIGHT, composeMapImage, drawingSize } from '../../shared/drawing/map-image.ts';
import { getVariant, variantIds } from '../../shared/variants.ts';
import { mapDrawingOf } from '../../server/views/map-image.ts';
import { svgToPng } from '../../server/pictures/png.ts';
import { colourNear, decodePng } from './map-images-png.ts';

const drawn = variantIds().filter((id) => mapDrawingOf(id) !== null);

/** A variant's starting position pictured from its drawing: every unit, owner and power as SVG, and the PNG's size and colours. */
async function picturesItsStart(variant: Variant, drawing: string): Promise<void> {
  const position = initialState(variant);
  const centres = new Map(powerSummary(variant, position).map((s) => [s.power, s.centres.length]));
  const svg = composeMapImage({ drawing, variant, position, glyphs: [], caption: `${variant.name} · the start`, centres });
  for (const unit of position.units)
    expect(svg, unit.at).toContain(`data-unit="${variant.locationIds.find((l) => l.toLowerCase() === unit.at.toLowerCase())}"`);
  for (const province of Object.keys(position.owners))
    expect(svg, province).toMatch(new RegExp(`<path id="p-${province}" style="fill:url\\(#own-\\d\\)"`, 'i'));
  for (const power of variant.powers) expect(svg).toContain(`>${power} ${centres.get(power)}<`);

  const { png, width, height } = await svgToPng(svg);
  const size = drawingSize(drawing);
  expect([width, height]).toEqual([size.width, size.height + BAND_HEIGHT]);
  const image = decodePng(png);
  expect([image.width, image.height]).toEqual([width, height]);
  for (const unit of position.units) {
    const [x, y] = locationPoint(variant, unit.at)!;
    const colour = variant.data.powers.find((p) => p.id === unit.power)!.colour;
    expect(colourNear(image, x, y, colour), `${unit.power} at ${unit.at}`).toBe(true);
  }
}

describe('drawn variants', () => {
  test('Diadochi V, Standard and Ancient Mediterranean are among them', () => {
    expect(drawn).toEqual(expect.arrayContaining(['diadochi-v', 'standard', 'ancient-mediterranean']));
  });

  test.each(drawn)('%s: its starting position, as SVG and PNG', async (id) => {
    await picturesItsStart(getVariant(id)!, mapDrawingOf(id)!);
  });

  test('a variant added only in the tests is pictured from its own files, with no code of its own', async () => {
    const fixture = (file: string) => readFileSync(new URL(`../fixtures/three-isles/${file}`, import.meta.url), 'utf8');
    const compiled = compileVariant(MapDataSchema.parse(JSON.parse(fixture('variant.json'))), {}, composeRules);
    if (!compiled.ok) throw new Error(`the fixture variant is invalid: ${compiled.error.join('; ')}`);
    await picturesItsStart(compiled.value, fixture('map.svg'));
  });

  test("a long game name is cut short in the band, before the powers' legend", () => {
    const variant = getVariant('standard')!;
    const position = initialState(variant);
    const caption = `${'A very long name for a game '.repeat(8)}· Spring 1901`;
    const svg = composeMapImage({ drawing: mapDrawingOf('standard')!, variant, position, glyphs: [], caption, centres: new Map() });
    const written = /font-size="15" dominant-baseline="central">([^<]*)<\/text>/.exec(svg)?.[1] ?? '';
    expect(written.endsWith('…')).toBe(true);
    expect(caption.startsWith(written.slice(0, -1))).toBe(true);
    // Seven powers' legend takes the right of the band; the caption stays left of it (about 9 units a letter).
    const legendStart = Math.min(...[...svg.matchAll(/<rect x="([\d.]+)" y="\d+" width="18"/g)].map((m) => Number(m[1])));
    expect(12 + written.length * 9).toBeLessThan(legendStart);
  });
});
