/**
 * A state validated once and frozen (shared/state/checked.ts) is taken by
 * `adjudicate` as it is; anything else is still validated on every call.
 * (`checkOrders` and `orderOptions` take a position as typed: validated at the
 * boundary, or sent by the server.)
 */
import { describe, expect, it } from 'vitest';
import { adjudicate, checkOrders, frozenState, getVariant, initialState, readState, type GameState } from '../../shared/index.ts';

const variant = getVariant('diadochi-v')!;
const plain = (): GameState => JSON.parse(JSON.stringify(initialState(variant)));

describe('validated, frozen states', () => {
  it('are validated first: a broken state is refused with the reason', () => {
    expect(() => frozenState({ ...plain(), units: [{ power: 'rome', type: 'army' }] })).toThrow(/at/);
  });

  it('cannot be changed afterwards, at any depth', () => {
    const state = frozenState(plain());
    expect(() => (state.units as unknown[]).push({})).toThrow(TypeError);
    expect(() => Object.assign(state.units[0], { at: 'nowhere' })).toThrow(TypeError);
    expect(() => Object.assign(state.owners, { nowhere: 'rome' })).toThrow(TypeError);
  });

  it('are taken as they are, while a plain object is validated (and copied) on every call', () => {
    const state = frozenState(plain());
    const read = readState(state);
    expect(read.success && read.data).toBe(state);
    const copy = plain();
    const readCopy = readState(copy);
    expect(readCopy.success && readCopy.data).not.toBe(copy);
    expect(readState({ ...copy, units: 'none' }).success).toBe(false);
  });

  it('give the engine the same answers as the plain state', () => {
    const unit = plain().units[0];
    const power = unit.power;
    const orders = [`${unit.type === 'army' ? 'A' : 'F'} ${unit.at} H`, 'A Nowhere - Somewhere'];
    expect(checkOrders(variant, frozenState(plain()), power, orders)).toEqual(checkOrders(variant, plain(), power, orders));
    const submitted = orders.map((order) => ({ power, order }));
    expect(adjudicate(variant, frozenState(plain()), submitted)).toEqual(adjudicate(variant, plain(), submitted));
  });
});

describe('one frozen position, many submissions (as the server judges them)', () => {
  it('judges each submission alone: builds taken by one do not count against the next', () => {
    const standard = getVariant('standard')!;
    const start = initialState(standard);
    // France: five centres, one unit (the fleet in Brest): four builds, with Paris and Marseilles free.
    const winter: GameState = {
      ...start,
      phase: { season: 'winter', year: 1901, type: 'adjustment' },
      units: start.units.filter((unit) => unit.power !== 'France' || unit.at === 'bre'),
      owners: { ...start.owners, bel: 'France', spa: 'France' },
    };
    const orders = ['Build A par', 'Build A mar', 'Build F par'];
    const frozen = frozenState(JSON.parse(JSON.stringify(winter)));
    const first = checkOrders(standard, frozen, 'France', orders);
    expect(first.ok && first.value.map((verdict) => verdict.accepted)).toEqual([true, true, false]);
    expect(checkOrders(standard, frozen, 'France', orders)).toEqual(first);
    expect(checkOrders(standard, frozen, 'France', ['Build F mar'])).toMatchObject({ ok: true, value: [{ accepted: true }] });
    expect(checkOrders(standard, winter, 'France', orders)).toEqual(first);
  });
});

describe('Diadochi V positions that cannot arise are refused with the reason (a GM typing a position by hand)', () => {
  const problems = (change: Partial<GameState>) => {
    const r = adjudicate(variant, { ...plain(), ...change }, []);
    return r.ok ? [] : r.error.map((problem) => problem.replace(/^state: /, ''));
  };

  it('accepts the positions play produces: a centre destroyed and being rebuilt, a chain of loans', () => {
    expect(problems({ destroyed: ['Bru'], rebuilding: ['Bru'] })).toEqual([]);
    expect(
      problems({
        loans: [
          { centre: 'Gad', from: 'Carthage', to: 'Egypt' },
          { centre: 'Gad', from: 'Egypt', to: 'Syria' },
        ],
      }),
    ).toEqual([]);
  });

  it('refuses an indestructible centre destroyed (rule 7), and a rebuilding centre that is not destroyed (rule 8)', () => {
    expect(problems({ destroyed: ['Rom'] })).toEqual(['destroyed: Rome cannot be destroyed']);
    expect(problems({ rebuilding: ['Car'] })).toEqual(['rebuilding: Carthage is not a destroyed centre']);
  });

  it('refuses loans that have no holder: round in a circle, lent twice, or lent by a power that does not hold the centre', () => {
    expect(
      problems({
        loans: [
          { centre: 'Gad', from: 'Carthage', to: 'Egypt' },
          { centre: 'Gad', from: 'Egypt', to: 'Carthage' },
        ],
      }),
    ).toEqual(['loans: the loans of Gades go round in a circle back to Carthage']);
    expect(
      problems({
        loans: [
          { centre: 'Gad', from: 'Carthage', to: 'Egypt' },
          { centre: 'Gad', from: 'Carthage', to: 'Rome' },
        ],
      }),
    ).toEqual(['loans: Carthage lends Gades twice']);
    expect(problems({ loans: [{ centre: 'Gad', from: 'Rome', to: 'Egypt' }] })).toEqual(['loans: Gades is lent by a power that neither owns nor borrows it']);
    expect(problems({ loans: [{ centre: 'Syr', from: 'Rome', to: 'Egypt' }] })).toEqual(['loans: Syracuse is not an owned supply centre']);
  });
});
