import { describe, expect, it } from 'vitest';
import {
  MAX_ZOOM,
  bringIntoView,
  clamp,
  extentOf,
  fitAll,
  initialView,
  pan,
  unionExtent,
  zoomAt,
  zoomLevel,
  type Extent,
  type ViewBox,
} from '../../web/src/map/viewport.ts';
import { computeOverlay } from '../../web/src/map/overlay.ts';
import { start, variant } from './positions.ts';

const map = { width: 1600, height: 900 };

describe('bringing the selected unit into sight', () => {
  const v: ViewBox = { x: 400, y: 0, w: 450, h: 450 };
  it('leaves the view alone when the point is in it, away from the edge', () => {
    expect(bringIntoView(v, [600, 200], 30, map, 1)).toBe(v);
  });
  it('pans just enough, without zooming, when the point is near or past an edge', () => {
    expect(bringIntoView(v, [600, 600], 30, map, 1)).toEqual({ x: 400, y: 180, w: 450, h: 450 });
    expect(bringIntoView(v, [410, 200], 30, map, 1)).toEqual({ x: 380, y: 0, w: 450, h: 450 });
    // Never past the map's edge.
    expect(bringIntoView(v, [1590, 890], 30, map, 1)).toEqual({ x: 1150, y: 450, w: 450, h: 450 });
  });
});

describe('zoom and pan', () => {
  it('fits the whole map at the screen’s aspect ratio', () => {
    expect(fitAll(map, 2)).toEqual({ x: -100, y: 0, w: 1800, h: 900 });
    expect(fitAll(map, 1)).toEqual({ x: 0, y: -350, w: 1600, h: 1600 });
  });

  it('starts on a phone at the map’s full height, centred where asked', () => {
    const v = initialView(map, 0.5, 850);
    expect(v.h).toBe(900);
    expect(v.w).toBe(450);
    expect(v.x + v.w / 2).toBe(850);
  });

  it('keeps the point under the cursor still while zooming', () => {
    const v = fitAll(map, 16 / 9);
    const z = zoomAt(v, 2, 400, 300, map, 16 / 9);
    expect(z.w).toBeCloseTo(800);
    // The point (400, 300) is at the same fraction of the view before and after.
    expect((400 - z.x) / z.w).toBeCloseTo((400 - v.x) / v.w);
    expect((300 - z.y) / z.h).toBeCloseTo((300 - v.y) / v.h);
  });

  it('does not zoom out past the whole map nor in past the limit', () => {
    const v = fitAll(map, 16 / 9);
    expect(zoomAt(v, 0.2, 800, 450, map, 16 / 9).w).toBeCloseTo(v.w);
    const deep = zoomAt(v, 1000, 800, 450, map, 16 / 9);
    expect(zoomLevel(deep, map, 16 / 9)).toBeCloseTo(MAX_ZOOM);
  });

  it('keeps the view on the map when panning', () => {
    const v = zoomAt(fitAll(map, 16 / 9), 4, 800, 450, map, 16 / 9);
    const far = pan(v, 10_000, 10_000, map, 16 / 9);
    expect(far.x + far.w).toBeCloseTo(1600);
    expect(far.y + far.h).toBeCloseTo(900);
    expect(clamp({ ...v, x: -500 }, map, 16 / 9).x).toBe(0);
  });
});

