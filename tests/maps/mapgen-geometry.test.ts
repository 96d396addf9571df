/**
 * The map generator on a small drawing of the Danish straits: it finds the
 * borders real geography gives, keeps apart the seas an out-of-play strait
 * separates, joins provinces by a passage, and for a hand-written variant
 * lists every adjacency the data and the drawing disagree on. It also writes
 * a variant's draw points without touching anything else in its data.
 */
import { describe, expect, it } from 'vitest';
import { generateMap, type HandWrittenData, withDrawPoints } from '../../tools/mapgen/generator.ts';
import type { MapSource } from '../../tools/mapgen/source.ts';

const straits: MapSource = {
  id: 'straits',
  name: 'Straits',
  frame: {
    width: 300,
    parallels: [54, 58],
    centralMeridian: 11,
    extent: [
      [7.6, 53.7],
      [14.6, 53.7],
      [14.6, 57.9],
      [7.6, 57.9],
    ],
    margin: 4,
  },
  background: {
    land: [],
    water: [
      // The Sound and the Belts, out of play.
      [
        [12.6, 56.1],
        [12.68, 56.0],
        [12.75, 55.8],
        [12.85, 55.6],
        [12.75, 55.45],
      ],
      [
        [10.95, 55.85],
        [10.95, 55.6],
        [11.0, 55.3],
        [11.0, 55.1],
      ],
      [
        [9.75, 55.55],
        [9.72, 55.45],
        [9.8, 55.3],
      ],
    ],
    areas: [],
  },
  waterCuts: [],
  provinces: [
    {
      id: 'jut',
      type: 'land',
      anchor: [9.3, 56.2],
      seeds: [
        [12.3, 55.6],
        [10.4, 55.3],
        [11.5, 54.75],
      ],
    },
    { id: 'ger', type: 'land', anchor: [10.0, 54.0], seeds: [[12.5, 54.1]] },
    { id: 'swe', type: 'land', anchor: [13.3, 56.3] },
    { id: 'nts', type: 'sea', anchor: [7.9, 56.0] },
    { id: 'kat', type: 'sea', anchor: [11.3, 57.2], seeds: [[11.8, 56.5]] },
    {
      id: 'bal',
      type: 'sea',
      anchor: [12.8, 54.6],
      seeds: [
        [11.0, 54.45],
        [14.0, 55.2],
      ],
    },
  ],
  rivers: [],
  links: [
    {
      kind: 'passage',
      between: ['jut', 'swe'],
      note: 'The Sound',
      draw: [
        [12.55, 56.0],
        [12.75, 56.05],
      ],
    },
  ],
  data: { kind: 'hand-written' },
};

/** Hand-written data with these army and fleet edges. */
function data(army: string[], fleet: string[]): HandWrittenData {
  const kinds: Record<string, string> = { jut: 'coastal', ger: 'coastal', swe: 'coastal', nts: 'sea', kat: 'sea', bal: 'sea' };
  const ends = (edges: string[], id: string) =>
    edges
      .map((e) => e.split('–'))
      .filter((e) => e.includes(id))
      .map(([a, b]) => (a === id ? b : a))
      .sort();
  return {
    provinces: Object.entries(kinds).map(([id, kind]) => ({ id, name: id, kind, army: ends(army, id), fleet: ends(fleet, id) })),
  };
}

const ARMY = ['ger–jut', 'jut–swe'];
const FLEET = ['ger–jut', 'jut–swe', 'jut–nts', 'jut–kat', 'bal–jut', 'ger–nts', 'bal–ger', 'kat–swe', 'bal–swe', 'kat–nts'];

describe('the map generator', () => {
  it('draws exactly the adjacency geography and the passage give: the Kattegat and the Baltic stay apart', () => {
    const result = generateMap(straits, { scale: 1, data: data(ARMY, FLEET) });
    expect(result.problems).toEqual([]);
    expect(result.mismatches).toEqual([]);
    expect(JSON.parse(result.geometry).links).toEqual([{ kind: 'passage', between: ['jut', 'swe'], note: 'The Sound' }]);
    expect(result.svg).toContain('<path id="p-jut" class="province coastal"');
  });

  it('fails listing every adjacency the data has and the drawing does not show, and the reverse', () => {
    const result = generateMap(straits, { scale: 1, data: data(['jut–swe'], [...FLEET, 'bal–kat']) });
    expect(result.mismatches.map((m) => m.split(':')[0])).toEqual(['extra army ger–jut', 'missing fleet bal–kat']);
    expect(result.mismatches[0]).toMatch(/on the drawing \(border [\d.]+ units\), not in the data$/);
  });

  it('names a province the data has and the source lacks', () => {
    const withExtra = data(ARMY, FLEET);
    withExtra.provinces.push({ id: 'nor', name: 'nor', kind: 'coastal', army: [], fleet: [] });
    expect(() => generateMap(straits, { scale: 1, data: withExtra })).toThrow(/missing nor/);
  });
});

describe('writing draw points into hand-written data', () => {
  const text = `${JSON.stringify(
    {
      id: 'x',
      provinces: [
        { id: 'a', name: 'A', aliases: ['Ay'], kind: 'coastal', army: [], fleet: [], coasts: { nc: { name: 'North', fleet: [] } } },
        { id: 'b', name: 'B', kind: 'sea', army: [], fleet: [], draw: { label: [0, 0], unit: [0, 0] } },
      ],
      rules: { victory: 18 },
    },
    null,
    2,
  )}\n`;
  const draw = {
    provinces: {
      a: { label: [1, 2] as [number, number], unit: [3, 4] as [number, number] },
      b: { label: [5, 6] as [number, number], unit: [7, 8] as [number, number] },
    },
    coasts: { 'a/nc': [9, 10] as [number, number] },
  };

  it('changes only the draw points', () => {
    const out = JSON.parse(withDrawPoints(text, draw));
    expect(out.provinces[0].draw).toEqual({ label: [1, 2], unit: [3, 4] });
    expect(out.provinces[0].coasts.nc.draw).toEqual({ unit: [9, 10] });
    expect(out.provinces[1].draw).toEqual({ label: [5, 6], unit: [7, 8] });
    const strip = (v: { provinces: { draw?: unknown; coasts?: Record<string, { draw?: unknown }> }[] }) => {
      for (const p of v.provinces) {
        delete p.draw;
        for (const c of Object.values(p.coasts ?? {})) delete c.draw;
      }
      return v;
    };
    expect(strip(out)).toEqual(strip(JSON.parse(text)));
  });

  it('refuses data not in the form it would be written back in', () => {
    expect(() => withDrawPoints(JSON.stringify(JSON.parse(text)), draw)).toThrow(/not formatted/);
  });
});
