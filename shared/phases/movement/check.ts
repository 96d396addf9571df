/**
 * Whether one movement-phase order is legal for a power on this board ("could
 * be valid, not knowing any other order", DATC 4.E.1): hold, move, support and
 * convoy by the standard rules here; orders a variant's rules add (destroy and
 * rebuild in Diadochi V) by those rules (`v.rules.movementOrders`).
 */
import { ARMY, COASTAL, FLEET, IMPASSABLE, SEA, isAdjacentArmy } from '../../variant/load.ts';
import { canReach, locationName, notOwnUnit, placeName, resolveLocation, unitAtRef, unitWord, type Board } from '../../state/board.ts';
import { err, ok, type Result } from '../../result.ts';
import type { Order, OrderKind } from '../../orders/types.ts';
import type { Economy, MovementOrderRule } from '../../model.ts';
import { convoyPossible } from './convoy-routes.ts';

/** The standard movement orders, as the resolver knows them. An order a variant's rules add is resolved as a hold. */
export const HOLD = 0;
export const MOVE = 1;
export const SUPPORT = 2;
export const CONVOY = 3;
export type MovementKind = typeof HOLD | typeof MOVE | typeof SUPPORT | typeof CONVOY;

/** The orders a movement phase takes (Diadochi V's destroy and rebuild among them: its rules say what they do). */
const isMovementOrder = (kind: OrderKind): boolean =>
  kind === 'hold' || kind === 'move' || kind === 'support' || kind === 'convoy' || kind === 'destroy' || kind === 'rebuild';

/** A legal movement-phase order, in integers. */
export interface MovementIntent {
  unit: number;
  kind: MovementKind;
  /** MOVE, CONVOY and support-to-move: destination province; otherwise -1. */
  dest: number;
  /** MOVE: destination location (with coast); support-to-move: the coast the support names, or -1. */
  destLoc: number;
  /** SUPPORT and CONVOY: the unit supported or convoyed; otherwise -1. */
  target: number;
  /** MOVE ordered "via convoy". */
  viaConvoy: boolean;
  /** An order a variant's rule adds: the unit holds, and the rule carries the order out after the resolution. */
  ruled?: { rule: MovementOrderRule; order: Order };
}

/**
 * Is this order legal for `power` on this board? Returns the order in integers, or the reason a player can read.
 * `eco`: the position's economy (the rules of some variants' orders depend on it).
 */
