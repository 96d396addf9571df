/**
 * Every drawn variant's map.svg goes on beyond the board's frame (its surroundings: land and sea, out of play), so
 * that the board shown whole in a frame of another shape has geography in the bands around it, not blank: far enough
 * for frames from a phone held upright to one on its side. Its viewBox stays the board, and the map pictures leave
 * the surroundings out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeMapImage } from '../../shared/drawing/map-image.ts';
import { initialState } from '../../shared/index.ts';
import { getVariant } from '../../shared/variants.ts';
import { fitAll, type ViewBox } from '../../web/src/map/viewport.ts';

const mapsDir = new URL('../../maps/', import.meta.url);
const drawn = readdirSync(mapsDir)
  .filter((id) => existsSync(new URL(`${id}/geometry.json`, mapsDir)))
  .sort();

/** The map frame's shapes on the screens players use: 375×812 upright (the whole map asked for), to a phone on its side and 1920×1080. */
const ASPECTS = [0.46, 0.55, 0.75, 1, 4 / 3, 1.6, 16 / 9, 2.1, 2.5];

/** The rectangles of a path made only of `M x y H x V y H x Z` rectangles. */
function rectangles(d: string): ViewBox[] {
  return [...d.matchAll(/M(-?[\d.]+) (-?[\d.]+)H(-?[\d.]+)V(-?[\d.]+)H-?[\d.]+Z/g)].map(([, x0, y0, x1, y1]) => ({
    x: Number(x0),
    y: Number(y0),
    w: Number(x1) - Number(x0),
    h: Number(y1) - Number(y0),
  }));
}

/** The absolute points of a path of `M x y l dx dy dx dy … z` rings. */
function ringPoints(d: string): [number, number][] {
  const points: [number, number][] = [];
  for (const [, x, y, steps] of d.matchAll(/M(-?\d+) (-?\d+)l([-\d ]*)z/g)) {
    let [px, py] = [Number(x), Number(y)];
    points.push([px, py]);
    const n = steps.trim().split(' ').map(Number);
    for (let i = 0; i + 1 < n.length; i += 2) {
      px += n[i];
      py += n[i + 1];
      points.push([px, py]);
    }
  }
  return points;
}

describe.each(drawn)('the drawn variant %s', (id) => {
  const svg = readFileSync(new URL(`${id}/map.svg`, mapsDir), 'utf8');
  const geometry = JSON.parse(readFileSync(new URL(`${id}/geometry.json`, mapsDir), 'utf8')) as { viewBox: number[] };
  const [, , width, height] = geometry.viewBox;
  const group = /<g id="surroundings">([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
  const sea = rectangles(/<path class="beyond-sea" d="([^"]*)"/.exec(group)?.[1] ?? '');
  const land = ringPoints(/<path class="beyond-land" d="([^"]*)"/.exec(group)?.[1] ?? '');

  it("keeps the board's frame as its viewBox, and draws the surroundings first, under the board", () => {
    expect(svg).toContain(`viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"`);
    const at = svg.indexOf('<g id="surroundings">');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(svg.indexOf('<rect id="background-water"'));
    expect(at).toBeLessThan(svg.indexOf('<g id="provinces">'));
    // Out of play and not interactive: no province, label or title among them.
    expect(group).not.toMatch(/<title>|data-province|id="p-/);
    expect(svg).toContain('#surroundings{pointer-events:none}');
  });

  it.each(ASPECTS)('fills, at a frame %f wide for 1 high, every band around the whole board with sea and land', (aspect) => {
    const view = fitAll({ width, height }, aspect);
    // Each part of the view beyond the board lies inside one of the sea's rectangles.
    const beyond = [
      ...(view.y < 0 ? [{ x: view.x, y: view.y, w: view.w, h: -view.y }] : []),
      ...(view.y + view.h > height ? [{ x: view.x, y: height, w: view.w, h: view.y + view.h - height }] : []),
      ...(view.x < 0 ? [{ x: view.x, y: view.y, w: -view.x, h: view.h }] : []),
      ...(view.x + view.w > width ? [{ x: width, y: view.y, w: view.x + view.w - width, h: view.h }] : []),
    ];
    for (const part of beyond)
      expect(
        sea.some((r) => r.x <= part.x + 0.5 && r.y <= part.y + 0.5 && r.x + r.w >= part.x + part.w - 0.5 && r.y + r.h >= part.y + part.h - 0.5),
        JSON.stringify(part),
      ).toBe(true);
    // And land is drawn in them: the bands are geography, not an empty sea (every variant's board has land beyond it
    // on every side); a sliver of a band may hold sea only.
    for (const part of beyond.filter((p) => Math.min(p.w, p.h) > 40))
      expect(
        land.some(([x, y]) => x > part.x && x < part.x + part.w && y > part.y && y < part.y + part.h),
        JSON.stringify(part),
      ).toBe(true);
  });

  it('draws its land beyond the board only (reaching under its edge by a few units, hidden there)', () => {
    expect(land.length).toBeGreaterThan(100);
    const inside = land.filter(([x, y]) => x > 4 && y > 4 && x < width - 4 && y < height - 4);
    expect(inside).toEqual([]);
  });

  it("is left out of the game's map pictures, which show the board alone", () => {
    const variant = getVariant(id)!;
    const picture = composeMapImage({ drawing: svg, variant, position: initialState(variant), glyphs: [], caption: 'the start', centres: new Map() });
    expect(picture).not.toContain('<g id="surroundings">');
    expect(picture).not.toContain('class="beyond-land"');
    expect(picture).toContain('<rect id="background-water"');
    expect(picture).toMatch(new RegExp(`^<svg viewBox="0 0 ${width} \\d+"`));
  });
});
