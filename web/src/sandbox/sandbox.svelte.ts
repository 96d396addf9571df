/**
 * The sandbox: a position played in the browser alone. Orders for every
 * power, adjudicated by the engine here, results shown, then on to the next
 * phase or back to an earlier one. It never talks to the server.
 */
import {
  adjudicate,
  compileBoard,
  getVariant,
  initialState,
  rulebookOptions,
  type GameState,
  type PhaseOutcome,
  type Rulebook,
  type Variant,
} from '../../../shared/index.ts';
import { OrderEntry } from '../orders/order-entry.svelte.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import { PositionSetup, type SetupSnapshot } from './setup.svelte.ts';

export interface SandboxStep {
  state: GameState;
  /** The orders as they were typed or clicked, per power. */
  lines: Record<string, string[]>;
  /** Set once the step is adjudicated. */
  outcome: PhaseOutcome | null;
}

/** Where the sandbox's first position came from, when it is a game's: shown on the page, kept with the snapshot. */
export interface SandboxOrigin {
  game: string;
  /** The game's name, when it could be read. */
  gameName?: string;
  phase: number;
  /** The phase's name, e.g. "Winter 240 BC Adjustment". */
  phaseName: string;
}

export interface SandboxSnapshot {
  variant: string;
  /** The rule set adjudicating (absent in snapshots made before there was a choice: datc). */
  rules?: Rulebook;
  steps: { state: GameState; lines: Record<string, string[]>; adjudicated: boolean }[];
  origin?: SandboxOrigin;
  /** A position being set up by hand, not applied yet. */
  setup?: SetupSnapshot;
}

export class Sandbox {
  readonly entry: OrderEntry;
  steps = $state.raw<SandboxStep[]>([]);
  /** The game position the sandbox started from, if it did (null: the initial position or a pasted one). */
  origin = $state.raw<SandboxOrigin | null>(null);
  /** The rule set the next adjudication uses (RULEBOOKS); a game's, when opened from one. */
  rules = $state<Rulebook>('datc');
  /** The position being set up by hand (set-up mode), or null while playing. */
  setup = $state.raw<PositionSetup | null>(null);

  constructor(
    readonly variant: Variant,
    start: GameState = initialState(variant),
  ) {
    this.entry = new OrderEntry(variant, start, variant.powers);
    this.steps = [{ state: start, lines: {}, outcome: null }];
    this.choosePower();
  }

  get current(): SandboxStep {
    return this.steps[this.steps.length - 1];
  }

  /** Showing the results of the current step (rather than entering its orders). */
  get showingResults(): boolean {
    return this.current.outcome !== null;
  }

  /** The variant as the rule set plays it (order entry does not depend on it; adjudication does). */
  private adjudicator(rules: Rulebook = this.rules): Variant {
    return getVariant(this.variant.id, rulebookOptions(rules)) ?? this.variant;
  }

  /** The variant under the rules chosen: for what the page says of the rules (e.g. who is removed in civil disorder). */
  get playing(): Variant {
    return this.adjudicator();
  }

  /** Adjudicate every power's orders for the current phase. */
  adjudicate(): Result<PhaseOutcome, string[]> {
    const r = adjudicate(this.adjudicator(), this.current.state, this.entry.submitted());
    if (!r.ok) return r;
    this.steps = [...this.steps.slice(0, -1), { ...this.current, lines: this.entry.lines, outcome: r.value }];
    this.entry.selection = null;
    return r;
  }

  /** From the results on to the next phase. */
  proceed(): void {
    const outcome = this.current.outcome;
    if (!outcome) return;
    this.steps = [...this.steps, { state: outcome.next, lines: {}, outcome: null }];
    this.entry.reset(outcome.next);
    this.choosePower();
  }

  /** Back one step: from results to the orders that made them, from a phase to the results of the one before. */
  back(): void {
    if (this.showingResults) {
      const step = this.current;
      this.steps = [...this.steps.slice(0, -1), { ...step, outcome: null }];
      this.entry.reset(step.state, step.lines);
      return;
    }
    if (this.steps.length < 2) return;
    const previous = this.steps[this.steps.length - 2];
    this.steps = this.steps.slice(0, -1);
    this.entry.reset(previous.state, previous.lines);
    this.choosePower();
  }

  get canGoBack(): boolean {
    return this.showingResults || this.steps.length > 1;
  }

  /** Something a new start would throw away: a phase played, results, or an order written. */
  get hasWork(): boolean {
    return this.steps.length > 1 || this.showingResults || Object.values(this.entry.lines).some((lines) => lines.some((l) => l.trim() !== ''));
  }

  /** Orders typed or clicked that have not been adjudicated: a reload keeps them, but leaving the page asks first. */
  get ordersPending(): boolean {
    return !this.showingResults && Object.values(this.entry.lines).some((lines) => lines.some((l) => l.trim() !== ''));
  }

  /** Work that leaving the page would leave behind: orders not adjudicated, or a set-up not applied. */
  get unsaved(): boolean {
    return this.ordersPending || (this.setup?.changed ?? false);
  }

  /** Set up the position by hand, beginning from the one on screen (the next phase's, when results are shown). */
  beginSetup(): void {
    const step = this.current;
    this.setup = new PositionSetup(this.variant, step.outcome && !step.outcome.next.winners ? step.outcome.next : step.state);
  }

