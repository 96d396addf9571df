/**
 * The order-entry store: one position ({variant, state}), the powers the
 * player may order for (one in a game, all of them in the sandbox), and each
 * power's orders as lines of text. Clicking on the map and typing in the text
 * box both edit these lines, so the two views can never disagree; every line
 * is checked by the engine (`checkOrders`) as it stands.
 */
import {
  checkOrders,
  findLocation,
  formatOrder,
  parseOrder,
  type CheckedOrder,
  type GameState,
  type Order,
  type SubmittedOrder,
  type Variant,
} from '../../../shared/index.ts';
import {
  PositionIndex,
  actionInfo,
  actionsOf,
  immediateOrder,
  provinceOf,
  sameProvince,
  targetsOf,
  type Action,
  type Orderable,
  type Target,
} from './choices.ts';

/** A line of the order text and what the engine made of it. */
export interface OrderLine {
  /** 0-based line number in the text box. */
  line: number;
  input: string;
  accepted: boolean;
  /** Canonical text of an accepted order. */
  text?: string;
  order?: Order;
  /** Location of the unit (or build site) an accepted order is for. */
  unit?: string;
  reason?: string;
}

export interface Selection {
  /** The orderable's location (unit) or province (build site). */
  location: string;
  power: string;
  action?: Action;
  /** Support or convoy: the unit picked as the first target (its province). */
  picked?: string;
  /** Several orders fit the clicked target (coasts, by land or by convoy, army or fleet): the player picks one. */
  choices?: Order[];
  /** The province last clicked that is not a target of the action: said, and the step kept (a slip of the finger). */
  missed?: string;
}

export class OrderEntry {
  readonly variant: Variant;
  readonly powers: readonly string[];
  state = $state.raw<GameState>() as unknown as GameState;
  power = $state<string>('');
  lines = $state.raw<Record<string, string[]>>({});
  selection = $state<Selection | null>(null);
  /**
   * The current power's orders as saved on the server (null: not known, or nothing bound to a server, as in the
   * sandbox): the order list marks each line saved or not, so the player reads their orders in one place.
   */
  savedText = $state<string | null>(null);
  /** The order given last (by a click, a key or a button, not typed), as the page announces it. */
  lastGiven = $state<string | null>(null);

  readonly index: PositionIndex = $derived.by(() => new PositionIndex({ variant: this.variant, state: this.state }));

  /** Every power's lines as the engine checks them. */
  readonly checked: Record<string, OrderLine[]> = $derived.by(() => {
    const out: Record<string, OrderLine[]> = {};
    for (const power of this.powers) out[power] = checkLines(this.variant, this.state, power, this.lines[power] ?? []);
    return out;
  });

  /** The orderable selected, if any. */
  readonly selected: Orderable | undefined = $derived.by(() =>
    this.selection ? this.index.orderables(this.selection.power).find((o) => o.location === this.selection!.location) : undefined,
  );

  readonly actions: Action[] = $derived.by(() => (this.selected ? actionsOf(this.selected) : []));

  /** Provinces the next click may pick, with what each stands for. */
  readonly targets: Target[] = $derived.by(() => {
    const s = this.selection;
    if (!s?.action || !this.selected || s.choices || !actionInfo[s.action].needsTarget) return [];
    return this.withinFleetLimit(targetsOf(this.variant, this.selected, s.action, s.picked), s.power, s.location);
  });

  constructor(variant: Variant, state: GameState, powers: readonly string[], lines: Record<string, string[]> = {}) {
    this.variant = variant;
    this.powers = powers;
    this.state = state;
    this.power = powers[0] ?? '';
    this.lines = lines;
  }

  /** Start over on another position (the next phase in the sandbox): no orders, nothing selected. */
  reset(state: GameState, lines: Record<string, string[]> = {}): void {
    this.state = state;
    this.lines = lines;
    this.selection = null;
  }

  /** Whether a line of the box (its text as typed) is among the orders saved on the server; null when that is not known. */
  isSaved(input: string): boolean | null {
    if (this.savedText === null) return null;
    const line = input.trim();
    return this.savedText.split('\n').some((saved) => saved.trim() === line);
  }

