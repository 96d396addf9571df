import { describe, expect, it } from 'vitest';
import standard from '../../maps/standard/variant.json';
import { loadVariant } from '../../shared/variant/checked.ts';

type Data = typeof standard;
const edit = (f: (d: Data) => void): Data => {
  const d = structuredClone(standard);
  f(d);
  return d;
};
type Province = { army: string[]; fleet: string[]; [field: string]: unknown };
const prov = (d: Data, id: string) => d.provinces.find((p) => p.id === id) as unknown as Province;
const errors = (d: unknown): string[] => {
  const r = loadVariant(d);
  return r.ok ? [] : r.error;
};

describe('loading a variant validates the map data', () => {
  it('loads the Standard map', () => {
    const r = loadVariant(standard);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.provinceCount).toBe(75);
    expect(r.value.locationCount).toBe(75 + 6);
    expect(r.value.centres).toHaveLength(34);
  });

  it('names an unknown province in an adjacency', () => {
    expect(errors(edit((d) => prov(d, 'par').army.push('xyz')))).toContainEqual(expect.stringMatching(/par: army adjacency names unknown province "xyz"/));
  });

  it('names an asymmetric edge', () => {
    const e = errors(edit((d) => (prov(d, 'par').army = prov(d, 'par').army.filter((x: string) => x !== 'bur'))));
    expect(e).toContainEqual(expect.stringMatching(/asymmetric army edge: bur lists par but not the other way round/));
  });

  it('names a coast without a sea', () => {
    const e = errors(
      edit((d) => {
        const lon = prov(d, 'lon');
        for (const s of ['nth', 'eng']) {
          lon.fleet = lon.fleet.filter((x: string) => x !== s);
          prov(d, s).fleet = prov(d, s).fleet.filter((x: string) => x !== 'lon');
        }
      }),
    );
    expect(e).toContainEqual(expect.stringMatching(/lon: coast without sea/));
  });

  it('requires the coast when a fleet moves to a province that has named coasts', () => {
    const e = errors(
      edit((d) => {
        const gas = prov(d, 'gas');
        gas.fleet = gas.fleet.map((x: string) => (x === 'spa/nc' ? 'spa' : x));
      }),
    );
    expect(e).toContainEqual(expect.stringMatching(/gas: fleet adjacency names "spa" without its coast/));
  });

  it('rejects armies at sea, fleets inland, and a home centre that is no centre', () => {
    const e = errors(
      edit((d) => {
        d.start.units.push({ power: 'England', type: 'army', at: 'nth' });
        d.start.units.push({ power: 'Germany', type: 'fleet', at: 'boh' });
        const ruh = prov(d, 'ruh');
        ruh.home = 'Germany';
      }),
    );
    expect(e).toContainEqual(expect.stringMatching(/an army cannot stand at sea/));
    expect(e).toContainEqual(expect.stringMatching(/a fleet cannot stand inland/));
    expect(e).toContainEqual(expect.stringMatching(/ruh: a home centre must be a supply centre/));
  });

  it('reports schema errors with their path', () => {
    const e = errors(edit((d) => ((d.provinces[0] as Record<string, unknown>).kind = 'swamp')));
    expect(e[0]).toMatch(/^provinces\.0\.kind: /);
  });

  it('looks provinces up ignoring case, by id or by name', async () => {
    const { findProvince } = await import('../../shared/variant/load.ts');
    const r = loadVariant(standard);
    if (!r.ok) throw new Error('load failed');
    expect(findProvince(r.value, 'NTH')).toBe(findProvince(r.value, 'north sea'));
    expect(findProvince(r.value, 'St. Petersburg')).toBe(findProvince(r.value, 'stp'));
    expect(findProvince(r.value, 'Atlantis')).toBe(-1);
  });
});
