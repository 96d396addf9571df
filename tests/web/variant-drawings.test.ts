/**
 * The registry of drawn variants (web/src/map/variant-drawings.ts): every variant that ships maps/<id>/map.svg is
 * drawn, named as its variant.json names it, its drawing loaded once and on demand; and a variant that exists only
 * in the tests (tests/fixtures/three-isles: its own variant.json and map.svg), registered through the registry's
 * seam, is drawn by the board component from its own files: its shapes, names, units in its powers' colours and
 * patterns, and a first view on a phone that opens where its powers start, not on another map's facts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import { MapDataSchema, initialState } from '../../shared/index.ts';
import { compileVariant } from '../../shared/variant/load.ts';
import { composeRules } from '../../shared/rules/index.ts';
import { PATTERN_MARKS, tint } from '../../shared/drawing/patterns.ts';
import { computeOverlay } from '../../shared/drawing/overlay.ts';
import MapView from '../../web/src/map/MapView.svelte';
import type { MapDrawing } from '../../web/src/map/drawing.ts';
import {
  canDraw,
  drawnVariant,
  drawnVariants,
  loadDrawing,
  loadedDrawing,
  registerDrawing,
  SITE_VARIANT,
  variantOfMapFile,
  variantTitle,
} from '../../web/src/map/variant-drawings.ts';
import fixtureData from '../fixtures/three-isles/variant.json';

// The files as they are on disk (read here as text, independently of the registry's own reading).
const variantFiles = import.meta.glob<string>('../../maps/*/variant.json', { query: '?raw', import: 'default', eager: true });
const mapFiles = import.meta.glob<string>('../../maps/*/map.svg', { query: '?raw', import: 'default', eager: true });
const clientFiles = import.meta.glob<string>('../../web/src/**/*.{ts,svelte}', { query: '?raw', import: 'default', eager: true });
const idOf = (file: string) => file.split('/').at(-2)!;
/** Every variant under maps/, and those of them that ship a drawing. */
const variants = Object.keys(variantFiles).map(idOf);
const shipped = Object.keys(mapFiles).map(idOf);
const svgOf = (id: string) => mapFiles[`../../maps/${id}/map.svg`];

const FIXTURE = 'three-isles';
const fixtureVariant = (() => {
  const compiled = compileVariant(MapDataSchema.parse(fixtureData), {}, composeRules);
  if (!compiled.ok) throw new Error(`the fixture variant is invalid: ${compiled.error.join('; ')}`);
  return compiled.value;
})();
let fixtureLoads = 0;
function registerFixture() {
  fixtureLoads = 0;
  registerDrawing({ id: FIXTURE, name: fixtureData.name, description: fixtureData.description }, () => {
    fixtureLoads++;
    return import('../fixtures/three-isles/map.svg?drawing').then((m) => m.default as MapDrawing);
  });
}

