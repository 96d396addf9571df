/**
 * How far the computer opponent's squadrons have to row to the enemies worth reaching, round the land: a grid of
 * 2" cells over the table, land (and a margin a squadron's half width wide) closed, filled outwards from every
 * enemy squadron (8 neighbours, Dijkstra). Each enemy starts below zero by what reaching it is worth, so a
 * freighter or a squadron caught unformed draws squadrons from farther off. Without it a squadron behind a cape
 * or along a beach steers straight at an enemy it cannot reach and stands still. The field to one enemy (a side the
 * clock is against sends each squadron to its own) also closes our squadrons held in melee, which do not move until
 * it ends: a squadron behind one rows round it rather than waiting at its stern.
 */
import { type Base, type Point, insideSimple, toLocal } from '../table/index.ts';
import { type State, body, onTable } from './state.ts';

const CELL = 2;
/** Cells this close to land are closed: about half the width of a squadron in line, which cannot pass closer. */
const MARGIN = 3;
/** How many cells out an enemy in the closed margin is reached from. */
const REACH = 3;
/** The most cells a field holds (a 240" by 240" table in 2" cells is 14,400). */
const MAX_CELLS = 20_000;

export interface Field {
  /** The rowing distance from `p` to the enemy most worth it, less its worth (inches); Infinity where cut off. */
  at(p: Point): number;
}

/**
 * Fields already filled, by the table and the enemies seeded (each one's place and worth): the enemy does not move
 * while a side moves its squadrons one decision at a time, so most decisions find their fields here. Kept small.
 */
const filled = new Map<string, Field>();
const closedCells = new Map<string, Uint8Array>();
const KEPT = 64;

function keep<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= KEPT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/** The table's size and land, as a key. */
const tableKey = (state: State): string => `${state.table.width}x${state.table.depth}:${JSON.stringify(state.table.terrain.map((t) => t.outline))}`;

/** The cells closed by land, worked out once per table. */
function closedOf(state: State, cols: number, rows: number): Uint8Array {
  const key = tableKey(state);
  const known = closedCells.get(key);
  if (known) return known;
  const land = state.table.terrain.map((t) => t.outline);
  const closed = new Uint8Array(cols * rows);
  const centre = (i: number) => ({ x: (i % cols) * CELL + CELL / 2, y: Math.floor(i / cols) * CELL + CELL / 2 });
  if (land.length)
    for (let i = 0; i < closed.length; i++) {
      const c = centre(i);
      for (const outline of land)
        for (const [dx, dy] of [
          [0, 0],
          [MARGIN, 0],
          [-MARGIN, 0],
          [0, MARGIN],
          [0, -MARGIN],
        ])
          if (insideSimple(outline, { x: c.x + dx, y: c.y + dy })) closed[i] = 1;
    }
  return keep(closedCells, key, closed);
}

/**
 * The field of `side`'s distances to enemies, each enemy's start lowered by `worth(enemy)` inches; with `target`,
 * to that enemy alone.
 */
export function approachField(state: State, side: string, worth: (e: State['squadrons'][number]) => number, target?: string): Field {
  const enemies = state.squadrons.filter((e) => e.side !== side && onTable(e) && (target === undefined || e.id === target));
  // Our squadrons locked in melee stay where they are until it ends: the way to one enemy goes round them, not
  // through them (the field shared by all squadrons keeps the open water, where this lost in the Ambush).
  const locked = target === undefined ? [] : state.squadrons.filter((q) => q.side === side && onTable(q) && q.engaged.length > 0).map(body);
  const key = `${tableKey(state)}|${enemies.map((e) => `${e.x},${e.y},${worth(e)}`).join(';')}|${locked.map((b) => `${b.x},${b.y},${b.heading}`).join(';')}`;
  return filled.get(key) ?? keep(filled, key, fillField(state, enemies, worth, locked));
}

/** Whether point `p` lies within `margin` of body `b` (its rectangle grown by the margin on every side). */
function nearBody(b: Base, p: Point, margin: number): boolean {
  const local = toLocal(b, p);
  return Math.abs(local.ahead) < b.length / 2 + margin && Math.abs(local.right) < b.width / 2 + margin;
}

