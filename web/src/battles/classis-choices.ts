/**
 * The legal actions of a Classis activation grouped for clicking: per ship, the hexes it may row to (each with the
 * facings it may end in, and whether the move may join a command move), and its other actions as buttons with
 * the engine's words; "End the activation" for the side.
 */
import type { ClassisAction } from '../../../shared/naval/classis/index.ts';
import { type Facing, type Hex, hexKey } from '../../../shared/naval/hex.ts';

export interface Legal<A> {
  readonly action: A;
  readonly text: string;
}

export interface MoveOption {
  readonly facing: Facing;
  /** The single ship's move, with its words. */
  readonly move: Legal<Extract<ClassisAction, { kind: 'move' }>>;
  /** Whether the same move may be part of a command move (the ship is in command). */
  readonly commandable: boolean;
}

export interface Destination {
  readonly hex: Hex;
  /** Facings it may end in there, shortest route each. */
  readonly options: MoveOption[];
}

export interface ShipChoices {
  readonly ship: string;
  readonly destinations: Destination[];
  /** Backing water, repairs, attacks: one button each. */
  readonly others: Legal<ClassisAction>[];
  /** Whether its backing water may be part of a command backwater. */
  readonly commandBackwater: boolean;
}

export interface ActivationChoices {
  readonly ships: Map<string, ShipChoices>;
  readonly end: Legal<ClassisAction> | null;
}

/** Groups the legal list; `hexOf` gives a ship's hex (a turn in place ends where it is). */
export function classisChoices(legal: readonly Legal<ClassisAction>[], hexOf: (ship: string) => Hex | undefined): ActivationChoices {
  const ships = new Map<string, { destinations: Map<string, Destination>; others: Legal<ClassisAction>[]; commandBackwater: boolean }>();
  const of = (ship: string) => {
    let entry = ships.get(ship);
    if (!entry) {
      entry = { destinations: new Map(), others: [], commandBackwater: false };
      ships.set(ship, entry);
    }
    return entry;
  };
  const commandMoves = new Set<string>();
  let end: Legal<ClassisAction> | null = null;
  const moveKey = (ship: string, path: readonly Hex[], facing: number) => `${ship}|${path.map(hexKey).join(';')}|${facing}`;
  for (const l of legal)
    if (l.action.kind === 'command-move' && l.action.moves.length === 1)
      commandMoves.add(moveKey(l.action.moves[0].ship, l.action.moves[0].path, l.action.moves[0].facing));
  for (const l of legal) {
    const a = l.action;
    switch (a.kind) {
      case 'end':
        end = l;
        break;
      case 'move': {
        const to = a.path.at(-1) ?? hexOf(a.ship);
        if (!to) break;
        const dests = of(a.ship).destinations;
        const key = hexKey(to);
        let dest = dests.get(key);
        if (!dest) {
          dest = { hex: to, options: [] };
          dests.set(key, dest);
        }
        const same = dest.options.findIndex((o) => o.facing === a.facing);
        const option: MoveOption = {
          facing: a.facing as Facing,
          move: { action: a, text: l.text },
          commandable: commandMoves.has(moveKey(a.ship, a.path, a.facing)),
        };
        if (same < 0) dest.options.push(option);
        else if (a.path.length < dest.options[same].move.action.path.length) dest.options[same] = option;
        break;
      }
      case 'command-move':
        break;
      case 'command-backwater':
        if (a.ships.length === 1) of(a.ships[0]).commandBackwater = true;
        break;
      default:
        of(a.ship).others.push(l);
    }
  }
  const out = new Map<string, ShipChoices>();
  for (const [ship, e] of ships) {
    const destinations = [...e.destinations.values()].map((d) => ({ ...d, options: [...d.options].sort((x, y) => x.facing - y.facing) }));
    out.set(ship, { ship, destinations, others: e.others, commandBackwater: e.commandBackwater });
  }
  return { ships: out, end };
}
