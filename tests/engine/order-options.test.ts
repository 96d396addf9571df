import { describe, expect, it, vi } from 'vitest';

// Generous: these run many adjudications, and CI machines are shared.
vi.setConfig({ testTimeout: 60_000 });
import { adjudicate, checkOrders, formatOrder, getVariant, initialState, orderOptions, type GameState } from '../../shared/index.ts';
import { randomGame } from '../support/random-game.ts';

const v = getVariant('diadochi-v')!;

describe('order options for order-entry interfaces', () => {
  it('lists every unit of the power, and every option is an order the engine accepts', () => {
    const s = initialState(v);
    const o = orderOptions(v, s, 'Rome');
    expect(Object.keys(o.byUnit).sort()).toEqual(['Bru', 'Nea', 'Rav', 'Rom']);
    for (const [unit, options] of Object.entries(o.byUnit)) {
      expect(options.length).toBeGreaterThan(1);
      for (const order of options) {
        const checked = checkOrders(v, s, 'Rome', [order]);
        if (!checked.ok) throw new Error(checked.error);
        expect(checked.value[0]).toMatchObject({ accepted: true });
      }
      expect(options.every((x) => 'unit' in x && x.unit.at === unit)).toBe(true);
    }
    // Direct passage and canal links show up as options.
    expect(o.byUnit.Nea.map(formatOrder)).toContain('F Nea - Syr');
  });

  it('offers retreats and builds in their phases, all accepted by the engine', () => {
    const seen = new Set<string>();
    for (const { state } of randomGame(v, 21, 80)) {
      if (state.phase.type === 'movement') continue;
      for (const power of v.powers) {
        const o = orderOptions(v, state as GameState, power);
        for (const options of Object.values(o.byUnit)) {
          for (const order of options) {
            const c = checkOrders(v, state, power, [order]);
            if (!c.ok) throw new Error(c.error);
            expect(c.value[0]).toMatchObject({ accepted: true });
            seen.add(order.kind);
          }
        }
      }
    }
    expect([...seen].sort()).toEqual(expect.arrayContaining(['build', 'disband', 'remove', 'retreat', 'waive']));
  });

  it('gives every result its order in structured form', () => {
    const out = adjudicate(v, initialState(v), [
      { power: 'Rome', order: 'F Nea - Syr' },
      { power: 'Egypt', order: 'A Pto - Sin' },
    ]);
    if (!out.ok) throw new Error(out.error.join());
    expect(out.value.results.every((r) => r.parsed !== undefined)).toBe(true);
    expect(out.value.results.find((r) => r.unit === 'Nea')!.parsed).toEqual({ kind: 'move', unit: { type: 'fleet', at: 'Nea' }, to: 'Syr', viaConvoy: false });
  });
});
