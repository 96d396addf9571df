/**
 * Every drawn variant (a maps/<id>/ with geometry.json): the adjacency in its
 * variant.json must be exactly what its drawing shows. Shared borders are
 * recomputed here from the polygons alone (neighbouring provinces share
 * identical vertices, so a border is the set of polygon segments two
 * provinces have in common); the only adjacency without a border is that of
 * the links: the data's special links and the drawing's own (geometry.json
 * `links`, e.g. Standard's Denmark–Sweden across the Sound).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MapDataSchema, type ParsedMapData } from '../../shared/variant/schema.ts';
import { type Geometry, insideRings, linkEdges, listedEdges, MIN_BORDER, readDrawing } from './geometry-borders.ts';

const mapsDir = new URL('../../maps/', import.meta.url);
const drawn = readdirSync(mapsDir)
  .filter((id) => existsSync(new URL(`${id}/geometry.json`, mapsDir)))
  .sort();

describe.each(drawn)('the drawn variant %s', (id) => {
  const map: ParsedMapData = MapDataSchema.parse(JSON.parse(readFileSync(new URL(`${id}/variant.json`, mapsDir), 'utf8')));
  const geometry = JSON.parse(readFileSync(new URL(`${id}/geometry.json`, mapsDir), 'utf8')) as Geometry;
  const svg = readFileSync(new URL(`${id}/map.svg`, mapsDir), 'utf8');
  const drawing = readDrawing(map, geometry);
  const listed = listedEdges(map);
  const links = linkEdges([...map.specialLinks, ...(geometry.links ?? [])]);
  const ids = map.provinces.map((p) => p.id);

  it('has a polygon for every province and nothing else, with the minimum border the test uses', () => {
    expect(Object.keys(geometry.provinces).sort()).toEqual([...ids].sort());
    for (const p of ids) expect(geometry.provinces[p].length, p).toBeGreaterThan(0);
    expect(geometry.minBorder).toBe(MIN_BORDER);
  });

  it('lists every edge in both directions', () => {
    expect(listed.asymmetric).toEqual([]);
  });

  it('makes provinces that share a border adjacent', () => {
    expect([...drawing.army].filter((e) => !listed.army.has(e))).toEqual([]);
    expect([...drawing.fleet].filter((e) => !listed.fleet.has(e))).toEqual([]);
  });

  it('has no adjacency without a shared border, except its links', () => {
    expect([...listed.army].filter((e) => !drawing.army.has(e) && !links.army.has(e))).toEqual([]);
    expect([...listed.fleet].filter((e) => !drawing.fleet.has(e) && !links.fleet.has(e))).toEqual([]);
    for (const e of links.army) expect(listed.army.has(e), e).toBe(true);
    for (const e of links.fleet) expect(listed.fleet.has(e), e).toBe(true);
  });

  it('draws a passage only where the provinces share no border', () => {
    for (const l of [...map.specialLinks, ...(geometry.links ?? [])].filter((x) => x.kind === 'passage')) {
      const [a, b] = l.between;
      expect(drawing.borderLength(a, b), `${a}–${b}`).toBe(0);
    }
  });

  it('gives every stretch of a double-coasted province’s shore to exactly one of its coasts', () => {
    expect(drawing.doubleShore).toEqual([]);
    for (const p of map.provinces.filter((x) => x.coasts)) {
      for (const sea of ids.filter((x) => drawing.isSea(x) && drawing.borders(p.id, x))) {
        const locs = [...drawing.locsOn(p.id, sea)];
        expect(
          locs.filter((l) => l.endsWith('/?')),
          `${p.id} on ${sea}`,
        ).toEqual([]);
      }
      for (const [c, coast] of Object.entries(p.coasts!)) expect(coast.draw?.unit, `${p.id}/${c} unit`).toBeDefined();
    }
  });

  it('draws every province, with its label and full name, and has its draw points', () => {
    for (const p of map.provinces) {
      expect(svg.match(new RegExp(`<path id="p-${p.id}" class="province ${p.kind}"`, 'g')) ?? [], p.id).toHaveLength(1);
      expect(svg.includes(`<text id="l-${p.id}" `), `label ${p.id}`).toBe(true);
      expect(svg.includes(`<title>${p.name.replace(/&/g, '&amp;')}</title>${p.id}</text>`), `label title ${p.id}`).toBe(true);
      expect(p.draw, `${p.id} draw`).toBeDefined();
    }
    expect(svg).toContain('<g id="links">');
  });

  it('draws each unit inside its own province (a named coast’s too)', () => {
    const outside: string[] = [];
    for (const p of map.provinces) {
      if (p.draw && !insideRings(geometry.provinces[p.id], p.draw.unit)) outside.push(p.id);
      for (const [c, coast] of Object.entries(p.coasts ?? {}))
        if (coast.draw && !insideRings(geometry.provinces[p.id], coast.draw.unit)) outside.push(`${p.id}/${c}`);
    }
    expect(outside).toEqual([]);
  });
});

describe('drawn variants', () => {
  it('include Diadochi V, Standard and Ancient Mediterranean', () => {
    expect(drawn).toEqual(expect.arrayContaining(['diadochi-v', 'standard', 'ancient-mediterranean']));
  });
});
