/**
 * Zoom and pan as a view box over the drawing: pure arithmetic, so wheel,
 * drag, pinch, buttons and keys all share it and it is tested without a browser.
 */
export interface ViewBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Bounds {
  width: number;
  height: number;
}

/** How far in players may zoom: ten times the whole map, where a small island province fills a phone. */
export const MAX_ZOOM = 10;

/** The whole map, with the screen's aspect ratio (extra room around it rather than cropping). */
export function fitAll(map: Bounds, aspect: number): ViewBox {
  const mapAspect = map.width / map.height;
  if (aspect >= mapAspect) {
    const w = map.height * aspect;
    return { x: (map.width - w) / 2, y: 0, w, h: map.height };
  }
  const h = map.width / aspect;
  return { x: 0, y: (map.height - h) / 2, w: map.width, h };
}

/** A box on the map (in the drawing's units) that a view should show whole. */
export interface Extent {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** The box around `points`, `margin` wider on every side; undefined for no points. */
export function extentOf(points: Iterable<readonly [number, number]>, margin = 0): Extent | undefined {
  let e: Extent | undefined;
  for (const [x, y] of points) {
    e = e
      ? { minX: Math.min(e.minX, x), maxX: Math.max(e.maxX, x), minY: Math.min(e.minY, y), maxY: Math.max(e.maxY, y) }
      : { minX: x, maxX: x, minY: y, maxY: y };
  }
  return e && { minX: e.minX - margin, maxX: e.maxX + margin, minY: e.minY - margin, maxY: e.maxY + margin };
}

/** The box around both (either may be missing). */
export function unionExtent(a: Extent | undefined, b: Extent | undefined): Extent | undefined {
  if (!a || !b) return a ?? b;
  return { minX: Math.min(a.minX, b.minX), maxX: Math.max(a.maxX, b.maxX), minY: Math.min(a.minY, b.minY), maxY: Math.max(a.maxY, b.maxY) };
}

/**
 * The narrowest frame (width for 1 high) in which a visitor starts on the whole board: a tablet held upright or a
 * laptop's board beside its panel (the bands above and below show the drawing's surroundings). A phone held upright
 * (about 0.5) would show the board as a strip too small to read.
 */
export const WHOLE_BOARD_ASPECT = 0.7;

/**
 * Where to start. With `keep` (the player's own pieces): the map fills the frame (no empty band where the map could
 * be, as 'cover' does), zoomed out only as far as needed to show all of `keep`, and centred on it. Without it (a
 * visitor, or a game master who plays no power): the whole board, unless the frame is as tall as a phone's
 * (WHOLE_BOARD_ASPECT), where it starts on the map's full height centred on `focus`.
 */
export function initialView(map: Bounds, aspect: number, focusX = map.width / 2, keep?: Extent): ViewBox {
  const all = fitAll(map, aspect);
  if (!keep) return aspect >= WHOLE_BOARD_ASPECT ? all : coverView(map, aspect, focusX);
  // Only the part of it on the map counts: the view never goes past the map's edges (clamp).
  const left = Math.max(keep.minX, 0);
  const right = Math.min(keep.maxX, map.width);
  const top = Math.max(keep.minY, 0);
  const bottom = Math.min(keep.maxY, map.height);
  const cover = Math.min(map.width, map.height * aspect);
  const w = Math.min(all.w, Math.max(cover, right - left, (bottom - top) * aspect));
  const h = w / aspect;
  return clamp({ x: (left + right) / 2 - w / 2, y: (top + bottom) / 2 - h / 2, w, h }, map, aspect);
}

/**
 * The map filling the frame, with no empty band (as CSS's 'cover'): as much of it as the frame's shape allows,
 * centred on `focusX` across and on the map's middle down.
 */
export function coverView(map: Bounds, aspect: number, focusX = map.width / 2): ViewBox {
  const w = Math.min(map.width, map.height * aspect);
  const h = w / aspect;
  return clamp({ x: focusX - w / 2, y: (map.height - h) / 2, w, h }, map, aspect);
}

/** Keep the view inside the map (or centred on it when the view is larger), and the zoom within bounds. */
export function clamp(v: ViewBox, map: Bounds, aspect: number): ViewBox {
  const all = fitAll(map, aspect);
  const w = Math.min(Math.max(v.w, all.w / MAX_ZOOM), all.w);
  const h = w / aspect;
  const fix = (pos: number, size: number, extent: number) => (size >= extent ? (extent - size) / 2 : Math.min(Math.max(pos, 0), extent - size));
  // Scale about the view's centre when the zoom was limited.
  const cx = v.x + v.w / 2;
  const cy = v.y + v.h / 2;
  return { x: fix(cx - w / 2, w, map.width), y: fix(cy - h / 2, h, map.height), w, h };
}

/** Zoom by `factor` (> 1 zooms in) keeping the map point (px, py) where it is on screen. */
export function zoomAt(v: ViewBox, factor: number, px: number, py: number, map: Bounds, aspect: number): ViewBox {
  const w = v.w / factor;
  const h = v.h / factor;
  const next = { x: px - ((px - v.x) * w) / v.w, y: py - ((py - v.y) * h) / v.h, w, h };
  const limited = clamp(next, map, aspect);
  // When the zoom hit a limit, clamp() scaled about the centre; keep the pan of the unlimited view instead.
  return limited.w === w ? clamp(next, map, aspect) : limited;
}

export function pan(v: ViewBox, dx: number, dy: number, map: Bounds, aspect: number): ViewBox {
  return clamp({ ...v, x: v.x + dx, y: v.y + dy }, map, aspect);
}

/** The zoom level relative to the whole map (1 = all of it). */
export function zoomLevel(v: ViewBox, map: Bounds, aspect: number): number {
  return fitAll(map, aspect).w / v.w;
}

/** The view panned (not zoomed) just enough that the map point stands `margin` inside it; unchanged if it does already. */
export function bringIntoView(v: ViewBox, point: readonly [number, number], margin: number, map: Bounds, aspect: number): ViewBox {
  const [px, py] = point;
  const m = Math.min(margin, v.w / 4, v.h / 4);
  const dx = px < v.x + m ? px - (v.x + m) : px > v.x + v.w - m ? px - (v.x + v.w - m) : 0;
  const dy = py < v.y + m ? py - (v.y + m) : py > v.y + v.h - m ? py - (v.y + v.h - m) : 0;
  return dx === 0 && dy === 0 ? v : pan(v, dx, dy, map, aspect);
}
