/**
 * The map's first view and its "whole map" control, mounted in a DOM with a frame of a laptop's shape (the map
 * beside the order panel on a 1366×860 screen): every unit in view at the start, the whole map on ⤢ and on 0.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import drawing from '../../maps/diadochi-v/map.svg?drawing';
import MapView from '../../web/src/map/MapView.svelte';
import { computeOverlay } from '../../shared/drawing/overlay.ts';
import { fitAll } from '../../web/src/map/viewport.ts';
import { start, variant } from './positions.ts';

const LAPTOP = { width: 1040, height: 800 };
/** The frame's size as the observer reports it: a laptop's unless a test says otherwise. */
let FRAME = LAPTOP;
const bounds = { width: drawing.width, height: drawing.height };

/** A ResizeObserver that reports the frame's size as soon as it observes it. */
class FixedSizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    this.callback(
      [{ target, contentRect: { ...FRAME, x: 0, y: 0, top: 0, left: 0, right: FRAME.width, bottom: FRAME.height } } as unknown as ResizeObserverEntry],
      this as unknown as ResizeObserver,
    );
  }
  unobserve() {}
  disconnect() {}
}

let target: HTMLElement;
let map: ReturnType<typeof mount>;

function mountMap(props: Partial<Parameters<typeof MapView>[1]> = {}) {
  target = document.createElement('div');
  document.body.appendChild(target);
  map = mount(MapView, { target, props: { variant, drawing, position: start, ...props } });
  flushSync();
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', FixedSizeObserver);
  FRAME = LAPTOP;
  mountMap();
});

afterEach(() => {
  unmount(map);
  target.remove();
  vi.unstubAllGlobals();
});

const viewBox = () => target.querySelector('svg.dmap')!.getAttribute('viewBox')!.split(' ').map(Number);
const press = (key: string) => {
  const frame = target.querySelector<HTMLElement>('.map-frame')!;
  frame.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  flushSync();
};

describe('the map’s view', () => {
  it('starts with every unit on the board in view, Carthage’s army in Gades too', () => {
    const [x, y, w, h] = viewBox();
    expect(w / h).toBeCloseTo(FRAME.width / FRAME.height);
    for (const u of computeOverlay(variant, start).units) {
      expect(u.at[0] - 12, u.location).toBeGreaterThanOrEqual(x);
      expect(u.at[0] + 12, u.location).toBeLessThanOrEqual(x + w);
      expect(u.at[1] - 12, u.location).toBeGreaterThanOrEqual(y);
      expect(u.at[1] + 12, u.location).toBeLessThanOrEqual(y + h);
    }
  });

  it('shows the whole map on the ⤢ button, as its name says', () => {
    press('+');
    const button = target.querySelector<HTMLButtonElement>('button[aria-label="Show the whole map"]')!;
    button.click();
    flushSync();
    const all = fitAll(bounds, FRAME.width / FRAME.height);
    expect(viewBox()).toEqual([all.x, all.y, all.w, all.h]);
    expect(target.querySelector('.zoom-level')!.textContent).toBe('100%');
  });

  it('shows the whole map on the 0 key', () => {
    press('+');
    press('+');
    press('0');
    const all = fitAll(bounds, FRAME.width / FRAME.height);
    expect(viewBox()).toEqual([all.x, all.y, all.w, all.h]);
  });

  it('on a phone held upright, starts on the units the player may order, at either end of the map', () => {
    const units = computeOverlay(variant, start).units;
    for (const power of ['Carthage', 'Syria']) {
      unmount(map);
      target.remove();
      FRAME = { width: 390, height: 600 };
      const mine = units.filter((u) => u.power === power);
      mountMap({ selectable: new Set(mine.map((u) => u.province)) });
      const [x, , w] = viewBox();
      expect(w).toBeLessThan(bounds.width / 2);
      for (const u of mine) {
        expect(u.at[0], `${power} ${u.location}`).toBeGreaterThanOrEqual(x);
        expect(u.at[0], `${power} ${u.location}`).toBeLessThanOrEqual(x + w);
      }
    }
  });

  it("starts with the centres lent to the player in view, beside its units: Carthage's Gades lent to Egypt, at the other end of the map", () => {
    unmount(map);
    target.remove();
    const lent = { ...start, loans: [{ centre: 'Gad', from: 'Carthage', to: 'Egypt' }] };
    const overlay = computeOverlay(variant, lent);
    const gades = overlay.centres.find((c) => c.province === 'Gad')!;
    const egypt = overlay.units.filter((u) => u.power === 'Egypt');
    const inView = ([x, y, w, h]: number[], [px, py]: readonly [number, number]) => px > x && px < x + w && py > y && py < y + h;
    mountMap({ position: lent, power: 'Egypt', selectable: new Set(egypt.map((u) => u.province)) });
    const view = viewBox();
    expect(inView(view, gades.at)).toBe(true);
    for (const u of egypt) expect(inView(view, u.at), u.location).toBe(true);
    // Without the loan, Egypt's first view stays on its own corner of the map.
    unmount(map);
    target.remove();
    mountMap({ position: start, power: 'Egypt', selectable: new Set(egypt.map((u) => u.province)) });
    expect(inView(viewBox(), gades.at)).toBe(false);
  });

  it('on a phone in Winter, with no unit to order, starts on the build sites', () => {
    unmount(map);
    target.remove();
    FRAME = { width: 390, height: 600 };
    const winter = { ...start, phase: { ...start.phase, season: 'winter' as const, type: 'adjustment' as const }, units: [] };
    const sites = computeOverlay(variant, winter).centres.filter((c) => ['Ant', 'Sel', 'Arb'].includes(c.province));
    mountMap({ position: winter, selectable: new Set(sites.map((c) => c.province)) });
    const [x, , w] = viewBox();
    for (const c of sites) {
      expect(c.at[0], c.province).toBeGreaterThanOrEqual(x);
      expect(c.at[0], c.province).toBeLessThanOrEqual(x + w);
    }
  });
});

