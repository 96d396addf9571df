import { describe, expect, it, vi } from 'vitest';

// Generous: these run many adjudications, and CI machines are shared.
vi.setConfig({ testTimeout: 60_000 });
import fc from 'fast-check';
import { getVariant } from '../../shared/variants.ts';
import { leadingUnit, parseOrder } from '../../shared/orders/parse.ts';
import { formatOrder } from '../../shared/orders/format.ts';
import type { Order } from '../../shared/orders/types.ts';

const v = getVariant('standard')!;
const parsed = (text: string, phase: 'movement' | 'retreat' | 'adjustment' = 'movement'): Order => {
  const r = parseOrder(v, text, phase);
  if (!r.ok) throw new Error(`"${text}" was rejected: ${r.error}`);
  return r.value;
};
const reason = (text: string, phase: 'movement' | 'retreat' | 'adjustment' = 'movement'): string => {
  const r = parseOrder(v, text, phase);
  if (r.ok) throw new Error(`"${text}" was accepted as ${formatOrder(r.value)}`);
  return r.error;
};

describe('order notation players type', () => {
  it.each([
    ['A par - bur', 'A par - bur'],
    ['a PAR -> Bur', 'A par - bur'],
    ['Army Paris to Burgundy', 'A par - bur'],
    ['A par-bur', 'A par - bur'],
    ['par - bur', 'par - bur'],
    ['F Mid-Atlantic Ocean - Brest', 'F mid - bre'],
    ['F St. Petersburg (sc) - Gulf of Bothnia', 'F stp/sc - bot'],
    ['F spa/nc - mid', 'F spa/nc - mid'],
    ['F spa(nc) - mid', 'F spa/nc - mid'],
    ['F spa nc - mid', 'F spa/nc - mid'],
    ['F stp north coast - bar', 'F stp/nc - bar'],
    ['F mid - spa (south coast)', 'F mid - spa/sc'],
    ['A lon - bel via convoy', 'A lon - bel via convoy'],
    ['A lon - nth - bel', 'A lon - bel'],
    ['F nth C A lon - bel', 'F nth C A lon - bel'],
    ['F nth convoys A lon to bel', 'F nth C A lon - bel'],
    ['A par S A mar - bur', 'A par S A mar - bur'],
    ['A par supports A mar', 'A par S A mar'],
    ['A par S mar H', 'A par S mar'],
    ['A par H', 'A par H'],
    ['A par holds', 'A par H'],
    ['A par', 'A par H'],
  ])('movement: %s', (text, canonical) => expect(formatOrder(parsed(text))).toBe(canonical));

  it('reads retreats and disbands in a retreat phase', () => {
    expect(parsed('A mun - boh', 'retreat')).toEqual({ kind: 'retreat', unit: { type: 'army', at: 'mun' }, to: 'boh' });
    expect(parsed('A mun disband', 'retreat')).toEqual({ kind: 'disband', unit: { type: 'army', at: 'mun' } });
    expect(parsed('disband F nth', 'retreat')).toEqual({ kind: 'disband', unit: { type: 'fleet', at: 'nth' } });
  });

  it('reads builds, removals and waives in an adjustment phase', () => {
    expect(parsed('Build A par', 'adjustment')).toEqual({ kind: 'build', unitType: 'army', at: 'par' });
    expect(parsed('build fleet stp/nc', 'adjustment')).toEqual({ kind: 'build', unitType: 'fleet', at: 'stp/nc' });
    expect(parsed('B F bre', 'adjustment')).toEqual({ kind: 'build', unitType: 'fleet', at: 'bre' });
    expect(parsed('Remove F lon', 'adjustment')).toEqual({ kind: 'remove', unit: { type: 'fleet', at: 'lon' } });
    expect(parsed('Disband A par', 'adjustment')).toEqual({ kind: 'remove', unit: { type: 'army', at: 'par' } });
    expect(parsed('A par disband', 'adjustment')).toEqual({ kind: 'remove', unit: { type: 'army', at: 'par' } });
    expect(parsed('Waive', 'adjustment')).toEqual({ kind: 'waive' });
  });
});

