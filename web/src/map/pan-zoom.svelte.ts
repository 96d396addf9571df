/**
 * The map's view as the player moves it: zoom (wheel, pinch, buttons, + and −), pan (drag, arrow keys), the whole
 * map (⤢, 0), and the view chosen for them until they touch it: fitted to the frame and to the pieces on the board,
 * the selected unit kept in sight. A press that moved more than a few pixels is a drag, not a click. The arithmetic
 * of view boxes is viewport.ts's; this holds the state and the gestures. MapView.svelte feeds it the frame's size.
 */
import { bringIntoView, clamp, coverView, fitAll, initialView, pan, zoomAt, zoomLevel, type Bounds, type Extent, type ViewBox } from './viewport.ts';

/** What the view follows of the map drawn. */
export interface ViewedMap {
  readonly bounds: Bounds;
  /** What the first view must show whole, however it crops a wide screen (every unit and centre marker). */
  readonly keepInView: Extent | undefined;
  /** Where a narrow (phone) frame starts, since it shows only a slice of the map. */
  readonly focusX: number;
  /** The selected unit (or build site): it stays in sight. */
  readonly selectedPoint: readonly [number, number] | null;
  /** With nothing to keep in view, the first view fills the frame (centred on `focusX`) rather than show the whole map. */
  readonly fill?: boolean;
}

/** The most one wheel event (a mouse's notch) zooms by: 1000 % is a dozen notches from the whole map. */
export const WHEEL_STEP = 1.2;

/** How far a press may move and still be a click. */
const CLICK_SLOP_PX = 5;

export class PanZoom {
  aspect = $state(16 / 9);
  /** What is shown: until the frame is measured, the whole drawing at the aspect assumed. */
  view = $state<ViewBox>({ x: 0, y: 0, w: 0, h: 0 });
  /** The frame's width on screen (0 until measured). */
  frameWidth = $state(0);
  /** The zoom level relative to the whole map (1 = all of it). */
  readonly zoom: number;
  /** Screen pixels per unit of the drawing (0 until the frame is measured). */
  readonly pxPerUnit: number;
  /**
   * Counters are drawn 18 units wide and scaled so that they stay about 16 px on screen when the map is far out
   * (never below 1.25, which reads well once zoomed in, nor above 1.6, beyond which the counters of small neighbouring provinces overlap).
   */
  readonly counterScale: number;
  /** Arrows and marks are scaled so that a move's shaft stays about 3 px wide on screen (1 to 1.8). */
  readonly glyphScale: number;
  /** The names' font size, in units of the drawing: about 12 px on screen, between 10.5 and 16 units. */
  readonly labelSize: number;
  /** The last press moved the map (a drag or a pinch): it is not a click. */
  dragged = false;
  /** Once the player has zoomed or panned, a resize keeps their view; before that it re-fits the map. */
  private touched = false;
  /** The player asked for the whole map (the ⤢ button, the 0 key): a resize, until they zoom or pan, keeps it whole. */
  private whole = false;
  /** The view started again from the player's own pieces, once they were known. */
  fittedToOwn = false;
  /** Pointers down: one drags, two pinch. */
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private pressStart: { x: number; y: number } | null = null;
  private pinchDistance = 0;

  constructor(private readonly map: ViewedMap) {
    this.view = fitAll(map.bounds, this.aspect);
    this.zoom = $derived(zoomLevel(this.view, map.bounds, this.aspect));
    this.pxPerUnit = $derived(this.frameWidth / this.view.w);
    const onScreen = (px: number, min: number, max: number) => (this.pxPerUnit > 0 ? Math.min(max, Math.max(min, px / this.pxPerUnit)) : min);
    this.counterScale = $derived(onScreen(16 / 18, 1.25, 1.6));
    this.glyphScale = $derived(onScreen(3 / 2.6, 1, 1.8));
    this.labelSize = $derived(onScreen(12, 10.5, 16));
  }

  private startingView(): ViewBox {
    const { bounds, focusX, keepInView, fill } = this.map;
    if (this.whole) return fitAll(bounds, this.aspect);
    return !keepInView && fill ? coverView(bounds, this.aspect, focusX) : initialView(bounds, this.aspect, focusX, keepInView);
  }

  /** The view, panned to keep the selected unit `margin` inside it. */
  private inSight(v: ViewBox, margin = 70): ViewBox {
    const point = this.map.selectedPoint;
    return point ? bringIntoView(v, point, margin, this.map.bounds, this.aspect) : v;
  }

  /**
   * The frame's new size. With a unit selected the zoom stays as it was (the frame shrank under the player's
   * finger), in sight of the unit; an untouched view starts again.
   */
  resized(width: number, height: number): void {
    if (width === 0 || height === 0) return;
    this.frameWidth = width;
    this.aspect = width / height;
    const { bounds } = this.map;
    this.view = this.inSight(
      this.touched || this.map.selectedPoint ? clamp({ ...this.view, h: this.view.w / this.aspect }, bounds, this.aspect) : this.startingView(),
    );
  }

