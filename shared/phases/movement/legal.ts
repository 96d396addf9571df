import { ARMY, COASTAL, FLEET, SEA, isAdjacentArmy, unitTypeName } from '../../variant/load.ts';
import { canReach, type Board } from '../../state/board.ts';
import type { Economy } from '../../model.ts';
import type { Order, UnitRef } from '../../orders/types.ts';
import { convoyPossible } from './convoy-routes.ts';

/**
 * Every legal order for a unit, as the order-entry UI offers them and as the
 * property tests and benchmarks draw them. Each one passes checkMovementOrder.
 */
export function legalMovementOrders(board: Board, eco: Economy, u: number): Order[] {
  const v = board.variant;
  const unit = ref(board, u);
  const here = board.province[u];
  const out: Order[] = [{ kind: 'hold', unit }];

  // Moves, by land or sea, and armies by convoy.
  for (const to of moveTargets(board, u)) out.push({ kind: 'move', unit, to: v.locationIds[to], viaConvoy: false });
  if (board.type[u] === ARMY) for (const p of convoyDestinations(board, here)) out.push({ kind: 'move', unit, to: v.provinceIds[p], viaConvoy: true });

  const movesOf: number[][] = [];
  // Supports: to hold for every unit it can reach; to move for every move another unit could make into a province it can reach.
  for (let t = 0; t < board.count; t++) {
    if (t === u) continue;
    const target = ref(board, t);
    if (canReach(board, u, board.province[t])) out.push({ kind: 'support', unit, supported: target });
    for (const to of (movesOf[t] ??= supportableMoves(board, t))) {
      const p = v.locationProvince[to];
      if (p !== here && canReach(board, u, p)) out.push({ kind: 'support', unit, supported: target, to: v.locationIds[to] });
    }
  }

  // Convoys: a fleet at sea convoys any army whose route it is necessary for.
  if (board.type[u] === FLEET && v.provinceKind[here] === SEA) {
    for (let a = 0; a < board.count; a++) {
      if (board.type[a] !== ARMY || v.provinceKind[board.province[a]] !== COASTAL) continue;
      for (const p of convoyDestinations(board, board.province[a])) {
        if (convoyPossible(board, board.province[a], p, here))
          out.push({ kind: 'convoy', unit, army: { type: 'army', at: v.provinceIds[board.province[a]] }, to: v.provinceIds[p] });
      }
    }
  }

  // Orders the variant's rules add (destroy and rebuild in Diadochi V).
  for (const rule of v.rules.movementOrders) out.push(...rule.legal(board, eco, u));
  return out;
}

/** Locations the unit can move to directly (fleets: every reachable coast). */
export function moveTargets(board: Board, u: number): number[] {
  const v = board.variant;
  if (board.type[u] === ARMY) return [...v.armyAdjacent[board.province[u]]];
  return [...v.fleetAdjacent[board.location[u]]];
}

/** Moves of unit t that a support may name: direct moves, and for armies, possible convoys. */
function supportableMoves(board: Board, t: number): number[] {
  const v = board.variant;
  const targets = moveTargets(board, t);
  if (board.type[t] === ARMY) for (const p of convoyDestinations(board, board.province[t])) if (!isAdjacentArmy(v, board.province[t], p)) targets.push(p);
  return targets;
}

/** Coastal provinces an army on coastal `from` could reach through chains of fleets at sea (one search). */
export function convoyDestinations(board: Board, from: number): number[] {
  const v = board.variant;
  const P = v.provinceCount;
  if (v.provinceKind[from] !== COASTAL) return [];
  const seen = new Uint8Array(P);
  const queue: number[] = [];
  const fleetAtSea = (p: number) => {
    const u = board.unitAt[p];
    return u >= 0 && board.type[u] === FLEET && v.provinceKind[p] === SEA;
  };
  for (let s = 0; s < P; s++) if (v.anyMatrix[from * P + s] && fleetAtSea(s)) (seen[s] = 1), queue.push(s);
  const out = new Uint8Array(P);
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i];
    for (let n = 0; n < P; n++) {
      if (!v.anyMatrix[s * P + n]) continue;
      if (v.provinceKind[n] === COASTAL && n !== from) out[n] = 1;
      else if (!seen[n] && fleetAtSea(n)) (seen[n] = 1), queue.push(n);
    }
  }
  const result: number[] = [];
  for (let p = 0; p < P; p++) if (out[p]) result.push(p);
  return result;
}

function ref(board: Board, u: number): UnitRef {
  return { type: unitTypeName(board.type[u]), at: board.variant.locationIds[board.location[u]] };
}
