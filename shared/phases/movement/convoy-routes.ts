/** Convoy routes as they may be ordered: chains of fleets at sea, before anyone knows what the fleets are ordered to do. */
import { COASTAL, FLEET, SEA, type Variant } from '../../variant/load.ts';
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
  // The searches step from fleet to fleet, so they run over the few fleets at sea rather than the whole map (found
  // among the units, fewer than the provinces; the answer does not depend on their order).
  const fleets: number[] = [];
  for (let u = 0; u < board.count; u++) {
    const p = board.province[u];
    if (board.type[u] === FLEET && v.provinceKind[p] === SEA) fleets.push(p);
  }
  if (via >= 0) return fleets.includes(via) && necessaryOnSomeRoute(v, fleets, from, to, via);
  const seen: boolean[] = fleets.map(() => false);
  const queue: number[] = [];
  for (let i = 0; i < fleets.length; i++) if (v.anyMatrix[from * P + fleets[i]]) (seen[i] = true), queue.push(fleets[i]);
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    if (v.anyMatrix[s * P + to]) return true;
    for (let i = 0; i < fleets.length; i++) if (!seen[i] && v.anyMatrix[s * P + fleets[i]]) (seen[i] = true), queue.push(fleets[i]);
  }
  return false;
}

/**
 * Is the fleet at `via` necessary for some convoy route from `from` to `to`?
 * A route where some fleet could be skipped (two of its provinces, or a coast
 * and a later fleet, are adjacent) does not need that fleet: a convoy order
 * from a fleet that no route needs is illegal (DATC 4.E.1, test case 6.G.19).
 * So we look for a chordless chain of fleets through `via`; maps are small
 * and chains short, so a depth-first search is plenty. `fleets`: the provinces of the fleets at sea.
 */
function necessaryOnSomeRoute(v: Variant, fleets: readonly number[], from: number, to: number, via: number): boolean {
  const P = v.provinceCount;
  const adj = (a: number, b: number) => v.anyMatrix[a * P + b] === 1;
  const path: number[] = [];
  const extend = (last: number): boolean => {
    if (adj(last, to)) return path.includes(via);
    for (const n of fleets) {
      if (path.includes(n) || !adj(last, n)) continue;
      // Chordless: the new fleet touches no earlier fleet but the last, and the army's coast only if it is the first.
      if (path.length > 0 && adj(from, n)) continue;
      let chord = false;
      for (let i = 0; i < path.length - 1 && !chord; i++) if (adj(path[i], n)) chord = true;
      if (chord) continue;
      path.push(n);
      if (extend(n)) return true;
      path.pop();
    }
    return false;
  };
  for (const s of fleets) {
    if (!adj(from, s)) continue;
    path.push(s);
    if (extend(s)) return true;
    path.pop();
  }
  return false;
}
