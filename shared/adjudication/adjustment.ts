import { ARMY, COASTAL, FLEET, LAND, type Variant } from '../variant/load.ts';
import { describeUnit, locationName, shortUnit, type Board } from '../state/board.ts';
import { resolveLocation, unitAtRef } from '../orders/check.ts';
import { buildSites, supplyFor, unitCount, type Economy } from '../game/economy.ts';
import type { Order } from '../orders/types.ts';
import type { OrderResult } from './results.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * Adjustments: each power builds up to its surplus of supply over units, or
 * removes down to it. Orders are taken one by one in the order given and the
 * first legal ones count (DATC 4.D.4–4.D.6); removals a power leaves out are
 * chosen by the civil-disorder rule (4.D.8).
 */

export interface AdjustmentOrder {
  power: number;
  order: Order;
  text: string;
}

export interface AdjustmentOutcome {
  results: OrderResult[];
  builds: { power: number; type: number; location: number }[];
  removed: Set<number>;
}

export type Adjustment =
  | { kind: 'build'; type: number; location: number }
  | { kind: 'remove'; unit: number }
  | { kind: 'waive' };

/**
 * One power's adjustments, taken order by order: how many builds or removals
 * it has, where it may still build, how many fleets it has built. Both the
 * adjudicator and the check at submission time go through this, so they
 * cannot disagree.
 */
export class AdjustmentLedger {
  readonly diff: number;
  private readonly sites: Set<number>;
  private readonly removed = new Set<number>();
  /** Provinces built in by this power's orders so far. */
  private readonly built = new Set<number>();
  private used = 0;
  private fleets = 0;
  private readonly maxFleets: number;

  constructor(
    private readonly v: Variant,
    private readonly board: Board,
    private readonly eco: Economy,
    readonly power: number,
  ) {
    this.diff = supplyFor(v, eco, power) - unitCount(board, power);
    this.sites = new Set(buildSites(v, eco, board, power));
    this.maxFleets = v.data.rules.maxFleetBuilds ?? Infinity;
  }

  get unused(): number {
    return Math.abs(this.diff) - this.used;
  }
  get freeSites(): number {
    return this.sites.size;
  }
  isRemoved(u: number): boolean {
    return this.removed.has(u);
  }

  /** Accept the order if the rules allow it now, or say why not. */
  take(order: Order): Result<Adjustment> {
    const { v, board, diff } = this;
    const power = v.powers[this.power];
    if (order.kind === 'build' || order.kind === 'waive') {
      if (diff <= 0) return err(diff === 0 ? `${power} has as many units as supply: no builds.` : `${power} must remove units, not build.`);
      if (this.used >= diff) return err(`${power} may build ${diff} unit${diff === 1 ? '' : 's'}, and ${diff === 1 ? 'it is' : 'all are'} already used.`);
      if (order.kind === 'waive') {
        this.used++;
        return ok({ kind: 'waive' });
      }
      const l = resolveLocation(v, order.at);
      if (l < 0) return err(`"${order.at}" is not a place on this map.`);
      const p = v.locationProvince[l];
      const pname = v.provinceNames[p];
      if (!this.sites.has(p)) return err(whyNotASite(v, this.eco, board, this.power, p, this.built));
      // Unit type: army inland, fleet when a coast is named; otherwise it must be said (DATC 4.C.3).
      const type = order.unitType ?? (v.provinceKind[p] === LAND ? 'army' : l !== p ? 'fleet' : undefined);
      if (type === undefined) return err(`Say whether to build an army or a fleet in ${pname}.`);
      let location = p;
      if (type === 'fleet') {
        if (v.provinceKind[p] !== COASTAL) return err(`A fleet cannot be built in ${pname}: it is inland.`);
        if (v.coasts[p].length > 0) {
          if (l === p) return err(`Say which coast of ${pname} to build the fleet on.`);
          location = l;
        }
        if (this.fleets >= this.maxFleets) return err(`${power} may build at most ${this.maxFleets} fleets in one adjustment phase.`);
        this.fleets++;
      }
      this.used++;
      this.sites.delete(p);
      this.built.add(p);
      return ok({ kind: 'build', type: type === 'army' ? ARMY : FLEET, location });
    }
    if (order.kind === 'remove') {
      if (diff >= 0) return err(diff === 0 ? `${power} has as many units as supply: nothing to remove.` : `${power} has builds, not removals.`);
      const u = unitAtRef(board, order.unit);
      if (u < 0) return err(`There is no unit in ${order.unit.at}.`);
      if (board.power[u] !== this.power) return err(`${describeUnit(board, u)} is not ${power}'s.`);
      if (this.removed.has(u)) return err(`${describeUnit(board, u)} is already being removed.`);
      if (this.used >= -diff) return err(`${power} must remove ${-diff} unit${diff === -1 ? '' : 's'}, and ${diff === -1 ? 'it is' : 'all are'} already chosen.`);
      this.used++;
      this.removed.add(u);
      return ok({ kind: 'remove', unit: u });
    }
    return err(`A ${order.kind} order cannot be given in an adjustment phase.`);
  }
}

