import { describe, expect, it, vi } from 'vitest';

// Generous: these run many adjudications, and CI machines are shared.
vi.setConfig({ testTimeout: 60_000 });
import fc from 'fast-check';
import { getVariant } from '../../shared/variants.ts';
import { adjudicate, type SubmittedOrder } from '../../shared/game/process.ts';
import { GameStateSchema, type GameState, type Unit } from '../../shared/state/schema.ts';
import { COASTAL, LAND, SEA } from '../../shared/variant/load.ts';
import { randomGame, randomOrders, seeded } from '../support/random-game.ts';

const v = getVariant('standard')!;
// A pool of real positions from seeded random games, each with the random legal orders played there.
const pool = [11, 12, 13, 14].flatMap((seed) => randomGame(v, seed, 45));
const phaseOf = (i: number) => pool[i % pool.length];

function shuffle<T>(xs: readonly T[], seed: number): T[] {
  const rnd = seeded(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const run = (state: GameState, orders: SubmittedOrder[]) => {
  const r = adjudicate(v, state, orders);
  if (!r.ok) throw new Error(r.error.join('; '));
  return r.value;
};

describe('engine properties', () => {
  it('the pool covers every phase type', () => {
    const types = new Set(pool.map((p) => p.state.phase.type));
    expect([...types].sort()).toEqual(['adjustment', 'movement', 'retreat']);
  });

  it('shuffling the orders never changes the result (movement and retreat phases)', () => {
    const candidates = pool.map((_, i) => i).filter((i) => pool[i].state.phase.type !== 'adjustment');
    fc.assert(
      fc.property(fc.constantFrom(...candidates), fc.integer(), (i, seed) => {
        const { state, orders } = phaseOf(i);
        const a = run(state, orders);
        const b = run(state, shuffle(orders, seed));
        expect(b.results).toEqual(a.results);
        expect(b.next).toEqual(a.next);
      }),
      { numRuns: 150 },
    );
  });

  it('units are never created or lost except by the rules', () => {
    for (const { state, orders } of pool) {
      const out = run(state, orders);
      const n = out.next;
      const count = (units: readonly Unit[], power: string) => units.filter((u) => u.power === power).length;
      if (state.phase.type === 'movement') {
        // Every unit is still on the board, dislodged, or disbanded for want of a retreat.
        expect(n.units.length + n.dislodged.length + out.disbanded.length).toBe(state.units.length);
      } else if (state.phase.type === 'retreat') {
        const retreated = out.results.filter((r) => r.code === 'retreated').length;
        expect(n.units.length).toBe(state.units.length + retreated);
        expect(retreated).toBeLessThanOrEqual(state.dislodged.length);
      } else {
        for (const power of v.powers) {
          const built = out.results.filter((r) => r.power === power && r.code === 'built').length;
          const removed = out.results.filter((r) => r.power === power && (r.code === 'removed' || r.code === 'civil-disorder')).length;
          expect(count(n.units, power)).toBe(count(state.units, power) + built - removed);
          expect(built === 0 || removed === 0).toBe(true);
        }
      }
      // Never two units in one province.
      const provinces = n.units.map((u) => u.at.split('/')[0]);
      expect(new Set(provinces).size).toBe(provinces.length);
      expect(GameStateSchema.safeParse(n).success).toBe(true);
    }
  });

  it('adjudicating random legal orders on random positions never throws', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const rnd = seeded(seed);
        const units: Unit[] = [];
        for (let p = 0; p < v.provinceCount; p++) {
          if (rnd() > 0.45) continue;
          const kind = v.provinceKind[p];
          const power = v.powers[Math.floor(rnd() * v.powers.length)];
          const fleet = kind === SEA || (kind === COASTAL && rnd() < 0.5);
          if (kind !== LAND && kind !== SEA && kind !== COASTAL) continue;
          const coasts = v.coasts[p];
          const at = fleet && coasts.length > 0 ? v.locationIds[coasts[Math.floor(rnd() * coasts.length)]] : v.provinceIds[p];
          units.push({ power, type: fleet ? 'fleet' : 'army', at });
        }
        const owners: Record<string, string> = {};
        for (const c of v.centres) if (rnd() < 0.7) owners[v.provinceIds[c]] = v.powers[Math.floor(rnd() * v.powers.length)];
        const state: GameState = {
          variant: v.id,
          phase: { season: rnd() < 0.5 ? 'spring' : 'fall', year: 1905, type: 'movement' },
          units,
          dislodged: [],
          standoffs: [],
          owners,
          control: {},
          destroyed: [],
          rebuilding: [],
          loans: [],
        };
        let current = state;
        // Movement, then whatever retreat and adjustment phases follow.
        for (let step = 0; step < 3; step++) {
          const orders = randomOrders(v, current, rnd);
          // Mix in some nonsense and some orders for other powers' units.
          orders.push({ power: 'England', order: 'A xyz - bur' }, { power: 'Nowhere', order: 'A par H' });
          const out = run(current, orders);
          expect(GameStateSchema.safeParse(out.next).success).toBe(true);
          current = out.next;
        }
      }),
      { numRuns: 60 },
    );
  });
});
