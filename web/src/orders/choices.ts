/**
 * What a player may order, asked of the rules engine: the units (or build
 * sites) a power can give orders to in this phase, the actions each has, and
 * the targets of each action, all as the engine's own legal orders. The
 * order-entry store only narrows these lists down as the player clicks; it
 * never decides legality itself.
 */
import {
  compileBoard,
  findLocation,
  findProvince,
  formatOrder,
  orderOptions,
  type Board,
  type GameState,
  type Order,
  type OrderOptions,
  type Variant,
} from '../../../shared/index.ts';
import { locationName } from '../../../shared/drawing/overlay.ts';

export type Action = 'hold' | 'move' | 'support' | 'convoy' | 'destroy' | 'rebuild' | 'retreat' | 'disband' | 'build' | 'remove' | 'waive';

/** Keys of the keyboard shortcuts, and the words on the buttons. */
export const actionInfo: Record<Action, { key: string; label: string; needsTarget: boolean }> = {
  hold: { key: 'h', label: 'Hold', needsTarget: false },
  move: { key: 'm', label: 'Move', needsTarget: true },
  support: { key: 's', label: 'Support', needsTarget: true },
  convoy: { key: 'c', label: 'Convoy', needsTarget: true },
  destroy: { key: 'z', label: 'Destroy centre', needsTarget: false },
  rebuild: { key: 'r', label: 'Rebuild centre', needsTarget: false },
  retreat: { key: 'm', label: 'Retreat', needsTarget: true },
  disband: { key: 'd', label: 'Disband', needsTarget: false },
  build: { key: 'b', label: 'Build', needsTarget: true },
  remove: { key: 'x', label: 'Remove', needsTarget: false },
  waive: { key: 'w', label: 'Waive a build', needsTarget: false },
};

/** A position to order on: the variant and the state of the phase being played. */
export interface Position {
  variant: Variant;
  state: GameState;
}

/** One thing a power can order: a unit (by location), or a build site (by province). */
export interface Orderable {
  /** Location of the unit, or province of the build site. */
  location: string;
  province: string;
  power: string;
  kind: 'unit' | 'site';
  /** Every legal order for it, as the engine lists them. */
  orders: Order[];
}

/**
 * Compiled once per position: the engine's board of units, and each power's
 * orderables, straight from the engine's `orderOptions` (every legal order per
 * unit, in every phase type, and the adjustment count).
 */
export class PositionIndex {
  readonly board: Board;
  private readonly cache = new Map<string, { options: OrderOptions; list: Orderable[] }>();

  constructor(readonly position: Position) {
    const b = compileBoard(position.variant, position.state.units);
    if (!b.ok) throw new Error(`invalid position: ${b.error.join('; ')}`);
    this.board = b.value;
  }

  get phase() {
    return this.position.state.phase.type;
  }

  /** Everything this power can order in this phase. */
  orderables(power: string): Orderable[] {
    return this.compute(power).list;
  }

  /** The orderable at a province (a unit standing there, a dislodged unit, or a build site). */
  orderableAt(power: string, province: string): Orderable | undefined {
    const p = findProvince(this.position.variant, province);
    if (p < 0) return undefined;
    const id = this.position.variant.provinceIds[p];
    return this.orderables(power).find((o) => o.province === id);
  }

  /** Builds (> 0) or removals (< 0) due from this power in an adjustment phase. */
  adjustment(power: string): number {
    return this.compute(power).options.adjustment;
  }

  private compute(power: string): { options: OrderOptions; list: Orderable[] } {
    const cached = this.cache.get(power);
    if (cached) return cached;
    const { variant: v, state } = this.position;
    const options = orderOptions(v, state, power);
    const list: Orderable[] = [];
    for (const [location, orders] of Object.entries(options.byUnit)) {
      if (location === '') {
        // Adjustment builds: one orderable per build site, with the unit types it can take there.
        const sites = new Map<string, Order[]>();
        for (const o of orders) if (o.kind === 'build') sites.set(provinceOf(v, o.at), [...(sites.get(provinceOf(v, o.at)) ?? []), o]);
        for (const [site, builds] of sites) list.push({ location: site, province: site, power, kind: 'site', orders: builds });
        continue;
      }
      const l = findLocation(v, location);
      list.push({ location, province: l < 0 ? location : v.provinceIds[v.locationProvince[l]], power, kind: 'unit', orders });
    }
    const entry = { options, list };
    this.cache.set(power, entry);
    return entry;
  }
}

