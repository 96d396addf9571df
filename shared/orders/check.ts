import { ARMY, COASTAL, FLEET, IMPASSABLE, SEA, findLocation, isAdjacentArmy, type Variant } from '../variant/load.ts';
import { locationName, type Board } from '../state/board.ts';
import { err, ok, type Result } from '../result.ts';
import type { Order, UnitRef } from './types.ts';

/** Movement order kinds as small integers for the adjudicator. */
export const HOLD = 0;
export const MOVE = 1;
export const SUPPORT = 2;
export const CONVOY = 3;
export const DESTROY = 4;
export const REBUILD = 5;

/** A legal movement-phase order, in integers. */
export interface MovementIntent {
  unit: number;
  kind: number;
  /** MOVE, CONVOY and support-to-move: destination province; otherwise -1. */
  dest: number;
  /** MOVE: destination location (with coast); support-to-move: the coast the support names, or -1. */
  destLoc: number;
  /** SUPPORT and CONVOY: the unit supported or convoyed; otherwise -1. */
  target: number;
  /** MOVE ordered "via convoy". */
  viaConvoy: boolean;
}

/** Extra board facts some checks need (Diadochi V destroyed centres). */
export interface CheckContext {
  destroyed: ReadonlySet<number>;
}

const noContext: CheckContext = { destroyed: new Set() };

/**
 * Is this order legal for `power` on this board? Legal means "could be valid,
 * not knowing any other order" (DATC 4.E.1). Returns the order in integers,
 * or the reason a player can read.
 */
