/**
 * Planning one's turn on the measured table: pick a ship, group or squadron, then a kind of move, and set its
 * numbers by dragging the ghost (toward where it should go), turning the ghost's handle, the arrow keys, or
 * typing them; the engine in the browser checks every change and says why an illegal one is refused, and the
 * ghost shows where its own plan puts the bases. Actions that take no position (fire, combat, signals,
 * formation changes, ending the movement) are the engine's legal actions as buttons in its own words.
 * Before the battle, where the side may place its pieces (table-deploy.ts), each is picked and dragged (or typed)
 * to its place within the zone; the whole plot is checked by the engine at every change, and a place it refuses is
 * shown red, the piece kept at its last place the engine took. An Oi Navarcoi! attack is made as a melee, a
 * diekplous or a periplous (a click on the enemy aims the run at it).
 */
import type { Action as DiadochiAction } from '../../../shared/naval/diadochi-naval/actions.ts';
import type { State as DiadochiState } from '../../../shared/naval/diadochi-naval/state.ts';
import type { Action as OiAction } from '../../../shared/naval/oi-navarcoi/actions.ts';
import type { State as OiState } from '../../../shared/naval/oi-navarcoi/state.ts';
import { untrack } from 'svelte';
import { RULESETS } from '../../../shared/naval/index.ts';
import type { Base, Point } from '../../../shared/naval/table/index.ts';
import { type LegalAction, legalActionsOf } from './legal-actions.ts';
import { type Deployment, type Placement, deploymentOf, isDeploy, tidy } from './table-deploy.ts';
import {
  MANOEUVRES,
  type Manoeuvre,
  type MoveKind,
  type MoveNumbers,
  type Mover,
  NO_MOVE,
  type Planned,
  dragged,
  rotated,
  withinFields,
} from './table-moves.ts';
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
  /** How an attack is made (Oi Navarcoi!). */
  manoeuvre = $state<Manoeuvre>('melee');
  /** The places the engine took for the pieces moved in the deployment (by piece), for the battle `placedFor`. */
  placed = $state<Record<string, Placement>>({});
  private placedFor = $state<string | null>(null);
  /** The picked piece's place while the engine refuses it, with its reason (the piece stays at its last good place). */
  pending = $state<{ id: string; at: Placement; refusal: string } | null>(null);

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
    return ruleset === 'diadochi-naval'
      ? diadochiMovers(this.detail.state as DiadochiState, side)
      : oiMovers(
          this.detail.state as OiState,
          side,
          this.actions.map((l) => l.action),
        );
  });

  // ── Deployment.
  /** The deployment one may drag, when one has a deployment to hand in and may place one's pieces. */
  readonly deployment: Deployment | null = $derived.by(() => {
    const side = this.detail.you.side;
    const ruleset = this.ruleset;
    if (!ruleset || side === null || !this.actions.some((l) => isDeploy(l.action))) return null;
    return deploymentOf(ruleset, this.detail.state, side);
  });
  /** The places taken so far (none for another battle than the one they were made in). */
  private get places(): Record<string, Placement> {
    return this.placedFor === this.detail.id ? this.placed : {};
  }
  /** Where a piece of the deployment stands now: the refused place being tried, else its last good place, else the scenario's. */
  placementOf(id: string): Placement | null {
    if (this.pending?.id === id) return this.pending.at;
    return this.places[id] ?? this.deployment?.pieces.find((p) => p.id === id)?.start ?? null;
  }
  /** The deployment's piece picked. */
  readonly deployPiece = $derived(this.deployment?.pieces.find((p) => p.id === this.selected) ?? null);
  /** The bases of each piece moved from the scenario's place (the board draws them there). */
  readonly placedBases: Record<string, readonly Base[]> = $derived.by(() => {
    const d = this.deployment;
    if (!d) return {};
    return Object.fromEntries(Object.entries(this.places).map(([id, at]) => [id, d.basesOf(id, at)]));
  });
  /** The deployment to hand in, one for each of the engine's own (an Oi Navarcoi! side's signals as it writes them), in its words. */
  readonly deployActions: LegalAction[] = $derived.by(() => {
    const d = this.deployment;
    const ruleset = this.ruleset;
    if (!d || !ruleset) return [];
    return this.actions
      .filter((l) => isDeploy(l.action))
      .map((l) => {
        const action = d.actionOf(this.places, l.action);
        return { side: l.side, action, text: RULESETS[ruleset].describe(this.detail.state, action) };
      });
  });

  /** Tries a place for the picked piece: kept if the engine takes the whole plot with it, else shown refused. */
  place(at: Placement): void {
    const d = this.deployment;
    const piece = this.deployPiece;
    if (!d || !piece || ![at.x, at.y, at.heading].every(Number.isFinite)) return;
    const next = tidy(at);
    const plot = { ...this.places, [piece.id]: next };
    const refusal = d.check(d.actionOf(plot, this.actions.find((l) => isDeploy(l.action))?.action ?? null));
    if (refusal === null) {
      this.placed = plot;
      this.placedFor = this.detail.id;
      this.pending = null;
    } else this.pending = { id: piece.id, at: next, refusal };
  }

  /** One of the picked piece's place's numbers typed (x, y, heading), or its formation chosen. */
  setPlace(field: 'x' | 'y' | 'heading', value: number): void {
    const at = this.deployPiece ? this.placementOf(this.deployPiece.id) : null;
    if (at && Number.isFinite(value)) this.place({ ...at, [field]: value });
  }
  setFormation(formation: string): void {
    const at = this.deployPiece ? this.placementOf(this.deployPiece.id) : null;
    if (at) this.place({ ...at, formation });
  }

  /** Every piece back where the scenario puts it. */
  resetDeployment(): void {
    this.placed = {};
    this.pending = null;
  }

  readonly mover: Mover | null = $derived(this.movers.find((m) => m.key === this.selected) ?? null);
  readonly kind: MoveKind | null = $derived(this.mover ? (this.mover.kinds.find((k) => k.id === this.kindId) ?? this.mover.kinds[0] ?? null) : null);

  /** The move as the numbers stand, checked and planned by the engine; null before any number is set. */
  readonly planned: Planned | null = $derived.by(() => {
    const n = this.numbers;
    if (!this.mover || !this.kind || (n.distance === 0 && n.turn === 0 && n.after === 0)) return null;
    return this.mover.plan(this.kind.id, n, this.manoeuvre);
  });

  /**
   * When the planned run attacks an enemy (Oi Navarcoi!): each way of making the attack with the engine's verdict
   * on it (null: it may be made).
   */
  readonly manoeuvres: { manoeuvre: Manoeuvre; refusal: string | null }[] = $derived.by(() => {
    const mover = this.mover;
    const kind = this.kind;
    // The manoeuvres are Oi Navarcoi!'s: a Diadochi Naval Rules charge is a plain run into the enemy.
    if (this.ruleset !== 'oi-navarcoi' || !mover?.aim || !kind || !this.planned?.target) return [];
    return MANOEUVRES.map((m) => ({
      manoeuvre: m,
      refusal: m === this.manoeuvre ? this.planned!.refusal : mover.plan(kind.id, this.numbers, m).refusal,
    }));
  });

  /** The enemies the picked mover may be aimed at by a click. */
  readonly targets: readonly string[] = $derived(this.mover?.targets ?? []);

  /** The planned move in the engine's words. */
  readonly words: string = $derived.by(() => {
    const ruleset = this.ruleset;
    if (!ruleset || !this.planned) return this.mover ? `${this.mover.name} stays` : '';
    return RULESETS[ruleset].describe(this.detail.state, this.planned.action);
  });

  /**
   * The ghost: where the engine's plan puts the bases (where they stand before any number is set); in the
   * deployment, the picked piece at its place.
   */
  readonly ghost: { bases: readonly Base[]; refused: boolean; words: string } | null = $derived.by(() => {
    const d = this.deployment;
    const piece = this.deployPiece;
    if (d && piece) {
      const at = this.placementOf(piece.id)!;
      const words = `${piece.name} at ${Math.round(at.x * 10) / 10}, ${Math.round(at.y * 10) / 10}, heading ${Math.round(at.heading)}°${at.formation ? `, ${at.formation.replace('-', ' ')}` : ''}`;
      return { bases: d.basesOf(piece.id, at), refused: this.pending?.id === piece.id, words };
    }
    return this.mover ? { bases: this.planned?.bases ?? this.mover.bases, refused: !!this.planned?.refusal, words: this.words } : null;
  });

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
    const deploying = this.deployment !== null;
    return this.actions.filter((l) => {
      if (positional(ruleset, l.action) || (deploying && isDeploy(l.action))) return false;
      const pieces = piecesOf(ruleset, l.action);
      if (pieces === null) return true;
      return pieces.length === picked.size && pieces.every((p) => picked.has(p));
    });
  });

  /** The pieces of every mover (ships or squadrons one may pick on the board). */
  readonly pickable: string[] = $derived(this.deployment ? this.deployment.pieces.map((p) => p.id) : [...new Set(this.movers.flatMap((m) => m.pieces))]);

  /** Picks a mover; picking a piece picks the first mover that holds it (a ship alone before its group). */
  pick(key: string): void {
    if (this.deployment) {
      // A refused place is given up when another piece is picked.
      this.pending = null;
      this.selected = this.deployment.pieces.some((p) => p.id === key) ? key : null;
      return;
    }
    this.manoeuvre = 'melee';
    const next = this.movers.find((m) => m.key === key) ?? this.movers.find((m) => m.pieces.includes(key));
    this.selected = next?.key ?? null;
    this.kindId = next?.kinds[0]?.id ?? null;
    this.numbers = NO_MOVE;
  }

  /** Picks the next mover that holds the piece after the one picked (a second click on a ship picks its group). */
  pickPiece(piece: string): void {
    if (this.deployment) {
      this.pick(piece);
      return;
    }
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

  /** The ghost's middle dragged to a table point (in the deployment, the piece's place). */
  drag(to: Point): void {
    const at = this.deployPiece ? this.placementOf(this.deployPiece.id) : null;
    if (at) this.place({ ...at, x: to.x, y: to.y });
    else if (this.mover && this.kind) this.numbers = dragged(this.mover, this.kind, to, this.numbers);
  }

  /** The ghost's handle pointed along a heading. */
  rotate(heading: number): void {
    const at = this.deployPiece ? this.placementOf(this.deployPiece.id) : null;
    if (at) this.place({ ...at, heading: Math.round(heading) });
    else if (this.mover && this.kind) this.numbers = rotated(this.mover, this.kind, heading, this.numbers);
  }

  /** Aims the picked mover's run at an enemy: the engine's own legal attack on it, made as the manoeuvre chosen. */
  aim(target: string): void {
    const aimed = this.mover?.aim?.(target, this.manoeuvre);
    if (!aimed) return;
    this.kindId = aimed.kind;
    this.numbers = this.kind ? withinFields(this.kind, aimed.numbers) : aimed.numbers;
  }

  setManoeuvre(m: Manoeuvre): void {
    this.manoeuvre = m;
  }

  /** Arrow keys on the ghost: up and down the run, left and right the turn (the handle's), Shift for fine steps. */
  nudge(key: string, fine: boolean): boolean {
    const at = this.deployPiece ? this.placementOf(this.deployPiece.id) : null;
    if (at) {
      // In the deployment the arrows move the piece north, south, east and west; Page Up and Down turn it.
      const step = fine ? 0.1 : 0.5;
      const turn = fine ? 1 : 15;
      const moves: Record<string, Partial<Placement>> = {
        ArrowUp: { y: at.y + step },
        ArrowDown: { y: at.y - step },
        ArrowLeft: { x: at.x - step },
        ArrowRight: { x: at.x + step },
        PageUp: { heading: at.heading - turn },
        PageDown: { heading: at.heading + turn },
      };
      if (!moves[key]) return false;
      this.place({ ...at, ...moves[key] });
      return true;
    }
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
    if (this.deployment) return null;
    return this.planned && this.planned.refusal === null ? this.planned.action : null;
  }

  clearMove(): void {
    this.numbers = NO_MOVE;
  }

  /** What was being chosen goes; the places of a deployment still to hand in stay (the other side's plot comes in meanwhile). */
  reset(): void {
    this.selected = null;
    this.kindId = null;
    this.numbers = NO_MOVE;
    this.manoeuvre = 'melee';
    this.pending = null;
    // Read untracked: the page calls this from an effect that must run only when the battle moves on (and before
    // the battle is first read, with no battle yet).
    if (!untrack(() => (this.source() as BattleDetail | null) !== null && this.deployment !== null)) this.placed = {};
  }
}
