import { describe, expect, it } from 'vitest';
import { getVariant } from '../../shared/variants.ts';
import { findProvince, isAdjacentArmy, isAdjacentFleet, SEA } from '../../shared/variant/load.ts';

// What a player of the published Ancient Mediterranean notices first: the
// count of centres, who starts where, that the special links of the README
// are really in the adjacency, that the spellings of other servers are read,
// and that the five powers' colours stay apart for colour-blind players.
const v = getVariant('ancient-mediterranean')!;
const id = (name: string) => {
  const p = findProvince(v, name);
  if (p < 0) throw new Error(`no province ${name}`);
  return p;
};

describe('Ancient Mediterranean data', () => {
  it('has 34 single supply centres, 15 of them home centres, and 18 to win', () => {
    expect(v.centres.length).toBe(34);
    expect(v.centres.every((c) => v.supplyTable[c * v.powers.length] === 1)).toBe(true);
    expect([...v.homeOf].filter((h) => h >= 0).length).toBe(15);
    expect(v.data.rules.victory).toEqual({ type: 'centres', count: 18 });
    expect(v.powers).toEqual(['Carthage', 'Egypt', 'Greece', 'Persia', 'Rome']);
  });

  it('starts each power with a fleet and two armies, in its own home centres', () => {
    for (const power of v.powers) {
      const units = v.data.start.units.filter((u) => u.power === power);
      expect(units.map((u) => u.type).sort()).toEqual(['army', 'army', 'fleet']);
      for (const u of units) expect(v.data.provinces.find((p) => p.id === u.at)?.home).toBe(power);
    }
  });

  it('has every special link of the README in its adjacency', () => {
    for (const link of v.data.specialLinks) {
      const [a, b, c] = link.between.map(id);
      if (link.kind === 'passage') {
        // A strait or a four-way point: seas touch by fleet; land provinces by army, and by fleet too when both have a coast.
        const bothSea = v.provinceKind[a] === SEA && v.provinceKind[b] === SEA;
        expect(isAdjacentFleet(v, a, b), link.note).toBe(true);
        if (!bothSea) expect(isAdjacentArmy(v, a, b), link.note).toBe(true);
      } else {
        // A canal or river: the first province reaches the other two by fleet.
        expect(isAdjacentFleet(v, a, b), link.note).toBe(true);
        expect(isAdjacentFleet(v, a, c), link.note).toBe(true);
      }
    }
  });

  it('keeps the waters apart where the map has no link', () => {
    // Byzantium and Athens are the only ways between these waters; the Red Sea meets neither the Gulf of Pelusium nor Alexandria.
    const pairs = [
      ['bla', 'aeg'],
      ['ree', 'gop'],
      ['ree', 'ale'],
      ['mem', 'cyr'],
    ];
    for (const [a, b] of pairs) expect(isAdjacentFleet(v, id(a), id(b)), `${a}–${b}`).toBe(false);
    // No army reaches the Baleares, Crete or Cyprus by land.
    for (const island of ['bal', 'cre', 'cyp']) expect(v.armyAdjacent[id(island)]).toEqual([]);
  });

  it('reads the spellings of godip, webDiplomacy, vDiplomacy and DPjudge', () => {
    const spellings: Record<string, string> = {
      the: 'thb',
      sii: 'sin',
      tys: 'tyn',
      THB: 'thb',
      SIN: 'sin',
      TYN: 'tyn',
      'Pontus Euxinus': 'bla',
      'Mare Erithraerum': 'ree',
      'Reed Sea': 'ree',
      'Tyrrhenean Sea': 'tyn',
      'Tyrrhenian Sea': 'tyn',
      Carthago: 'car',
      'Province of Carthage': 'car',
      Sinaï: 'sin',
      'Leptis Magna': 'lep',
      Massila: 'mas',
    };
    for (const [spelling, province] of Object.entries(spellings)) expect(v.provinceIds[id(spelling)], spelling).toBe(province);
  });

  it('gives the powers colours that colour-blind players tell apart', () => {
    // Each colour as seen with normal vision and simulated protanopia, deuteranopia and tritanopia (Machado et al.
    // 2009, full severity); every two powers must stay at least 20 apart in CIELAB (ΔE*ab) under each.
    const views: Record<string, number[][]> = {
      normal: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      protanopia: [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
      ],
      deuteranopia: [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.01182, 0.04294, 0.968881],
      ],
      tritanopia: [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.3039],
      ],
    };
    const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    const lab = ([r, g, b]: number[]) => {
      const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
      const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
      const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
      return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
    };
    const seen = (hex: string, m: number[][]) => {
      const rgb = [1, 3, 5].map((i) => linear(Number.parseInt(hex.slice(i, i + 2), 16) / 255));
      return lab(m.map((row) => Math.min(1, Math.max(0, row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2]))));
    };
    const colours = v.data.powers.map((p) => p.colour);
    for (const [view, m] of Object.entries(views))
      for (let i = 0; i < colours.length; i++)
        for (let j = i + 1; j < colours.length; j++) {
          const d = Math.hypot(...seen(colours[i], m).map((x, k) => x - seen(colours[j], m)[k]));
          expect(d, `${v.powers[i]} and ${v.powers[j]} under ${view}`).toBeGreaterThan(20);
        }
  });
});
