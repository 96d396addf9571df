import { ARMY, COASTAL, FLEET, LAND, type Variant } from '../../variant/load.ts';
import { describeUnit, resolveLocation, unitAtRef, type Board } from '../../state/board.ts';
import { buildSites, supplyFor, unitCount, type Economy } from '../../game/economy.ts';
import type { Order } from '../../orders/types.ts';
import { err, ok, type Result } from '../../result.ts';
import { plural } from '../../text/plural.ts';

export type Adjustment = { kind: 'build'; type: number; location: number } | { kind: 'remove'; unit: number } | { kind: 'waive' };

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
    this.maxFleets = v.rules.maxFleetBuilds;
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
      if (this.used >= diff) return err(`${power} may build ${plural(diff, 'unit')}, and ${diff === 1 ? 'it is' : 'all are'} already used.`);
      if (order.kind === 'waive') {
        this.used++;
        return ok({ kind: 'waive' });
      }
      const l = resolveLocation(v, order.at);
      if (l < 0) return err(`"${order.at}" is not a place on this map.`);
      const p = v.locationProvince[l];
      const pname = v.provinceNames[p];
      if (!this.sites.has(p)) {
        // A second build in one place first, then why it is no site of this power (the variant's rules say).
        if (this.built.has(p)) return err(`${power} already builds in ${pname} in this phase: one build per centre.`);
        return err(v.rules.buildRefusal(this.eco, board, this.power, p));
      }
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
      if (this.used >= -diff)
        return err(`${power} must remove ${-diff} unit${diff === -1 ? '' : 's'}, and ${diff === -1 ? 'it is' : 'all are'} already chosen.`);
      this.used++;
      this.removed.add(u);
      return ok({ kind: 'remove', unit: u });
    }
    return err(`A ${order.kind} order cannot be given in an adjustment phase.`);
  }
}