/** The actions an orderable offers, in the order the buttons show them. */
export function actionsOf(orderable: Orderable): Action[] {
  const order: Action[] = ['hold', 'move', 'support', 'convoy', 'destroy', 'rebuild', 'retreat', 'disband', 'build', 'remove'];
  const kinds = new Set<string>(orderable.orders.map((o) => (o.kind === 'build' ? 'build' : o.kind)));
  return order.filter((a) => kinds.has(a));
}

/** A province that can be clicked as the next step, and the orders (or the unit to pick) it stands for. */
export interface Target {
  province: string;
  /** Name shown in lists: "Neapolis", "Aquitania (South Coast)". */
  label: string;
  /** Complete orders this click would give; several when a coast or a way must still be chosen. */
  orders: Order[];
  /** For the first step of a support or convoy: the unit picked (its location), not yet an order. */
  pick?: string;
}

const provinceOf = (v: Variant, location: string) => {
  const l = findLocation(v, location);
  return l < 0 ? location : v.provinceIds[v.locationProvince[l]];
};

/**
 * The targets of an action for an orderable: for a support or a convoy without
 * its unit picked yet, the units that can be supported or convoyed; otherwise
 * the destinations, each with the complete orders that reach it.
 */
export function targetsOf(v: Variant, orderable: Orderable, action: Action, picked?: string): Target[] {
  const groups = new Map<string, Target>();
  const add = (province: string, label: string, order: Order | null, pick?: string) => {
    let t = groups.get(province);
    if (!t) {
      t = { province, label, orders: [], ...(pick ? { pick } : {}) };
      groups.set(province, t);
    }
    if (order) t.orders.push(order);
  };
  for (const o of orderable.orders) {
    switch (action) {
      case 'move':
        if (o.kind === 'move') add(provinceOf(v, o.to), locationName(v, provinceOf(v, o.to)), o);
        break;
      case 'retreat':
        if (o.kind === 'retreat') add(provinceOf(v, o.to), locationName(v, provinceOf(v, o.to)), o);
        break;
      case 'build':
        if (o.kind === 'build') add(provinceOf(v, o.at), locationName(v, provinceOf(v, o.at)), o);
        break;
      case 'support':
        if (o.kind !== 'support') break;
        if (picked === undefined) add(provinceOf(v, o.supported.at), locationName(v, o.supported.at), null, provinceOf(v, o.supported.at));
        else if (provinceOf(v, o.supported.at) === picked) {
          const dest = o.to === undefined ? picked : provinceOf(v, o.to);
          add(dest, o.to === undefined ? `${locationName(v, dest)} (hold)` : locationName(v, dest), o);
        }
        break;
      case 'convoy':
        if (o.kind !== 'convoy') break;
        if (picked === undefined) add(provinceOf(v, o.army.at), locationName(v, o.army.at), null, provinceOf(v, o.army.at));
        else if (provinceOf(v, o.army.at) === picked) add(provinceOf(v, o.to), locationName(v, provinceOf(v, o.to)), o);
        break;
      default:
        break;
    }
  }
  return [...groups.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/** The order an action without a target gives (hold, destroy, rebuild, disband, remove), if legal. */
export function immediateOrder(orderable: Orderable, action: Action): Order | undefined {
  return orderable.orders.find((o) => o.kind === action);
}

/** How a choice between several orders for one click is worded: "South Coast", "via convoy", "Fleet". */
export function choiceLabel(v: Variant, order: Order): string {
  switch (order.kind) {
    case 'move':
      return `${locationName(v, order.to)}${order.viaConvoy ? ', via convoy' : ''}`;
    case 'build':
      return `${order.unitType === 'fleet' ? 'Fleet' : 'Army'} in ${locationName(v, order.at)}`;
    case 'support':
      return order.to === undefined ? 'Support to hold' : `Support to ${locationName(v, order.to)}`;
    case 'retreat':
      return locationName(v, order.to);
    default:
      return formatOrder(order);
  }
}

export const sameProvince = (v: Variant, a: string, b: string) => provinceOf(v, a) === provinceOf(v, b);
export { provinceOf };
