/**
 * The sandbox's first view (`fill`: no power's pieces to keep in view): the map fills the frame, with no empty band
 * above, below or beside it, at any frame's shape, centred across where it is asked; the whole map stays a click away.
 */
import { describe, expect, it } from 'vitest';
import { PanZoom } from '../../web/src/map/pan-zoom.svelte.ts';
import { coverView, fitAll, initialView } from '../../web/src/map/viewport.ts';

const map = { width: 1600, height: 900 };
/** The map panes of the sandbox at 1400×900, 1920×1080, 1024×768 and on a phone held upright (375×812). */
const frames = [
  { width: 990, height: 851 },
  { width: 1510, height: 1031 },
  { width: 614, height: 719 },
  { width: 375, height: 443 },
  { width: 2400, height: 800 },
];

const inside = (v: { x: number; y: number; w: number; h: number }) => {
  expect(v.x).toBeGreaterThanOrEqual(-1e-9);
  expect(v.y).toBeGreaterThanOrEqual(-1e-9);
  expect(v.x + v.w).toBeLessThanOrEqual(map.width + 1e-9);
  expect(v.y + v.h).toBeLessThanOrEqual(map.height + 1e-9);
};

describe('a view that fills its frame', () => {
  it('shows only map, as much of it as the frame’s shape allows, centred where asked', () => {
    for (const f of frames) {
      const aspect = f.width / f.height;
      const v = coverView(map, aspect, 700);
      inside(v);
      expect(v.w / v.h).toBeCloseTo(aspect);
      // One side of the map is shown whole: the view is as large as it can be without a band.
      expect(Math.max(v.w / map.width, v.h / map.height)).toBeCloseTo(1);
      if (v.w < map.width) expect(v.x + v.w / 2).toBeCloseTo(Math.min(Math.max(700, v.w / 2), map.width - v.w / 2));
    }
  });

  it('is what a phone’s first view was already (the full height, centred where asked)', () => {
    expect(coverView(map, 0.5, 850)).toEqual(initialView(map, 0.5, 850));
  });

  it('is the first view of a map told to fill: at every frame’s size, until the player asks for the whole map', () => {
    const panZoom = new PanZoom({ bounds: map, keepInView: undefined, focusX: 700, selectedPoint: null, fill: true });
    for (const f of frames) {
      panZoom.resized(f.width, f.height);
      inside(panZoom.view);
      expect(panZoom.view).toEqual(coverView(map, f.width / f.height, 700));
    }
    panZoom.showWholeMap();
    panZoom.resized(990, 851);
    expect(panZoom.view).toEqual(fitAll(map, 990 / 851));
  });
});