export function checkMovementOrder(
  board: Board,
  power: number,
  order: Order,
  ctx: CheckContext = noContext,
): Result<MovementIntent> {
  const v = board.variant;
  if (order.kind !== 'hold' && order.kind !== 'move' && order.kind !== 'support' && order.kind !== 'convoy' && order.kind !== 'destroy' && order.kind !== 'rebuild')
    return err(`A ${order.kind} order cannot be given in a movement phase.`);
  const found = ownUnit(board, power, order.unit);
  if (!found.ok) return found;
  const u = found.value;
  const here = board.province[u];
  const intent: MovementIntent = { unit: u, kind: HOLD, dest: -1, destLoc: -1, target: -1, viaConvoy: false };
  const name = (p: number) => v.provinceNames[p];

  switch (order.kind) {
    case 'hold':
      return ok(intent);

    case 'move': {
      const to = resolveLocation(v, order.to);
      if (to < 0) return err(`"${order.to}" is not a place on this map.`);
      const dest = v.locationProvince[to];
      if (dest === here) return err(`A unit cannot move to the province it is already in.`);
      if (v.provinceKind[dest] === IMPASSABLE) return err(`${name(dest)} is impassable.`);
      intent.kind = MOVE;
      intent.dest = dest;
      if (board.type[u] === ARMY) {
        if (v.provinceKind[dest] === SEA) return err(`An army cannot move to sea (${name(dest)}).`);
        intent.destLoc = dest; // coasts mean nothing to armies (DATC 4.B.6)
        intent.viaConvoy = order.viaConvoy;
        const adjacent = isAdjacentArmy(v, here, dest);
        if (!adjacent || order.viaConvoy) {
          if (!convoyPossible(board, here, dest, -1))
            return err(
              adjacent
                ? `No fleets stand where they could convoy ${name(here)} to ${name(dest)}.`
                : `${name(here)} is not next to ${name(dest)}, and no fleets stand where they could convoy it there.`,
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
          return err(`The ${unitWord(board, u)} in ${name(here)} cannot reach ${name(board.province[t])}, so it cannot support a unit there.`);
        return ok(intent);
      }
      const to = resolveLocation(v, order.to);
      if (to < 0) return err(`"${order.to}" is not a place on this map.`);
      const dest = v.locationProvince[to];
      if (dest === here) return err(`A unit cannot support a move into its own province; it defends it by holding.`);
      if (dest === board.province[t]) return err(`A unit cannot move to the province it is already in, so that move cannot be supported.`);
      if (!canReach(board, u, dest))
        return err(`The ${unitWord(board, u)} in ${name(here)} cannot reach ${name(dest)}, so it cannot support a move there.`);
      if (!couldMove(board, t, dest, to))
        return err(`The ${unitWord(board, t)} in ${name(board.province[t])} could not move to ${locationName(v, to)}, so that move cannot be supported.`);
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
      if (v.provinceKind[dest] !== COASTAL) return err(`An army can only be convoyed to a coastal province; ${name(dest)} is not one.`);
      if (v.provinceKind[from] !== COASTAL) return err(`Only an army on the coast can be convoyed.`);
      if (!convoyPossible(board, from, dest, here))
        return err(`The fleet in ${name(here)} is not on any chain of fleets from ${name(from)} to ${name(dest)}.`);
      intent.kind = CONVOY;
      intent.target = a;
      intent.dest = dest;
      return ok(intent);
    }

    case 'destroy':
    case 'rebuild': {
      if (!v.data.rules.destroyCentres) return err(`This variant has no ${order.kind} orders.`);
      if (!v.isCentre[here]) return err(`${name(here)} is not a supply centre.`);
      if (order.kind === 'destroy') {
        if (v.isIndestructible[here]) return err(`${name(here)} cannot be destroyed.`);
        if (ctx.destroyed.has(here)) return err(`${name(here)} is already destroyed.`);
        intent.kind = DESTROY;
      } else {
        if (!ctx.destroyed.has(here)) return err(`${name(here)} is not destroyed, so there is nothing to rebuild.`);
        intent.kind = REBUILD;
      }
      return ok(intent);
    }
  }
}

/** The unit an order addresses, which must exist and belong to the power. Type and coast mistakes are ignored (DATC 4.B.5, 4.C.2). */
export function ownUnit(board: Board, power: number, ref: UnitRef): Result<number> {
  const v = board.variant;
  const u = unitAtRef(board, ref);
  if (u < 0) return err(`There is no unit in ${placeName(v, ref.at)}.`);
  if (board.power[u] !== power)
    return err(`The ${unitWord(board, u)} in ${v.provinceNames[board.province[u]]} belongs to ${v.powers[board.power[u]]}.`);
  return ok(u);
}

export function unitAtRef(board: Board, ref: UnitRef): number {
  const l = resolveLocation(board.variant, ref.at);
  return l < 0 ? -1 : board.unitAt[board.variant.locationProvince[l]];
}

/** A location id, tolerating an unknown coast (treated as no coast, DATC 4.B.6). */
export function resolveLocation(v: Variant, id: string): number {
  const l = findLocation(v, id);
  if (l >= 0) return l;
  const slash = id.indexOf('/');
  return slash > 0 ? findLocation(v, id.slice(0, slash)) : -1;
}

function placeName(v: Variant, id: string): string {
  const l = resolveLocation(v, id);
  return l < 0 ? `"${id}"` : v.provinceNames[v.locationProvince[l]];
}

const unitWord = (board: Board, u: number) => (board.type[u] === ARMY ? 'army' : 'fleet');

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

/** Can unit u move into province p (any coast)? Used for supports (DATC 6.B.4, 6.B.5). */
export function canReach(board: Board, u: number, p: number): boolean {
  const v = board.variant;
  if (board.type[u] === ARMY) return isAdjacentArmy(v, board.province[u], p);
  const from = board.location[u];
  const L = v.locationCount;
  if (v.fleetMatrix[from * L + p]) return true;
  for (const c of v.coasts[p]) if (v.fleetMatrix[from * L + c]) return true;
  return false;
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

/**
 * Is there a chain of fleets at sea from coastal `from` to coastal `to`
 * (passing through `via` when it is not -1)? Orders are not known yet, so any
 * fleet at sea counts.
 */
export function convoyPossible(board: Board, from: number, to: number, via: number): boolean {
  const v = board.variant;
  if (v.provinceKind[from] !== COASTAL || v.provinceKind[to] !== COASTAL) return false;
  const P = v.provinceCount;
  const fleetAtSea = (p: number) => {
    const u = board.unitAt[p];
    return u >= 0 && board.type[u] === FLEET && v.provinceKind[p] === SEA;
  };
  const reach = (start: number, goal: number): boolean => {
    const seen = new Uint8Array(P);
    const queue: number[] = [];
    for (let s = 0; s < P; s++) if (v.anyMatrix[start * P + s] && fleetAtSea(s)) (seen[s] = 1), queue.push(s);
    while (queue.length > 0) {
      const s = queue.shift()!;
      if (goal >= 0 && s === goal) return true;
      if (goal < 0 && v.anyMatrix[s * P + to]) return true;
      for (let n = 0; n < P; n++)
        if (!seen[n] && v.anyMatrix[s * P + n] && fleetAtSea(n)) (seen[n] = 1), queue.push(n);
    }
    return false;
  };
  if (via < 0) return reach(from, -1);
  if (!fleetAtSea(via)) return false;
  return necessaryOnSomeRoute(board, from, to, via, fleetAtSea);
}

/**
 * Is the fleet at `via` necessary for some convoy route from `from` to `to`?
 * A route where some fleet could be skipped (two of its provinces, or a coast
 * and a later fleet, are adjacent) does not need that fleet: a convoy order
 * from a fleet that no route needs is illegal (DATC 4.E.1, test case 6.G.19).
 * So we look for a chordless chain of fleets through `via`; maps are small
 * and chains short, so a depth-first search is plenty.
 */
function necessaryOnSomeRoute(board: Board, from: number, to: number, via: number, fleetAtSea: (p: number) => boolean): boolean {
  const v = board.variant;
  const P = v.provinceCount;
  const adj = (a: number, b: number) => v.anyMatrix[a * P + b] === 1;
  const path: number[] = [];
  const onPath = new Uint8Array(P);
  const extend = (last: number): boolean => {
    if (adj(last, to)) return onPath[via] === 1;
    for (let n = 0; n < P; n++) {
      if (onPath[n] || !fleetAtSea(n) || !adj(last, n)) continue;
      // Chordless: the new fleet touches no earlier fleet but the last, and the army's coast only if it is the first.
      if (path.length > 0 && adj(from, n)) continue;
      let chord = false;
      for (let i = 0; i < path.length - 1 && !chord; i++) if (adj(path[i], n)) chord = true;
      if (chord) continue;
      path.push(n);
      onPath[n] = 1;
      if (extend(n)) return true;
      path.pop();
      onPath[n] = 0;
    }
    return false;
  };
  for (let s = 0; s < P; s++) {
    if (!fleetAtSea(s) || !adj(from, s)) continue;
    path.push(s);
    onPath[s] = 1;
    if (extend(s)) return true;
    path.pop();
    onPath[s] = 0;
  }
  return false;
}