/** The field seeded from `enemies` (their places, each lowered by its worth). */
function fillField(
  state: State,
  enemies: readonly State['squadrons'][number][],
  worth: (e: State['squadrons'][number]) => number,
  locked: readonly Base[] = [],
): Field {
  const cols = Math.ceil(state.table.width / CELL);
  const rows = Math.ceil(state.table.depth / CELL);
  if (cols * rows > MAX_CELLS) throw new Error(`the table of ${state.table.width}" by ${state.table.depth}" is too large for the opponent's field`);
  let closed = closedOf(state, cols, rows);
  if (locked.length) {
    closed = closed.slice();
    for (let i = 0; i < closed.length; i++) {
      const c = { x: (i % cols) * CELL + CELL / 2, y: Math.floor(i / cols) * CELL + CELL / 2 };
      if (!closed[i] && locked.some((b) => nearBody(b, c, MARGIN))) closed[i] = 1;
    }
  }
  const cost = new Float64Array(cols * rows).fill(Number.POSITIVE_INFINITY);
  const cellOf = (p: Point) => {
    const cx = Math.max(0, Math.min(cols - 1, Math.floor(p.x / CELL)));
    const cy = Math.max(0, Math.min(rows - 1, Math.floor(p.y / CELL)));
    return cy * cols + cx;
  };
  // A small binary heap of [cost, cell].
  const heap: [number, number][] = [];
  const push = (c: number, i: number) => {
    heap.push([c, i]);
    let k = heap.length - 1;
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (heap[up][0] <= heap[k][0]) break;
      [heap[up], heap[k]] = [heap[k], heap[up]];
      k = up;
    }
  };
  const pop = (): [number, number] => {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
        if (m === k) break;
        [heap[m], heap[k]] = [heap[k], heap[m]];
        k = m;
      }
    }
    return top;
  };
  const seed = (i: number, c: number) => {
    if (c < cost[i]) {
      cost[i] = c;
      push(c, i);
    }
  };
  for (const e of enemies) {
    const i = cellOf(e);
    const c = -worth(e);
    seed(i, c);
    // An enemy beached or close inshore is reached from the open water nearest it.
    if (closed[i]) {
      const x = i % cols;
      const y = Math.floor(i / cols);
      for (let r = 1; r <= REACH; r++)
        for (let dx = -r; dx <= r; dx++)
          for (let dy = -r; dy <= r; dy++) {
            const nx = x + dx;
            const ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= cols || ny >= rows || closed[ny * cols + nx]) continue;
            seed(ny * cols + nx, c + Math.hypot(dx, dy) * CELL);
          }
    }
  }
  const steps = [
    [1, 0, CELL],
    [-1, 0, CELL],
    [0, 1, CELL],
    [0, -1, CELL],
    [1, 1, CELL * Math.SQRT2],
    [1, -1, CELL * Math.SQRT2],
    [-1, 1, CELL * Math.SQRT2],
    [-1, -1, CELL * Math.SQRT2],
  ] as const;
  /** Each cell of the grid one step from cell `i`, with the step's length. */
  const eachNeighbour = (i: number, visit: (j: number, d: number) => void) => {
    const x = i % cols;
    const y = Math.floor(i / cols);
    for (const [dx, dy, d] of steps) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx >= 0 && ny >= 0 && nx < cols && ny < rows) visit(ny * cols + nx, d);
    }
  };
  while (heap.length) {
    const [c, i] = pop();
    if (c > cost[i]) continue;
    eachNeighbour(i, (j, d) => {
      // An enemy's own cell may lie in the closed margin (a squadron on the beach): it is still reached.
      if (closed[j] || c + d >= cost[j]) return;
      cost[j] = c + d;
      push(c + d, j);
    });
  }
  return {
    at(p: Point): number {
      const i = cellOf(p);
      if (!closed[i]) return cost[i];
      // Off the grid's open water (on the margin of land), the nearest open neighbour's cost plus a step.
      let best = Number.POSITIVE_INFINITY;
      eachNeighbour(i, (j, d) => {
        if (!closed[j]) best = Math.min(best, cost[j] + d);
      });
      if (!locked.length) return best;
      // Beside a melee of ours the margin is wider than a step: the nearest open cell within reach.
      const x = i % cols;
      const y = Math.floor(i / cols);
      for (let dx = -REACH; dx <= REACH; dx++)
        for (let dy = -REACH; dy <= REACH; dy++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= cols || ny >= rows || closed[ny * cols + nx]) continue;
          best = Math.min(best, cost[ny * cols + nx] + Math.hypot(dx, dy) * CELL);
        }
      return best;
    },
  };
}
