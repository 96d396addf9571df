import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, clamp, fitAll, initialView, pan, zoomAt, zoomLevel } from '../../web/src/map/viewport.ts';

const map = { width: 1600, height: 900 };

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
