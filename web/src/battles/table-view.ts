/**
 * The table board's view as a view box over the drawing, pure so that the wheel, a pinch, a drag on the water,
 * the buttons and the keys share it and it is tested without a browser. The view never shows less than a
 * MAX_TABLE_ZOOM-th of the whole table nor more than the whole of it, and never leaves the table: panned, it stays
 * over the table's frame (the table, its margin and its scale bar).
 */
import type { Point } from '../../../shared/naval/table/index.ts';

export interface ViewBox {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** How far in the view goes: a twelfth of the table across (a 25-cable table shows 2 cables, a ship 40 px wide on a phone). */
export const MAX_TABLE_ZOOM = 12;
/** The most one wheel event (a mouse's notch) zooms by: gentle, a dozen notches from the whole table to its closest. */
export const WHEEL_STEP = 1.25;
/** The buttons' and keys' step. */
export const BUTTON_STEP = 1.5;
/** How far a press on the water may move and still be a click (screen pixels). */
export const CLICK_SLOP_PX = 4;

const within = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** The view kept within the zoom's limits and over `whole` (centred on it when as large). */
export function clampView(v: ViewBox, whole: ViewBox): ViewBox {
  const w = within(v.w, whole.w / MAX_TABLE_ZOOM, whole.w);
  const h = (w * whole.h) / whole.w;
  const cx = v.x + v.w / 2;
  const cy = v.y + v.h / 2;
  const fix = (centre: number, size: number, from: number, extent: number) => within(centre - size / 2, from, from + extent - size);
  return { x: fix(cx, w, whole.x, whole.w), y: fix(cy, h, whole.y, whole.h), w, h };
}

/** Zoomed by `factor` (> 1 zooms in) keeping the drawing point `at` where it is on the screen (within the limits). */
export function zoomAround(v: ViewBox, factor: number, at: Point, whole: ViewBox): ViewBox {
  if (!(factor > 0) || !Number.isFinite(factor)) return v;
  const w = within(v.w / factor, whole.w / MAX_TABLE_ZOOM, whole.w);
  const k = w / v.w;
  const h = v.h * k;
  return clampView({ x: at.x - (at.x - v.x) * k, y: at.y - (at.y - v.y) * k, w, h }, whole);
}

/** Moved by (dx, dy) drawing units, within the table. */
export const panView = (v: ViewBox, dx: number, dy: number, whole: ViewBox): ViewBox => clampView({ ...v, x: v.x + dx, y: v.y + dy }, whole);

/**
 * The zoom one wheel event asks for: a trackpad sends small deltas often, a mouse a large one a notch; scaled by
 * the delta, and no event zooms by more than WHEEL_STEP. Down (positive) zooms out.
 */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  const delta = deltaY * (deltaMode === 1 ? 20 : deltaMode === 2 ? 400 : 1);
  const step = Math.log(WHEEL_STEP);
  return Math.exp(within(-delta * 0.002, -step, step));
}

/** The zoom level: how many times closer than the whole table (1 = all of it). */
export const zoomLevel = (v: ViewBox, whole: ViewBox): number => whole.w / v.w;

/** The drawing point under a screen point, for a view box drawn into `rect` kept in proportion and centred (SVG's "meet"). */
export function drawingPointIn(
  v: ViewBox,
  rect: { left: number; top: number; width: number; height: number },
  client: { clientX: number; clientY: number },
): Point | null {
  if (rect.width === 0 || rect.height === 0 || !Number.isFinite(client.clientX) || !Number.isFinite(client.clientY)) return null;
  const s = Math.min(rect.width / v.w, rect.height / v.h);
  const ox = (rect.width - v.w * s) / 2;
  const oy = (rect.height - v.h * s) / 2;
  return { x: v.x + (client.clientX - rect.left - ox) / s, y: v.y + (client.clientY - rect.top - oy) / s };
}

/** Screen pixels per drawing unit for a view drawn into `rect` ("meet"). */
export const pixelsPerUnit = (v: ViewBox, rect: { width: number; height: number }): number => Math.min(rect.width / v.w, rect.height / v.h);
