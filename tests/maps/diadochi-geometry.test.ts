/**
 * Diadochi V's own map facts: its province counts, the rule 11 canals and
 * rule 12 passages, impassable Britain and Dacia, the double coasts, the
 * economy and the start. That its adjacency is exactly what its drawing shows
 * is checked for every drawn variant in drawn-variants-geometry.test.ts.
 */
import { describe, expect, it } from 'vitest';
import data from '../../maps/diadochi-v/variant.json' with { type: 'json' };
import geometry from '../../maps/diadochi-v/geometry.json' with { type: 'json' };
import { MapDataSchema, type ParsedMapData } from '../../shared/variant/schema.ts';
import { type Geometry, readDrawing } from './geometry-borders.ts';

const map: ParsedMapData = MapDataSchema.parse(data);
const byId = new Map(map.provinces.map((p) => [p.id, p]));
const ids = map.provinces.map((p) => p.id);
const drawing = readDrawing(map, geometry as unknown as Geometry);
const { borderLength, borders, isSea } = drawing;

function moves(type: 'army' | 'fleet', from: string): string[] {
  const [id, coast] = from.split('/');
  const p = byId.get(id)!;
  if (type === 'army') return p.army;
  return coast ? p.coasts![coast].fleet : p.fleet;
}

describe('Diadochi V map data', () => {
  it('has 100 playable provinces (22 seas, 78 land) plus Britain and Dacia impassable', () => {
    const playable = map.provinces.filter((p) => p.kind !== 'impassable');
    expect(playable).toHaveLength(100);
    expect(playable.filter((p) => p.kind === 'sea')).toHaveLength(22);
    expect(playable.filter((p) => p.kind !== 'sea')).toHaveLength(78);
    expect(
      map.provinces
        .filter((p) => p.kind === 'impassable')
        .map((p) => p.id)
        .sort(),
    ).toEqual(['Bri', 'Dac']);
    for (const p of map.provinces) {
      expect(p.id === p.id.toUpperCase(), `${p.id}: seas are upper case, land mixed case`).toBe(p.kind === 'sea');
    }
  });

  it('has the rule 12 passages across water, where the geometry alone gives no border', () => {
    const passages = map.specialLinks.filter((l) => l.kind === 'passage').map((l) => [...l.between].sort().join('–'));
    expect(passages.sort()).toEqual(['Col–Khe', 'Gad–Mau', 'Nea–Syr', 'Nic–Thr', 'Per–Thr', 'Pto–Sin'].sort());
    for (const l of map.specialLinks.filter((x) => x.kind === 'passage')) {
      const [a, b] = l.between;
      expect(borderLength(a, b), `${a}–${b}`).toBe(0);
    }
  });

  it('has the rule 11 canals: Alexandria between EGY and RED, Athens between AEG and ION', () => {
    const canals = map.specialLinks.filter((l) => l.kind === 'canal').map((l) => l.between.join(' '));
    expect(canals.sort()).toEqual(['Alx EGY RED', 'Ath AEG ION']);
    for (const l of map.specialLinks.filter((x) => x.kind === 'canal')) {
      const p = byId.get(l.between[0])!;
      expect(p.coasts, `${p.id} is single-coasted`).toBeUndefined();
      // The drawing already lets the canal's province touch both waters.
      for (const sea of l.between.slice(1)) expect(borders(p.id, sea), `${p.id}–${sea}`).toBe(true);
    }
  });

  it('keeps Britain and Dacia out of play', () => {
    for (const id of ['Bri', 'Dac']) {
      const p = byId.get(id)!;
      expect(p.army).toEqual([]);
      expect(p.fleet).toEqual([]);
      for (const q of map.provinces) {
        expect(q.army.includes(id)).toBe(false);
        expect(q.fleet.includes(id)).toBe(false);
      }
    }
  });

  it('gives each double coast two coasts that face different seas', () => {
    const doubles = map.provinces
      .filter((p) => p.coasts)
      .map((p) => p.id)
      .sort();
    expect(doubles).toEqual(['Aqu', 'Lar', 'Scy']);
    for (const id of doubles) {
      const p = byId.get(id)!;
      const coasts = Object.entries(p.coasts!);
      expect(coasts).toHaveLength(2);
      const seasOf = coasts.map(([, c]) => c.fleet.filter((l) => byId.get(l.split('/')[0])?.kind === 'sea'));
      for (const s of seasOf) expect(s.length).toBeGreaterThan(0);
      expect(seasOf[0].filter((s) => seasOf[1].includes(s))).toEqual([]);
      // Every sea the province touches belongs to exactly one of its coasts.
      for (const s of ids.filter((x) => isSea(x) && borders(id, x)))
        expect(
          seasOf.filter((l) => l.includes(s)),
          `${id} ${s}`,
        ).toHaveLength(1);
      for (const [, c] of coasts) expect(c.draw?.unit, `${id} coast unit`).toBeDefined();
    }
  });

  it('has a total supply of 48 or 49, counting Rome as 3', () => {
    let total = 0;
    for (const p of map.provinces) {
      if (!p.centre) continue;
      total += Math.max(p.centre.supply, ...Object.values(p.centre.supplyFor ?? {}));
    }
    expect(total).toBeGreaterThanOrEqual(48);
    expect(total).toBeLessThanOrEqual(49);
    expect(map.rules.victory.count * 2).toBeGreaterThan(total);
  });

  it('starts with the 17 units of rule 2 on their home centres', () => {
    expect(map.start.units).toHaveLength(17);
    expect(Object.keys(map.start.owners)).toHaveLength(17);
    for (const [id, power] of Object.entries(map.start.owners)) expect(byId.get(id)!.home).toBe(power);
    for (const u of map.start.units) expect(map.start.owners[u.at.split('/')[0]]).toBe(u.power);
  });

  it('player-visible spot checks', () => {
    expect(moves('army', 'Gad')).toContain('Mau');
    expect(moves('army', 'Mau')).toContain('Gad');
    expect(moves('fleet', 'Nea')).toContain('Syr');
    expect(moves('fleet', 'EGY')).toContain('Alx');
    expect(moves('fleet', 'Alx')).toContain('RED');
    expect(moves('fleet', 'AEG')).toContain('Ath');
    expect(moves('fleet', 'Ath')).toContain('ION');
    expect(moves('army', 'Rom')).not.toContain('Sar');
    expect(moves('army', 'Thr')).toEqual(expect.arrayContaining(['Per', 'Nic']));
    expect(moves('army', 'Khe')).toContain('Col');
    expect(moves('fleet', 'Sin')).toContain('Pto');
    // Britain and Dacia cannot be reached by any unit.
    for (const p of map.provinces) {
      const all = [...p.army, ...p.fleet, ...Object.values(p.coasts ?? {}).flatMap((c) => c.fleet)];
      expect(
        all.some((l) => l === 'Bri' || l === 'Dac'),
        p.id,
      ).toBe(false);
    }
  });
});
