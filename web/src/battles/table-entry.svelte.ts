/**
 * Planning one's turn on the measured table: pick a ship, group or squadron, then a kind of move, and set its
 * numbers by dragging the ghost (toward where it should go), turning the ghost's handle, the arrow keys, or
 * typing them; the engine in the browser checks every change and says why an illegal one is refused, and the
 * ghost shows where its own plan puts the bases. Actions that take no position (fire, combat, signals,
 * formation changes, ending the movement) are the engine's legal actions as buttons in its own words.
 */
import type { Action as DiadochiAction } from '../../../shared/naval/diadochi-naval/actions.ts';
import type { State as DiadochiState } from '../../../shared/naval/diadochi-naval/state.ts';
import type { Action as OiAction } from '../../../shared/naval/oi-navarcoi/actions.ts';
import type { State as OiState } from '../../../shared/naval/oi-navarcoi/state.ts';
import { RULESETS } from '../../../shared/naval/index.ts';
import type { Base, Point } from '../../../shared/naval/table/index.ts';
import { type LegalAction, legalActionsOf } from './legal-actions.ts';
import { type MoveKind, type MoveNumbers, type Mover, NO_MOVE, type Planned, dragged, rotated, withinFields } from './table-moves.ts';
import { diadochiMovers } from './table-moves-diadochi.ts';
import { oiMovers } from './table-moves-oi.ts';
import { type TableRulesetId, isTableRuleset, middleOf } from './table-picture.ts';
import type { BattleDetail } from './types.ts';

/** Whether a legal action is a measured move the board plans by drag or numbers (not offered as a button). */
function positional(ruleset: TableRulesetId, action: unknown): boolean {
  if (ruleset === 'diadochi-naval') {
    const a = action as DiadochiAction;
    return a.kind === 'order' && a.move.kind === 'legs';
  }
  const a = action as OiAction;
  return a.kind === 'move' && !a.attack && (a.order.type === 'advance' || a.order.type === 'back' || a.order.type === 'follow-me');
}

/** The pieces a legal action concerns, when it is an order for one mover (so it is listed under that mover). */
function piecesOf(ruleset: TableRulesetId, action: unknown): readonly string[] | null {
  if (ruleset === 'diadochi-naval') {
    const a = action as DiadochiAction;
    return a.kind === 'order' ? a.ships : null;
  }
  const a = action as OiAction;
  return a.kind === 'move' ? [a.squadron] : null;
}

export class TableEntry {
  /** The mover picked (its key). */
  selected = $state<string | null>(null);
  kindId = $state<string | null>(null);
  numbers = $state<MoveNumbers>(NO_MOVE);

  constructor(private readonly source: () => BattleDetail) {}

  private get detail(): BattleDetail {
    return this.source();
  }
  get ruleset(): TableRulesetId | null {
    const id: string = this.detail.ruleset;
    return isTableRuleset(id) ? id : null;
  }

  /** One's legal actions now, from the engine (legal-actions.ts). */
  readonly actions: LegalAction[] = $derived(legalActionsOf(this.detail));

  /** What one may move now, each with its kinds of move. */
  readonly movers: Mover[] = $derived.by(() => {
    const side = this.detail.you.side;
    const ruleset = this.ruleset;
    if (!ruleset || side === null || this.actions.length === 0) return [];
    return ruleset === 'diadochi-naval' ? diadochiMovers(this.detail.state as DiadochiState, side) : oiMovers(this.detail.state as OiState, side);
  });

  readonly mover: Mover | null = $derived(this.movers.find((m) => m.key === this.selected) ?? null);
  readonly kind: MoveKind | null = $derived(this.mover ? (this.mover.kinds.find((k) => k.id === this.kindId) ?? this.mover.kinds[0] ?? null) : null);

  /** The move as the numbers stand, checked and planned by the engine; null before any number is set. */
  readonly planned: Planned | null = $derived.by(() => {
    const n = this.numbers;
    if (!this.mover || !this.kind || (n.distance === 0 && n.turn === 0 && n.after === 0)) return null;
    return this.mover.plan(this.kind.id, n);
  });

  /** The planned move in the engine's words. */
  readonly words: string = $derived.by(() => {
    const ruleset = this.ruleset;
    if (!ruleset || !this.planned) return this.mover ? `${this.mover.name} stays` : '';
    return RULESETS[ruleset].describe(this.detail.state, this.planned.action);
  });

