/**
 * The table board's view box arithmetic: the wheel's gentle steps, the zoom kept about the pointer and within its
 * limits (a twelfth of the table at the closest, the whole table at the farthest), and a pan that stays over it.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TABLE_ZOOM, WHEEL_STEP, clampView, drawingPointIn, panView, wheelFactor, zoomAround, zoomLevel } from '../../web/src/battles/table-view.ts';

const whole = { x: -1, y: -1, w: 27, h: 29 };

describe('the table view', () => {
  it('zooms about a point, which stays where it was on the screen', () => {
    const at = { x: 5, y: 20 };
    const v = zoomAround(whole, 2, at, whole);
    expect(v.w).toBeCloseTo(13.5, 9);
    expect(v.h).toBeCloseTo(14.5, 9);
    // The point's place in the view, as a share of it, is what it was.
    expect((at.x - v.x) / v.w).toBeCloseTo((at.x - whole.x) / whole.w, 9);
    expect((at.y - v.y) / v.h).toBeCloseTo((at.y - whole.y) / whole.h, 9);
    expect(zoomLevel(v, whole)).toBeCloseTo(2, 9);
  });

  it('keeps the zoom within its limits however far it is pushed', () => {
    let v = whole;
    for (let i = 0; i < 100; i++) v = zoomAround(v, WHEEL_STEP, { x: 24, y: 1 }, whole);
    expect(zoomLevel(v, whole)).toBeCloseTo(MAX_TABLE_ZOOM, 9);
    for (let i = 0; i < 100; i++) v = zoomAround(v, 1 / WHEEL_STEP, { x: 0, y: 0 }, whole);
    expect(v).toEqual(whole);
    expect(zoomAround(whole, Number.NaN, { x: 0, y: 0 }, whole)).toBe(whole);
  });

  it('pans within the table', () => {
    const v = zoomAround(whole, 4, { x: 13, y: 14 }, whole);
    const right = panView(v, 100, 0, whole);
    expect(right.x + right.w).toBeCloseTo(whole.x + whole.w, 9);
    const up = panView(v, 0, -100, whole);
    expect(up.y).toBeCloseTo(whole.y, 9);
    expect(panView(whole, 5, 5, whole)).toEqual(whole);
    expect(clampView({ x: 0, y: 0, w: 1000, h: 1000 }, whole)).toEqual(whole);
  });

  it('makes a mouse notch a gentle step, a trackpad’s small delta a smaller one, either way the same size back', () => {
    expect(wheelFactor(-100)).toBeGreaterThan(1.1);
    expect(wheelFactor(-100)).toBeLessThanOrEqual(WHEEL_STEP);
    expect(wheelFactor(-1000)).toBeCloseTo(WHEEL_STEP, 9);
    expect(wheelFactor(-6, 1)).toBeCloseTo(WHEEL_STEP, 9);
    expect(wheelFactor(-3, 1)).toBeCloseTo(wheelFactor(-60), 9);
    expect(wheelFactor(4)).toBeLessThan(1);
    expect(wheelFactor(4)).toBeGreaterThan(0.98);
    expect(wheelFactor(100) * wheelFactor(-100)).toBeCloseTo(1, 9);
  });

  it('finds the drawing point under the pointer in a frame of another shape', () => {
    // A 27 × 29 view in a 540 × 290 frame: 10 px a unit, a band of 135 px each side.
    const rect = { left: 10, top: 20, width: 540, height: 290 };
    expect(drawingPointIn(whole, rect, { clientX: 10 + 135, clientY: 20 })).toEqual({ x: -1, y: -1 });
    expect(drawingPointIn(whole, rect, { clientX: 10 + 135 + 270, clientY: 20 + 290 })).toEqual({ x: 26, y: 28 });
    expect(drawingPointIn(whole, { ...rect, width: 0 }, { clientX: 0, clientY: 0 })).toBeNull();
  });
});
