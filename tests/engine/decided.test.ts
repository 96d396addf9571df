import { describe, expect, it, vi } from 'vitest';

// Generous: these run many adjudications, and CI machines are shared.
vi.setConfig({ testTimeout: 60_000 });
import fc from 'fast-check';
import { getVariant } from '../../shared/variants.ts';
import { adjudicate, readSubmittedOrders, type DecidedProvince, type SubmittedOrder } from '../../shared/game/process.ts';
import { positionOf } from '../../shared/phases/phase.ts';
import { movementContested } from '../../shared/phases/movement/index.ts';
import type { GameState } from '../../shared/state/schema.ts';
import type { OrderResult } from '../../shared/phases/results.ts';
import type { Variant } from '../../shared/variant/load.ts';
import { randomGame } from '../support/random-game.ts';

// Deciding a province for the side that already won it by the ordinary rules
// must change nothing: the decisions only fix what the resolver would have
// found anyway. Checked on movement phases of seeded random games of random
// legal orders, on the Standard map and on Diadochi V.
const variants = [getVariant('standard')!, getVariant('diadochi-v')!];
const pool = variants.flatMap((v) =>
  [21, 22, 23, 24, 25, 26].flatMap((seed) => randomGame(v, seed, 40).filter((p) => p.state.phase.type === 'movement')).map((p) => ({ v, ...p })),
);

/** Every province where units of two powers met, decided as the ordinary adjudication left it. */
function ordinaryDecisions(v: Variant, state: GameState, orders: SubmittedOrder[]): DecidedProvince[] {
  const pos = positionOf(v, state);
  if (!pos.ok) throw new Error(pos.error.join('; '));
  const contested = movementContested(pos.value, readSubmittedOrders(pos.value, orders, []), [], () => true);
  if (!contested.ok) throw new Error(contested.error.join('; '));
  return contested.value.map((c) => {
    const entered = c.units.find((u) => u.role === 'attacker' && u.success);
    const held = c.units.find((u) => u.role === 'defender' && u.success);
    const winner = entered ?? held;
    return { province: c.province, outcome: winner ? { winner: winner.power } : { standoff: true } };
  });
}

/** What a player sees happen (the reasons may say "won the battle"; the outcome may not change). */
const facts = (rs: readonly OrderResult[]) =>
  rs.map(({ power, order, unit, success, code, dislodgedBy }) => ({ power, order, unit, success, code, dislodgedBy }));

const run = (v: Variant, state: GameState, orders: SubmittedOrder[], decided?: DecidedProvince[]) => {
  const r = adjudicate(v, state, orders, decided ? { decided } : undefined);
  if (!r.ok) throw new Error(r.error.join('; '));
  return r.value;
};

describe('decided provinces: properties', () => {
  const withContests = pool.map((p, i) => ({ i, decided: ordinaryDecisions(p.v, p.state, p.orders) })).filter((x) => x.decided.length > 0);

  it('random games give enough contested provinces on both maps, seas among them', () => {
    for (const v of variants) expect(withContests.filter((x) => pool[x.i].v === v).length).toBeGreaterThan(20);
    const seas = withContests.flatMap((x) => x.decided.map((d) => pool[x.i].v.provinceKind[pool[x.i].v.locationById.get(d.province)!]));
    expect(seas).toContain(2);
  });

  it('deciding any set of contested provinces for their ordinary winners changes nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...withContests), fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }), ({ i, decided }, pick) => {
        const { v, state, orders } = pool[i];
        const chosen = decided.filter((_, k) => pick[k % pick.length]);
        const some = chosen.length > 0 ? chosen : decided;
        const a = run(v, state, orders);
        const b = run(v, state, orders, some);
        expect(facts(b.results)).toEqual(facts(a.results));
        expect(b.next).toEqual(a.next);
        expect(b.disbanded).toEqual(a.disbanded);
      }),
      { numRuns: 300 },
    );
  });

  it('deciding every contested province for its ordinary winner changes nothing, on every phase of the pool', () => {
    for (const { i, decided } of withContests) {
      const { v, state, orders } = pool[i];
      const a = run(v, state, orders);
      const b = run(v, state, orders, decided);
      expect(facts(b.results)).toEqual(facts(a.results));
      expect(b.next).toEqual(a.next);
    }
  });

  it('deciding a province as a standoff where a unit entered keeps that unit out, and changes nothing else for it', () => {
    let checked = 0;
    for (const { i, decided } of withContests) {
      const { v, state, orders } = pool[i];
      const a = run(v, state, orders);
      for (const d of decided) {
        if (!('winner' in d.outcome)) continue;
        const entered = a.results.find((r) => r.code === 'moved' && r.parsed?.kind === 'move' && r.parsed.to.split('/')[0] === d.province);
        if (!entered) continue;
        const b = run(v, state, orders, [{ province: d.province, outcome: { standoff: true } }]);
        const same = b.results.find((r) => r.power === entered.power && r.order === entered.order)!;
        expect(same.success).toBe(false);
        expect(same.reason).toContain('was drawn');
        // It is still where it started (or was dislodged or disbanded there).
        const atHome = (u: { power: string; at: string }) => u.power === entered.power && u.at === entered.unit;
        expect(b.next.units.some(atHome) || b.next.dislodged.some(atHome) || b.disbanded.some(atHome)).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('an empty list of decisions is the ordinary adjudication', () => {
    const { v, state, orders } = pool[withContests[0].i];
    expect(run(v, state, orders, [])).toEqual(run(v, state, orders));
  });

  it('decisions are refused outside a movement phase, with a reason', () => {
    const v = variants[0];
    const phase = randomGame(v, 21, 40).find((p) => p.state.phase.type !== 'movement')!;
    const r = adjudicate(v, phase.state, phase.orders, { decided: [{ province: 'nth', outcome: { standoff: true } }] });
    expect(r).toEqual({ ok: false, error: ['Provinces can be decided only in a movement phase.'] });
  });

  it('malformed decisions from outside the type system are named, not thrown', () => {
    const { v, state, orders } = pool[withContests[0].i];
    const p = withContests[0].decided[0].province;
    const bad = [
      { province: p, outcome: {} },
      { province: 42, outcome: { standoff: true } },
    ] as unknown as DecidedProvince[];
    expect(adjudicate(v, state, orders, { decided: { province: p } as unknown as DecidedProvince[] })).toEqual({
      ok: false,
      error: ['The decided provinces must be a list.'],
    });
    const r = adjudicate(v, state, orders, { decided: bad });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toEqual([
        `The outcome decided for ${v.provinceNames[v.locationById.get(p)!]} (${p}) must name a winner or be a standoff.`,
        'Decided province "42" is not a province on this map.',
      ]);
  });
});