  /** The ghost: where the engine's plan puts the bases (where they stand before any number is set). */
  readonly ghost: { bases: readonly Base[]; refused: boolean; words: string } | null = $derived(
    this.mover ? { bases: this.planned?.bases ?? this.mover.bases, refused: !!this.planned?.refusal, words: this.words } : null,
  );

  /** The ruler from the mover's middle to the ghost's, with the allowance used. */
  readonly ruler: { from: Point; to: Point; used: number; allowance: number } | null = $derived(
    this.mover && this.kind && this.planned
      ? { from: this.mover.anchor, to: middleOf(this.planned.bases), used: this.planned.used, allowance: this.kind.allowance }
      : null,
  );

  /** The legal actions offered as buttons: those for no one mover, and the picked mover's own. */
  readonly buttons: LegalAction[] = $derived.by(() => {
    const ruleset = this.ruleset;
    if (!ruleset) return [];
    const picked = new Set(this.mover?.pieces ?? []);
    return this.actions.filter((l) => {
      if (positional(ruleset, l.action)) return false;
      const pieces = piecesOf(ruleset, l.action);
      if (pieces === null) return true;
      return pieces.length === picked.size && pieces.every((p) => picked.has(p));
    });
  });

  /** The pieces of every mover (ships or squadrons one may pick on the board). */
  readonly pickable: string[] = $derived([...new Set(this.movers.flatMap((m) => m.pieces))]);

  /** Picks a mover; picking a piece picks the first mover that holds it (a ship alone before its group). */
  pick(key: string): void {
    const next = this.movers.find((m) => m.key === key) ?? this.movers.find((m) => m.pieces.includes(key));
    this.selected = next?.key ?? null;
    this.kindId = next?.kinds[0]?.id ?? null;
    this.numbers = NO_MOVE;
  }

  /** Picks the next mover that holds the piece after the one picked (a second click on a ship picks its group). */
  pickPiece(piece: string): void {
    const holding = this.movers.filter((m) => m.pieces.includes(piece));
    if (holding.length === 0) return;
    const at = holding.findIndex((m) => m.key === this.selected);
    this.pick(holding[(at + 1) % holding.length].key);
  }

  setKind(id: string): void {
    this.kindId = id;
    this.numbers = NO_MOVE;
  }

  set(field: keyof MoveNumbers, value: number): void {
    if (!this.kind || !Number.isFinite(value)) return;
    this.numbers = withinFields(this.kind, { ...this.numbers, [field]: value });
  }

  /** The ghost's middle dragged to a table point. */
  drag(to: Point): void {
    if (this.mover && this.kind) this.numbers = dragged(this.mover, this.kind, to, this.numbers);
  }

  /** The ghost's handle pointed along a heading. */
  rotate(heading: number): void {
    if (this.mover && this.kind) this.numbers = rotated(this.mover, this.kind, heading, this.numbers);
  }

  /** Arrow keys on the ghost: up and down the run, left and right the turn (the handle's), Shift for fine steps. */
  nudge(key: string, fine: boolean): boolean {
    if (!this.kind) return false;
    const step = fine ? 0.1 : 0.5;
    const degrees = fine ? 1 : 5;
    const turnKey = this.kind.handle === 'after' ? 'after' : 'turn';
    const hasTurn = this.kind.fields.some((f) => f.key === turnKey);
    const n = this.numbers;
    if (key === 'ArrowUp') this.set('distance', n.distance + step);
    else if (key === 'ArrowDown') this.set('distance', n.distance - step);
    else if (key === 'ArrowRight' && hasTurn) this.set(turnKey, n[turnKey] + degrees);
    else if (key === 'ArrowLeft' && hasTurn) this.set(turnKey, n[turnKey] - degrees);
    else return false;
    return true;
  }

  /** The planned move's action, when the engine accepts it. */
  get ready(): unknown | null {
    return this.planned && this.planned.refusal === null ? this.planned.action : null;
  }

  clearMove(): void {
    this.numbers = NO_MOVE;
  }

  reset(): void {
    this.selected = null;
    this.kindId = null;
    this.numbers = NO_MOVE;
  }
}
