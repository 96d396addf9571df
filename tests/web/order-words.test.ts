/**
 * The Orders tab's words on my standing: why there is nothing to order (a Winter's builds with no free site),
 * what takes a power out of civil disorder, and what Ready does while the clock is paused.
 */
import { describe, expect, it } from 'vitest';
import { civilDisorderWords, nothingToOrderWords, readyWords } from '../../web/src/game/order-words.ts';
import { adjustment, position, start, variant } from './positions.ts';

describe('nothing to order', () => {
  it('in a Winter with builds but no free home centre, says why, not just "nothing to order"', () => {
    // Every home centre of Carthage's holds its unit, and it gained a centre: builds it cannot place.
    const winter = position(start.units, { season: 'winter', type: 'adjustment' }, { owners: { ...start.owners, Cis: 'Carthage' } });
    expect(nothingToOrderWords(variant, winter, 'Carthage')).toMatch(
      /^Carthage may build \d units?, but none of its home supply centres is free to build on .*the builds go unused/,
    );
  });

  it('in a Winter with as many units as centres, says there is nothing to build or remove', () => {
    const even = { ...adjustment, units: [...adjustment.units, { power: 'Egypt', type: 'army' as const, at: 'Cis' }] };
    expect(nothingToOrderWords(variant, even, 'Egypt')).toBe('Egypt has as many units as its centres supply: nothing to build or remove in this phase.');
  });

  it('in Winter 240 BC, says why Egypt, with a build owed and every home centre held, has nothing to order', () => {
    expect(nothingToOrderWords(variant, adjustment, 'Egypt')).toMatch(/^Egypt may build 1 unit, but none of its home supply centres is free to build on/);
  });

  it('in a retreat, says there is no dislodged unit', () => {
    const retreat = position(start.units, { type: 'retreat' });
    expect(nothingToOrderWords(variant, retreat, 'Syria')).toBe('Syria has no dislodged unit: nothing to order in this phase.');
  });
});

describe('civil disorder', () => {
  it('says saving orders takes it back where there are orders to give', () => {
    expect(civilDisorderWords('Egypt', 2, true)).toBe(
      'Egypt is in civil disorder: it missed 2 deadlines in a row, and its units hold when it has no orders. Save orders (or tick Ready) to take it back.',
    );
  });

  it('with nothing to order, says it is the next phase with orders to give that takes it back, not a save now', () => {
    const words = civilDisorderWords('Egypt', 0, false);
    expect(words).not.toContain('Save orders (or tick Ready) to take it back');
    expect(words).toContain('in the next phase where it has orders to give takes it back');
  });
});

describe('Ready', () => {
  it('while the clock is paused, says the phase waits for the game master', () => {
    expect(readyWords(true, false)).toBe(
      'Ready: you are done; the clock is paused, so the phase waits for the game master to resume it, even once every power is ready.',
    );
    expect(readyWords(false, true)).toBe('Ready: you are done; the phase is processed as soon as every power is ready. Ticking it saves your orders too.');
  });
});
