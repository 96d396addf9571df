/**
 * Raster partition and topology extraction for reconstructed maps.
 *
 * The map is built on a pixel grid: land and water are rasterised from the
 * coastline, every pixel is given to a province by a seeded flood fill that
 * stays inside its own domain (land seeds fill land, sea seeds fill water),
 * and the boundaries between labels are traced into shared arcs (as in
 * TopoJSON). Each arc is simplified once, so two neighbouring provinces
 * always share identical vertices along their common border.
 *
 * Everything here is deterministic: integer grids, a fixed heap order, no
 * randomness, no dependence on object iteration order beyond insertion.
 */

/** Label of a pixel outside the raster. */
export const OUT = -1;

export interface Grid {
  readonly w: number;
  readonly h: number;
}

/* ------------------------------------------------------------------ */
/* Rasterisation                                                       */
/* ------------------------------------------------------------------ */

/** Fill polygons given as rings of [x, y] (raster units) with the even-odd rule. */
export function rasterisePolygons(grid: Grid, rings: number[][][], out: Uint8Array, value = 1): void {
  const { w, h } = grid;
  const rows: number[][] = Array.from({ length: h }, () => []);
  for (const ring of rings) {
    const n = ring.length;
    for (let i = 0; i < n; i++) {
      const [x0, y0] = ring[i];
      const [x1, y1] = ring[(i + 1) % n];
      if (y0 === y1) continue;
      const ya = Math.min(y0, y1);
      const yb = Math.max(y0, y1);
      // Pixel centres at j + 0.5 with ya <= yc < yb.
      let j0 = Math.ceil(ya - 0.5);
      let j1 = Math.ceil(yb - 0.5) - 1;
      if (j0 < 0) j0 = 0;
      if (j1 > h - 1) j1 = h - 1;
      for (let j = j0; j <= j1; j++) {
        const yc = j + 0.5;
        const t = (yc - y0) / (y1 - y0);
        rows[j].push(x0 + t * (x1 - x0));
      }
    }
  }
  for (let j = 0; j < h; j++) {
    const xs = rows[j].sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      let i0 = Math.ceil(xs[k] - 0.5);
      let i1 = Math.floor(xs[k + 1] - 0.5);
      if (i0 < 0) i0 = 0;
      if (i1 > w - 1) i1 = w - 1;
      for (let i = i0; i <= i1; i++) out[j * w + i] = value;
    }
  }
}

/** Pixels along a polyline (raster units), thickened to `radius` pixels. */
export function polylinePixels(grid: Grid, pts: number[][], radius = 0): number[] {
  const { w, h } = grid;
  const seen = new Set<number>();
  const out: number[] = [];
  const add = (x: number, y: number) => {
    const r = Math.ceil(radius);
    for (let dy = -r; dy <= r; dy++)
      for (let dx = -r; dx <= r; dx++) {
        if (dx * dx + dy * dy > radius * radius + 1e-9) continue;
        const px = Math.floor(x) + dx;
        const py = Math.floor(y) + dy;
        if (px < 0 || py < 0 || px >= w || py >= h) continue;
        const k = py * w + px;
        if (!seen.has(k)) {
          seen.add(k);
          out.push(k);
        }
      }
  };
  if (pts.length === 1) add(pts[0][0], pts[0][1]);
  for (let i = 0; i + 1 < pts.length; i++) {
    const [x0, y0] = pts[i];
    const [x1, y1] = pts[i + 1];
    const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 3));
    for (let s = 0; s <= steps; s++) add(x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps);
  }
  return out;
}

/* ------------------------------------------------------------------ */
/* Connected components                                                */
/* ------------------------------------------------------------------ */

/** 4-connected components of pixels with equal `domain` value. Returns component ids and sizes. */
export function components(grid: Grid, domain: Uint8Array): { comp: Int32Array; size: number[]; domainOf: number[] } {
  const { w, h } = grid;
  const n = w * h;
  const comp = new Int32Array(n).fill(-1);
  const size: number[] = [];
  const domainOf: number[] = [];
  const stack = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    if (comp[s] >= 0) continue;
    const id = size.length;
    const d = domain[s];
    let top = 0;
    stack[top++] = s;
    comp[s] = id;
    let count = 0;
    while (top > 0) {
      const p = stack[--top];
      count++;
      const x = p % w;
      const y = (p - x) / w;
      if (x > 0 && comp[p - 1] < 0 && domain[p - 1] === d) (comp[p - 1] = id), (stack[top++] = p - 1);
      if (x < w - 1 && comp[p + 1] < 0 && domain[p + 1] === d) (comp[p + 1] = id), (stack[top++] = p + 1);
      if (y > 0 && comp[p - w] < 0 && domain[p - w] === d) (comp[p - w] = id), (stack[top++] = p - w);
      if (y < h - 1 && comp[p + w] < 0 && domain[p + w] === d) (comp[p + w] = id), (stack[top++] = p + w);
    }
    size.push(count);
    domainOf.push(d);
  }
  return { comp, size, domainOf };
}