describe('Diadochi V: names as the rules text spells them', () => {
  const diadochi = getVariant('diadochi-v')!;
  it('reads "Jar" (rule 5) as Jerusalem, and the printed spellings of the province list', () => {
    const read = (text: string, phase: 'movement' | 'adjustment' = 'movement') => {
      const r = parseOrder(diadochi, text, phase);
      return r.ok ? formatOrder(r.value) : r.error;
    };
    expect(read('A Jar - Tyr')).toBe('A Jer - Tyr');
    expect(read('Build F Jar', 'adjustment')).toBe('Build F Jer');
    expect(read('A Jerusalem - Tyre')).toBe('A Jer - Tyr');
    expect(read('A Brudisium - Neapolis')).toBe('A Bru - Nea');
  });

  it('reads R in a movement phase as the rebuild (rule 8), which names no place; in a retreat phase R is still "retreat to"', () => {
    const read = (text: string, phase: 'movement' | 'retreat' = 'movement') => {
      const r = parseOrder(diadochi, text, phase);
      return r.ok ? formatOrder(r.value) : r.error;
    };
    expect(read('A Sag R')).toBe('A Sag R');
    expect(read('A Sag rebuild')).toBe('A Sag R');
    expect(read('A Sag R Ibe')).toBe('A rebuild (R) names no place: "A Sag R" rebuilds the centre the unit stands in. A move is "A Sag - Ibe".');
    expect(read('A Sag R Sagumtum')).toBe('A rebuild (R) names no place: "A Sag R" rebuilds the centre the unit stands in.');
    expect(read('A Sag Z Ibe')).toBe('A destroy (Z) names no place: "A Sag Z" destroys the centre the unit stands in. A move is "A Sag - Ibe".');
    expect(read('A Sag R Ibe', 'retreat')).toBe('A Sag - Ibe');
    // The standard map has no rebuilds: R before a place is a move there, as players write it.
    expect(formatOrder(parsed('A par R bur'))).toBe('A par - bur');
  });

  it('takes a full stop ending an order as the end of a sentence', () => {
    const read = (text: string) => {
      const r = parseOrder(diadochi, text);
      return r.ok ? formatOrder(r.value) : r.error;
    };
    expect(read('A Sag H.')).toBe('A Sag H');
    expect(read('A Sag Z.')).toBe('A Sag Z');
    expect(read('A Sag R. ')).toBe('A Sag R');
    expect(read('A Sag - Ibe.')).toBe('A Sag - Ibe');
    expect(formatOrder(parsed('F St. Petersburg (sc) - Gulf of Bothnia.'))).toBe('F stp/sc - bot');
  });
});