  /**
   * The player's own pieces became known (they may be known only after the map is up: a phone then starts on
   * them). The first time, an untouched view starts again from them.
   */
  fitToOwn(): void {
    if (this.fittedToOwn) return;
    this.fittedToOwn = true;
    if (!this.touched && !this.whole) this.view = this.inSight(this.startingView());
  }

  /** Picked where it stands, the unit is only kept wholly in view (a counter's width): the map does not slide under the pointer. */
  keepSelectedInSight(): void {
    this.view = this.inSight(this.view, 20);
  }

  /** What the keyboard reached is panned into sight. */
  reveal(point: readonly [number, number]): void {
    this.view = bringIntoView(this.view, point, 40, this.map.bounds, this.aspect);
  }

  showWholeMap(): void {
    this.view = fitAll(this.map.bounds, this.aspect);
    this.touched = false;
    this.whole = true;
  }

  /** Zoom by `factor` (> 1 zooms in) about the middle of the view, or about a point on screen of `svg`. */
  zoomBy(factor: number, at?: { clientX: number; clientY: number; svg: Element }): void {
    this.touched = true;
    const v = this.view;
    const [px, py] = at ? this.toMap(at.svg, at.clientX, at.clientY) : [v.x + v.w / 2, v.y + v.h / 2];
    this.view = zoomAt(v, factor, px, py, this.map.bounds, this.aspect);
  }

  /** Map coordinates of a point on screen. */
  private toMap(svg: Element, clientX: number, clientY: number): [number, number] {
    const rect = svg.getBoundingClientRect();
    const v = this.view;
    return [v.x + ((clientX - rect.left) / rect.width) * v.w, v.y + ((clientY - rect.top) / rect.height) * v.h];
  }

  wheel(e: WheelEvent, svg: Element): void {
    // Trackpads send small deltas often, mouse wheels large ones rarely: scale by the delta, but no event (a
    // wheel's notch) zooms by more than WHEEL_STEP, so that a few notches do not throw the map to its limit.
    const delta = e.deltaY * (e.deltaMode === 1 ? 20 : e.deltaMode === 2 ? 400 : 1);
    const step = Math.log(WHEEL_STEP);
    const factor = Math.exp(Math.min(step, Math.max(-step, -delta * 0.0015)));
    this.zoomBy(factor, { clientX: e.clientX, clientY: e.clientY, svg });
  }

  /** A key on the map: + and − zoom, 0 shows the whole map, the arrows pan (`onFrame`: on the map itself). Whether it was used. */
  key(key: string, onFrame: boolean): boolean {
    if (key === '+' || key === '=') this.zoomBy(1.3);
    else if (key === '-' || key === '_') this.zoomBy(1 / 1.3);
    else if (key === '0') this.showWholeMap();
    else if (onFrame && key.startsWith('Arrow')) {
      this.touched = true;
      const step = 0.15;
      const dx = key === 'ArrowLeft' ? -1 : key === 'ArrowRight' ? 1 : 0;
      const dy = key === 'ArrowUp' ? -1 : key === 'ArrowDown' ? 1 : 0;
      this.view = pan(this.view, dx * this.view.w * step, dy * this.view.h * step, this.map.bounds, this.aspect);
    } else return false;
    return true;
  }

  pointerDown(e: PointerEvent): void {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (this.pointers.size === 1) {
      this.dragged = false;
      this.pressStart = { x: e.clientX, y: e.clientY };
    }
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinchDistance = Math.hypot(a.x - b.x, a.y - b.y);
    }
  }

  /** A pointer moved over `svg`: one drags the map (once it moved past a click's slop), two pinch it. */
  pointerMove(e: PointerEvent, svg: Element): void {
    const previous = this.pointers.get(e.pointerId);
    if (!previous) return;
    const rect = svg.getBoundingClientRect();
    if (this.pointers.size === 1) {
      const start = this.pressStart;
      if (start && Math.hypot(e.clientX - start.x, e.clientY - start.y) > CLICK_SLOP_PX) {
        if (!this.dragged) svg.setPointerCapture(e.pointerId);
        this.dragged = true;
      }
      if (this.dragged) {
        this.touched = true;
        const v = this.view;
        this.view = pan(v, ((previous.x - e.clientX) / rect.width) * v.w, ((previous.y - e.clientY) / rect.height) * v.h, this.map.bounds, this.aspect);
      }
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    } else if (this.pointers.size === 2) {
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const [a, b] = [...this.pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (this.pinchDistance > 0 && distance > 0) this.zoomBy(distance / this.pinchDistance, { clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2, svg });
      this.pinchDistance = distance;
      this.dragged = true;
    }
  }

  pointerUp(e: PointerEvent): void {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) this.pressStart = null;
  }
}