/* ------------------------------------------------------------------ */
/* Seeded fill                                                          */
/* ------------------------------------------------------------------ */

class Heap {
  keys: Float64Array;
  vals: Int32Array;
  n = 0;
  constructor(cap: number) {
    this.keys = new Float64Array(cap);
    this.vals = new Int32Array(cap);
  }
  push(k: number, v: number) {
    if (this.n === this.keys.length) {
      const nk = new Float64Array(this.n * 2);
      nk.set(this.keys);
      const nv = new Int32Array(this.n * 2);
      nv.set(this.vals);
      this.keys = nk;
      this.vals = nv;
    }
    let i = this.n++;
    const keys = this.keys;
    const vals = this.vals;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p] < k || (keys[p] === k && vals[p] <= v)) break;
      keys[i] = keys[p];
      vals[i] = vals[p];
      i = p;
    }
    keys[i] = k;
    vals[i] = v;
  }
  /** Pops the minimum; returns its value (its key is left in `lastKey`). */
  lastKey = 0;
  pop(): number {
    const keys = this.keys;
    const vals = this.vals;
    const topV = vals[0];
    this.lastKey = keys[0];
    const k = keys[--this.n];
    const v = vals[this.n];
    let i = 0;
    const n = this.n;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && (keys[c + 1] < keys[c] || (keys[c + 1] === keys[c] && vals[c + 1] < vals[c]))) c++;
      if (keys[c] > k || (keys[c] === k && vals[c] >= v)) break;
      keys[i] = keys[c];
      vals[i] = vals[c];
      i = c;
    }
    keys[i] = k;
    vals[i] = v;
    return topV;
  }
}

export interface Seed {
  pixel: number;
  label: number;
  /** A fixed seed keeps its pixel but does not spread (used for out-of-play areas drawn as polygons). */
  fixed?: boolean;
}

/**
 * Multi-source fill: each pixel goes to the seed with the smallest weighted
 * Euclidean distance among the seeds that reach it through pixels of the same
 * domain (4-connected), so a region never jumps across water or land.
 * `weight[label]` multiplies distances (below 1 grows a region).
 */
export function seededFill(grid: Grid, domain: Uint8Array, seeds: Seed[], weight: Float64Array, label: Int16Array): void {
  const { w, h } = grid;
  const n = w * h;
  const dist = new Float64Array(n).fill(Infinity);
  const src = new Int32Array(n).fill(-1);
  const heap = new Heap(1 << 20);
  for (const s of seeds) {
    if (dist[s.pixel] <= 0 && label[s.pixel] !== s.label && label[s.pixel] >= 0) {
      // Two seeds on one pixel: the first one listed wins.
      continue;
    }
    dist[s.pixel] = s.fixed ? -1 : 0;
    label[s.pixel] = s.label;
    src[s.pixel] = s.pixel;
    if (!s.fixed) heap.push(0, s.pixel);
  }
  while (heap.n > 0) {
    const p = heap.pop();
    const key = heap.lastKey;
    if (key > dist[p]) continue;
    const lab = label[p];
    const s = src[p];
    const sx = s % w;
    const sy = (s - sx) / w;
    const wt = weight[lab];
    const x = p % w;
    const y = (p - x) / w;
    const d = domain[p];
    const visit = (q: number, qx: number, qy: number) => {
      if (domain[q] !== d) return;
      const nd = wt * Math.hypot(qx - sx, qy - sy);
      if (nd < dist[q]) {
        dist[q] = nd;
        label[q] = lab;
        src[q] = s;
        heap.push(nd, q);
      }
    };
    if (x > 0) visit(p - 1, x - 1, y);
    if (x < w - 1) visit(p + 1, x + 1, y);
    if (y > 0) visit(p - w, x, y - 1);
    if (y < h - 1) visit(p + w, x, y + 1);
  }
}

/**
 * Chamfer distance (in pixels) from each pixel to the nearest pixel of a
 * different label (the raster edge counts as a different label).
 */
