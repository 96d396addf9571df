/**
 * Diadochi V: the adjacency in variant.json must follow from the drawn
 * geometry (maps/diadochi-v/geometry.json), except for the documented
 * special links (rule 11 canals, rule 12 direct passages).
 *
 * Shared borders are recomputed here from the polygons alone: neighbouring
 * provinces share identical vertices, so a border is the set of polygon
 * segments that two provinces have in common.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import data from '../../maps/diadochi-v/variant.json' with { type: 'json' };
import geometry from '../../maps/diadochi-v/geometry.json' with { type: 'json' };
import { MapDataSchema, type ParsedMapData } from '../../shared/variant/schema.ts';

/** Shortest shared border (SVG units) that makes two provinces neighbours. */
const MIN_BORDER = 2;

const map: ParsedMapData = MapDataSchema.parse(data);
const byId = new Map(map.provinces.map((p) => [p.id, p]));
const svg = readFileSync(new URL('../../maps/diadochi-v/map.svg', import.meta.url), 'utf8');
const rings = geometry.provinces as unknown as Record<string, number[][][]>;

type Pt = number[];
const vkey = (p: Pt) => `${p[0]},${p[1]}`;
const skey = (a: Pt, b: Pt) => {
  const ka = vkey(a);
  const kb = vkey(b);
  return ka < kb ? `${ka};${kb}` : `${kb};${ka}`;
};
const pkey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

// Segment -> provinces that have it; vertex -> provinces that have it.
const segOwners = new Map<string, string[]>();
const segPts = new Map<string, [Pt, Pt]>();
const vertexOwners = new Map<string, Set<string>>();
for (const [id, rs] of Object.entries(rings)) {
  for (const r of rs)
    for (let i = 0; i < r.length; i++) {
      const a = r[i];
      const b = r[(i + 1) % r.length];
      const k = skey(a, b);
      const owners = segOwners.get(k) ?? [];
      if (!owners.includes(id)) owners.push(id);
      segOwners.set(k, owners);
      segPts.set(k, [a, b]);
      const vs = vertexOwners.get(vkey(a)) ?? new Set<string>();
      vs.add(id);
      vertexOwners.set(vkey(a), vs);
    }
}
// Pair -> shared segments.
const shared = new Map<string, string[]>();
for (const [k, owners] of segOwners) {
  if (owners.length < 2) continue;
  for (let i = 0; i < owners.length; i++)
    for (let j = i + 1; j < owners.length; j++) {
      const pk = pkey(owners[i], owners[j]);
      const l = shared.get(pk) ?? [];
      l.push(k);
      shared.set(pk, l);
    }
}
const borderLength = (a: string, b: string): number =>
  (shared.get(pkey(a, b)) ?? []).reduce((s, k) => {
    const [p, q] = segPts.get(k)!;
    return s + Math.hypot(q[0] - p[0], q[1] - p[1]);
  }, 0);
const borders = (a: string, b: string) => borderLength(a, b) >= MIN_BORDER;

const ids = map.provinces.map((p) => p.id);
const kind = (id: string) => byId.get(id)!.kind;
const isSea = (id: string) => kind(id) === 'sea';
const isLandish = (id: string) => kind(id) === 'land' || kind(id) === 'coastal';

/** The location of province `id` that faces sea `sea`: the province itself, or its named coast listing that sea. */
function locFor(id: string, sea: string): string {
  const p = byId.get(id)!;
  if (!p.coasts) return id;
  const c = Object.entries(p.coasts).find(([, coast]) => coast.fleet.includes(sea));
  if (!c) throw new Error(`${id} touches ${sea} but no named coast lists it`);
  return `${id}/${c[0]}`;
}

/** Army and fleet edges (unordered pairs) derived from the geometry alone. */
function geometricEdges(): { army: Set<string>; fleet: Set<string> } {
  const army = new Set<string>();
  const fleet = new Set<string>();
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i];
      const b = ids[j];
      if (!borders(a, b)) continue;
      if (kind(a) === 'impassable' || kind(b) === 'impassable') continue;
      if (isLandish(a) && isLandish(b)) {
        army.add(pkey(a, b));
        if (kind(a) !== 'coastal' || kind(b) !== 'coastal') continue;
        // Shared coastline: an end of the common border is a vertex of a sea both provinces touch.
        const degree = new Map<string, number>();
        for (const k of shared.get(pkey(a, b))!) {
          for (const p of segPts.get(k)!) degree.set(vkey(p), (degree.get(vkey(p)) ?? 0) + 1);
        }
        for (const [v, d] of degree) {
          if (d !== 1) continue;
          for (const s of vertexOwners.get(v) ?? []) {
            if (!isSea(s) || !borders(a, s) || !borders(b, s)) continue;
            fleet.add(pkey(locFor(a, s), locFor(b, s)));
          }
        }
      } else if (isSea(a) && isSea(b)) {
        fleet.add(pkey(a, b));
      } else {
        const [land, sea] = isSea(a) ? [b, a] : [a, b];
        fleet.add(pkey(locFor(land, sea), sea));
      }
    }
  return { army, fleet };
}