export function adjudicateAdjustments(
  v: Variant,
  board: Board,
  eco: Economy,
  orders: readonly AdjustmentOrder[],
): AdjustmentOutcome {
  const results: OrderResult[] = [];
  const builds: AdjustmentOutcome['builds'] = [];
  const removed = new Set<number>();

  for (let w = 0; w < v.powers.length; w++) {
    const power = v.powers[w];
    const ledger = new AdjustmentLedger(v, board, eco, w);
    for (const { order, text } of orders.filter((o) => o.power === w)) {
      const r = ledger.take(order);
      if (!r.ok) {
        const u = order.kind === 'remove' ? unitAtRef(board, order.unit) : -1;
        results.push({ power, order: text, ...(u >= 0 ? { unit: v.locationIds[board.location[u]] } : {}), success: false, code: 'illegal', reason: r.error });
        continue;
      }
      const a = r.value;
      if (a.kind === 'waive') results.push({ power, order: text, success: true, code: 'waived', reason: 'Build waived.' });
      else if (a.kind === 'build') {
        builds.push({ power: w, type: a.type, location: a.location });
        results.push({ power, order: text, unit: v.locationIds[a.location], success: true, code: 'built', reason: `Built ${a.type === ARMY ? 'an army' : 'a fleet'} in ${locationName(v, a.location)}.` });
      } else {
        removed.add(a.unit);
        results.push({ power, order: text, unit: v.locationIds[board.location[a.unit]], success: true, code: 'removed', reason: `Removed ${describeUnit(board, a.unit)}.` });
      }
    }

    if (ledger.diff < 0 && ledger.unused > 0) {
      for (const u of civilDisorderRemovals(v, eco, board, w, ledger.unused, removed)) {
        removed.add(u);
        results.push({
          power,
          order: `Remove ${shortUnit(board, u)}`,
          unit: v.locationIds[board.location[u]],
          success: true,
          code: 'civil-disorder',
          reason: `Removed by the civil-disorder rule: too few removals were ordered, and it is the unit farthest from ${v.options.civilDisorderDistance === 'owned-centres' ? 'an owned supply centre' : 'an owned home centre'}.`,
        });
      }
    }
    if (ledger.diff > 0 && ledger.unused > 0) {
      const builds = `${ledger.unused} build${ledger.unused === 1 ? '' : 's'}`;
      // With no site left the builds could not be used; otherwise the power gave no order for them (as a unit
      // without an order is "unordered", not said to hold by choice).
      results.push(
        ledger.freeSites === 0
          ? { power, order: 'Waive', success: true, code: 'waived', reason: `${builds} not used (no free build site left).` }
          : { power, order: 'Waive', success: true, code: 'unordered', reason: `No order: ${builds} not used.` },
      );
    }
  }
  return { results, builds, removed };
}

