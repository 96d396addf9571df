/**
 * Choosing a Classis action by clicking: a ship of the activated squadron, then a highlighted hex (and a facing
 * where it may end in several), then Move, or Add to the command move; the ship's other actions are buttons.
 * The board reads `highlight`, `selectable`, `path` and `ghost` from here; the panel the rest.
 */
import { type ClassisAction, type ClassisState, classis } from '../../../shared/naval/classis/index.ts';
import { type Hex, sameHex } from '../../../shared/naval/hex.ts';
import { type Destination, type Legal, type MoveOption, classisChoices } from './classis-choices.ts';
import { legalActionsOf } from './legal-actions.ts';
import type { BattleDetail } from './types.ts';

type ShipMove = { ship: string; path: Hex[]; facing: MoveOption['facing'] };

export class ClassisEntry {
  selected = $state<string | null>(null);
  destination = $state<Destination | null>(null);
  option = $state<MoveOption | null>(null);
  /** Moves gathered for one command move, made in this order. */
  commandMoves = $state<ShipMove[]>([]);
  commandBackwater = $state<string[]>([]);

  constructor(private readonly source: () => BattleDetail) {}

  private get detail(): BattleDetail {
    return this.source();
  }
  get state(): ClassisState {
    return this.detail.state as ClassisState;
  }
  get side(): string | null {
    return this.detail.you.side;
  }

  readonly choices = $derived.by(() => {
    const legal = legalActionsOf(this.detail).map((l) => ({ action: l.action as ClassisAction, text: l.text }));
    const board = this.detail.board;
    return classisChoices(legal, (ship) => board?.counters.find((c) => c.id === ship)?.hex);
  });
  readonly selectable = $derived([...this.choices.ships.keys()]);
  readonly shipChoices = $derived(this.selected ? (this.choices.ships.get(this.selected) ?? null) : null);
  readonly highlight = $derived(this.shipChoices?.destinations.map((d) => d.hex) ?? []);
  readonly path = $derived.by((): Hex[] => {
    const from = this.detail.board?.counters.find((c) => c.id === this.selected)?.hex;
    return this.option && from ? [from, ...this.option.move.action.path] : [];
  });
  readonly ghost = $derived(this.option && this.destination ? { hex: this.destination.hex, facing: this.option.facing } : null);

  /** Forgets the choices (a new activation, an action taken). */
  reset(): void {
    this.selected = null;
    this.destination = null;
    this.option = null;
    this.commandMoves = [];
    this.commandBackwater = [];
  }

  pickShip(id: string): void {
    if (!this.choices.ships.has(id)) return;
    this.selected = this.selected === id ? null : id;
    this.destination = null;
    this.option = null;
  }

  /** A click on the sea: a destination of the selected ship, else one's ship there. */
  pickHex(hex: Hex): void {
    const dest = this.shipChoices?.destinations.find((d) => sameHex(d.hex, hex));
    if (dest) {
      this.destination = dest;
      this.option = dest.options.length === 1 ? dest.options[0] : null;
      return;
    }
    const ship = this.detail.board?.counters.find((c) => !c.sunk && sameHex(c.hex, hex) && this.choices.ships.has(c.id));
    if (ship) this.pickShip(ship.id);
  }

  pickFacing(option: MoveOption): void {
    this.option = option;
  }

  addToCommandMove(): void {
    const o = this.option;
    if (!o) return;
    const a = o.move.action;
    this.commandMoves = [...this.commandMoves.filter((m) => m.ship !== a.ship), { ship: a.ship, path: a.path, facing: a.facing }];
    this.destination = null;
    this.option = null;
    this.selected = null;
  }

  addToCommandBackwater(ship: string): void {
    if (!this.commandBackwater.includes(ship)) this.commandBackwater = [...this.commandBackwater, ship];
  }

  /** The command move gathered so far, as one action, its words and the engine's verdict on it. */
  readonly commandMove = $derived.by(() => this.gathered(this.commandMoves.length ? { kind: 'command-move', moves: this.commandMoves } : null));
  readonly commandBackwaterAction = $derived.by(() =>
    this.gathered(this.commandBackwater.length ? { kind: 'command-backwater', ships: this.commandBackwater } : null),
  );

  private gathered(action: ClassisAction | null): (Legal<ClassisAction> & { refusal: string | null }) | null {
    if (!action || !this.side) return null;
    const refusal = classis.check(this.state, this.side, action);
    return { action, text: classis.describe(this.state, action), refusal: refusal?.message ?? null };
  }
}
