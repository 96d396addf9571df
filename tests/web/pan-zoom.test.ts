/**
 * The map's view as the player moves it (PanZoom), on its own: a tap stays a tap though the finger shook a little,
 * a drag or a pinch moves the map and is no tap, a resize refits the view only until the player has moved it, and
 * the whole map asked for stays whole. The frame's size on screen is given as the browser would report it (happy-dom
 * lays nothing out).
 */
import { describe, expect, it } from 'vitest';
import { PanZoom, WHEEL_STEP, type ViewedMap } from '../../web/src/map/pan-zoom.svelte.ts';
import { fitAll, initialView } from '../../web/src/map/viewport.ts';

const bounds = { width: 1600, height: 900 };
const FRAME = { width: 1000, height: 600 };

/** The map's <svg> as the browser lays it out: FRAME's size at the page's corner. */
function laidOut(): Element {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  return Object.assign(svg, {
    getBoundingClientRect: () => new DOMRect(0, 0, FRAME.width, FRAME.height),
    setPointerCapture: () => {},
  });
}

function view(map: Partial<ViewedMap> = {}): PanZoom {
  const panZoom = new PanZoom({ bounds, keepInView: undefined, focusX: 800, selectedPoint: null, ...map });
  panZoom.resized(FRAME.width, FRAME.height);
  return panZoom;
}

const pointer = (type: string, pointerId: number, clientX: number, clientY: number) =>
  new PointerEvent(type, { pointerId, clientX, clientY, pointerType: 'touch' });

describe('the map under a finger', () => {
  it('takes a press that moved a few pixels for a tap, and leaves the map where it was', () => {
    const panZoom = view();
    panZoom.zoomBy(2);
    const before = { ...panZoom.view };
    const svg = laidOut();
    panZoom.pointerDown(pointer('pointerdown', 1, 500, 300));
    panZoom.pointerMove(pointer('pointermove', 1, 503, 302), svg);
    panZoom.pointerUp(pointer('pointerup', 1, 503, 302));
    expect(panZoom.dragged).toBe(false);
    expect(panZoom.view).toEqual(before);
  });

  it('drags the map with a press that moves further, which is then no tap', () => {
    const panZoom = view();
    panZoom.zoomBy(2);
    const before = { ...panZoom.view };
    const svg = laidOut();
    panZoom.pointerDown(pointer('pointerdown', 1, 500, 300));
    panZoom.pointerMove(pointer('pointermove', 1, 510, 300), svg);
    panZoom.pointerMove(pointer('pointermove', 1, 600, 300), svg);
    panZoom.pointerUp(pointer('pointerup', 1, 600, 300));
    expect(panZoom.dragged).toBe(true);
    // The finger went 100 pixels right: the map follows it, so the view moves left by as much.
    expect(panZoom.view.x).toBeCloseTo(before.x - (100 / FRAME.width) * before.w);
    expect(panZoom.view.w).toBe(before.w);
    // The next press starts again as a tap.
    panZoom.pointerDown(pointer('pointerdown', 2, 100, 100));
    expect(panZoom.dragged).toBe(false);
  });

  it('zooms in as two fingers spread, keeping the point between them where it is', () => {
    const panZoom = view();
    panZoom.zoomBy(2);
    const svg = laidOut();
    const before = { ...panZoom.view };
    /** The map's point under the middle of the fingers once spread (600, 300). */
    const under = (v: typeof before) => [v.x + (600 / FRAME.width) * v.w, v.y + (300 / FRAME.height) * v.h];
    panZoom.pointerDown(pointer('pointerdown', 1, 400, 300));
    panZoom.pointerDown(pointer('pointerdown', 2, 600, 300));
    panZoom.pointerMove(pointer('pointermove', 2, 800, 300), svg);
    expect(panZoom.dragged).toBe(true);
    expect(panZoom.view.w).toBeCloseTo(before.w / 2);
    expect(under(panZoom.view)[0]).toBeCloseTo(under(before)[0]);
    expect(under(panZoom.view)[1]).toBeCloseTo(under(before)[1]);
  });
});

describe('the map as its frame changes size', () => {
  it('fits the map again until the player moves it, then keeps their zoom', () => {
    const panZoom = view();
    panZoom.resized(800, 600);
    expect(panZoom.view).toEqual(initialView(bounds, 800 / 600, 850, undefined));
    panZoom.zoomBy(3);
    const zoomed = panZoom.view.w;
    panZoom.resized(1000, 600);
    expect(panZoom.view.w).toBeCloseTo(zoomed);
    expect(panZoom.view.h).toBeCloseTo(zoomed / (1000 / 600));
  });

  it('keeps the whole map whole when asked for it, until the player zooms', () => {
    const panZoom = view();
    panZoom.zoomBy(2);
    panZoom.showWholeMap();
    panZoom.resized(500, 800);
    expect(panZoom.view).toEqual(fitAll(bounds, 500 / 800));
    expect(panZoom.zoom).toBe(1);
  });
});

describe('the map under the keyboard', () => {
  it('zooms on + and −, pans on the arrows only when the map itself has the focus, and leaves other keys alone', () => {
    const panZoom = view();
    const start = { ...panZoom.view };
    expect(panZoom.key('+', false)).toBe(true);
    expect(panZoom.view.w).toBeCloseTo(start.w / 1.3);
    const zoomed = { ...panZoom.view };
    expect(panZoom.key('ArrowRight', false)).toBe(false);
    expect(panZoom.view).toEqual(zoomed);
    expect(panZoom.key('ArrowRight', true)).toBe(true);
    expect(panZoom.view.x).toBeCloseTo(zoomed.x + zoomed.w * 0.15);
    expect(panZoom.key('m', true)).toBe(false);
    expect(panZoom.key('0', false)).toBe(true);
    expect(panZoom.view).toEqual(fitAll(bounds, FRAME.width / FRAME.height));
  });
});

describe('the map under a mouse wheel', () => {
  it('zooms gently: a notch, however large its delta, by at most a fifth; 1000 % is more than a dozen notches away', () => {
    const panZoom = view();
    panZoom.showWholeMap();
    const svg = laidOut();
    const notch = (deltaY: number, deltaMode = 0) => panZoom.wheel(new WheelEvent('wheel', { deltaY, deltaMode, clientX: 500, clientY: 300 }), svg);
    const before = panZoom.zoom;
    notch(-300);
    expect(panZoom.zoom / before).toBeCloseTo(WHEEL_STEP);
    notch(-3, 1);
    for (let i = 0; i < 9; i++) notch(-120);
    expect(panZoom.zoom).toBeLessThan(10);
    // A trackpad's small deltas zoom a little each.
    const z = panZoom.zoom;
    notch(-4);
    expect(panZoom.zoom / z).toBeGreaterThan(1);
    expect(panZoom.zoom / z).toBeLessThan(1.01);
  });

  it('keeps counters, lines and names about the same size on screen when far out, within limits', () => {
    const panZoom = view();
    panZoom.showWholeMap();
    // 1000 px for 1600 units: 0.625 px a unit.
    expect(panZoom.counterScale * 18 * panZoom.pxPerUnit).toBeCloseTo(16);
    expect(panZoom.labelSize * panZoom.pxPerUnit).toBeCloseTo(10);
    panZoom.zoomBy(4);
    expect(panZoom.counterScale).toBe(1.25);
    expect(panZoom.labelSize).toBe(10.5);
    expect(panZoom.glyphScale).toBe(1);
  });
});
