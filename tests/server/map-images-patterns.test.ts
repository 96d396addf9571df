/**
 * Powers told apart without colour: each power's fill on the map (and in the map pictures' band) is a tint of its
 * colour with a pattern of its own (shared/drawing/patterns.ts). Eight patterns, so no variant of up to eight powers
 * repeats one; each tile drawn here (by resvg, as the map pictures are) and compared as a colour-blind viewer sees
 * it, in grey: every two powers of each shipped variant differ in a good share of the tile's pixels.
 */
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, test } from 'vitest';
import { getVariant, variantIds } from '../../shared/index.ts';
import { powerStyles, type PowerStyle } from '../../shared/drawing/overlay.ts';
import { PATTERN_MARKS, patternMark, tint } from '../../shared/drawing/patterns.ts';

/** The size the 8-unit tile is drawn at. */
const SIZE = 64;

/** A tile as drawn on the map (tint, marks in a deeper tint), as grey levels: what is left without colour. */
function greyTile(colour: string, mark: string): Float64Array {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8" width="${SIZE}" height="${SIZE}">` +
    `<rect width="8" height="8" fill="${tint(colour, 0.42)}"/>` +
    `<path d="${mark}" stroke="${tint(colour, 0.85)}" stroke-width="1.3" stroke-linecap="round" fill="none"/></svg>`;
  const rgba = new Resvg(svg).render().pixels;
  const grey = new Float64Array(SIZE * SIZE);
  for (let i = 0; i < grey.length; i++) grey[i] = 0.2126 * rgba[4 * i] + 0.7152 * rgba[4 * i + 1] + 0.0722 * rgba[4 * i + 2];
  return grey;
}

/** The share of pixels whose grey level differs by more than `by` (on 0–255). */
function differing(a: Float64Array, b: Float64Array, by = 12): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > by) count += 1;
  return count / a.length;
}

describe('patterns', () => {
  test('eight, each drawn unlike every other: a variant of up to eight powers repeats none', () => {
    expect(PATTERN_MARKS.length).toBeGreaterThanOrEqual(8);
    expect(new Set(Array.from({ length: 8 }, (_, i) => patternMark(i))).size).toBe(8);
    // The marks alone, in black on white: each covers some of the tile, and every two differ in a tenth of it.
    const tiles = PATTERN_MARKS.map((mark) => greyTile('#000000', mark));
    for (const [i, a] of tiles.entries()) {
      expect(differing(a, greyTile('#000000', 'M0 0')), `pattern ${i} draws something`).toBeGreaterThan(0.03);
      for (let j = i + 1; j < tiles.length; j++) expect(differing(a, tiles[j]), `patterns ${i} and ${j}`).toBeGreaterThan(0.1);
    }
  });

  test.each(variantIds())('%s: every two powers are told apart in grey, by their patterns', (id) => {
    const powers: PowerStyle[] = powerStyles(getVariant(id)!);
    expect(powers.length).toBeLessThanOrEqual(8);
    const tiles = powers.map((p) => greyTile(p.colour, patternMark(p.index)));
    for (let i = 0; i < powers.length; i++)
      for (let j = i + 1; j < powers.length; j++) {
        expect(patternMark(powers[i].index), `${powers[i].id} and ${powers[j].id} share a pattern`).not.toBe(patternMark(powers[j].index));
        expect(differing(tiles[i], tiles[j]), `${powers[i].id} and ${powers[j].id} in grey`).toBeGreaterThan(0.1);
      }
  });
});
