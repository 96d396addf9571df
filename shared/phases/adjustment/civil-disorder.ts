/**
 * Removals a power did not order (DATC 4.D.8): the units farthest from its centres go first. How the distance is
 * counted is a rule option (shared/variant/options.ts): to the nearest owned centre over land and sea (2023), or
 * to the nearest home centre with fleets by sea (the older practice).
 */
import { FLEET, type Variant } from '../../variant/load.ts';
import type { Board } from '../../state/board.ts';
import type { Economy } from '../../model.ts';

/**
 * The units a power loses when it orders too few removals: farthest first;
 * at equal distance fleets before armies, then alphabetically by province name.
 */
export function civilDisorderRemovals(v: Variant, eco: Economy, board: Board, w: number, count: number, exclude: ReadonlySet<number>): number[] {
  const P = v.provinceCount;
  const homeMode = v.options.civilDisorderDistance === 'home-centres';
  // 2023: the nearest owned centre. Older practice: the nearest home centre, owned or not (all owned centres if it has no home).
  let targets = v.centres.filter((c) => (homeMode ? v.homeOf[c] === w : eco.owner[c] === w));
  if (homeMode && targets.length === 0) targets = v.centres.filter((c) => eco.owner[c] === w);

  // Distances over any border, land or sea, from every target (breadth-first, multi-source).
  const anyDist = bfs(P, targets, (p, visit) => {
    for (let q = 0; q < P; q++) if (v.anyMatrix[p * P + q]) visit(q);
  });
  // 1971/1982 practice: fleets count moves by sea and coast only.
  let fleetDist: Int32Array | undefined;
  if (homeMode) {
    const L = v.locationCount;
    const starts: number[] = [];
    for (const t of targets) starts.push(t, ...v.coasts[t]);
    const byLoc = bfs(L, starts, (l, visit) => {
      for (let m = 0; m < L; m++) if (v.fleetMatrix[l * L + m]) visit(m);
    });
    fleetDist = byLoc;
  }
  const distance = (u: number) => {
    const d = fleetDist && board.type[u] === FLEET ? fleetDist[board.location[u]] : anyDist[board.province[u]];
    return d < 0 ? Number.MAX_SAFE_INTEGER : d;
  };
  const candidates: number[] = [];
  for (let u = 0; u < board.count; u++) if (board.power[u] === w && !exclude.has(u)) candidates.push(u);
  candidates.sort((a, b) => {
    const d = distance(b) - distance(a);
    if (d !== 0) return d;
    if (board.type[a] !== board.type[b]) return board.type[a] === FLEET ? -1 : 1;
    return v.provinceNames[board.province[a]].localeCompare(v.provinceNames[board.province[b]], 'en');
  });
  return candidates.slice(0, count);
}

function bfs(n: number, starts: readonly number[], neighbours: (x: number, visit: (y: number) => void) => void): Int32Array {
  const dist = new Int32Array(n).fill(-1);
  const queue: number[] = [];
  for (const s of starts) if (dist[s] < 0) (dist[s] = 0), queue.push(s);
  for (let i = 0; i < queue.length; i++) {
    const x = queue[i];
    neighbours(x, (y) => {
      if (dist[y] < 0) (dist[y] = dist[x] + 1), queue.push(y);
    });
  }
  return dist;
}
