import { describe, expect, it } from 'vitest';
import mapSvg from '../../maps/diadochi-v/map.svg?raw';
import built from '../../maps/diadochi-v/map.svg?drawing';
import { provinceOfTarget, readMapDrawing, scopeCss } from '../../web/src/map/drawing.ts';
import { computeOverlay } from '../../shared/drawing/overlay.ts';
import { start, variant } from './positions.ts';

describe('the map drawing', () => {
  const drawing = readMapDrawing(mapSvg, '.dmap');

  it('has one shape per province of the variant, of the same kind', () => {
    expect(drawing.provinces.map((p) => p.id).sort()).toEqual([...variant.provinceIds].sort());
    for (const p of drawing.provinces) expect(p.kind).toBe(variant.data.provinces.find((q) => q.id === p.id)!.kind);
    expect(drawing.width).toBe(1600);
    expect(drawing.height).toBe(900);
  });

  it('has a label for every province, without the tooltip title text', () => {
    expect(drawing.labels).toHaveLength(variant.provinceCount);
    expect(drawing.labels.find((l) => l.id === 'Rom')).toMatchObject({ text: 'Rom', kind: 'coastal' });
  });

  it('keeps the passages and canals layer as drawn, above the provinces', () => {
    expect(drawing.over).toContain('id="links"');
    expect(drawing.over).toContain('class="canal"');
    expect(drawing.under).toContain('background-water');
    expect(drawing.under).not.toContain('id="provinces"');
  });

  it('is what the client is built with (the build reads the SVG, not each browser)', () => {
    expect(built).toEqual(drawing);
    expect(built.provinces.length).toBeGreaterThan(100);
  });

  it('scopes the drawing’s stylesheet so it cannot style the page', () => {
    expect(scopeCss('.a,.b{fill:red}\n#x text{y:1}', '.m')).toBe('.m .a,.m .b{fill:red}\n.m #x text{y:1}');
    for (const rule of drawing.css.split('\n')) expect(rule.startsWith('.dmap ')).toBe(true);
  });

  it('has a shape for the province of every supply- and build-centre marker', () => {
    const shapes = new Set(drawing.provinces.map((p) => p.id));
    const { centres } = computeOverlay(variant, start);
    const centreProvinces = variant.data.provinces.filter((p) => p.centre || p.buildCentre).map((p) => p.id);
    expect(centres.map((c) => c.province).sort()).toEqual(centreProvinces.sort());
    for (const c of centres) expect(shapes.has(c.province), c.province).toBe(true);
  });
});

describe('the province an event on the map happened on', () => {
  const svg = (markup: string) => {
    const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    g.innerHTML = markup;
    return g;
  };

  it('is the shape’s province, or the province of the centre marker the event is on', () => {
    const layer = svg('<path data-province="AEG"></path><g data-centre="Ath"><rect></rect><circle></circle></g>');
    expect(provinceOfTarget(layer.querySelector('path'))).toBe('AEG');
    // A marker's shapes are its province's, wherever the marker is drawn.
    expect(provinceOfTarget(layer.querySelector('rect'))).toBe('Ath');
    expect(provinceOfTarget(layer.querySelector('circle'))).toBe('Ath');
    expect(provinceOfTarget(layer.querySelector('g'))).toBe('Ath');
  });

  it('is none for anything else', () => {
    expect(provinceOfTarget(svg('<circle></circle>').querySelector('circle'))).toBeNull();
    expect(provinceOfTarget(null)).toBeNull();
    expect(provinceOfTarget(window)).toBeNull();
  });
});
