/**
 * Phase names as players read them: Diadochi V counts its years down from 240 BC,
 * and a game that outlasted 1 BC would go on to 1 AD (there is no year 0).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getVariant } from '../../shared/variants.ts';
import { nextYear, parsePhase, phaseName } from '../../shared/state/phase.ts';

const diadochi = getVariant('diadochi-v')!;
const standard = getVariant('standard')!;
const spring = (year: number) => ({ season: 'spring' as const, year, type: 'movement' as const });

describe('the calendar', () => {
  it('counts Diadochi V down from 240 BC and goes from 1 BC to 1 AD, then up', () => {
    expect(phaseName(diadochi, spring(240))).toBe('Spring 240 BC Movement');
    expect(phaseName(diadochi, spring(nextYear(diadochi, 240)))).toBe('Spring 239 BC Movement');
    expect(phaseName(diadochi, spring(nextYear(diadochi, 1)))).toBe('Spring 1 AD Movement');
    expect(phaseName(diadochi, spring(nextYear(diadochi, nextYear(diadochi, 1))))).toBe('Spring 2 AD Movement');
    expect(phaseName(standard, spring(1901))).toBe('Spring 1901 Movement');
  });

  it('reads back every phase name it writes, on either side of the change of era', () => {
    fc.assert(
      fc.property(fc.integer({ min: -300, max: 300 }), fc.constantFrom('spring', 'fall', 'winter'), (year, season) => {
        const phase = { season, year, type: season === 'winter' ? 'adjustment' : 'movement' } as const;
        expect(parsePhase(phaseName(diadochi, phase), diadochi)).toEqual(phase);
      }),
    );
    // Without the variant, the year is as written.
    expect(parsePhase('Spring 1 AD Movement')).toEqual(spring(1));
  });
});
