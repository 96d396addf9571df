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
import { computeOverlay } from '../../shared/drawing/overlay.ts';
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

  /** A view that shows no empty band: inside the map on all four sides. */
  const fills = (v: ViewBox) => {
    expect(v.x).toBeGreaterThanOrEqual(-1e-9);
    expect(v.y).toBeGreaterThanOrEqual(-1e-9);
    expect(v.x + v.w).toBeLessThanOrEqual(1600 + 1e-9);
    expect(v.y + v.h).toBeLessThanOrEqual(900 + 1e-9);
  };

  it('shows a visitor (no pieces to keep) the whole board on a wide screen or a tablet, the full height on a phone', () => {
    // 0.75: a 1024×768 board beside its panel, or a tablet held upright; the bands above and below are the drawing's surroundings.
    for (const aspect of [0.75, 1, laptop, 1366 / 860, 16 / 9, 2.2]) expect(initialView(map, aspect, 850)).toEqual(fitAll(map, aspect));
    expect(initialView(map, 0.5, 850)).toEqual({ x: 625, y: 0, w: 450, h: 900 });
  });

  it('fills the frame with the map (no empty band) when the pieces fit in it, centred on them', () => {
    const middle: Extent = { minX: 400, maxX: 900, minY: 300, maxY: 700 };
    for (const aspect of [0.9, 1, laptop, 1366 / 860, 16 / 9, 2.2]) {
      const v = initialView(map, aspect, 850, middle);
      fills(v);
      contains(v, middle);
      expect(v.w / v.h).toBeCloseTo(aspect);
      // As close in as filling the frame allows: the map's full height, or its full width on a very wide frame.
      expect(Math.max(v.w / 1600, v.h / 900)).toBeCloseTo(1);
    }
    // Centred on the pieces where the map's edge allows.
    const v = initialView(map, 1, 850, middle);
    expect(v.x + v.w / 2).toBeCloseTo(650);
  });

  it('goes as close as the map’s edge to pieces near it', () => {
    const west: Extent = { minX: 40, maxX: 500, minY: 280, maxY: 860 };
    for (const aspect of [0.9, laptop, 16 / 9]) {
      const v = initialView(map, aspect, 850, west);
      fills(v);
      contains(v, west);
      expect(v.x).toBe(0);
    }
  });

  it('zooms out only as far as the pieces need, and never past the whole board', () => {
    const wide: Extent = { minX: 100, maxX: 1500, minY: 300, maxY: 600 };
    const v = initialView(map, laptop, 850, wide);
    contains(v, wide);
    expect(v.w).toBeCloseTo(1400);
    const all: Extent = { minX: -20, maxX: 1620, minY: 0, maxY: 900 };
    expect(initialView(map, 2.2, 850, all)).toEqual(fitAll(map, 2.2));
    expect(initialView(map, laptop, 850, all)).toEqual(fitAll(map, laptop));
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

  it('opens on all of each power’s units at the start, on every screen the players used, filling the frame', () => {
    const { units } = computeOverlay(variant, start);
    // The map's frame beside the 430 px panel at 1024×768, 1400×900 and 1920×1080, and a phone's above its sheet.
    const frames = [594 / 690, 970 / 820, 1490 / 1000, 375 / 470];
    for (const power of variant.data.powers.map((p) => p.id)) {
      const own = units.filter((u) => u.power === power);
      for (const aspect of frames) {
        const v = initialView(
          map,
          aspect,
          850,
          extentOf(
            own.map((u) => u.at),
            24,
          ),
        );
        for (const u of own) {
          expect(u.at[0] - 12, `${power} ${u.location} ${aspect}`).toBeGreaterThanOrEqual(v.x);
          expect(u.at[0] + 12, u.location).toBeLessThanOrEqual(v.x + v.w);
          expect(u.at[1] - 12, u.location).toBeGreaterThanOrEqual(v.y);
          expect(u.at[1] + 12, u.location).toBeLessThanOrEqual(v.y + v.h);
        }
        fills(v);
      }
    }
  });
});
