/**
 * What the side to act may do now, and why not when it may not: the activated squadron's ships, each action
 * at most once per ship per activation (3.2.11), one initiative point each; moves whole-command or single;
 * attacks from a contact; grapples, boarding and repair.
 */
import { type Aspect, type Hex, aspectOf, hexKey } from '../hex.ts';
import type { Refusal } from '../ruleset.ts';
import type { Action, AttackAction, ShipMove } from './actions.ts';
import { type Destination, type Surroundings, backwaterHex, destinations, followPath, surroundings } from './movement.ts';
import { RULES } from './rules.ts';
import {
  type ActionKind,
  type Contact,
  type ShipState,
  type State,
  grappledTogether,
  heldByEnemy,
  inCommand,
  inRamContact,
  isGrappled,
  shipById,
  squadronById,
  squadronShips,
} from './state.ts';

const refuse = (code: string, message: string): Refusal => ({ code, message });

/** The kinds a prize crew can manage: it rows, nothing more. */
const PRIZE_KINDS: readonly ActionKind[] = ['move', 'backwater'];

/** Checks that `id` is a ship of the activated squadron that may still take an action of `kind`. */
function actor(s: State, id: string, kind: ActionKind): ShipState | Refusal {
  const ship = shipById(s, id);
  if (!ship || ship.sunk) return refuse('unknown_ship', `there is no ship "${id}" afloat`);
  const act = s.activation!;
  if (ship.squadron !== act.squadron || ship.side !== squadronById(s, act.squadron)!.side)
    return refuse('not_activated', `${ship.name} is not a ship of the activated squadron`);
  if (act.used[ship.id]?.includes(kind)) return refuse('already_done', `${ship.name} has already made this action (${kind}) on this activation`);
  if (heldByEnemy(ship) && !PRIZE_KINDS.includes(kind)) return refuse('prize_crew', `${ship.name} is a captured ship: its prize crew can only row`);
  return ship;
}

const isRefusal = (x: unknown): x is Refusal => typeof x === 'object' && x !== null && 'code' in x && 'message' in x;

function mayRow(s: State, ship: ShipState): Refusal | null {
  if (isGrappled(s, ship.id)) return refuse('grappled', `${ship.name} is grappled and cannot row away`);
  return null;
}

/** A contact between the two ships, either way round (the first found). */
export const contactBetween = (s: State, a: string, b: string): Contact | undefined =>
  s.contacts.find((c) => (c.attacker === a && c.target === b) || (c.attacker === b && c.target === a));

/** The contact `attacker` made with its bow on `target`. */
const bowContact = (s: State, attacker: string, target: string): Contact | undefined => s.contacts.find((c) => c.attacker === attacker && c.target === target);

export function aspectBetween(attacker: ShipState, target: ShipState): Aspect {
  return aspectOf(target.hex, target.facing, attacker.hex) ?? 'bow';
}

function checkMove(s: State, move: ShipMove, command: boolean, around: Surroundings): Refusal | { destination: Destination; ship: ShipState } {
  const ship = actor(s, move.ship, 'move');
  if (isRefusal(ship)) return ship;
  if (command && !inCommand(s, ship)) return refuse('out_of_command', `${ship.name} is out of command and can only move on its own`);
  const row = mayRow(s, ship);
  if (row) return row;
  if (inRamContact(s, ship.id)) return refuse('in_ram_contact', `${ship.name} is locked in a ram and can only break off by backing water`);
  const followed = followPath(s, ship, move.path, move.facing as ShipState['facing'], around);
  if (!followed.ok) return refuse(followed.error.code, `${ship.name}: ${followed.error.message}`);
  return { destination: followed.destination, ship };
}

function checkBackwater(s: State, id: string, command: boolean, around: Surroundings): Refusal | { ship: ShipState; to: Hex } {
  const ship = actor(s, id, 'backwater');
  if (isRefusal(ship)) return ship;
  if (command && !inCommand(s, ship)) return refuse('out_of_command', `${ship.name} is out of command and can only back water on its own`);
  const row = mayRow(s, ship);
  if (row) return row;
  const to = backwaterHex(ship, around);
  if (!to) return refuse('blocked_astern', `the hex astern of ${ship.name} is not open water`);
  return { ship, to };
}

