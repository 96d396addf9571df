import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { getVariant, variantIds } from '../../shared/variants.ts';
import { parseOrder } from '../../shared/orders/parse.ts';
import { formatOrder } from '../../shared/orders/format.ts';
import type { Order, UnitRef } from '../../shared/orders/types.ts';
import type { PhaseType } from '../../shared/state/schema.ts';
import { normaliseName, type Variant } from '../../shared/variant/load.ts';
import { isNotationWord } from '../../shared/orders/words.ts';

// Whatever spelling of a province a player picks (its id, its name, any alias of the variant's table, in any
// case) and however they write a coast, the order read is the one meant; and a misspelt name is refused with
// the word quoted and a suggestion.

// Generous: the machines running the suite are shared.
vi.setConfig({ testTimeout: 30_000 });

// Every shipped variant, so that one added later is held to the same.
const variants = variantIds().map((id) => getVariant(id)!);

const spellingsOf = (v: Variant, p: number): string[] => [v.provinceIds[p], v.provinceNames[p], ...(v.data.provinces[p].aliases ?? [])];

const coastWord: Record<string, string> = { nc: 'north', sc: 'south', ec: 'east', wc: 'west' };
/** The ways the conventions write a coast after a province. */
const coastSpellings = (c: string): string[] => [
  `/${c}`,
  `/${c.toUpperCase()}`,
  `(${c})`,
  ` (${c})`,
  ` ${c}`,
  ` ${c.toUpperCase()}S`,
  ` (${coastWord[c]} coast)`,
  ` ${coastWord[c]} coast`,
  `(${c[0]}.c.)`,
  `/${coastWord[c]}`,
];

const cased = (s: string, how: number): string => (how === 0 ? s : how === 1 ? s.toUpperCase() : s.toLowerCase());

/** A location of the variant, canonical and as a player might spell it. */
const location = (v: Variant) =>
  fc
    .record({
      l: fc.integer({ min: 0, max: v.locationCount - 1 }),
      spelling: fc.nat(),
      coastSpelling: fc.nat(),
      how: fc.integer({ min: 0, max: 2 }),
    })
    .map(({ l, spelling, coastSpelling, how }) => {
      const id = v.locationIds[l];
      const p = v.locationProvince[l];
      const names = spellingsOf(v, p);
      const [, coast] = id.split('/');
      const spelt = cased(names[spelling % names.length], how) + (coast ? coastSpellings(coast)[coastSpelling % coastSpellings(coast).length] : '');
      return { id, spelt };
    });

type Spelt = { id: string; spelt: string };
const unitOf = (type: 'army' | 'fleet', at: Spelt, spelt: boolean): UnitRef => ({ type, at: spelt ? at.spelt : at.id });

/** An order of any kind the variant has, with its phase; `write(true)` gives it with the player's spellings. */
const anyOrder = (v: Variant) => {
  const loc = location(v);
  const type = fc.constantFrom<'army' | 'fleet'>('army', 'fleet');
  const kinds = ['hold', 'move', 'support-hold', 'support-move', 'convoy', 'retreat', 'disband', 'build', 'remove'];
  if (v.rules.movementOrders.some((r) => r.kinds.includes('destroy'))) kinds.push('destroy', 'rebuild');
  return fc
    .record({ kind: fc.constantFrom(...kinds), type, other: type, a: loc, b: loc, c: loc, viaConvoy: fc.boolean() })
    .map(({ kind, type, other, a, b, c, viaConvoy }): { phase: PhaseType; write: (spelt: boolean) => Order } => {
      const at = (x: Spelt, s: boolean) => (s ? x.spelt : x.id);
      switch (kind) {
        case 'hold':
          return { phase: 'movement', write: (s) => ({ kind: 'hold', unit: unitOf(type, a, s) }) };
        case 'move':
          return { phase: 'movement', write: (s) => ({ kind: 'move', unit: unitOf(type, a, s), to: at(b, s), viaConvoy }) };
        case 'support-hold':
          return { phase: 'movement', write: (s) => ({ kind: 'support', unit: unitOf(type, a, s), supported: unitOf(other, b, s) }) };
        case 'support-move':
          return { phase: 'movement', write: (s) => ({ kind: 'support', unit: unitOf(type, a, s), supported: unitOf(other, b, s), to: at(c, s) }) };
        case 'convoy':
          return { phase: 'movement', write: (s) => ({ kind: 'convoy', unit: unitOf('fleet', a, s), army: unitOf('army', b, s), to: at(c, s) }) };
        case 'destroy':
          return { phase: 'movement', write: (s) => ({ kind: 'destroy', unit: unitOf(type, a, s) }) };
        case 'rebuild':
          return { phase: 'movement', write: (s) => ({ kind: 'rebuild', unit: unitOf(type, a, s) }) };
        case 'retreat':
          return { phase: 'retreat', write: (s) => ({ kind: 'retreat', unit: unitOf(type, a, s), to: at(b, s) }) };
        case 'disband':
          return { phase: 'retreat', write: (s) => ({ kind: 'disband', unit: unitOf(type, a, s) }) };
        case 'build':
          return { phase: 'adjustment', write: (s) => ({ kind: 'build', unitType: type, at: at(a, s) }) };
        default:
          return { phase: 'adjustment', write: (s) => ({ kind: 'remove', unit: unitOf(type, a, s) }) };
      }
    });
};