export function checkMovementOrder(board: Board, eco: Economy, power: number, order: Order): Result<MovementIntent> {
  const v = board.variant;
  if (!isMovementOrder(order.kind)) return err(`A ${order.kind} order cannot be given in a movement phase.`);
  // The unit must exist and be the power's (ownUnit, without a result object for the usual case).
  const ref = (order as { unit: { type?: 'army' | 'fleet'; at: string } }).unit;
  const u = unitAtRef(board, ref);
  if (u < 0 || board.power[u] !== power) return err(notOwnUnit(board, ref, u));
  const here = board.province[u];
  const intent: MovementIntent = { unit: u, kind: HOLD, dest: -1, destLoc: -1, target: -1, viaConvoy: false };
  const name = v.provinceNames;

  switch (order.kind) {
    case 'hold':
      return ok(intent);

    case 'move': {
      const to = resolveLocation(v, order.to);
      if (to < 0) return err(`"${order.to}" is not a place on this map.`);
      const dest = v.locationProvince[to];
      if (dest === here) return err(`A unit cannot move to the province it is already in.`);
      if (v.provinceKind[dest] === IMPASSABLE) return err(`${name[dest]} is impassable.`);
      intent.kind = MOVE;
      intent.dest = dest;
      if (board.type[u] === ARMY) {
        if (v.provinceKind[dest] === SEA) return err(`An army cannot move to sea (${name[dest]}).`);
        intent.destLoc = dest; // coasts mean nothing to armies (DATC 4.B.6)
        intent.viaConvoy = order.viaConvoy;
        const adjacent = isAdjacentArmy(v, here, dest);
        if (!adjacent || order.viaConvoy) {
          if (!convoyPossible(board, here, dest, -1))
            return err(
              adjacent
                ? `No fleets stand where they could convoy ${name[here]} to ${name[dest]}.`
                : `${name[here]} is not next to ${name[dest]}, and no fleets stand where they could convoy it there.`,
            );
        }
        return ok(intent);
      }
      if (order.viaConvoy) return err('Only armies can be convoyed.');
      const reach = fleetTarget(board, u, dest, to);
      if (!reach.ok) return reach;
      intent.destLoc = reach.value;
      return ok(intent);
    }

    case 'support': {
      const t = unitAtRef(board, order.supported);
      if (t < 0) return err(`There is no unit in ${placeName(v, order.supported.at)} to support.`);
      if (t === u) return err('A unit cannot support itself.');
      intent.kind = SUPPORT;
      intent.target = t;
      if (order.to === undefined) {
        if (!canReach(board, u, board.province[t]))
          return err(`The ${unitWord(board, u)} in ${name[here]} cannot reach ${name[board.province[t]]}, so it cannot support a unit there.`);
        return ok(intent);
      }
      const to = resolveLocation(v, order.to);
      if (to < 0) return err(`"${order.to}" is not a place on this map.`);
      const dest = v.locationProvince[to];
      if (dest === here) return err(`A unit cannot support a move into its own province; it defends it by holding.`);
      if (dest === board.province[t]) return err(`A unit cannot move to the province it is already in, so that move cannot be supported.`);
      if (!canReach(board, u, dest)) return err(`The ${unitWord(board, u)} in ${name[here]} cannot reach ${name[dest]}, so it cannot support a move there.`);
      if (!couldMove(board, t, dest, to))
        return err(`The ${unitWord(board, t)} in ${name[board.province[t]]} could not move to ${locationName(v, to)}, so that move cannot be supported.`);
      intent.dest = dest;
      // A coast named in the support must match the supported fleet's move (DATC 6.B.9); armies have no coasts.
      intent.destLoc = board.type[t] === FLEET && to !== dest ? to : -1;
      return ok(intent);
    }

    case 'convoy': {
      if (board.type[u] !== FLEET || v.provinceKind[here] !== SEA) return err('Only fleets at sea can convoy.');
      const a = unitAtRef(board, order.army);
      if (a < 0) return err(`There is no unit in ${placeName(v, order.army.at)} to convoy.`);
      if (board.type[a] !== ARMY) return err('Only armies can be convoyed.');
      const to = resolveLocation(v, order.to);
      if (to < 0) return err(`"${order.to}" is not a place on this map.`);
      const dest = v.locationProvince[to];
      const from = board.province[a];
      if (dest === from) return err('An army cannot be convoyed to the province it is already in.');
      if (v.provinceKind[dest] !== COASTAL) return err(`An army can only be convoyed to a coastal province; ${name[dest]} is not one.`);
      if (v.provinceKind[from] !== COASTAL) return err(`Only an army on the coast can be convoyed.`);
      if (!convoyPossible(board, from, dest, here)) return err(`The fleet in ${name[here]} is not on any chain of fleets from ${name[from]} to ${name[dest]}.`);
      intent.kind = CONVOY;
      intent.target = a;
      intent.dest = dest;
      return ok(intent);
    }

    default: {
      const rule = v.rules.movementOrders.find((candidate) => candidate.kinds.includes(order.kind));
      if (!rule) return err(`This variant has no ${order.kind} orders.`);
      const checked = rule.check(board, eco, u, order);
      if (!checked.ok) return checked;
      intent.ruled = { rule, order };
      return ok(intent);
    }
  }
}

/**
 * Where a fleet's move lands: the named coast, or the only coast it can reach
 * when none is named (DATC 4.B.2); two reachable coasts and none named, or an
 * unreachable coast, make the order illegal (4.B.1, 4.B.3).
 */
function fleetTarget(board: Board, u: number, dest: number, to: number): Result<number> {
  const v = board.variant;
  const from = board.location[u];
  const L = v.locationCount;
  const name = v.provinceNames[dest];
  const coasts = v.coasts[dest];
  if (v.provinceKind[dest] !== SEA && v.provinceKind[dest] !== COASTAL) return err(`A fleet cannot move inland (${name}).`);
  if (coasts.length === 0) {
    if (!v.fleetMatrix[from * L + dest]) return err(`A fleet cannot move from ${locationName(v, from)} to ${name}: they do not share a sea or coast.`);
    return ok(dest);
  }
  if (to !== dest) {
    if (!v.fleetMatrix[from * L + to]) return err(`A fleet in ${locationName(v, from)} cannot reach ${locationName(v, to)}.`);
    return ok(to);
  }
  const reachable = coasts.filter((c) => v.fleetMatrix[from * L + c]);
  if (reachable.length === 1) return ok(reachable[0]);
  if (reachable.length === 0) return err(`A fleet in ${locationName(v, from)} cannot reach any coast of ${name}.`);
  return err(`Say which coast of ${name}: ${reachable.map((c) => v.locationIds[c]).join(' or ')}.`);
}

/** Could unit t legally be ordered to `to` (by land, by sea, or by a possible convoy)? */
function couldMove(board: Board, t: number, dest: number, to: number): boolean {
  const v = board.variant;
  if (board.type[t] === ARMY) {
    if (v.provinceKind[dest] === SEA) return false;
    return isAdjacentArmy(v, board.province[t], dest) || convoyPossible(board, board.province[t], dest, -1);
  }
  if (to !== dest) return v.fleetMatrix[board.location[t] * v.locationCount + to] === 1;
  return canReach(board, t, dest);
}