/** Moves the ship in a copy of the surroundings, for the next ship of a command move. */
function moveIn(around: Surroundings, ship: ShipState, to: Hex): Surroundings {
  const occupied = new Map(around.occupied);
  occupied.delete(hexKey(ship.hex));
  occupied.set(hexKey(to), { ...ship, hex: to });
  return { occupied, blocked: around.blocked };
}

function checkAttack(s: State, action: AttackAction): Refusal | null {
  const ship = actor(s, action.ship, action.kind);
  if (isRefusal(ship)) return ship;
  const target = shipById(s, action.target);
  if (!target || target.sunk) return refuse('unknown_ship', `there is no ship "${action.target}" afloat`);
  const enemy = target.side !== ship.side;
  switch (action.kind) {
    case 'ram':
    case 'rake': {
      if (!enemy) return refuse('not_enemy', `${target.name} is not an enemy`);
      if (isGrappled(s, ship.id)) return refuse('grappled', `${ship.name} is grappled: it can board or cut free, not ${action.kind}`);
      const c = bowContact(s, ship.id, target.id);
      if (!c) return refuse('not_in_contact', `${ship.name} must first move into contact with ${target.name}, bow on`);
      if (c.ram) return refuse('already_rammed', `${ship.name} has rammed ${target.name} already: its next is a follow-up ram`);
      if (action.kind === 'rake' && !RULES.rakeAspects.includes(aspectBetween(ship, target)))
        return refuse('wrong_aspect', `an oar rake strikes a bow beam or a quarter beam; ${ship.name} is on ${target.name}'s ${aspectBetween(ship, target)}`);
      return null;
    }
    case 'follow-up-ram': {
      if (!enemy) return refuse('not_enemy', `${target.name} is not an enemy`);
      if (isGrappled(s, ship.id)) return refuse('grappled', `${ship.name} is grappled: it can board or cut free, not ram`);
      const c = s.contacts.find((x) => x.ram && ((x.attacker === ship.id && x.target === target.id) || (x.attacker === target.id && x.target === ship.id)));
      if (!c?.ram) return refuse('no_ram', `${ship.name} and ${target.name} are not locked in a ram`);
      if (c.ram.turn >= s.turn)
        return refuse('ram_this_turn', `the ram between ${ship.name} and ${target.name} was made this turn: follow it up from the next`);
      return null;
    }
    case 'grapple': {
      if (!enemy) return refuse('not_enemy', `${target.name} is not an enemy`);
      if (!contactBetween(s, ship.id, target.id)) return refuse('not_in_contact', `${ship.name} must be in contact with ${target.name} to grapple it`);
      if (grappledTogether(s, ship.id, target.id)) return refuse('already_grappled', `${ship.name} and ${target.name} are already grappled`);
      return null;
    }
    case 'degrapple':
      if (!grappledTogether(s, ship.id, target.id)) return refuse('not_grappled', `${ship.name} is not grappled to ${target.name}`);
      return null;
    case 'board':
      if (!enemy) return refuse('not_enemy', `${target.name} is not an enemy`);
      if (!grappledTogether(s, ship.id, target.id)) return refuse('not_grappled', `${ship.name} must be grappled to ${target.name} to board it`);
      return null;
  }
}

/** Whether `side` may take `action` now; null if it may. */
export function check(s: State, side: string, action: Action): Refusal | null {
  if (s.outcome) return refuse('battle_over', 'the battle is over');
  const act = s.activation;
  if (!act) return refuse('not_your_turn', 'no squadron is activated');
  const sq = squadronById(s, act.squadron)!;
  if (sq.side !== side) return refuse('not_your_turn', `${sq.name} of the other side is activated`);
  if (action.kind === 'end') return null;
  if (act.points <= 0) return refuse('no_points', `${sq.name} has no initiative points left`);
  const around = surroundings(s);
  switch (action.kind) {
    case 'move': {
      const r = checkMove(s, action, false, around);
      return isRefusal(r) ? r : null;
    }
    case 'command-move': {
      const seen = new Set<string>();
      let here = around;
      for (const move of action.moves) {
        if (seen.has(move.ship)) return refuse('duplicate_ship', `${move.ship} is listed twice in one command move`);
        seen.add(move.ship);
        const r = checkMove(s, move, true, here);
        if (isRefusal(r)) return r;
        here = moveIn(here, r.ship, r.destination.hex);
      }
      return null;
    }
    case 'backwater': {
      const r = checkBackwater(s, action.ship, false, around);
      return isRefusal(r) ? r : null;
    }
    case 'command-backwater': {
      const seen = new Set<string>();
      let here = around;
      for (const id of action.ships) {
        if (seen.has(id)) return refuse('duplicate_ship', `${id} is listed twice in one command backwater`);
        seen.add(id);
        const r = checkBackwater(s, id, true, here);
        if (isRefusal(r)) return r;
        here = moveIn(here, r.ship, r.to);
      }
      return null;
    }
    case 'repair': {
      const ship = actor(s, action.ship, 'repair');
      if (isRefusal(ship)) return ship;
      if (!ship.crippled) return refuse('not_crippled', `${ship.name} is not crippled`);
      if (ship.permanentlyCrippled) return refuse('permanently_crippled', `${ship.name} is crippled for good: no more repairs`);
      return null;
    }
    default:
      return checkAttack(s, action);
  }
}