  /** Leave set-up mode without applying it. */
  discardSetup(): void {
    this.setup = null;
  }

  /** Play from the position set up (as a pasted one: the phases played before are dropped); unchanged, play on as before. */
  applySetup(): void {
    const setup = this.setup;
    if (!setup) return;
    this.setup = null;
    if (setup.changed) this.load(setup.state);
  }

  /** Whether a power has something to order in the phase shown (a unit, a dislodged unit, builds or removals). */
  private busy(power: string): boolean {
    const entry = this.entry;
    return entry.index.orderables(power).length > 0 || (entry.state.phase.type === 'adjustment' && entry.index.adjustment(power) !== 0);
  }

  /**
   * Keep the power being ordered if it has something to order in this phase; otherwise switch to the first
   * power that has (a dislodged unit in a retreat, builds or removals in an adjustment).
   */
  private choosePower(): void {
    const entry = this.entry;
    if (this.busy(entry.power)) return;
    entry.power = entry.powers.find((power) => this.busy(power)) ?? entry.power;
  }

  /** Order this power's units first (the player's own, opening the sandbox from a game), if it has any to order. */
  preferPower(power: string): void {
    if (this.entry.powers.includes(power) && this.busy(power)) this.entry.power = power;
  }

  /** Play under another rule set from now on: results on screen are adjudicated again; earlier phases stay as played. */
  useRules(rules: Rulebook): void {
    this.rules = rules;
    if (this.showingResults) this.adjudicate();
  }

  /** What is kept between visits: positions and orders; results are adjudicated again on restore (the engine is deterministic). */
  snapshot(): SandboxSnapshot {
    return {
      variant: this.variant.id,
      rules: this.rules,
      steps: this.steps.map((s, i) => ({
        state: s.state,
        lines: i === this.steps.length - 1 && !s.outcome ? this.entry.lines : s.lines,
        adjudicated: s.outcome !== null,
      })),
      ...(this.origin ? { origin: this.origin } : {}),
      ...(this.setup ? { setup: this.setup.snapshot() } : {}),
    };
  }

  /** Back to where a snapshot left off; a snapshot that no longer adjudicates (older engine, edited by hand) is refused. */
  async restore(snapshot: SandboxSnapshot): Promise<boolean> {
    if (snapshot.variant !== this.variant.id || snapshot.steps.length === 0) return false;
    const rules = snapshot.rules ?? 'datc';
    const adjudicator = this.adjudicator(rules);
    const steps: SandboxStep[] = [];
    for (const s of snapshot.steps) {
      const read = await readPosition(this.variant, JSON.stringify(s.state));
      if (!read.ok) return false;
      let outcome: PhaseOutcome | null = null;
      if (s.adjudicated) {
        const lines = Object.entries(s.lines).flatMap(([power, ls]) => ls.filter((l) => l.trim() !== '').map((order) => ({ power, order: order.trim() })));
        const r = adjudicate(adjudicator, read.value, lines);
        if (!r.ok) return false;
        outcome = r.value;
      }
      steps.push({ state: read.value, lines: s.lines, outcome });
    }
    let setup: PositionSetup | null = null;
    if (snapshot.setup) {
      // A set-up the engine no longer reads is dropped; the phases played are kept.
      const read = await readPosition(this.variant, JSON.stringify(snapshot.setup.state));
      if (read.ok) setup = new PositionSetup(this.variant, read.value, snapshot.setup.changed === true);
    }
    this.steps = steps;
    this.rules = rules;
    this.origin = snapshot.origin ?? null;
    this.setup = setup;
    this.entry.reset(this.current.state, this.current.lines);
    this.choosePower();
    return true;
  }

  /**
   * Start again from a position (the initial one, one pasted as GameState JSON, or a game's, with where it
   * came from and the rule set it is played under; otherwise the rules stay as chosen).
   */
  load(state: GameState, origin: SandboxOrigin | null = null, rules: Rulebook = this.rules): void {
    this.steps = [{ state, lines: {}, outcome: null }];
    this.rules = rules;
    this.origin = origin;
    this.setup = null;
    this.entry.reset(state);
    this.choosePower();
  }
}

/**
 * Read a position pasted as GameState JSON, with every problem named. Its schema (and zod) load only when a
 * position is read, not with the page: the sandbox's first view needs neither.
 */
export async function readPosition(variant: Variant, text: string): Promise<Result<GameState, string[]>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return err([`That is not JSON: ${(e as Error).message}`]);
  }
  const { GameStateSchema } = await import('../../../shared/state/schema.ts');
  const parsed = GameStateSchema.safeParse(json);
  if (!parsed.success) return err(parsed.error.issues.map((i) => `${i.path.join('.') || 'state'}: ${i.message}`));
  const state = parsed.data;
  if (state.variant !== variant.id) return err([`The position is for "${state.variant}", not "${variant.id}".`]);
  const units = compileBoard(variant, state.units);
  if (!units.ok) return err(units.error);
  const dislodged = compileBoard(variant, state.dislodged);
  if (!dislodged.ok) return err(dislodged.error.map((e) => `dislodged: ${e}`));
  return ok(state);
}
