/**
 * Seeded random games of random legal orders, shared by the property tests
 * and the benchmarks. Everything comes from a 32-bit seed, so a failure can
 * be replayed.
 */
import { compileBoard } from '../../shared/state/board.ts';
import { compileEconomy, buildSites, supplyFor, unitCount } from '../../shared/game/economy.ts';
import { adjudicate, initialState, type SubmittedOrder } from '../../shared/game/process.ts';
import { endLoanOf, lendCentre } from '../../shared/rules/diadochi/loans.ts';
import { legalMovementOrders } from '../../shared/phases/movement/legal.ts';
import { legalBuilds } from '../../shared/phases/adjustment/index.ts';
import { retreatOptions } from '../../shared/phases/retreat/check.ts';
import { ARMY, FLEET, findLocation, findProvince, type Variant } from '../../shared/variant/load.ts';
import type { GameState } from '../../shared/state/schema.ts';
import type { Order } from '../../shared/orders/types.ts';
import { mulberry32 } from '../../shared/random.ts';

export type Random = () => number;

/** Random test data from a seed. */
export const seeded: (seed: number) => Random = mulberry32;

const pick = <T>(rnd: Random, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

/** One random legal order per unit, leaning towards moves and supports as real players do. */
export function randomOrders(v: Variant, state: GameState, rnd: Random): SubmittedOrder[] {
  const board = compileBoard(v, state.units);
  if (!board.ok) throw new Error(board.error.join('; '));
  const b = board.value;
  const orders: SubmittedOrder[] = [];
  if (state.phase.type === 'movement') {
    const eco = compileEconomy(v, state);
    if (!eco.ok) throw new Error(eco.error.join('; '));
    for (let u = 0; u < b.count; u++) {
      const legal = legalMovementOrders(b, eco.value, u);
      const byKind = (k: Order['kind']) => legal.filter((o) => o.kind === k);
      const r = rnd();
      // Destroying is rare in real play; rebuilding is what a unit on a ruined centre usually does.
      const rebuild = byKind('rebuild');
      const pool =
        rebuild.length > 0 && r < 0.6
          ? rebuild
          : r < 0.5
            ? byKind('move')
            : r < 0.8
              ? byKind('support')
              : r < 0.88
                ? byKind('convoy')
                : r < 0.89
                  ? byKind('destroy')
                  : byKind('hold');
      orders.push({ power: v.powers[b.power[u]], order: pick(rnd, pool.length > 0 ? pool : legal) });
    }
  } else if (state.phase.type === 'retreat') {
    const standoff = new Uint8Array(v.provinceCount);
    for (const id of state.standoffs) standoff[findProvince(v, id)] = 1;
    for (const d of state.dislodged) {
      const l = findLocation(v, d.at);
      const options = retreatOptions(b, d.type === 'army' ? ARMY : FLEET, l, d.attackerFrom ? findProvince(v, d.attackerFrom) : -1, standoff);
      const unit = { type: d.type, at: d.at };
      orders.push({
        power: d.power,
        order: options.length > 0 && rnd() < 0.9 ? { kind: 'retreat', unit, to: v.locationIds[pick(rnd, options)] } : { kind: 'disband', unit },
      });
    }
  } else {
    const eco = compileEconomy(v, state);
    if (!eco.ok) throw new Error(eco.error.join('; '));
    for (let w = 0; w < v.powers.length; w++) {
      const diff = supplyFor(v, eco.value, w) - unitCount(b, w);
      if (diff > 0) {
        const builds = legalBuilds(v, buildSites(v, eco.value, b, w));
        for (let i = 0; i < diff && builds.length > 0; i++) orders.push({ power: v.powers[w], order: pick(rnd, builds) });
      } else if (diff < 0) {
        // Sometimes leave removals out, so the civil-disorder rule runs too.
        const own = state.units.filter((u) => u.power === v.powers[w]);
        for (let i = 0; i < -diff; i++)
          if (rnd() < 0.7) {
            const u = pick(rnd, own);
            orders.push({ power: v.powers[w], order: { kind: 'remove', unit: { type: u.type, at: u.at } } });
          }
      }
    }
  }
  return orders;
}

/** Between phases, powers sometimes lend a centre or end a loan (variants with loans). */
function randomLoans(v: Variant, state: GameState, rnd: Random): GameState {
  if (!v.data.rules.loans) return state;
  let s = state;
  for (const loan of s.loans)
    if (rnd() < 0.1) {
      const r = endLoanOf(v, s, loan);
      if (r.ok) s = r.value;
    }
  if (rnd() < 0.15) {
    const from = pick(rnd, v.powers);
    const to = pick(rnd, v.powers);
    const owned = Object.entries(s.owners)
      .filter(([, w]) => w === from)
      .map(([c]) => c);
    if (owned.length > 0 && from !== to) {
      const r = lendCentre(v, s, { centre: pick(rnd, owned), from, to });
      if (r.ok) s = r.value;
    }
  }
  return s;
}

export interface PlayedPhase {
  state: GameState;
  orders: SubmittedOrder[];
}

/** Play `phases` phases of random orders from the start (or until someone wins, or `years` have passed). */
export function randomGame(v: Variant, seed: number, phases: number, years = Infinity): PlayedPhase[] {
  const rnd = seeded(seed);
  let state = initialState(v);
  const start = state.phase.year;
  const played: PlayedPhase[] = [];
  for (let i = 0; i < phases && Math.abs(state.phase.year - start) < years; i++) {
    const orders = randomOrders(v, state, rnd);
    played.push({ state, orders });
    const r = adjudicate(v, state, orders);
    if (!r.ok) throw new Error(`seed ${seed}, phase ${i}: ${r.error.join('; ')}`);
    state = r.value.next;
    if (state.winners) break;
    state = randomLoans(v, state, rnd);
  }
  return played;
}