  /** The current power's orders as the text box shows them. */
  get text(): string {
    return (this.lines[this.power] ?? []).join('\n');
  }

  setText(text: string, power = this.power): void {
    this.lines = { ...this.lines, [power]: text.split('\n') };
  }

  /** Orders of every power, as the adjudicator takes them (lines it cannot read come back as illegal results). */
  submitted(): SubmittedOrder[] {
    const out: SubmittedOrder[] = [];
    for (const power of this.powers) for (const line of this.lines[power] ?? []) if (line.trim() !== '') out.push({ power, order: line.trim() });
    return out;
  }

  /** Accepted orders of every power, for drawing them on the map. */
  acceptedOrders(): { power: string; order: Order; text: string }[] {
    return this.powers.flatMap((power) => (this.checked[power] ?? []).filter((l) => l.accepted).map((l) => ({ power, order: l.order!, text: l.text! })));
  }

  /** A power's accepted orders by the province they are given in (the unit's, or the build site's): what the map says of each piece. */
  orderedByProvince(power: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const l of this.checked[power] ?? []) {
      if (!l.accepted || !l.order) continue;
      const at = 'unit' in l.order ? l.order.unit.at : 'at' in l.order ? l.order.at : null;
      if (at) out.set(provinceOf(this.variant, at), l.text!);
    }
    return out;
  }

  /** Everything the powers may order now. */
  orderables(): Orderable[] {
    return this.powers.flatMap((p) => this.index.orderables(p));
  }

  /** A click (or Enter) on a province. */
  clickProvince(province: string): void {
    const s = this.selection;
    if (s?.action && !s.choices) {
      const target = this.targets.find((t) => t.province === province);
      if (target) {
        this.chooseTarget(target);
        return;
      }
    }
    const found = this.orderableAt(province);
    if (!found) {
      this.selection = s?.action && !s.choices ? { ...s, missed: province } : null;
      return;
    }
    this.select(found);
    // A click on a build site goes on at once to what to build there (see chooseAction).
    const only = onlyAction(found);
    if (only) this.chooseAction(only);
  }

  /**
   * Select a unit or build site; in the sandbox this also switches to its power. A build site only builds:
   * the question of what to do is skipped, its action is chosen (a click, or the B key, then goes on).
   */
  select(orderable: Orderable): void {
    this.power = orderable.power;
    this.selection = { location: orderable.location, power: orderable.power };
    const only = onlyAction(orderable);
    if (only) this.selection.action = only;
  }

  chooseAction(action: Action): void {
    if (action === 'waive') {
      if (this.canWaive) this.give({ kind: 'waive' }, this.power);
      return;
    }
    const s = this.selection;
    const selected = this.selected;
    if (!s || !selected || !this.actions.includes(action)) return;
    if (!actionInfo[action].needsTarget) {
      const order = immediateOrder(selected, action);
      if (order) this.give(order, s.power);
      return;
    }
    this.selection = { location: s.location, power: s.power, action };
    // A build site is its own only target: go straight to what to build there (or build at once when only an
    // army can be built there).
    if (onlyAction(selected) === action) {
      const targets = this.targets;
      if (targets.length === 1) this.chooseTarget(targets[0]);
    }
  }

  chooseTarget(target: Target): void {
    const s = this.selection;
    if (!s) return;
    if (target.pick !== undefined) this.selection = { ...s, picked: target.pick };
    else if (target.orders.length === 1) this.give(target.orders[0], s.power);
    else if (target.orders.length > 1) this.selection = { ...s, choices: target.orders };
  }

  /**
   * A key pressed on a piece of the map (a unit, a build site): the piece is selected if it is not yet, and the key
   * is its action. The power being ordered first; any power's piece when `anyPower` (the sandbox orders them all).
   */
  keyAt(key: string, province: string, anyPower = false): boolean {
    const powers = anyPower ? [this.power, ...this.powers.filter((p) => p !== this.power)] : [this.power];
    const orderable = powers.map((p) => this.index.orderableAt(p, province)).find(Boolean);
    if (!orderable && !(key.toLowerCase() === 'w' && this.canWaive)) return false;
    if (orderable && this.selection?.location !== orderable.location) this.select(orderable);
    return this.key(key);
  }

  /** Keyboard shortcut for an action (H, M, S, C, Z, R, D, B, X, W) on the selected unit. */
  key(key: string): boolean {
    const k = key.toLowerCase();
    const action = this.actions.find((a) => actionInfo[a].key === k);
    if (action) {
      this.chooseAction(action);
      return true;
    }
    if (k === 'w' && this.canWaive) {
      this.chooseAction('waive');
      return true;
    }
    return false;
  }

  /** Step back: from a coast choice to the targets, from a picked unit to the first step, then to nothing. */
  cancel(): void {
    const s = this.selection;
    if (!s) return;
    if (s.choices) {
      this.selection = { ...s, choices: undefined };
      // A build site's army-or-fleet came at once, its one target taken for the player: back goes past that step too.
      if (this.selected && onlyAction(this.selected) === s.action && this.targets.length === 1) this.selection = null;
    } else if (s.picked !== undefined) this.selection = { ...s, picked: undefined };
    else if (s.action && !(this.selected && onlyAction(this.selected))) this.selection = { location: s.location, power: s.power };
    else this.selection = null;
  }

  /**
   * Builds: once a power has as many fleet builds as the variant allows in one adjustment (its rules' `maxFleetBuilds`),
   * the other sites offer armies only. The engine would refuse a third fleet anyway; this keeps it off the buttons.
   */
  private withinFleetLimit(targets: Target[], power: string, site: string): Target[] {
    const max = this.variant.data.rules.maxFleetBuilds;
    if (max === undefined || this.state.phase.type !== 'adjustment') return targets;
    if (this.fleetBuilds(power, site) < max) return targets;
    return targets
      .map((t) => ({ ...t, orders: t.orders.filter((o) => !(o.kind === 'build' && o.unitType === 'fleet')) }))
      .filter((t) => t.orders.length > 0 || t.pick !== undefined);
  }

  /** Fleet builds the variant allows in one adjustment phase (undefined: no limit). */
  get maxFleetBuilds(): number | undefined {
    return this.variant.data.rules.maxFleetBuilds;
  }

  /** Fleet builds the power has ordered in this set (but the one at `except`, a site being chosen again). */
  fleetBuilds(power: string, except?: string): number {
    return (this.checked[power] ?? []).filter(
      (l) => l.accepted && l.order?.kind === 'build' && l.order.unitType === 'fleet' && provinceOf(this.variant, l.order.at) !== except,
    ).length;
  }

  /** How many of a power's lines the engine refuses (a save of them would be refused whole). */
  refusedLines(power = this.power): number {
    return (this.checked[power] ?? []).filter((l) => !l.accepted).length;
  }

  /** A power's units with no accepted order: at the deadline they hold, or in a retreat phase disband. */
  unordered(power = this.power): Orderable[] {
    const ordered = new Set((this.checked[power] ?? []).filter((l) => l.accepted && l.unit).map((l) => provinceOf(this.variant, l.unit!)));
    return this.index.orderables(power).filter((o) => o.kind === 'unit' && !ordered.has(provinceOf(this.variant, o.location)));
  }

  /**
   * A power's armies that its own fleets are ordered to convoy, where the army is not ordered to make that move:
   * a convoy carries an army only if the army is ordered to go, and the fleet's order alone is easy to mistake
   * for the whole of it. Each with the move that would match.
   */
  convoysWithoutTheirMove(power = this.power): { army: string; move: Order }[] {
    const accepted = (this.checked[power] ?? []).filter((l) => l.accepted && l.order).map((l) => l.order!);
    const out: { army: string; move: Order }[] = [];
    for (const o of accepted) {
      if (o.kind !== 'convoy') continue;
      const v = this.variant;
      const army = this.state.units.find((u) => u.power === power && u.type === 'army' && sameProvince(v, u.at, o.army.at));
      if (!army) continue;
      const moves = accepted.some((m) => m.kind === 'move' && sameProvince(v, m.unit.at, army.at) && sameProvince(v, m.to, o.to));
      if (!moves && !out.some((w) => w.army === army.at))
        out.push({ army: army.at, move: { kind: 'move', unit: { type: 'army', at: army.at }, to: o.to, viaConvoy: true } });
    }
    return out;
  }

  /** A waive is offered while the current power has builds left to order. */
  get canWaive(): boolean {
    return this.state.phase.type === 'adjustment' && this.index.adjustment(this.power) > 0 && this.adjustmentLeft(this.power) > 0;
  }

  /**
   * In an adjustment phase, the builds (or removals) a power has still to order: those due, less its accepted
   * builds and waives (or removals). 0 in other phases.
   */
  adjustmentLeft(power = this.power): number {
    if (this.state.phase.type !== 'adjustment') return 0;
    const due = this.index.adjustment(power);
    const given = (this.checked[power] ?? []).filter((l) => l.accepted && l.order);
    if (due > 0) return Math.max(0, due - given.filter((l) => l.order!.kind === 'build' || l.order!.kind === 'waive').length);
    if (due < 0) return Math.max(0, -due - given.filter((l) => l.order!.kind === 'remove').length);
    return 0;
  }

  /** Put an order in its power's lines, replacing any line for the same unit (or build site). */
  give(order: Order, power: string): void {
    const slot = slotOf(this.variant, order);
    const phase = this.state.phase.type;
    const kept = (this.lines[power] ?? []).filter((line) => {
      if (line.trim() === '') return false;
      if (slot === null) return true;
      const parsed = parseOrder(this.variant, line, phase);
      return !(parsed.ok && slotOf(this.variant, parsed.value) === slot);
    });
    this.lines = { ...this.lines, [power]: [...kept, formatOrder(order)] };
    this.selection = null;
    this.lastGiven = formatOrder(order);
  }

  /** Remove the order on this line of a power's text. */
  removeLine(line: number, power = this.power): void {
    const lines = [...(this.lines[power] ?? [])];
    lines.splice(line, 1);
    this.lines = { ...this.lines, [power]: lines };
  }

  private orderableAt(province: string): Orderable | undefined {
    // The current power first, so that in the sandbox a click keeps to the power being ordered when it can.
    for (const power of [this.power, ...this.powers.filter((p) => p !== this.power)]) {
      const o = this.index.orderableAt(power, province);
      if (o) return o;
    }
    return undefined;
  }
}