describe('rejected orders say what is wrong', () => {
  it('suggests the province a typo probably meant', () => {
    expect(reason('A pariss - bur')).toMatch(/"pariss" is not a province.*Paris \(par\)/);
  });
  it('counts two letters swapped as one slip, and suggests first where the unit could go', () => {
    const diadochi = getVariant('diadochi-v')!;
    const why = (text: string) => {
      const r = parseOrder(diadochi, text, 'movement');
      return r.ok ? '' : r.error;
    };
    // "Mla" is one slip from Malacca (Mal, swapped) and from the Melita Sea (MTA): an army is offered Malacca first.
    expect(why('A Gad - Mla')).toBe('"Mla" is not a province on this map; did you mean Malacca (Mal) or Melita Sea (MTA)?');
    // A fleet could be in either (Malacca is coastal): both are offered.
    expect(why('F Sar - Mla')).toMatch(/did you mean (Malacca \(Mal\) or Melita Sea \(MTA\)|Melita Sea \(MTA\) or Malacca \(Mal\))\?$/);
    // "Jeg" is one slip from Jerusalem and from the Aegean (AEG): an army could only mean Jerusalem.
    expect(why('A Jer - Jeg')).toBe('"Jeg" is not a province on this map; did you mean Jerusalem (Jer) or Aegean Sea (AEG)?');
    // The supported unit's type counts, not the supporter's.
    expect(why('F EGY S A Sin - Jeg')).toMatch(/did you mean Jerusalem \(Jer\) or Aegean Sea/);
  });
  it('names the missing part', () => {
    expect(reason('')).toBe('The order is empty.');
    expect(reason('A par -')).toMatch(/needs a destination/);
    expect(reason('A par S')).toMatch(/support needs the unit/);
    expect(reason('F nth C A lon')).toMatch(/destination/);
    expect(reason('Build', 'adjustment')).toMatch(/needs a province/);
  });
  it('rejects words that are not orders, and orders out of their phase', () => {
    expect(reason('A par jumps bur')).toMatch(/"jumps" is not an order word/);
    expect(reason('A par H', 'retreat')).toMatch(/movement phase/);
    expect(reason('A mun', 'retreat')).toBe('A retreat order needs a destination ("A mun - …") or "A mun disband".');
    expect(reason('A par - bur', 'adjustment')).toMatch(/cannot move in an adjustment phase/);
  });
  it('rejects leftovers after a complete order', () => {
    expect(reason('A par - bur mun')).toMatch(/Unexpected "mun"/);
  });
  it("gives its examples in the player's own unit, or a province of the map being played", () => {
    const diadochi = getVariant('diadochi-v')!;
    const refusal = (text: string) => {
      const r = parseOrder(diadochi, text, 'adjustment');
      if (r.ok) throw new Error(`"${text}" was accepted`);
      return r.error;
    };
    // A Winter order missing its verb: the examples are the unit typed, not a province of another map.
    expect(refusal('F Rom')).toBe('An adjustment order is "Build F Rom", "Remove F Rom" or "Waive".');
    expect(refusal('Build')).toBe('A build needs a province: "Build A Alx".');
    expect(diadochi.provinceByName.has('par')).toBe(false);
  });
  it('quotes the words as the player typed them', () => {
    expect(reason('A Pariss - Bur')).toMatch(/^"Pariss" is not a province.*Paris \(par\)/);
    expect(reason('A Par Jumps Bur')).toMatch(/^"Jumps" is not an order word/);
    expect(reason('A Par - Bur Mun')).toBe('Unexpected "Mun" after the order "A Par - Bur".');
    expect(reason('A Par S A Mar X Bur')).toMatch(/not "X"/);
    expect(reason('A Par MOVE')).toMatch(/destination after "MOVE"/);
    expect(reason('REMOVE', 'adjustment')).toMatch(/^"REMOVE" needs a unit: "REMOVE A ank"/);
  });
});

describe('parser robustness', () => {
  const phases = fc.constantFrom('movement' as const, 'retreat' as const, 'adjustment' as const);
  it('never throws on arbitrary text and always gives a reason', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), phases, (text, phase) => {
        const r = parseOrder(v, text, phase);
        if (!r.ok) expect(r.error.length).toBeGreaterThan(5);
        // Reading the unit an unreadable order begins with never throws either.
        const unit = leadingUnit(v, text, phase);
        if (unit) expect(typeof unit.at).toBe('string');
      }),
      { numRuns: 3000 },
    );
  });
  it('never throws on mutations of real orders', () => {
    const words = [
      'A',
      'F',
      'par',
      'bur',
      '-',
      'S',
      'C',
      'H',
      'via',
      'convoy',
      'spa',
      '/',
      'nc',
      '(',
      ')',
      'stp',
      'sc',
      'build',
      'remove',
      'waive',
      'north',
      'coast',
      'to',
      '->',
      'x',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 9 }), phases, (ws, phase) => {
        const r = parseOrder(v, ws.join(' '), phase);
        if (r.ok) expect(formatOrder(r.value).length).toBeGreaterThan(0);
        else expect(r.error).toMatch(/\w/);
      }),
      { numRuns: 3000 },
    );
  });
  it('reads back what it writes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...['A par - bur', 'F spa/sc - wes', 'F nth C A lon - bel', 'A ruh S A mun - bur', 'A lon - bel via convoy', 'A bur S F bre']),
        (text) => {
          const once = formatOrder(parsed(text));
          expect(formatOrder(parsed(once))).toBe(once);
        },
      ),
    );
  });
});
