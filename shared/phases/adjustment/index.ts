/**
 * The adjustment phase: each power builds up to its surplus of supply over units, or removes down to it. Orders
 * are taken one by one in the order given and the first legal ones count (DATC 4.D.4–4.D.6, ledger.ts); removals
 * a power leaves out are chosen by the civil-disorder rule (4.D.8, civil-disorder.ts). Then the new year begins.
 */
import { ARMY, COASTAL, SEA, type Variant } from '../../variant/load.ts';
import { describeUnit, locationName, shortUnit, unitAtRef, unitRefOf } from '../../state/board.ts';
import type { Unit } from '../../state/schema.ts';
import { stateWith } from '../../state/copy.ts';
import type { Order } from '../../orders/types.ts';
import { buildSites, supplyFor, unitCount } from '../../game/economy.ts';
import type { OrderResult } from '../results.ts';
import type { PhaseEvent } from '../events.ts';
import type { PhaseOutcome, Position, ReadOrder } from '../phase.ts';
import { startOfYear } from '../year.ts';
import { AdjustmentLedger } from './ledger.ts';
import { civilDisorderRemovals } from './civil-disorder.ts';
import { plural } from '../../text/plural.ts';

export function adjustmentPhase(pos: Position, orders: readonly ReadOrder[], results: OrderResult[]): PhaseOutcome {
  const { v, state, board, eco } = pos;
  const builds: { power: number; type: number; location: number }[] = [];
  const removed = new Set<number>();

  for (let w = 0; w < v.powers.length; w++) {
    const power = v.powers[w];
    const ledger = new AdjustmentLedger(v, board, eco, w);
    for (const { order, text } of orders.filter((o) => o.power === w)) {
      const r = ledger.take(order);
      if (!r.ok) {
        const u = order.kind === 'remove' ? unitAtRef(board, order.unit) : -1;
        results.push({
          power,
          order: text,
          ...(u >= 0 ? { unit: v.locationIds[board.location[u]] } : {}),
          success: false,
          code: 'illegal',
          reason: r.error,
          parsed: order,
        });
        continue;
      }
      const a = r.value;
      if (a.kind === 'waive') results.push({ power, order: text, success: true, code: 'waived', reason: 'Build waived.', parsed: order });
      else if (a.kind === 'build') {
        builds.push({ power: w, type: a.type, location: a.location });
        results.push({
          power,
          order: text,
          unit: v.locationIds[a.location],
          success: true,
          code: 'built',
          reason: `Built ${a.type === ARMY ? 'an army' : 'a fleet'} in ${locationName(v, a.location)}.`,
          parsed: order,
        });
      } else {
        removed.add(a.unit);
        results.push({
          power,
          order: text,
          unit: v.locationIds[board.location[a.unit]],
          success: true,
          code: 'removed',
          reason: `Removed ${describeUnit(board, a.unit)}.`,
          parsed: order,
        });
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
          parsed: { kind: 'remove', unit: unitRefOf(board, u) },
        });
      }
    }
    if (ledger.diff > 0 && ledger.unused > 0) {
      const count = plural(ledger.unused, 'build');
      // With no site left the builds could not be used; otherwise the power gave no order for them (as a unit
      // without an order is "unordered", not said to hold by choice).
      results.push(
        ledger.freeSites === 0
          ? {
              power,
              order: 'Waive',
              success: true,
              code: 'no-build-site',
              reason: `${count} not used (no free build site left).`,
              unused: ledger.unused,
              parsed: { kind: 'waive' },
            }
          : {
              power,
              order: 'Waive',
              success: true,
              code: 'unordered',
              reason: `No order: ${count} not used.`,
              unused: ledger.unused,
              parsed: { kind: 'waive' },
            },
      );
    }
  }

  const units: Unit[] = [];
  for (let u = 0; u < board.count; u++) if (!removed.has(u)) units.push(state.units[u]);
  for (const b of builds) units.push({ power: v.powers[b.power], type: b.type === ARMY ? 'army' : 'fleet', at: v.locationIds[b.location] });
  const events: PhaseEvent[] = [];
  return { results, events, disbanded: [], next: startOfYear(v, stateWith(state, undefined, units), events) };
}

/** Build orders a power could give at these sites: an army, and a fleet on each coast. */
export function legalBuilds(v: Variant, sites: readonly number[]): Order[] {
  const out: Order[] = [];
  for (const p of sites) {
    if (v.provinceKind[p] !== SEA) out.push({ kind: 'build', unitType: 'army', at: v.provinceIds[p] });
    if (v.provinceKind[p] === COASTAL) {
      if (v.coasts[p].length === 0) out.push({ kind: 'build', unitType: 'fleet', at: v.provinceIds[p] });
      for (const c of v.coasts[p]) out.push({ kind: 'build', unitType: 'fleet', at: v.locationIds[c] });
    }
  }
  return out;
}

/** The orders a power could give in the adjustment: builds and the waive (under ""), or each removal, and how many. */
export function adjustmentOptions(pos: Position, power: number): { byUnit: Record<string, Order[]>; adjustment: number } {
  const { v, board: b, eco } = pos;
  const byUnit: Record<string, Order[]> = {};
  const adjustment = supplyFor(v, eco, power) - unitCount(b, power);
  if (adjustment > 0) byUnit[''] = [...legalBuilds(v, buildSites(v, eco, b, power)), { kind: 'waive' }];
  else if (adjustment < 0)
    for (let u = 0; u < b.count; u++)
      if (b.power[u] === power)
        byUnit[v.locationIds[b.location[u]]] = [{ kind: 'remove', unit: { type: b.type[u] === ARMY ? 'army' : 'fleet', at: v.locationIds[b.location[u]] } }];
  return { byUnit, adjustment };
}
