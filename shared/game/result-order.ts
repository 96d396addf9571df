/**
 * The order results are listed in: by (power, unit, order, code) as strings, so that movement and retreat results
 * do not depend on the order the orders came in.
 */
import type { Variant } from '../variant/load.ts';
import type { OrderResult } from '../phases/results.ts';

/**
 * Insertion sort up to this many results: a phase has a few dozen, and the builtin sort calls its comparator
 * through the engine's C++ boundary, which cost more than the rest of the listing. Beyond it (a flood of orders)
 * the builtin sort's n log n is worth it.
 */
const INSERTION_LIMIT = 128;

/**
 * The results sorted by (power, unit, order, code) as strings; the same results, a new array. `known`: the ranks
 * (`resultRank`) of the results from `from` on, when whoever made them had the power's and unit's indices at hand
 * (looking the ids up again costs more than the rest of the listing).
 */
export function sortedResults(results: readonly OrderResult[], v: Variant, known?: readonly number[], from = 0): OrderResult[] {
  // Power and unit compare as their ranks among the variant's ids; only results of one unit, or naming no power of
  // the game, compare the whole text (building it is what costs).
  const { power, unit } = idRanks(v);
  const width = v.locationCount + 1;
  const n = results.length;
  const rank = new Array<number>(n);
  let ranked = true;
  // Results come grouped by power: its rank is looked up once per group.
  let lastPower: string | undefined;
  let p: number | undefined;
  const lookUp = known === undefined ? n : Math.min(n, from);
  if (known !== undefined) for (let i = lookUp; i < n; i++) rank[i] = known[i - from];
  for (let i = 0; i < lookUp; i++) {
    const r = results[i];
    if (r.power !== lastPower) {
      lastPower = r.power;
      p = power.get(r.power);
    }
    const u = r.unit === undefined ? -1 : unit.get(r.unit);
    if (p === undefined || u === undefined) ranked = false;
    else rank[i] = p * width + u + 1;
  }
  // Ranks agree with the text order only if every result has one.
  if (!ranked) return [...results].sort(compareText);
  if (n > INSERTION_LIMIT) {
    const order = results.map((r, i) => ({ r, rank: rank[i] }));
    order.sort((a, b) => a.rank - b.rank || compareText(a.r, b.r));
    return order.map((x) => x.r);
  }
  // Stable, as the builtin sort is: equal results keep the order they came in.
  const sorted = results.slice();
  for (let i = 1; i < n; i++) {
    const r = sorted[i];
    const k = rank[i];
    let j = i - 1;
    while (j >= 0 && (rank[j] > k || (rank[j] === k && compareText(sorted[j], r) > 0))) {
      sorted[j + 1] = sorted[j];
      rank[j + 1] = rank[j];
      j--;
    }
    sorted[j + 1] = r;
    rank[j + 1] = k;
  }
  return sorted;
}

/** The whole key as text: power, unit, order and code. */
const textKey = (r: OrderResult): string => `${r.power}\u0000${r.unit ?? ''}\u0000${r.order}\u0000${r.code}`;

function compareText(a: OrderResult, b: OrderResult): number {
  const ka = textKey(a);
  const kb = textKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

export interface IdRanks {
  power: Map<string, number>;
  unit: Map<string, number>;
  /** The same by index: power index to rank, location index to rank. */
  powerRank: Int16Array;
  unitRank: Int16Array;
}
const ranks = new WeakMap<Variant, IdRanks>();

/** Each power id and location id of the variant with its place in text order. */
function idRanks(v: Variant): IdRanks {
  let r = ranks.get(v);
  if (!r) {
    const ranked = (ids: readonly string[]) => new Map([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((id, i) => [id, i]));
    const power = ranked(v.powers);
    const unit = ranked(v.locationIds);
    r = { power, unit, powerRank: Int16Array.from(v.powers, (id) => power.get(id)!), unitRank: Int16Array.from(v.locationIds, (id) => unit.get(id)!) };
    ranks.set(v, r);
  }
  return r;
}

/** The rank `sortedResults` gives a result of power `w` (index) for the unit at location `l` (index). */
export function resultRank(r: IdRanks, v: Variant, w: number, l: number): number {
  return r.powerRank[w] * (v.locationCount + 1) + r.unitRank[l] + 1;
}

/** The variant's ranks, for `resultRank`. */
export const resultRanks: (v: Variant) => IdRanks = idRanks;