describe('the registry of drawn variants', () => {
  it('draws every variant that ships a map.svg, named and described as its variant.json says', () => {
    expect(shipped.length).toBeGreaterThan(0);
    for (const id of shipped) {
      const data = JSON.parse(variantFiles[`../../maps/${id}/variant.json`]) as { name: string; description?: string };
      expect(canDraw(id), id).toBe(true);
      expect(drawnVariant(id)).toEqual({ id, name: data.name, description: data.description ?? null });
    }
    const listed = drawnVariants().filter((v) => v.id !== FIXTURE);
    expect(listed.map((v) => v.id).sort()).toEqual([...shipped].sort());
    // The site's own variant first, then the others by name, as the New game form and the sandbox offer them.
    expect(listed[0].id).toBe(SITE_VARIANT);
    const others = listed.slice(1).map((v) => v.name);
    expect(others).toEqual([...others].sort((a, b) => a.localeCompare(b)));
  });

  it('names every variant as its variant.json does, drawn or not, and an unknown one by its id', () => {
    for (const [file, text] of Object.entries(variantFiles)) expect(variantTitle(idOf(file))).toBe((JSON.parse(text) as { name: string }).name);
    expect(variantTitle('atlantis')).toBe('atlantis');
  });

  it('does not draw a variant with no map.svg, and says so, naming it, when asked for its drawing', async () => {
    const undrawn = variants.filter((id) => !shipped.includes(id));
    for (const id of undrawn) expect(canDraw(id), id).toBe(false);
    expect(canDraw('atlantis')).toBe(false);
    await expect(loadDrawing('atlantis')).rejects.toThrow(/no map drawing of the variant "atlantis"/);
  });

  it("loads a shipped variant's drawing once, from its own map.svg", async () => {
    const id = shipped[0];
    const [a, b] = [loadDrawing(id), loadDrawing(id)];
    expect(a).toBe(b);
    const drawing = await a;
    expect(loadedDrawing(id)).toBe(drawing);
    const svg = svgOf(id);
    const [, , width, height] = /viewBox="([^"]+)"/.exec(svg)![1].split(/\s+/).map(Number);
    expect([drawing.width, drawing.height]).toEqual([width, height]);
    expect(drawing.provinces.length).toBe((svg.match(/<path id="p-/g) ?? []).length);
  });

  it('reads the variant from a file under maps/, and refuses any other path or id', () => {
    expect(variantOfMapFile('../../../maps/some-variant/map.svg')).toBe('some-variant');
    expect(() => variantOfMapFile('../../../elsewhere/map.svg')).toThrow(/not a file of maps\/<variant>\//);
    expect(() => registerDrawing({ id: 'Not An Id', name: 'x' }, async () => ({}) as MapDrawing)).toThrow(/"Not An Id" is not a variant id/);
  });

  it('adds a variant through its seam: drawn from then on, its drawing loaded when first asked for', async () => {
    registerFixture();
    expect(canDraw(FIXTURE)).toBe(true);
    expect(drawnVariant(FIXTURE)).toEqual({ id: FIXTURE, name: 'Three Isles', description: fixtureData.description });
    expect(fixtureLoads).toBe(0);
    expect(loadedDrawing(FIXTURE)).toBeUndefined();
    const drawing = await loadDrawing(FIXTURE);
    await loadDrawing(FIXTURE);
    expect(fixtureLoads).toBe(1);
    expect([drawing.width, drawing.height]).toEqual([800, 300]);
    expect(drawing.provinces.map((p) => p.id).sort()).toEqual(['eas', 'inn', 'mid', 'nor', 'wes']);
  });

  it('keeps no variant by name anywhere else in the client: only the registry reads maps/', () => {
    // An import (static, dynamic or a glob) of a variant's files, or of a drawing, outside the registry.
    const reads = /(from\s*|import\s*\(\s*|import\.meta\.glob\w*\s*(<[^>]*>)?\(\s*)['"][^'"]*(\/maps\/|\?drawing)/;
    const offenders = Object.entries(clientFiles)
      .filter(([file, text]) => !file.endsWith('/map/variant-drawings.ts') && reads.test(text))
      .map(([file]) => file);
    expect(Object.keys(clientFiles).length).toBeGreaterThan(50);
    expect(offenders).toEqual([]);
  });
});

/** A ResizeObserver that reports the frame's size as soon as it observes it. */
let FRAME = { width: 1040, height: 800 };
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

describe('a variant added only in the tests, drawn by the board', () => {
  let target: HTMLElement | undefined;
  let map: ReturnType<typeof mount> | undefined;
  afterEach(() => {
    if (map) unmount(map);
    target?.remove();
    map = undefined;
    vi.unstubAllGlobals();
  });

  async function draw(frame: { width: number; height: number }) {
    vi.stubGlobal('ResizeObserver', FixedSizeObserver);
    FRAME = frame;
    registerFixture();
    const drawing = await loadDrawing(FIXTURE);
    target = document.createElement('div');
    document.body.appendChild(target);
    map = mount(MapView, { target, props: { variant: fixtureVariant, drawing, position: initialState(fixtureVariant), label: 'Three Isles' } });
    flushSync();
    return target;
  }
  const viewBox = (t: HTMLElement) => t.querySelector('svg.dmap')!.getAttribute('viewBox')!.split(' ').map(Number);

  it("draws its provinces, its units in its powers' colours, and its powers' patterns, from its own files", async () => {
    const t = await draw({ width: 1040, height: 800 });
    expect(Array.from(t.querySelectorAll('svg.dmap .provinces [data-province]'), (p) => p.getAttribute('data-province')).sort()).toEqual([
      'eas',
      'inn',
      'mid',
      'nor',
      'wes',
    ]);
    const units = Array.from(t.querySelectorAll('svg.dmap g.unit'));
    expect(units.map((u) => u.getAttribute('aria-label')).sort()).toEqual([
      'Eastern army in Eastreach',
      'Northern fleet in Northmark',
      'Western army in Westholm',
    ]);
    const colourOf = (location: string) => t.querySelector(`g.unit[data-unit="${location}"] .counter`)!.getAttribute('fill');
    expect([colourOf('nor'), colourOf('wes'), colourOf('eas')]).toEqual(fixtureData.powers.map((p) => p.colour));
    // Each power's own pattern, tinted with its own colour; the home centres filled with their owners'.
    fixtureData.powers.forEach((p, i) => {
      const pattern = t.querySelector(`pattern#own-${i}`)!;
      expect(pattern.querySelector('rect')!.getAttribute('fill')).toBe(tint(p.colour, 0.42));
      expect(pattern.querySelector('path')!.getAttribute('d')).toBe(PATTERN_MARKS[i]);
    });
    expect(t.querySelector('path[data-province="wes"]')!.getAttribute('style')).toContain('url(#own-1)');
    // Its four supply centres, marked where its data puts them.
    expect(t.querySelectorAll('svg.dmap .centres [data-centre]').length).toBe(4);
  });

  it('opens on a phone where its powers start (its home centres), not at the middle of the sheet', async () => {
    const t = await draw({ width: 375, height: 600 });
    const [x, , w, h] = viewBox(t);
    expect(h).toBe(300);
    // The home centres' markers lie about x 475..725 in the fixture: the view is centred on their middle, in the right half.
    const homes = computeOverlay(fixtureVariant, initialState(fixtureVariant))
      .centres.filter((c) => c.home !== null)
      .map((c) => c.at[0]);
    expect(homes).toHaveLength(3);
    expect(x + w / 2).toBeCloseTo((Math.min(...homes) + Math.max(...homes)) / 2, 5);
    // The empty left half of the sheet (x < 400) is out of view.
    expect(x).toBeGreaterThan(400);
  });

  it('opens on a wide screen on the whole sheet', async () => {
    const t = await draw({ width: 1600, height: 600 });
    const [x, y, w, h] = viewBox(t);
    expect(x).toBeLessThanOrEqual(0);
    expect(y).toBeLessThanOrEqual(0);
    expect(x + w).toBeGreaterThanOrEqual(800);
    expect(y + h).toBeGreaterThanOrEqual(300);
  });
});