describe('the selected unit', () => {
  it('is brought into sight when it lies out of the view, without a change of zoom', () => {
    const syria = computeOverlay(variant, start).units.find((u) => u.province === 'Ant')!;
    const inView = ([x, y, w, h]: number[]) => syria.at[0] > x && syria.at[0] < x + w && syria.at[1] > y && syria.at[1] < y + h;
    // A phone upright, starting on Carthage's units at the west end: Antioch, at the east end, is out of sight.
    unmount(map);
    target.remove();
    FRAME = { width: 390, height: 600 };
    const carthage = new Set(['Car', 'Had', 'New', 'Gad']);
    mountMap({ selectable: carthage });
    const before = viewBox();
    expect(inView(before)).toBe(false);
    // Selected there (a unit picked from a list, or a key), it comes into sight at the same zoom.
    unmount(map);
    target.remove();
    mountMap({ selectable: carthage, selectedProvince: 'Ant' });
    const after = viewBox();
    expect(inView(after)).toBe(true);
    expect(after[2]).toBeCloseTo(before[2]);
  });
});

describe('what Tab reaches on the map', () => {
  /** A phone upright, starting on Carthage's units at the west end: the east end is out of sight. */
  function phone(props: Partial<Parameters<typeof MapView>[1]>) {
    unmount(map);
    target.remove();
    FRAME = { width: 390, height: 600 };
    mountMap(props);
  }
  const inView = ([x, y]: readonly [number, number]) => {
    const [vx, vy, w, h] = viewBox();
    return x > vx && x < vx + w && y > vy && y < vy + h;
  };

  it('a unit out of sight is panned into it when it takes the focus, at the same zoom', () => {
    const syria = computeOverlay(variant, start).units.find((u) => u.province === 'Ant')!;
    phone({ selectable: new Set(['Car', 'Had', 'New', 'Gad', 'Ant']) });
    const zoom = viewBox()[2];
    expect(inView(syria.at)).toBe(false);
    target.querySelector<SVGElement>('g.unit[data-unit="Ant"]')!.focus();
    flushSync();
    expect(inView(syria.at)).toBe(true);
    expect(viewBox()[2]).toBeCloseTo(zoom);
  });

  it('a unit focused by a press on it does not move the map under the finger', () => {
    phone({ selectable: new Set(['Car', 'Had', 'New', 'Gad', 'Ant']) });
    const before = viewBox();
    const unit = target.querySelector<SVGElement>('g.unit[data-unit="Ant"]')!;
    unit.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, pointerId: 1, pointerType: 'touch', clientX: 5, clientY: 5 }));
    unit.focus();
    flushSync();
    expect(viewBox()).toEqual(before);
  });

  it('nor does a tap, which focuses the unit only once the finger is lifted, just before its click', () => {
    phone({ selectable: new Set(['Car', 'Had', 'New', 'Gad', 'Ant']) });
    const before = viewBox();
    const unit = target.querySelector<SVGElement>('g.unit[data-unit="Ant"]')!;
    const touch = { bubbles: true, pointerId: 1, pointerType: 'touch', clientX: 5, clientY: 5 };
    unit.dispatchEvent(new PointerEvent('pointerdown', touch));
    unit.dispatchEvent(new PointerEvent('pointerup', touch));
    unit.focus();
    flushSync();
    expect(viewBox()).toEqual(before);
    // A key pressed since, the next focus is the keyboard's again.
    unit.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    target.querySelector<SVGElement>('g.unit[data-unit="Car"]')!.focus();
    unit.focus();
    flushSync();
    expect(viewBox()).not.toEqual(before);
  });

  it('a target province out of sight is panned into it, its name in view', () => {
    const label = drawing.labels.find((l) => l.id === 'Sel')!;
    phone({ selectable: new Set(['Car', 'Had', 'New', 'Gad']), targets: new Set(['Sel']) });
    expect(inView([label.x, label.y])).toBe(false);
    target.querySelector<SVGElement>('path[data-province="Sel"]')!.focus();
    flushSync();
    expect(inView([label.x, label.y])).toBe(true);
  });
});

describe('keys on the map', () => {
  it('an order key pressed on the map (after a click on a province) goes to the unit selected there', () => {
    unmount(map);
    target.remove();
    const keys: [string, string][] = [];
    mountMap({ selectedProvince: 'Ant', onkey: (key: string, province: string) => (keys.push([key, province]), key === 'm') });
    press('m');
    press('q');
    expect(keys).toEqual([
      ['m', 'Ant'],
      ['q', 'Ant'],
    ]);
  });
});