/** Why a power cannot build in a province: a second build there first, then why it is not a site of this power, then occupied. */
function whyNotASite(v: Variant, eco: Economy, board: Board, w: number, p: number, built: ReadonlySet<number>): string {
  const name = v.provinceNames[p];
  const power = v.powers[w];
  if (built.has(p)) return `${power} already builds in ${name} in this phase: one build per centre.`;
  if (v.isBuildCentre[p]) {
    if (eco.control[p] !== w) return `${power} does not control the build centre ${name}.`;
  } else {
    if (v.homeOf[p] !== w) return `${name} is not one of ${power}'s home centres.`;
    if (eco.owner[p] !== w) return `${power} no longer owns its home centre ${name}.`;
    if (eco.destroyed[p]) return `${name} is destroyed: nothing can be built there until it is rebuilt.`;
  }
  if (board.unitAt[p] >= 0) return `${name} is occupied.`;
  return `${power} cannot build in ${name}.`;
}

/**
 * The units a power loses when it orders too few removals: farthest first;
 * at equal distance fleets before armies, then alphabetically by province name.
 */
export function civilDisorderRemovals(v: Variant, eco: Economy, board: Board, w: number, count: number, exclude: ReadonlySet<number>): number[] {
  const P = v.provinceCount;
  const homeMode = v.options.civilDisorderDistance === 'home-centres';
  // 2023: the nearest owned centre. Older practice: the nearest home centre, owned or not (all owned centres if it has no home).
  let targets = v.centres.filter((c) => (homeMode ? v.homeOf[c] === w : eco.owner[c] === w));
  if (homeMode && targets.length === 0) targets = v.centres.filter((c) => eco.owner[c] === w);

  // Distances over any border, land or sea, from every target (breadth-first, multi-source).
  const anyDist = bfs(P, targets, (p, visit) => {
    for (let q = 0; q < P; q++) if (v.anyMatrix[p * P + q]) visit(q);
  });
  // 1971/1982 practice: fleets count moves by sea and coast only.
  let fleetDist: Int32Array | undefined;
  if (homeMode) {
    const L = v.locationCount;
    const starts: number[] = [];
    for (const t of targets) starts.push(t, ...v.coasts[t]);
    const byLoc = bfs(L, starts, (l, visit) => {
      for (let m = 0; m < L; m++) if (v.fleetMatrix[l * L + m]) visit(m);
    });
    fleetDist = byLoc;
  }
  const distance = (u: number) => {
    const d = fleetDist && board.type[u] === FLEET ? fleetDist[board.location[u]] : anyDist[board.province[u]];
    return d < 0 ? Number.MAX_SAFE_INTEGER : d;
  };
  const candidates: number[] = [];
  for (let u = 0; u < board.count; u++) if (board.power[u] === w && !exclude.has(u)) candidates.push(u);
  candidates.sort((a, b) => {
    const d = distance(b) - distance(a);
    if (d !== 0) return d;
    if (board.type[a] !== board.type[b]) return board.type[a] === FLEET ? -1 : 1;
    return v.provinceNames[board.province[a]].localeCompare(v.provinceNames[board.province[b]], 'en');
  });
  return candidates.slice(0, count);
}

function bfs(n: number, starts: readonly number[], neighbours: (x: number, visit: (y: number) => void) => void): Int32Array {
  const dist = new Int32Array(n).fill(-1);
  const queue: number[] = [];
  for (const s of starts) if (dist[s] < 0) (dist[s] = 0), queue.push(s);
  for (let i = 0; i < queue.length; i++) {
    const x = queue[i];
    neighbours(x, (y) => {
      if (dist[y] < 0) (dist[y] = dist[x] + 1), queue.push(y);
    });
  }
  return dist;
}