export function distanceInside(grid: Grid, label: Int16Array): Float32Array {
  const { w, h } = grid;
  const d = new Float32Array(w * h);
  const INF = 1e9;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const l = label[p];
      const edge = x === 0 || y === 0 || x === w - 1 || y === h - 1 || label[p - 1] !== l || label[p + 1] !== l || label[p - w] !== l || label[p + w] !== l;
      d[p] = edge ? 0.5 : INF;
    }
  const D = Math.SQRT2;
  for (let y = 1; y < h; y++)
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      const l = label[p];
      let v = d[p];
      if (label[p - 1] === l && d[p - 1] + 1 < v) v = d[p - 1] + 1;
      if (label[p - w] === l && d[p - w] + 1 < v) v = d[p - w] + 1;
      if (label[p - w - 1] === l && d[p - w - 1] + D < v) v = d[p - w - 1] + D;
      if (label[p - w + 1] === l && d[p - w + 1] + D < v) v = d[p - w + 1] + D;
      d[p] = v;
    }
  for (let y = h - 2; y >= 0; y--)
    for (let x = w - 2; x >= 1; x--) {
      const p = y * w + x;
      const l = label[p];
      let v = d[p];
      if (label[p + 1] === l && d[p + 1] + 1 < v) v = d[p + 1] + 1;
      if (label[p + w] === l && d[p + w] + 1 < v) v = d[p + w] + 1;
      if (label[p + w + 1] === l && d[p + w + 1] + D < v) v = d[p + w + 1] + D;
      if (label[p + w - 1] === l && d[p + w - 1] + D < v) v = d[p + w - 1] + D;
      d[p] = v;
    }
  return d;
}

/* ------------------------------------------------------------------ */
/* Topology: arcs between labels                                        */
/* ------------------------------------------------------------------ */

export interface Arc {
  /** Raster corner indices (cy * (w + 1) + cx), from one node to the other (or a closed loop). */
  corners: number[];
  /** Label on the (screen) left and right when walking the corners in order. */
  left: number;
  right: number;
  closed: boolean;
}

export interface Topology {
  arcs: Arc[];
  /** Per label: rings as lists of signed arc references (~i = arc i reversed). */
  rings: Map<number, number[][]>;
  /** Corner ids that are nodes (where three labels meet, or a diagonal touch). */
  nodes: Set<number>;
}

/**
 * Trace the boundaries of a label image into arcs and rings.
 * Labels may be any integers >= 0; pixels outside the raster count as OUT.
 */
