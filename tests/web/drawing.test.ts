import { describe, expect, it } from 'vitest';
import mapSvg from '../../maps/diadochi-v/map.svg?raw';
import built from '../../maps/diadochi-v/map.svg?drawing';
import { readMapDrawing, scopeCss } from '../../web/src/map/drawing.ts';
import { variant } from './positions.ts';

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
});