/** The one action of an orderable that has only one, needing a target: a build site's Build. */
function onlyAction(orderable: Orderable): Action | undefined {
  const actions = actionsOf(orderable);
  return actions.length === 1 && actionInfo[actions[0]].needsTarget ? actions[0] : undefined;
}

/** The unit or site an order is for, as a province id (null for a waive, which takes no slot). */
function slotOf(v: Variant, order: Order): string | null {
  if (order.kind === 'waive') return null;
  const at = order.kind === 'build' ? order.at : order.unit.at;
  const l = findLocation(v, at);
  return l < 0 ? provinceOf(v, at) : v.provinceIds[v.locationProvince[l]];
}

/** Check a power's lines with the engine, keeping each result on its line. */
export function checkLines(v: Variant, state: GameState, power: string, lines: readonly string[]): OrderLine[] {
  const numbered = lines.map((input, line) => ({ input, line })).filter((l) => l.input.trim() !== '');
  if (numbered.length === 0) return [];
  const r = checkOrders(
    v,
    state,
    power,
    numbered.map((l) => l.input),
  );
  if (!r.ok) return numbered.map((l) => ({ ...l, accepted: false, reason: r.error }));
  return r.value.map((c: CheckedOrder, i) => {
    const { line, input } = numbered[i];
    return c.accepted
      ? { line, input, accepted: true, text: c.text, order: c.order, ...(c.unit ? { unit: c.unit } : {}) }
      : { line, input, accepted: false, reason: c.reason };
  });
}
