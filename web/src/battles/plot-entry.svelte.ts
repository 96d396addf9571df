/**
 * Plotting a ship-to-ship turn: every ship of one's side gets its move a step at a time (click the highlighted hex
 * ahead, left or right, or astern, or use the buttons), a turn in place where allowed, and its fire and boarding
 * orders; the whole side's plot is checked by the engine before it is sent.
 */
import { untrack } from 'svelte';
import { type Hex, sameHex } from '../../../shared/naval/hex.ts';
import { type Action, type State, shipToShip } from '../../../shared/naval/ship-to-ship/index.ts';
import { type ShipPlot, ShipPlotSchema } from '../../../shared/naval/ship-to-ship/state.ts';
import { type PlotMove, type Step, isWholePlot, nextHexes, pivotsOf, walkPlot } from './plot-steps.ts';
import { legalActionsOf } from './legal-actions.ts';
import type { BattleDetail } from './types.ts';

export class PlotEntry {
  selected = $state<string | null>(null);
  drafts = $state<Record<string, ShipPlot>>({});

  constructor(private readonly source: () => BattleDetail) {}

  private get detail(): BattleDetail {
    return this.source();
  }
  get state(): State {
    return this.detail.state as State;
  }
  get side(): string | null {
    return this.detail.you.side;
  }

  /** One's legal actions now, from the engine (legal-actions.ts). */
  private readonly actions = $derived(legalActionsOf(this.detail));
  /** Each of one's ships' legal moves this turn, from the legal list. */
  readonly legal = $derived.by(() => {
    const out = new Map<string, PlotMove[]>();
    for (const l of this.actions) {
      const a = l.action as Action;
      if (a.kind !== 'plot') continue;
      for (const p of a.plots) out.set(p.ship, [...(out.get(p.ship) ?? []), { steps: p.steps, pivot: p.pivot }]);
    }
    return out;
  });
  readonly ships = $derived([...this.legal.keys()]);
  readonly repulses = $derived(this.actions.filter((l) => (l.action as Action).kind === 'repulse'));
  readonly enemies = $derived(this.state.ships.filter((s) => s.side !== this.side && s.status === 'afloat'));

  draft(ship: string): ShipPlot {
    return this.drafts[ship] ?? { ship, steps: '', pivot: 0, fire: 'first', targets: [], board: false, rake: false };
  }
  private set(ship: string, change: Partial<ShipPlot>): void {
    this.drafts = { ...this.drafts, [ship]: { ...this.draft(ship), ...change } };
    this.keep();
  }
  private from(ship: string) {
    const s = this.state.ships.find((x) => x.id === ship);
    return s ? { hex: s.hex, facing: s.facing } : null;
  }

  complete(ship: string): boolean {
    const d = this.draft(ship);
    return isWholePlot(this.legal.get(ship) ?? [], d.pivot, d.steps);
  }
  pivots(ship: string): number[] {
    return pivotsOf(this.legal.get(ship) ?? []);
  }
  next(ship: string): { step: Step; hex: Hex }[] {
    const from = this.from(ship);
    const d = this.draft(ship);
    return from ? nextHexes(from, this.legal.get(ship) ?? [], d.pivot, d.steps) : [];
  }

  readonly highlight = $derived(this.selected ? this.next(this.selected).map((n) => n.hex) : []);
  readonly walked = $derived.by(() => {
    const from = this.selected ? this.from(this.selected) : null;
    if (!from || !this.selected) return null;
    const d = this.draft(this.selected);
    return walkPlot(from, d.pivot, d.steps);
  });

  /**
   * What was being chosen goes; the plot being made stays while the battle waits for the same decision (the other
   * side handing in its plot, a reload): kept in this browser until the turn moves on.
   */
  reset(): void {
    this.selected = null;
    // Read without being tracked: whoever resets (an effect on the battle's moment) must not come to depend on every read of the battle.
    this.drafts = untrack(() => this.kept());
  }

  /** Where this battle's plot in the making is kept, for one's own side; none before the battle is read. */
  private get storageKey(): string | null {
    const d = this.source() as BattleDetail | null;
    return d?.ruleset === 'ship-to-ship' && d.state && d.you.side ? `battle-plot:${d.id}:${d.you.side}` : null;
  }

  private kept(): Record<string, ShipPlot> {
    const key = this.storageKey;
    if (!key) return {};
    try {
      const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as { decision?: unknown; drafts?: Record<string, unknown> } | null;
      if (kept && kept.decision === shipToShip.decision(this.state) && kept.drafts) {
        const drafts: Record<string, ShipPlot> = {};
        // Read back as the engine's plots: anything else (edited by hand, another version) is dropped.
        for (const [ship, plot] of Object.entries(kept.drafts)) {
          const read = ShipPlotSchema.safeParse(plot);
          if (read.success && read.data.ship === ship) drafts[ship] = read.data;
        }
        return drafts;
      }
      localStorage.removeItem(key);
    } catch {
      // Storage unavailable or unreadable: start the plot afresh.
    }
    return {};
  }

  private keep(): void {
    const key = this.storageKey;
    if (!key) return;
    try {
      localStorage.setItem(key, JSON.stringify({ decision: shipToShip.decision(this.state), drafts: this.drafts }));
    } catch {
      // Full or unavailable storage only loses the convenience.
    }
  }

  pickShip(id: string): void {
    if (this.legal.has(id)) this.selected = this.selected === id ? null : id;
  }

  /** A click on the sea: the next step that leads there, else one's ship there. */
  pickHex(hex: Hex): void {
    const step = this.selected ? this.next(this.selected).find((n) => sameHex(n.hex, hex)) : undefined;
    if (step && this.selected) {
      this.step(this.selected, step.step);
      return;
    }
    const ship = this.state.ships.find((s) => s.status === 'afloat' && sameHex(s.hex, hex) && this.legal.has(s.id));
    if (ship) this.pickShip(ship.id);
  }

  step(ship: string, step: Step): void {
    if (this.next(ship).some((n) => n.step === step)) this.set(ship, { steps: this.draft(ship).steps + step });
  }
  undo(ship: string): void {
    this.set(ship, { steps: this.draft(ship).steps.slice(0, -1) });
  }
  pivot(ship: string, pivot: number): void {
    this.set(ship, { pivot, steps: '' });
  }
  fire(ship: string, fire: ShipPlot['fire']): void {
    this.set(ship, { fire });
  }
  toggleTarget(ship: string, target: string): void {
    const t = this.draft(ship).targets;
    this.set(ship, { targets: t.includes(target) ? t.filter((x) => x !== target) : [...t, target] });
  }
  setBoard(ship: string, board: boolean): void {
    this.set(ship, { board });
  }
  setRake(ship: string, rake: boolean): void {
    this.set(ship, { rake });
  }

  /** One ship's plot in the engine's words. */
  words(ship: string): string {
    return shipToShip.describe(this.state, { kind: 'plot', plots: [this.draft(ship)] });
  }

  /** The side's whole plot, and the engine's verdict on it. */
  readonly plot = $derived.by(() => {
    const action: Action = { kind: 'plot', plots: this.ships.map((s) => this.draft(s)) };
    const refusal = this.side && this.ships.length ? shipToShip.check(this.state, this.side, action) : null;
    return { action, refusal: refusal?.message ?? null };
  });
}