describe.each(variants.map((v) => [v.name, v] as const))('%s', (_, v) => {
  it('reads every id, name and alias of every province as that province, in any case', () => {
    for (let p = 0; p < v.provinceCount; p++)
      for (const name of spellingsOf(v, p))
        for (const text of [name, name.toUpperCase(), name.toLowerCase()]) {
          const r = parseOrder(v, `A ${text} - ${text}`);
          expect(r.ok && r.value.kind === 'move' ? [r.value.unit.at, r.value.to] : r).toEqual([v.provinceIds[p], v.provinceIds[p]]);
        }
  });

  it('formatting an order with any spelling of its provinces and coasts, then parsing it, gives the same order', () => {
    fc.assert(
      fc.property(anyOrder(v), ({ phase, write }) => {
        const text = formatOrder(write(true));
        const r = parseOrder(v, text, phase);
        if (!r.ok) throw new Error(`"${text}" was refused: ${r.error}`);
        expect(r.value, text).toEqual(write(false));
      }),
      { numRuns: 2000 },
    );
  });

  // Every spelling of one word that is no name: what the misspelling of a one-word name gives.
  const known = new Set<string>();
  for (let p = 0; p < v.provinceCount; p++) for (const s of spellingsOf(v, p)) known.add(normaliseName(s));
  const oneWord = [...new Set(Array.from({ length: v.provinceCount }, (_, p) => spellingsOf(v, p)).flat())].filter((s) => /^[A-Za-z]{3,}$/.test(s));
  const misspelling = fc
    .record({ word: fc.constantFrom(...oneWord), at: fc.nat(), letter: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), edit: fc.integer({ min: 0, max: 2 }) })
    .map(({ word, at, letter, edit }) => {
      const i = at % word.length;
      // Replace, insert or delete one letter.
      return edit === 0
        ? word.slice(0, i) + letter + word.slice(i + 1)
        : edit === 1
          ? word.slice(0, i) + letter + word.slice(i)
          : word.slice(0, i) + word.slice(i + 1);
    })
    .filter((w) => !known.has(normaliseName(w)) && !isNotationWord(w.toLowerCase()));

  it('refuses a misspelt name, quoting it and suggesting a province', () => {
    fc.assert(
      fc.property(misspelling, fc.constantFrom('A %s H', 'F %s - %t', 'A %t - %s', 'F %t S A %s', 'A %t S A %t - %s'), (word, form) => {
        const some = v.provinceIds[v.homeOf.findIndex((w) => w >= 0)];
        const text = form.replace('%s', word).replaceAll('%t', some);
        const r = parseOrder(v, text);
        expect(r.ok, text).toBe(false);
        if (r.ok) return;
        expect(r.error, text).toMatch(new RegExp(`^"${word}" is not a province on this map; did you mean [^?]+ \\([A-Za-z0-9]+[,)]`));
      }),
      { numRuns: 500 },
    );
  });
});