/** The attacks worth asking about: one per contact and grapple of an activated ship, each kind. */
function attackCandidates(s: State, ships: readonly ShipState[]): AttackAction[] {
  const out: AttackAction[] = [];
  const ids = new Set(ships.map((x) => x.id));
  for (const c of s.contacts) {
    for (const [ship, target] of [
      [c.attacker, c.target],
      [c.target, c.attacker],
    ]) {
      if (!ids.has(ship)) continue;
      if (ship === c.attacker) out.push({ kind: 'ram', ship, target }, { kind: 'rake', ship, target });
      out.push({ kind: 'follow-up-ram', ship, target }, { kind: 'grapple', ship, target });
    }
  }
  for (const g of s.grapples)
    for (const [ship, target] of [
      [g.a, g.b],
      [g.b, g.a],
    ])
      if (ids.has(ship)) out.push({ kind: 'degrapple', ship, target }, { kind: 'board', ship, target });
  // The same pair can be in contact both ways: list each action once.
  const seen = new Set<string>();
  return out.filter((a) => {
    const key = `${a.kind}:${a.ship}:${a.target}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** Every action `side` may take now (see the README for command moves: each ship's choices are listed). */
export function legalActions(s: State, side: string): Action[] {
  if (s.outcome || !s.activation) return [];
  const sq = squadronById(s, s.activation.squadron)!;
  if (sq.side !== side) return [];
  const out: Action[] = [{ kind: 'end' }];
  if (s.activation.points <= 0) return out;
  const ships = squadronShips(s, sq.id);
  const around = surroundings(s);
  for (const ship of ships) {
    const moving = !isRefusal(actor(s, ship.id, 'move')) && !mayRow(s, ship) && !inRamContact(s, ship.id);
    const commanded = inCommand(s, ship);
    if (moving)
      for (const d of destinations(s, ship, around)) {
        out.push({ kind: 'move', ship: ship.id, path: d.path, facing: d.facing });
        if (commanded) out.push({ kind: 'command-move', moves: [{ ship: ship.id, path: d.path, facing: d.facing }] });
      }
    if (!isRefusal(checkBackwater(s, ship.id, false, around))) {
      out.push({ kind: 'backwater', ship: ship.id });
      if (commanded) out.push({ kind: 'command-backwater', ships: [ship.id] });
    }
    if (check(s, side, { kind: 'repair', ship: ship.id }) === null) out.push({ kind: 'repair', ship: ship.id });
  }
  for (const a of attackCandidates(s, ships)) if (checkAttack(s, a) === null) out.push(a);
  return out;
}

/** Whether the activated squadron can do anything but end its activation. */
export function canAct(s: State): boolean {
  const act = s.activation;
  if (!act || act.points <= 0) return false;
  const ships = squadronShips(s, act.squadron);
  const around = surroundings(s);
  for (const ship of ships) {
    // Any ship free to row can at least turn where it is.
    if (!isRefusal(actor(s, ship.id, 'move')) && !mayRow(s, ship) && !inRamContact(s, ship.id)) return true;
    if (!isRefusal(checkBackwater(s, ship.id, false, around))) return true;
    if (ship.crippled && !ship.permanentlyCrippled && !isRefusal(actor(s, ship.id, 'repair'))) return true;
  }
  return attackCandidates(s, ships).some((a) => checkAttack(s, a) === null);
}
