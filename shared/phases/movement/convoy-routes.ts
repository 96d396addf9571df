/** Convoy routes as they may be ordered: chains of fleets at sea, before anyone knows what the fleets are ordered to do. */
import { COASTAL, FLEET, SEA } from '../../variant/load.ts';
import type { Board } from '../../state/board.ts';

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
    // A plain array: a typed array this long is allocated outside V8's heap, which costs more than the search.
    const seen: number[] = new Array(P).fill(0);
    const queue: number[] = [];
    for (let s = 0; s < P; s++) if (v.anyMatrix[start * P + s] && fleetAtSea(s)) (seen[s] = 1), queue.push(s);
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i];
      if (goal >= 0 && s === goal) return true;
      if (goal < 0 && v.anyMatrix[s * P + to]) return true;
      for (let n = 0; n < P; n++) if (!seen[n] && v.anyMatrix[s * P + n] && fleetAtSea(n)) (seen[n] = 1), queue.push(n);
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
  const onPath: number[] = new Array(P).fill(0); // plain, as `seen` above
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