/** Army and fleet edges (unordered pairs) listed in variant.json, with their direction checked. */
function listedEdges(): { army: Set<string>; fleet: Set<string>; asymmetric: string[] } {
  const army = new Set<string>();
  const fleet = new Set<string>();
  const directed = new Set<string>();
  const asymmetric: string[] = [];
  for (const p of map.provinces) {
    for (const to of p.army) {
      army.add(pkey(p.id, to));
      directed.add(`A ${p.id}>${to}`);
    }
    const lists: [string, string[]][] = p.coasts ? Object.entries(p.coasts).map(([c, coast]) => [`${p.id}/${c}`, coast.fleet]) : [[p.id, p.fleet]];
    for (const [from, list] of lists)
      for (const to of list) {
        fleet.add(pkey(from, to));
        directed.add(`F ${from}>${to}`);
      }
  }
  for (const d of directed) {
    const [t, rest] = d.split(' ');
    const [a, b] = rest.split('>');
    if (!directed.has(`${t} ${b}>${a}`)) asymmetric.push(d);
  }
  return { army, fleet, asymmetric };
}

/** Edges contributed by the special links. */
function specialEdges(): { army: Set<string>; fleet: Set<string> } {
  const army = new Set<string>();
  const fleet = new Set<string>();
  for (const link of map.specialLinks) {
    if (link.kind === 'passage') {
      const [a, b] = link.between;
      army.add(pkey(a, b));
      fleet.add(pkey(a, b));
    } else {
      const [p, s1, s2] = link.between;
      fleet.add(pkey(p, s1));
      fleet.add(pkey(p, s2));
    }
  }
  return { army, fleet };
}

const geo = geometricEdges();
const listed = listedEdges();
const special = specialEdges();

function moves(type: 'army' | 'fleet', from: string): string[] {
  const [id, coast] = from.split('/');
  const p = byId.get(id)!;
  if (type === 'army') return p.army;
  return coast ? p.coasts![coast].fleet : p.fleet;
}

describe('Diadochi V map data', () => {
  it('parses with MapDataSchema', () => {
    const r = MapDataSchema.safeParse(data);
    expect(r.success, r.success ? '' : JSON.stringify(r.error.issues.slice(0, 5))).toBe(true);
    expect(map.id).toBe('diadochi-v');
    expect(geometry.minBorder).toBe(MIN_BORDER);
  });

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

  it('has a polygon for every province and nothing else', () => {
    expect(Object.keys(rings).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(rings[id].length, id).toBeGreaterThan(0);
  });

  it('lists every edge in both directions', () => {
    expect(listed.asymmetric).toEqual([]);
  });

  it('makes provinces that share a border adjacent', () => {
    const missingArmy = [...geo.army].filter((e) => !listed.army.has(e));
    const missingFleet = [...geo.fleet].filter((e) => !listed.fleet.has(e));
    expect(missingArmy).toEqual([]);
    expect(missingFleet).toEqual([]);
  });

  it('has no adjacency without a shared border, except the documented special links', () => {
    const extraArmy = [...listed.army].filter((e) => !geo.army.has(e) && !special.army.has(e));
    const extraFleet = [...listed.fleet].filter((e) => !geo.fleet.has(e) && !special.fleet.has(e));
    expect(extraArmy).toEqual([]);
    expect(extraFleet).toEqual([]);
    // Every special link is in the data.
    for (const e of special.army) expect(listed.army.has(e), e).toBe(true);
    for (const e of special.fleet) expect(listed.fleet.has(e), e).toBe(true);
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

  it('draws every province, with its label and full name, in the SVG', () => {
    for (const p of map.provinces) {
      expect(svg.match(new RegExp(`<path id="p-${p.id}" class="province ${p.kind}"`, 'g')) ?? [], p.id).toHaveLength(1);
      expect(svg.includes(`<text id="l-${p.id}" `), `label ${p.id}`).toBe(true);
      expect(svg.includes(`<title>${p.name}</title>${p.id}</text>`), `label title ${p.id}`).toBe(true);
      expect(p.draw, `${p.id} draw`).toBeDefined();
      expect(p.anchor, `${p.id} anchor`).toBeDefined();
    }
    expect(svg).toContain('<g id="links">');
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
