/**
 * The sandbox: a position played in the browser alone. Orders for every
 * power, adjudicated by the engine here, results shown, then on to the next
 * phase or back to an earlier one. It never talks to the server.
 */
import {
  GameStateSchema,
  adjudicate,
  compileBoard,
  initialState,
  type GameState,
  type PhaseOutcome,
  type Variant,
} from '../../../shared/index.ts';
import { OrderEntry } from '../orders/order-entry.svelte.ts';
import { err, ok, type Result } from '../../../shared/result.ts';

export interface SandboxStep {
  state: GameState;
  /** The orders as they were typed or clicked, per power. */
  lines: Record<string, string[]>;
  /** Set once the step is adjudicated. */
  outcome: PhaseOutcome | null;
}

export interface SandboxSnapshot {
  variant: string;
  steps: { state: GameState; lines: Record<string, string[]>; adjudicated: boolean }[];
}

export class Sandbox {
  readonly entry: OrderEntry;
  steps = $state.raw<SandboxStep[]>([]);

  constructor(
    readonly variant: Variant,
    start: GameState = initialState(variant),
  ) {
    this.entry = new OrderEntry(variant, start, variant.powers);
    this.steps = [{ state: start, lines: {}, outcome: null }];
  }

  get current(): SandboxStep {
    return this.steps[this.steps.length - 1];
  }

  /** Showing the results of the current step (rather than entering its orders). */
  get showingResults(): boolean {
    return this.current.outcome !== null;
  }

  /** Adjudicate every power's orders for the current phase. */
  adjudicate(): Result<PhaseOutcome, string[]> {
    const r = adjudicate(this.variant, this.current.state, this.entry.submitted());
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
  }

  get canGoBack(): boolean {
    return this.showingResults || this.steps.length > 1;
  }

  /** What is kept between visits: positions and orders; results are adjudicated again on restore (the engine is deterministic). */
  snapshot(): SandboxSnapshot {
    return {
      variant: this.variant.id,
      steps: this.steps.map((s, i) => ({
        state: s.state,
        lines: i === this.steps.length - 1 && !s.outcome ? this.entry.lines : s.lines,
        adjudicated: s.outcome !== null,
      })),
    };
  }

  /** Back to where a snapshot left off; a snapshot that no longer adjudicates (older engine, edited by hand) is refused. */
  restore(snapshot: SandboxSnapshot): boolean {
    if (snapshot.variant !== this.variant.id || snapshot.steps.length === 0) return false;
    const steps: SandboxStep[] = [];
    for (const s of snapshot.steps) {
      const read = readPosition(this.variant, JSON.stringify(s.state));
      if (!read.ok) return false;
      let outcome: PhaseOutcome | null = null;
      if (s.adjudicated) {
        const lines = Object.entries(s.lines).flatMap(([power, ls]) => ls.filter((l) => l.trim() !== '').map((order) => ({ power, order: order.trim() })));
        const r = adjudicate(this.variant, read.value, lines);
        if (!r.ok) return false;
        outcome = r.value;
      }
      steps.push({ state: read.value, lines: s.lines, outcome });
    }
    this.steps = steps;
    this.entry.reset(this.current.state, this.current.lines);
    return true;
  }

  /** Start again from a position (the initial one, or one pasted as GameState JSON). */
  load(state: GameState): void {
    this.steps = [{ state, lines: {}, outcome: null }];
    this.entry.reset(state);
  }
}

/** Read a position pasted as GameState JSON, with every problem named. */
export function readPosition(variant: Variant, text: string): Result<GameState, string[]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return err([`That is not JSON: ${(e as Error).message}`]);
  }
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