describe('the view a game starts on', () => {
  /** The frame beside the order panel on a 1366×860 laptop is about this shape; the window itself, 1366/860. */
  const laptop = 1.3;
  const contains = (v: ViewBox, e: Extent) => {
    expect(v.x).toBeLessThanOrEqual(e.minX + 1e-9);
    expect(v.x + v.w).toBeGreaterThanOrEqual(e.maxX - 1e-9);
    expect(v.y).toBeLessThanOrEqual(e.minY + 1e-9);
    expect(v.y + v.h).toBeGreaterThanOrEqual(e.maxY - 1e-9);
  };

  it('without an extent to keep, trims the empty bands of a wide screen, and shows all the width of a narrower one', () => {
    const close = (v: ViewBox, expected: ViewBox) => {
      for (const k of ['x', 'y', 'w', 'h'] as const) expect(v[k]).toBeCloseTo(expected[k]);
    };
    // Bands above and below either way: no province is cut off at the west or east as well.
    close(initialView(map, 1, 850), { x: 0, y: -350, w: 1600, h: 1600 });
    close(initialView(map, laptop, 850), { x: 0, y: -165.3846, w: 1600, h: 1230.7692 });
    close(initialView(map, 1366 / 860, 850), { x: 135.2326, y: 0, w: 1429.5349, h: 900 });
    close(initialView(map, 16 / 9, 850), { x: 0, y: 0, w: 1600, h: 900 });
    close(initialView(map, 2.2, 850), { x: 0, y: 86.3636, w: 1600, h: 727.2727 });
    close(initialView(map, 0.5, 850), { x: 625, y: 0, w: 450, h: 900 });
  });

  it('widens the crop to keep an extent near the map’s west edge in view', () => {
    const west: Extent = { minX: 160, maxX: 1470, minY: 280, maxY: 860 };
    for (const aspect of [laptop, 1366 / 860, 1.45, 1]) {
      const v = initialView(map, aspect, 850, west);
      contains(v, west);
      expect(v.w / v.h).toBeCloseTo(aspect);
      // No wider than it has to be: the extent's west edge is the view's.
      expect(v.x).toBeCloseTo(Math.min(160, initialView(map, aspect, 850).x));
    }
  });

  it('keeps the view as it was when the extent is already in it', () => {
    const middle: Extent = { minX: 400, maxX: 1200, minY: 300, maxY: 700 };
    for (const aspect of [laptop, 1366 / 860, 16 / 9, 2.2]) expect(initialView(map, aspect, 850, middle)).toEqual(initialView(map, aspect, 850));
  });

  it('shows the whole width, and no more than the whole map, for an extent as wide as the map', () => {
    const all: Extent = { minX: -20, maxX: 1620, minY: 100, maxY: 800 };
    const v = initialView(map, laptop, 850, all);
    expect(v.x).toBeCloseTo(0);
    expect(v.w).toBeCloseTo(1600);
    const wide = initialView(map, 2.2, 850, { minX: 10, maxX: 1590, minY: 0, maxY: 900 });
    expect(wide).toEqual(fitAll(map, 2.2));
  });

  it('on a very wide screen, keeps an extent near the bottom in view', () => {
    const south: Extent = { minX: 200, maxX: 1450, minY: 280, maxY: 862 };
    const v = initialView(map, 2.2, 850, south);
    contains(v, south);
    expect(v.w).toBeCloseTo(1600);
  });

  it('on a phone, starts as before whatever the extent', () => {
    expect(initialView(map, 0.5, 850, { minX: 100, maxX: 1500, minY: 0, maxY: 900 })).toEqual(initialView(map, 0.5, 850));
  });

  it('an extent is the points’ box with a margin, and unions of them', () => {
    expect(extentOf([], 10)).toBeUndefined();
    expect(
      extentOf(
        [
          [100, 200],
          [300, 50],
        ],
        10,
      ),
    ).toEqual({ minX: 90, maxX: 310, minY: 40, maxY: 210 });
    expect(unionExtent(undefined, { minX: 1, maxX: 2, minY: 3, maxY: 4 })).toEqual({ minX: 1, maxX: 2, minY: 3, maxY: 4 });
    expect(unionExtent({ minX: 0, maxX: 2, minY: 3, maxY: 4 }, { minX: 1, maxX: 5, minY: 2, maxY: 3 })).toEqual({ minX: 0, maxX: 5, minY: 2, maxY: 4 });
  });

  it('shows every unit of Diadochi V’s start, Carthage’s army in Gades too, on a laptop', () => {
    const { units } = computeOverlay(variant, start);
    const gades = units.find((u) => u.location === 'Gad')!;
    // A frame of the laptop's shape now shows the whole width; a slightly wider one crops to 80% centred on
    // x = 850, which would begin east of Gades' counter without the units' extent.
    expect(initialView(map, laptop, 850).x).toBe(0);
    expect(initialView(map, 1.45, 850).x).toBeGreaterThan(gades.at[0] - 9);
    for (const aspect of [laptop, 1366 / 860, 1.45, 16 / 9, 2.2]) {
      const v = initialView(
        map,
        aspect,
        850,
        extentOf(
          units.map((u) => u.at),
          24,
        ),
      );
      for (const u of units) {
        expect(u.at[0] - 12, u.location).toBeGreaterThanOrEqual(v.x);
        expect(u.at[0] + 12, u.location).toBeLessThanOrEqual(v.x + v.w);
        expect(u.at[1] - 12, u.location).toBeGreaterThanOrEqual(v.y);
        expect(u.at[1] + 12, u.location).toBeLessThanOrEqual(v.y + v.h);
      }
    }
  });
});