export function traceTopology(grid: Grid, label: Int16Array): Topology {
  const { w, h } = grid;
  const W1 = w + 1;
  const at = (x: number, y: number): number => (x < 0 || y < 0 || x >= w || y >= h ? OUT : label[y * w + x]);
  const HCOUNT = (h + 1) * w;
  // Edge ids: horizontal H(x, cy) = cy * w + x, between pixels (x, cy-1) and (x, cy), corners (x,cy)-(x+1,cy).
  // Vertical V(cx, y) = HCOUNT + y * (w+1) + cx, between (cx-1, y) and (cx, y), corners (cx,y)-(cx,y+1).
  const isBoundary = (e: number): boolean => {
    if (e < HCOUNT) {
      const x = e % w;
      const cy = (e - x) / w;
      return at(x, cy - 1) !== at(x, cy);
    }
    const k = e - HCOUNT;
    const cx = k % W1;
    const y = (k - cx) / W1;
    return at(cx - 1, y) !== at(cx, y);
  };
  const edgeCorners = (e: number): [number, number] => {
    if (e < HCOUNT) {
      const x = e % w;
      const cy = (e - x) / w;
      return [cy * W1 + x, cy * W1 + x + 1];
    }
    const k = e - HCOUNT;
    const cx = k % W1;
    const y = (k - cx) / W1;
    return [y * W1 + cx, (y + 1) * W1 + cx];
  };
  /** Boundary edges incident to a corner: west, east, north, south (or -1). */
  const cornerEdges = (c: number): number[] => {
    const cx = c % W1;
    const cy = (c - cx) / W1;
    const out: number[] = [];
    if (cx > 0) {
      const e = cy * w + (cx - 1);
      if (isBoundary(e)) out.push(e);
    }
    if (cx < w) {
      const e = cy * w + cx;
      if (isBoundary(e)) out.push(e);
    }
    if (cy > 0) {
      const e = HCOUNT + (cy - 1) * W1 + cx;
      if (isBoundary(e)) out.push(e);
    }
    if (cy < h) {
      const e = HCOUNT + cy * W1 + cx;
      if (isBoundary(e)) out.push(e);
    }
    return out;
  };
  const isNode = (c: number): boolean => {
    const cx = c % W1;
    const cy = (c - cx) / W1;
    const nw = at(cx - 1, cy - 1);
    const ne = at(cx, cy - 1);
    const sw = at(cx - 1, cy);
    const se = at(cx, cy);
    let n = 1;
    if (ne !== nw) n++;
    if (sw !== nw && sw !== ne) n++;
    if (se !== nw && se !== ne && se !== sw) n++;
    if (n >= 3) return true;
    return n === 2 && nw === se && ne === sw;
  };
  /** Label on the screen-left when walking edge e from corner a to its other corner. */
  const leftOf = (e: number, from: number): [number, number] => {
    if (e < HCOUNT) {
      const x = e % w;
      const cy = (e - x) / w;
      const above = at(x, cy - 1);
      const below = at(x, cy);
      const east = from === cy * W1 + x; // walking towards +x
      return east ? [above, below] : [below, above];
    }
    const k = e - HCOUNT;
    const cx = k % W1;
    const y = (k - cx) / W1;
    const west = at(cx - 1, y);
    const east = at(cx, y);
    const south = from === y * W1 + cx; // walking towards +y
    return south ? [east, west] : [west, east];
  };

  const nodes = new Set<number>();
  const arcs: Arc[] = [];

  const walk = (startEdge: number, fromCorner: number): { corners: number[]; edges: number[]; loop: boolean } => {
    const corners = [fromCorner];
    const edges: number[] = [];
    let e = startEdge;
    let c = fromCorner;
    for (;;) {
      edges.push(e);
      const [a, b] = edgeCorners(e);
      const next = a === c ? b : a;
      corners.push(next);
      c = next;
      if (nodes.has(c) || isNode(c)) {
        nodes.add(c);
        return { corners, edges, loop: false };
      }
      const inc = cornerEdges(c);
      const other = inc[0] === e ? inc[1] : inc[0];
      if (other === startEdge) return { corners, edges, loop: true };
      e = other;
    }
  };

  const totalEdges = HCOUNT + h * W1;
  const done = new Uint8Array(totalEdges);
  for (let e0 = 0; e0 < totalEdges; e0++) {
    if (done[e0] || !isBoundary(e0)) continue;
    const [a, b] = edgeCorners(e0);
    // Walk backwards from a (through a) to find the start node, then forwards.
    let startCorner: number;
    let startEdge: number;
    if (isNode(a)) {
      nodes.add(a);
      startCorner = a;
      startEdge = e0;
    } else {
      const back = walk(e0, b); // from b through a onwards
      if (back.loop) {
        // Closed loop without nodes: start at the smallest corner, walking so that the loop is canonical.
        let minC = Infinity;
        let minI = 0;
        for (let i = 0; i < back.corners.length - 1; i++) if (back.corners[i] < minC) (minC = back.corners[i]), (minI = i);
        // back.edges[i] goes from corners[i] to corners[i+1].
        startCorner = minC;
        startEdge = back.edges[minI];
      } else {
        startCorner = back.corners[back.corners.length - 1];
        startEdge = back.edges[back.edges.length - 1];
      }
    }
    const fw = walk(startEdge, startCorner);
    const [left, right] = leftOf(fw.edges[0], startCorner);
    arcs.push({ corners: fw.corners, left, right, closed: fw.loop });
    for (const e of fw.edges) done[e] = 1;
  }

  // Rings per label: follow directed arcs with the label on the left.
  const byLabel = new Map<number, Map<number, number[]>>();
  const addOut = (lab: number, corner: number, ref: number) => {
    let m = byLabel.get(lab);
    if (!m) byLabel.set(lab, (m = new Map()));
    let l = m.get(corner);
    if (!l) m.set(corner, (l = []));
    l.push(ref);
  };
  const rings = new Map<number, number[][]>();
  arcs.forEach((arc, i) => {
    if (arc.closed) {
      if (arc.left !== OUT) push(rings, arc.left, [i]);
      if (arc.right !== OUT) push(rings, arc.right, [~i]);
      return;
    }
    const first = arc.corners[0];
    const last = arc.corners[arc.corners.length - 1];
    if (arc.left !== OUT) addOut(arc.left, first, i);
    if (arc.right !== OUT) addOut(arc.right, last, ~i);
  });
  const refEnd = (r: number) => (r >= 0 ? arcs[r].corners[arcs[r].corners.length - 1] : arcs[~r].corners[0]);
  /** Direction (dx, dy) of the first / last step of a directed arc. */
  const cornerXY = (c: number): [number, number] => [c % W1, Math.floor(c / W1)];
  const firstDir = (r: number): [number, number] => {
    const cs = r >= 0 ? arcs[r].corners : [...arcs[~r].corners].reverse();
    const [x0, y0] = cornerXY(cs[0]);
    const [x1, y1] = cornerXY(cs[1]);
    return [x1 - x0, y1 - y0];
  };
  const lastDir = (r: number): [number, number] => {
    const cs = r >= 0 ? arcs[r].corners : [...arcs[~r].corners].reverse();
    const [x0, y0] = cornerXY(cs[cs.length - 2]);
    const [x1, y1] = cornerXY(cs[cs.length - 1]);
    return [x1 - x0, y1 - y0];
  };
  const labels = [...byLabel.keys()].sort((a, b) => a - b);
  for (const lab of labels) {
    const m = byLabel.get(lab)!;
    const used = new Set<number>();
    const starts = [...m.keys()].sort((a, b) => a - b);
    for (const s of starts) {
      for (const r0 of m.get(s)!) {
        if (used.has(r0)) continue;
        const ring: number[] = [];
        let r = r0;
        for (;;) {
          used.add(r);
          ring.push(r);
          const end = refEnd(r);
          const cands = (m.get(end) ?? []).filter((x) => !used.has(x) || x === r0);
          if (cands.length === 0) throw new Error(`ring of label ${lab} does not close at corner ${end}`);
          let next = cands[0];
          if (cands.length > 1) {
            // Prefer the tightest turn towards the label (screen-left), so diagonal touches separate.
            const [dx, dy] = lastDir(r);
            const score = (x: number) => {
              const [ex, ey] = firstDir(x);
              const cross = dx * ey - dy * ex; // screen (y down): negative = left turn
              const dot = dx * ex + dy * ey;
              if (cross < 0) return 0; // left
              if (dot > 0) return 1; // straight
              return 2; // right
            };
            next = cands.slice().sort((a, b) => score(a) - score(b) || a - b)[0];
          }
          if (next === r0) break;
          r = next;
        }
        push(rings, lab, ring);
      }
    }
  }
  return { arcs, rings, nodes };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

/* ------------------------------------------------------------------ */
/* Simplification                                                      */
/* ------------------------------------------------------------------ */

/** Douglas–Peucker: the points of a polyline that keep it within `tol` of itself (both ends kept). */
export function douglasPeucker(pts: number[][], tol: number): number[][] {
  if (pts.length <= 2) return pts.slice();
  const keep = new Uint8Array(pts.length);
  keep[0] = 1;
  keep[pts.length - 1] = 1;
  const stack: [number, number][] = [[0, pts.length - 1]];
  while (stack.length) {
    const [i, j] = stack.pop()!;
    const [ax, ay] = pts[i];
    const [bx, by] = pts[j];
    const dx = bx - ax;
    const dy = by - ay;
    const len = Math.hypot(dx, dy);
    let best = -1;
    let bestD = tol;
    for (let k = i + 1; k < j; k++) {
      const [px, py] = pts[k];
      const d = len === 0 ? Math.hypot(px - ax, py - ay) : Math.abs(dx * (py - ay) - dy * (px - ax)) / len;
      if (d > bestD) (bestD = d), (best = k);
    }
    if (best >= 0) {
      keep[best] = 1;
      stack.push([i, best], [best, j]);
    }
  }
  return pts.filter((_, k) => keep[k]);
}

/**
 * Turn an arc's raster corners into a smooth polyline in raster units:
 * interior points become the midpoints of the pixel edges (which turns
 * staircases into diagonals), then Douglas–Peucker. End nodes stay exact.
 */
export function simplifyArc(grid: Grid, arc: Arc, tol: number): number[][] {
  const W1 = grid.w + 1;
  const xy = (c: number) => [c % W1, Math.floor(c / W1)];
  const cs = arc.corners.map(xy);
  const mids: number[][] = [];
  for (let i = 0; i + 1 < cs.length; i++) mids.push([(cs[i][0] + cs[i + 1][0]) / 2, (cs[i][1] + cs[i + 1][1]) / 2]);
  if (arc.closed) {
    // Loop: split at the first midpoint and the one farthest from it.
    const pts = mids;
    let far = 0;
    let fd = -1;
    for (let i = 0; i < pts.length; i++) {
      const d = Math.hypot(pts[i][0] - pts[0][0], pts[i][1] - pts[0][1]);
      if (d > fd) (fd = d), (far = i);
    }
    const a = douglasPeucker(pts.slice(0, far + 1), tol);
    const b = douglasPeucker([...pts.slice(far), pts[0]], tol);
    return [...a, ...b.slice(1)];
  }
  const pts = [cs[0], ...mids, cs[cs.length - 1]];
  return douglasPeucker(pts, tol);
}
