import { describe, it, expect } from 'vitest';
import data from '../../maps/standard/variant.json' with { type: 'json' };
import { MapDataSchema, type ParsedMapData } from '../../shared/variant/schema.ts';

const map: ParsedMapData = MapDataSchema.parse(data);
const byId = new Map(map.provinces.map((p) => [p.id, p]));

/** Locations a unit of `type` at `from` (`spa/nc` for a fleet on a named coast) may move to. */
function moves(type: 'army' | 'fleet', from: string): string[] {
  const [id, coast] = from.split('/');
  const p = byId.get(id);
  if (!p) throw new Error(`no province ${id}`);
  if (type === 'army') return p.army;
  if (coast) {
    const c = p.coasts?.[coast];
    if (!c) throw new Error(`no coast ${from}`);
    return c.fleet;
  }
  return p.fleet;
}

/** Every fleet location of the map: provinces without named coasts, and each named coast. */
function fleetLocations(): string[] {
  return map.provinces.flatMap((p) => (p.coasts ? Object.keys(p.coasts).map((c) => `${p.id}/${c}`) : p.kind === 'land' ? [] : [p.id]));
}

describe('Standard map data', () => {
  it('parses with MapDataSchema and has the right identity', () => {
    expect(MapDataSchema.safeParse(data).success).toBe(true);
    expect(map.id).toBe('standard');
    expect(map.name).toBe('Standard');
    expect(map.powers.map((p) => p.abbreviation)).toEqual(['AUS', 'ENG', 'FRA', 'GER', 'ITA', 'RUS', 'TUR']);
    expect(new Set(map.powers.map((p) => p.colour.toLowerCase())).size).toBe(7);
    expect(map.rules.victory).toEqual({ type: 'centres', count: 18 });
    expect(map.rules.calendar.startYear).toBe(1901);
  });

  it('has 75 provinces: 14 land, 42 coastal, 19 seas, with unique ids and names', () => {
    expect(map.provinces).toHaveLength(75);
    expect(new Set(map.provinces.map((p) => p.id)).size).toBe(75);
    expect(new Set(map.provinces.map((p) => p.name)).size).toBe(75);
    const count = (k: string) => map.provinces.filter((p) => p.kind === k).length;
    expect([count('land'), count('coastal'), count('sea')]).toEqual([14, 42, 19]);
  });

  it('spells province names as the rulebook does', () => {
    const names: Record<string, string> = {
      nth: 'North Sea',
      bot: 'Gulf of Bothnia',
      stp: 'St Petersburg',
      mid: 'Mid-Atlantic Ocean',
      gol: 'Gulf of Lyon',
      tys: 'Tyrrhenian Sea',
      tyr: 'Tyrolia',
      hel: 'Helgoland Bight',
      nat: 'North Atlantic Ocean',
      rum: 'Rumania',
      eas: 'Eastern Mediterranean',
      wes: 'Western Mediterranean',
      nrg: 'Norwegian Sea',
      naf: 'North Africa',
    };
    for (const [id, name] of Object.entries(names)) expect(byId.get(id)?.name).toBe(name);
  });

  it('has named coasts exactly on bul, spa, stp, which have no fleet list of their own', () => {
    const multi = map.provinces.filter((p) => p.coasts).map((p) => `${p.id}:${Object.keys(p.coasts!).sort().join(',')}`);
    expect(multi).toEqual(['bul:ec,sc', 'spa:nc,sc', 'stp:nc,sc']);
    for (const id of ['bul', 'spa', 'stp']) expect(byId.get(id)!.fleet).toEqual([]);
  });

  it('has 34 supply centres, 22 of them home centres', () => {
    const centres = map.provinces.filter((p) => p.centre);
    expect(centres).toHaveLength(34);
    expect(centres.every((p) => p.centre!.supply === 1 && p.kind !== 'sea')).toBe(true);
    const homes: Record<string, string[]> = {};
    for (const p of centres) if (p.home) (homes[p.home] ??= []).push(p.id);
    expect(homes).toEqual({
      Austria: ['bud', 'tri', 'vie'],
      England: ['edi', 'lon', 'lvp'],
      France: ['bre', 'mar', 'par'],
      Germany: ['ber', 'kie', 'mun'],
      Italy: ['nap', 'rom', 'ven'],
      Russia: ['mos', 'sev', 'stp', 'war'],
      Turkey: ['ank', 'con', 'smy'],
    });
    expect(centres.filter((p) => !p.home).map((p) => p.id)).toEqual(['bel', 'bul', 'den', 'gre', 'hol', 'nwy', 'por', 'rum', 'ser', 'spa', 'swe', 'tun']);
    expect(Object.keys(map.start.owners).sort()).toEqual(
      centres
        .filter((p) => p.home)
        .map((p) => p.id)
        .sort(),
    );
    for (const [id, owner] of Object.entries(map.start.owners)) expect(byId.get(id)!.home).toBe(owner);
  });

  it('starts with the 22 units of 1901', () => {
    const units = map.start.units.map((u) => `${u.power} ${u.type === 'army' ? 'A' : 'F'} ${u.at}`).sort();
    expect(units).toEqual([
      'Austria A bud',
      'Austria A vie',
      'Austria F tri',
      'England A lvp',
      'England F edi',
      'England F lon',
      'France A mar',
      'France A par',
      'France F bre',
      'Germany A ber',
      'Germany A mun',
      'Germany F kie',
      'Italy A rom',
      'Italy A ven',
      'Italy F nap',
      'Russia A mos',
      'Russia A war',
      'Russia F sev',
      'Russia F stp/sc',
      'Turkey A con',
      'Turkey A smy',
      'Turkey F ank',
    ]);
  });

  it('gives armies only non-sea neighbours and fleets only non-land ones, all existing', () => {
    for (const p of map.provinces) {
      if (p.kind === 'sea') expect(p.army).toEqual([]);
      if (p.kind === 'land') expect(p.fleet).toEqual([]);
      for (const t of p.army) expect(['land', 'coastal']).toContain(byId.get(t)?.kind);
    }
    const locs = new Set(fleetLocations());
    for (const from of locs) for (const to of moves('fleet', from)) expect(locs.has(to), `${from} -> ${to}`).toBe(true);
  });

  it('has symmetric army and fleet adjacency', () => {
    for (const p of map.provinces) {
      for (const t of p.army) expect(moves('army', t), `army ${p.id}-${t}`).toContain(p.id);
    }
    for (const from of fleetLocations()) {
      for (const to of moves('fleet', from)) expect(moves('fleet', to), `fleet ${from}-${to}`).toContain(from);
    }
  });

  it('has the expected number of army and fleet edges (a guard against lost or stray links)', () => {
    // Distinct edges of the Standard board, counting each named coast as its own fleet location.
    const armyEdges = map.provinces.reduce((n, p) => n + p.army.length, 0) / 2;
    const fleetEdges = fleetLocations().reduce((n, l) => n + moves('fleet', l).length, 0) / 2;
    expect(armyEdges).toBe(111);
    expect(fleetEdges).toBe(141);
  });

  // [unit type, from, to, adjacent?]: checked in both directions.
  const spot: ['army' | 'fleet', string, string, boolean][] = [
    ['fleet', 'rom', 'tus', true],
    ['fleet', 'rom', 'ven', false],
    ['army', 'rom', 'ven', true],
    ['fleet', 'rom', 'apu', false],
    ['fleet', 'ven', 'tri', true],
    ['fleet', 'apu', 'ven', true],
    ['fleet', 'nap', 'apu', true],
    ['fleet', 'nap', 'rom', true],
    ['fleet', 'pie', 'mar', true],
    ['fleet', 'pie', 'tus', true],
    ['fleet', 'kie', 'den', true],
    ['fleet', 'kie', 'ber', true],
    ['fleet', 'kie', 'hol', true],
    ['fleet', 'kie', 'bal', true],
    ['fleet', 'kie', 'hel', true],
    ['fleet', 'swe', 'den', true],
    ['army', 'swe', 'den', true],
    ['fleet', 'nwy', 'swe', true],
    ['fleet', 'fin', 'swe', true],
    ['fleet', 'fin', 'stp/sc', true],
    ['fleet', 'lvn', 'stp/sc', true],
    ['fleet', 'lvn', 'stp/nc', false],
    ['fleet', 'nwy', 'stp/nc', true],
    ['fleet', 'nwy', 'stp/sc', false],
    ['army', 'nwy', 'stp', true],
    ['fleet', 'stp/nc', 'bot', false],
    ['fleet', 'stp/sc', 'bot', true],
    ['fleet', 'stp/nc', 'bar', true],
    ['fleet', 'con', 'bul/ec', true],
    ['fleet', 'con', 'bul/sc', true],
    ['fleet', 'bul/sc', 'bla', false],
    ['fleet', 'bul/ec', 'bla', true],
    ['fleet', 'bul/sc', 'aeg', true],
    ['fleet', 'bul/ec', 'aeg', false],
    ['fleet', 'gre', 'bul/sc', true],
    ['fleet', 'gre', 'bul/ec', false],
    ['fleet', 'rum', 'bul/ec', true],
    ['fleet', 'rum', 'bul/sc', false],
    ['fleet', 'con', 'smy', true],
    ['fleet', 'con', 'ank', true],
    ['fleet', 'ank', 'smy', false],
    ['army', 'ank', 'smy', true],
    ['fleet', 'arm', 'sev', true],
    ['fleet', 'ank', 'arm', true],
    ['fleet', 'arm', 'syr', false],
    ['fleet', 'smy', 'syr', true],
    ['fleet', 'alb', 'tri', true],
    ['fleet', 'alb', 'gre', true],
    ['fleet', 'rum', 'sev', true],
    ['fleet', 'gas', 'spa/nc', true],
    ['fleet', 'gas', 'spa/sc', false],
    ['fleet', 'mar', 'spa/sc', true],
    ['fleet', 'mar', 'spa/nc', false],
    ['fleet', 'por', 'spa/nc', true],
    ['fleet', 'por', 'spa/sc', true],
    ['fleet', 'mid', 'spa/nc', true],
    ['fleet', 'mid', 'spa/sc', true],
    ['fleet', 'gol', 'spa/nc', false],
    ['fleet', 'wes', 'spa/sc', true],
    ['fleet', 'naf', 'tun', true],
    ['fleet', 'bre', 'pic', true],
    ['fleet', 'gas', 'bre', true],
    ['fleet', 'pic', 'bel', true],
    ['fleet', 'hol', 'bel', true],
    ['fleet', 'ber', 'pru', true],
    ['fleet', 'pru', 'lvn', true],
    ['fleet', 'lvp', 'wal', true],
    ['fleet', 'cly', 'lvp', true],
    ['fleet', 'cly', 'edi', true],
    ['fleet', 'edi', 'lvp', false],
    ['army', 'edi', 'lvp', true],
    ['fleet', 'edi', 'yor', true],
    ['fleet', 'yor', 'lon', true],
    ['fleet', 'lon', 'wal', true],
    ['fleet', 'wal', 'yor', false],
    ['fleet', 'lvp', 'nat', true],
    ['army', 'lvp', 'nat', false],
    ['army', 'lvp', 'iri', false],
    ['fleet', 'cly', 'iri', false],
    ['fleet', 'cly', 'nat', true],
    ['fleet', 'kie', 'mun', false],
    ['army', 'ukr', 'sil', false],
    ['army', 'boh', 'tyr', true],
    ['army', 'tyr', 'pie', true],
    ['army', 'ber', 'sil', true],
    ['army', 'mos', 'sev', true],
    ['fleet', 'mos', 'sev', false],
    ['army', 'arm', 'syr', true],
    ['fleet', 'eng', 'bel', true],
    ['fleet', 'eng', 'hol', false],
    ['fleet', 'nth', 'den', true],
    ['fleet', 'nth', 'bal', false],
    ['fleet', 'ska', 'den', true],
    ['fleet', 'ion', 'eas', true],
    ['fleet', 'ion', 'tun', true],
    ['fleet', 'tys', 'tun', true],
    ['fleet', 'adr', 'ion', true],
  ];

  it.each(spot)('%s %s <-> %s adjacent: %s', (type, a, b, adjacent) => {
    expect(moves(type, a).includes(b)).toBe(adjacent);
    expect(moves(type, b).includes(a)).toBe(adjacent);
  });
});
