/**
 * Generates the Diadochi V map from real geography.
 *
 *   npm run mapgen            (writes maps/diadochi-v/{variant.json,geometry.json,map.svg} and the README table)
 *   MAPGEN_DEBUG_PNG=/tmp/p.png npm run mapgen   (also writes a raster preview of the partition)
 *   MAPGEN_SCALE=1 npm run mapgen                (a quicker, coarser draft; commit only the default scale 2)
 *
 * Input: tools/mapgen/diadochi-anchors.ts (hand-written decisions) and the
 * Natural Earth 1:50m land polygons from world-atlas. Output is deterministic.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { geoConicConformal, geoPath, type GeoProjection } from 'd3-geo';
import { feature } from 'topojson-client';
import type { Topology as TopoTopology, GeometryCollection } from 'topojson-specification';
import {
  BACKGROUND,
  CENTRES,
  FRAME,
  POWERS,
  PROVINCES,
  RIVERS,
  RULES,
  SPECIAL_LINKS,
  START_UNITS,
  VARIANT,
  WATER_CUTS,
  type LonLat,
  type ProvinceSource,
} from './diadochi-anchors.ts';
import { components, distanceInside, polylinePixels, rasterisePolygons, seededFill, simplifyArc, traceTopology, type Grid, type Seed } from './raster.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const outDir = join(root, 'maps', 'diadochi-v');
const require = createRequire(import.meta.url);

/** Raster pixels per SVG unit. */
const S = Number(process.env.MAPGEN_SCALE ?? 2);
/** Shortest border (SVG units) that counts as a shared border. Must match the geometry test. */
export const MIN_BORDER = 2;
/** Douglas–Peucker tolerance in raster pixels. */
const SIMPLIFY = 1.2;

const log = (...a: unknown[]) => console.log(...a);
const round1 = (v: number) => Math.round(v * 10) / 10;

/* ------------------------------------------------------------------ */
/* Provinces                                                           */
/* ------------------------------------------------------------------ */

const provinces: ProvinceSource[] = [...PROVINCES].sort((a, b) =>
  a.id.toLowerCase() < b.id.toLowerCase() ? -1 : a.id.toLowerCase() > b.id.toLowerCase() ? 1 : 0,
);
const ids = provinces.map((p) => p.id);
{
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id.toLowerCase())) throw new Error(`duplicate province id ${id}`);
    seen.add(id.toLowerCase());
  }
  for (const id of Object.keys(CENTRES)) if (!ids.includes(id)) throw new Error(`CENTRES names unknown ${id}`);
}
const index = new Map(ids.map((id, i) => [id, i]));
const NP = provinces.length;
const BG_LAND = NP;
const BG_WATER = NP + 1;
const isSea = (i: number) => i >= 0 && i < NP && provinces[i].type === 'sea';
const isProvince = (i: number) => i >= 0 && i < NP;

/* ------------------------------------------------------------------ */
/* Projection                                                          */
/* ------------------------------------------------------------------ */

function makeProjection(): { projection: GeoProjection; width: number; height: number } {
  const W = FRAME.width;
  const m = FRAME.margin;
  const projection = geoConicConformal().parallels(FRAME.parallels).rotate([-FRAME.centralMeridian, 0]);
  const extent = { type: 'MultiPoint' as const, coordinates: FRAME.extent };
  projection.fitWidth(W - 2 * m, extent);
  const [tx, ty] = projection.translate();
  projection.translate([tx + m, ty + m]);
  const b = geoPath(projection).bounds(extent);
  const height = Math.ceil(b[1][1] + m);
  // Round the projection parameters so that the output does not depend on floating-point noise in fitting.
  projection.scale(Math.round(projection.scale() * 1000) / 1000);
  const [ux, uy] = projection.translate();
  projection.translate([Math.round(ux * 1000) / 1000, Math.round(uy * 1000) / 1000]);
  return { projection, width: W, height };
}

const { projection, width: W, height: H } = makeProjection();
const grid: Grid = { w: W * S, h: H * S };
const N = grid.w * grid.h;
const toRaster = (ll: LonLat): [number, number] => {
  const p = projection(ll)!;
  return [p[0] * S, p[1] * S];
};
const toSvg = (ll: LonLat): [number, number] => {
  const p = projection(ll)!;
  return [round1(p[0]), round1(p[1])];
};

/* ------------------------------------------------------------------ */
/* Land raster                                                         */
/* ------------------------------------------------------------------ */

function landRings(): number[][][] {
  const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-50m.json'), 'utf8')) as TopoTopology<{ land: GeometryCollection }>;
  const land = feature(topo, topo.objects.land);
  const rp = geoConicConformal()
    .parallels(FRAME.parallels)
    .rotate([-FRAME.centralMeridian, 0])
    .scale(projection.scale() * S)
    .translate([projection.translate()[0] * S, projection.translate()[1] * S])
    .clipExtent([
      [-4, -4],
      [grid.w + 4, grid.h + 4],
    ]);
  const rings: number[][][] = [];
  let cur: number[][] = [];
  const ctx = {
    moveTo(x: number, y: number) {
      cur = [[x, y]];
      rings.push(cur);
    },
    lineTo(x: number, y: number) {
      cur.push([x, y]);
    },
    closePath() {},
    arc() {},
  };
  geoPath(rp, ctx as unknown as CanvasRenderingContext2D)(land);
  return rings;
}

const domain = new Uint8Array(N); // 1 land, 0 water
rasterisePolygons(grid, landRings(), domain, 1);
for (const cut of WATER_CUTS) for (const p of polylinePixels(grid, cut.map(toRaster), 1.0)) domain[p] = 0;

/* ------------------------------------------------------------------ */
/* Seeds                                                               */
/* ------------------------------------------------------------------ */

function snap(ll: LonLat, want: number, what: string): number {
  const [x, y] = toRaster(ll);
  const cx = Math.floor(x);
  const cy = Math.floor(y);
  for (let r = 0; r <= 60; r++) {
    let best = -1;
    let bd = Infinity;
    for (let dy = -r; dy <= r; dy++)
      for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
        const px = cx + dx;
        const py = cy + dy;
        if (px < 0 || py < 0 || px >= grid.w || py >= grid.h) continue;
        const k = py * grid.w + px;
        if (domain[k] !== want) continue;
        const d = dx * dx + dy * dy;
        if (d < bd) (bd = d), (best = k);
      }
    if (best >= 0) {
      if (r > 12) log(`  note: seed ${what} at ${ll} snapped ${(r / S).toFixed(1)} units`);
      return best;
    }
  }
  throw new Error(`seed ${what} at ${ll} is not near ${want ? 'land' : 'water'}`);
}

function seedsOf(): Seed[] {
  const seeds: Seed[] = [];
  provinces.forEach((p, i) => {
    const want = p.type === 'sea' ? 0 : 1;
    const shapes = [p.anchor, ...(p.seeds ?? [])];
    for (const sh of shapes) {
      if (typeof sh[0] === 'number') {
        seeds.push({ pixel: snap(sh as LonLat, want, p.id), label: i });
      } else {
        const line = (sh as LonLat[]).map(toRaster);
        let n = 0;
        for (const k of polylinePixels(grid, line, 0))
          if (domain[k] === want) {
            seeds.push({ pixel: k, label: i });
            n++;
          }
        if (n === 0) log(`  warning: polyline seed of ${p.id} touches no ${want ? 'land' : 'water'}`);
      }
    }
  });
  const inside = (ll: LonLat) => {
    const [x, y] = toRaster(ll);
    return x >= 0 && y >= 0 && x < grid.w && y < grid.h;
  };
  for (const area of BACKGROUND.areas) {
    const mask = new Uint8Array(N);
    rasterisePolygons(grid, [area.map(toRaster)], mask, 1);
    for (let k = 0; k < N; k++) if (mask[k] && domain[k] === 1) seeds.push({ pixel: k, label: BG_LAND, fixed: true });
  }
  for (const [list, want, lab] of [
    [BACKGROUND.land, 1, BG_LAND],
    [BACKGROUND.water, 0, BG_WATER],
  ] as const)
    for (const sh of list) {
      if (typeof sh[0] === 'number') {
        if (inside(sh as LonLat)) seeds.push({ pixel: snap(sh as LonLat, want, 'background'), label: lab });
      } else {
        for (const k of polylinePixels(grid, (sh as LonLat[]).map(toRaster), 0)) if (domain[k] === want) seeds.push({ pixel: k, label: lab });
      }
    }
  return seeds;
}

let seeds = seedsOf();
/** The land before unseeded islands are merged into the sea: the islands are drawn for orientation. */
const originalLand = domain.slice();

// Unseeded islands become sea; unseeded lakes become land (repeated: a lake on an island, an islet in a lake).
for (let pass = 0; pass < 4; pass++) {
  const { comp, size, domainOf } = components(grid, domain);
  const seeded = new Uint8Array(size.length);
  for (const s of seeds) seeded[comp[s.pixel]] = 1;
  let islands = 0;
  let lakes = 0;
  for (let k = 0; k < N; k++) {
    const c = comp[k];
    if (seeded[c]) continue;
    domain[k] = domainOf[c] ? 0 : 1;
  }
  size.forEach((sz, c) => {
    if (seeded[c]) return;
    if (domainOf[c]) islands++;
    else lakes++;
    if (sz > 400 * S * S) log(`  note: large unseeded ${domainOf[c] ? 'island' : 'lake'} of ${Math.round(sz / S / S)} units² merged`);
  });
  if (pass === 0) log(`merged ${islands} unseeded islands into the sea and ${lakes} lakes into the land`);
  seeds = seedsOf();
  if (islands + lakes === 0) break;
}

const label = new Int16Array(N).fill(-1);
{
  const weight = new Float64Array(NP + 2).fill(1);
  provinces.forEach((p, i) => (weight[i] = p.weight ?? 1));
  seededFill(grid, domain, seeds, weight, label);
  // Land cut off from every province by the out-of-play areas is out of play too.
  let missing = 0;
  for (let k = 0; k < N; k++)
    if (label[k] < 0) {
      label[k] = domain[k] ? BG_LAND : BG_WATER;
      missing++;
    }
  if (missing) log(`${Math.round(missing / S / S)} units² beyond the out-of-play areas`);
}

/** Islands that are not provinces (merged into a sea), drawn as decoration. */
function decorativeIslands(): number[][][] {
  const isl = new Int16Array(N);
  for (let k = 0; k < N; k++) isl[k] = originalLand[k] === 1 && domain[k] === 0 ? 1 : 0;
  const t = traceTopology(grid, isl);
  const coords = t.arcs.map((arc) => simplifyArc(grid, arc, SIMPLIFY).map(([x, y]) => [round1(x / S), round1(y / S)]));
  const rings: number[][][] = [];
  for (const refs of t.rings.get(1) ?? []) {
    const out: number[][] = [];
    for (const r of refs) for (const p of r >= 0 ? coords[r] : [...coords[~r]].reverse()) out.push(p);
    let area = 0;
    for (let i = 0; i < out.length; i++) {
      const [x0, y0] = out[i];
      const [x1, y1] = out[(i + 1) % out.length];
      area += x0 * y1 - x1 * y0;
    }
    if (Math.abs(area / 2) >= 2) rings.push(out);
  }
  return rings;
}

/* ------------------------------------------------------------------ */
/* Topology and geometry                                               */
/* ------------------------------------------------------------------ */

const topo = traceTopology(grid, label);
const arcCoords: number[][][] = topo.arcs.map((arc) => {
  const pts = simplifyArc(grid, arc, SIMPLIFY).map(([x, y]) => [round1(x / S), round1(y / S)]);
  const out: number[][] = [];
  for (const p of pts) {
    const q = out[out.length - 1];
    if (!q || q[0] !== p[0] || q[1] !== p[1]) out.push(p);
  }
  return out;
});
const arcLength = arcCoords.map((pts) => {
  let len = 0;
  for (let i = 0; i + 1 < pts.length; i++) len += Math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]);
  return len;
});

function ringCoords(refs: number[]): number[][] {
  const out: number[][] = [];
  for (const r of refs) {
    const pts = r >= 0 ? arcCoords[r] : [...arcCoords[~r]].reverse();
    for (const p of pts) {
      const q = out[out.length - 1];
      if (!q || q[0] !== p[0] || q[1] !== p[1]) out.push(p);
    }
  }
  if (out.length > 1) {
    const a = out[0];
    const b = out[out.length - 1];
    if (a[0] === b[0] && a[1] === b[1]) out.pop();
  }
  return out;
}
const ringsOf = (lab: number): number[][][] => (topo.rings.get(lab) ?? []).map(ringCoords).filter((r) => r.length >= 3);

/* ------------------------------------------------------------------ */
/* Adjacency                                                           */
/* ------------------------------------------------------------------ */

const pairKey = (a: number, b: number) => (a < b ? a * 4096 + b : b * 4096 + a);
const pairLen = new Map<number, number>();
const pairArcs = new Map<number, number[]>();
const nodeLabels = new Map<number, Set<number>>();
topo.arcs.forEach((arc, i) => {
  for (const c of arc.closed ? [] : [arc.corners[0], arc.corners[arc.corners.length - 1]]) {
    let s = nodeLabels.get(c);
    if (!s) nodeLabels.set(c, (s = new Set()));
    s.add(arc.left);
    s.add(arc.right);
  }
  if (!isProvince(arc.left) || !isProvince(arc.right)) return;
  const k = pairKey(arc.left, arc.right);
  pairLen.set(k, (pairLen.get(k) ?? 0) + arcLength[i]);
  const l = pairArcs.get(k) ?? [];
  l.push(i);
  pairArcs.set(k, l);
});
const borderLen = (a: number, b: number) => pairLen.get(pairKey(a, b)) ?? 0;
const borders = (a: number, b: number) => borderLen(a, b) >= MIN_BORDER;

// Borderline cases, for review.
for (const [k, len] of [...pairLen].sort((x, y) => x[0] - y[0])) {
  if (len > 0 && len < 10) log(`  short border ${ids[Math.floor(k / 4096)]}–${ids[k % 4096]}: ${len.toFixed(2)} units${len < MIN_BORDER ? ' (ignored)' : ''}`);
}

const kindOf = (i: number): 'sea' | 'land' | 'coastal' | 'impassable' => {
  const p = provinces[i];
  if (p.type === 'sea') return 'sea';
  if (p.type === 'impassable') return 'impassable';
  for (let j = 0; j < NP; j++) if (isSea(j) && borders(i, j)) return 'coastal';
  return 'land';
};
const kinds = ids.map((_, i) => kindOf(i));

/** Location of province `i` for sea `s`: the province, or its named coast facing that sea. */
function locFor(i: number, sea: number): string | null {
  const p = provinces[i];
  if (!p.coasts) return p.id;
  for (const [c, coast] of Object.entries(p.coasts)) if (coast.seas.includes(ids[sea])) return `${p.id}/${c}`;
  return null;
}

const army = new Map<string, Set<string>>(ids.map((id) => [id, new Set()]));
const fleet = new Map<string, Set<string>>(); // location -> locations
const addFleet = (a: string, b: string) => {
  if (!fleet.has(a)) fleet.set(a, new Set());
  if (!fleet.has(b)) fleet.set(b, new Set());
  fleet.get(a)!.add(b);
  fleet.get(b)!.add(a);
};
const problems: string[] = [];

for (let a = 0; a < NP; a++)
  for (let b = a + 1; b < NP; b++) {
    if (!borders(a, b)) continue;
    const ka = kinds[a];
    const kb = kinds[b];
    if (ka === 'impassable' || kb === 'impassable') continue;
    if (ka !== 'sea' && kb !== 'sea') {
      army.get(ids[a])!.add(ids[b]);
      army.get(ids[b])!.add(ids[a]);
      if (ka === 'coastal' && kb === 'coastal') {
        // Shared coastline: an end of the land border meets a sea both provinces touch.
        for (const arcI of pairArcs.get(pairKey(a, b)) ?? []) {
          const arc = topo.arcs[arcI];
          if (arc.closed) continue;
          for (const node of [arc.corners[0], arc.corners[arc.corners.length - 1]]) {
            for (const s of [...(nodeLabels.get(node) ?? [])].sort((x, y) => x - y)) {
              if (!isSea(s) || !borders(a, s) || !borders(b, s)) continue;
              const la = locFor(a, s);
              const lb = locFor(b, s);
              if (la && lb) addFleet(la, lb);
            }
          }
        }
      }
    } else if (ka === 'sea' && kb === 'sea') {
      addFleet(ids[a], ids[b]);
    } else {
      const [land, sea] = ka === 'sea' ? [b, a] : [a, b];
      const loc = locFor(land, sea);
      if (!loc) problems.push(`${ids[land]} touches ${ids[sea]} but none of its named coasts lists it`);
      else addFleet(loc, ids[sea]);
    }
  }

for (const link of SPECIAL_LINKS) {
  if (link.kind === 'passage') {
    const [a, b] = link.between;
    army.get(a)!.add(b);
    army.get(b)!.add(a);
    addFleet(a, b);
  } else {
    const [p, s1, s2] = link.between;
    addFleet(p, s1);
    addFleet(p, s2);
  }
}

// Named coasts: each must touch at least one of its seas; the seas of two coasts must differ.
for (const p of provinces) {
  if (!p.coasts) continue;
  for (const [c, coast] of Object.entries(p.coasts)) {
    const touching = coast.seas.filter((s) => borders(index.get(p.id)!, index.get(s)!));
    if (touching.length === 0) problems.push(`${p.id}/${c} touches none of ${coast.seas.join(', ')}`);
  }
}

/* ------------------------------------------------------------------ */
/* Drawing positions                                                   */
/* ------------------------------------------------------------------ */

const dIn = distanceInside(grid, label);
interface DrawPos {
  label: [number, number];
  unit: [number, number];
}
const draw: DrawPos[] = [];
const coastUnit = new Map<string, [number, number]>();
/** Middle of each named coast (on the coastline), for the coast's label. */
const coastMid = new Map<string, [number, number]>();
{
  const bestD = new Float32Array(NP + 2).fill(-1);
  const bestP = new Int32Array(NP + 2).fill(-1);
  for (let k = 0; k < N; k++) {
    const l = label[k];
    if (dIn[k] > bestD[l]) (bestD[l] = dIn[k]), (bestP[l] = k);
  }
  // Second point for the label: below (or beside) the unit, as far inside as possible.
  const GAP = 13 * S;
  const bestS = new Float64Array(NP).fill(-Infinity);
  const bestQ = new Int32Array(NP).fill(-1);
  const px = (k: number) => k % grid.w;
  const py = (k: number) => Math.floor(k / grid.w);
  for (let k = 0; k < N; k++) {
    const l = label[k];
    if (l >= NP || dIn[k] < 3.5 * S) continue;
    const p = bestP[l];
    const dx = px(k) - px(p);
    const dy = py(k) - py(p);
    const dist = Math.hypot(dx, dy);
    // Keep the label box (about 20 × 10 units) clear of a unit marker of radius 6.5 units.
    const clear = Math.hypot(Math.max(Math.abs(dx) - 10.5 * S, 0), Math.max(Math.abs(dy) - 5.5 * S, 0));
    if (clear < 7 * S || dist > 2.2 * GAP) continue;
    const score = Math.min(dIn[k], 10 * S) - 0.15 * Math.hypot(dx, dy - GAP);
    if (score > bestS[l]) (bestS[l] = score), (bestQ[l] = k);
  }
  provinces.forEach((p, i) => {
    const pole = bestP[i];
    const unit: [number, number] = p.unit ? toSvg(p.unit) : [round1((px(pole) + 0.5) / S), round1((py(pole) + 0.5) / S)];
    let lab: [number, number];
    const q = bestQ[i];
    if (p.label) lab = toSvg(p.label);
    else if (q >= 0 && !p.unit) lab = [round1((px(q) + 0.5) / S), round1((py(q) + 0.5) / S)];
    else lab = [unit[0], round1(unit[1] + 13)];
    draw.push({ label: lab, unit });
  });

  // Named coasts: a point inside the province near the middle of that coast.
  for (const p of provinces) {
    if (!p.coasts) continue;
    const i = index.get(p.id)!;
    for (const [c, coast] of Object.entries(p.coasts)) {
      if (coast.unit) {
        coastUnit.set(`${p.id}/${c}`, toSvg(coast.unit));
        continue;
      }
      const seaLabels = new Set(coast.seas.map((s) => index.get(s)!));
      const coastPix: number[] = [];
      for (let k = 0; k < N; k++) {
        if (label[k] !== i) continue;
        const x = px(k);
        const y = py(k);
        if (
          (x > 0 && seaLabels.has(label[k - 1])) ||
          (x < grid.w - 1 && seaLabels.has(label[k + 1])) ||
          (y > 0 && seaLabels.has(label[k - grid.w])) ||
          (y < grid.h - 1 && seaLabels.has(label[k + grid.w]))
        )
          coastPix.push(k);
      }
      if (coastPix.length === 0) continue;
      const cx = coastPix.reduce((s, k) => s + px(k), 0) / coastPix.length;
      const cy = coastPix.reduce((s, k) => s + py(k), 0) / coastPix.length;
      let mid = coastPix[0];
      let md = Infinity;
      for (const k of coastPix) {
        const d = Math.hypot(px(k) - cx, py(k) - cy);
        if (d < md) (md = d), (mid = k);
      }
      let best = mid;
      let bs = -Infinity;
      const R = 14 * S;
      for (let y = Math.max(0, py(mid) - R); y <= Math.min(grid.h - 1, py(mid) + R); y++)
        for (let x = Math.max(0, px(mid) - R); x <= Math.min(grid.w - 1, px(mid) + R); x++) {
          const k = y * grid.w + x;
          if (label[k] !== i) continue;
          const d = Math.hypot(x - px(mid), y - py(mid));
          if (d > R) continue;
          const sc = Math.min(dIn[k], 6 * S) - 0.1 * d;
          if (sc > bs) (bs = sc), (best = k);
        }
      coastUnit.set(`${p.id}/${c}`, [round1((px(best) + 0.5) / S), round1((py(best) + 0.5) / S)]);
      coastMid.set(`${p.id}/${c}`, [(px(mid) + 0.5) / S, (py(mid) + 0.5) / S]);
    }
  }
}

/* ------------------------------------------------------------------ */
/* variant.json                                                        */
/* ------------------------------------------------------------------ */

const sortLoc = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

const variant = {
  id: VARIANT.id,
  name: VARIANT.name,
  description: VARIANT.description,
  powers: POWERS,
  provinces: provinces.map((p, i) => {
    const c = CENTRES[p.id] ?? {};
    const out: Record<string, unknown> = { id: p.id, name: p.name, ...(p.aliases ? { aliases: p.aliases } : {}), kind: kinds[i] };
    out.army = [...army.get(p.id)!].sort(sortLoc);
    if (p.coasts) {
      out.fleet = [];
      out.coasts = Object.fromEntries(
        Object.entries(p.coasts).map(([cid, coast]) => [
          cid,
          { name: coast.name, fleet: [...(fleet.get(`${p.id}/${cid}`) ?? [])].sort(sortLoc), draw: { unit: coastUnit.get(`${p.id}/${cid}`) } },
        ]),
      );
    } else out.fleet = [...(fleet.get(p.id) ?? [])].sort(sortLoc);
    if (c.centre) out.centre = c.centre;
    if (c.buildCentre) out.buildCentre = true;
    if (c.home) out.home = c.home;
    out.anchor = p.anchor;
    out.draw = draw[i];
    return out;
  }),
  specialLinks: SPECIAL_LINKS.map(({ kind, between, note }) => ({ kind, between, note })),
  rules: RULES,
  start: {
    units: START_UNITS,
    owners: Object.fromEntries(
      Object.entries(CENTRES)
        .filter(([, c]) => c.home)
        .sort((a, b) => sortLoc(a[0], b[0]))
        .map(([id, c]) => [id, c.home!]),
    ),
  },
};

/* ------------------------------------------------------------------ */
/* geometry.json                                                       */
/* ------------------------------------------------------------------ */

const provinceRings = provinces.map((_, i) => ringsOf(i));
const geometry = {
  description:
    'Diadochi V province polygons in SVG user units (viewBox below), generated by tools/mapgen/diadochi.ts. ' +
    'Neighbouring provinces share identical vertices along their common border. Rings use the even-odd rule.',
  viewBox: [0, 0, W, H],
  projection: {
    type: 'conicConformal',
    parallels: FRAME.parallels,
    rotate: [-FRAME.centralMeridian, 0],
    scale: projection.scale(),
    translate: projection.translate(),
    source: 'Natural Earth 1:50m land (world-atlas land-50m.json)',
  },
  minBorder: MIN_BORDER,
  provinces: Object.fromEntries(ids.map((id, i) => [id, provinceRings[i]])),
  background: { land: ringsOf(BG_LAND) },
  /** Islands that are not provinces: part of the sea around them, drawn for orientation only. */
  islands: decorativeIslands(),
};

/* ------------------------------------------------------------------ */
/* map.svg                                                             */
/* ------------------------------------------------------------------ */

const pathD = (rings: number[][][]) => rings.map((r) => `M${r.map(([x, y]) => `${x} ${y}`).join('L')}Z`).join('');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function svg(): string {
  const lines: string[] = [];
  lines.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="Georgia, 'Times New Roman', serif">`);
  lines.push(`<title>${esc(VARIANT.name)}</title>`);
  lines.push(`<desc>Generated by tools/mapgen/diadochi.ts from Natural Earth 1:50m land; do not edit by hand.</desc>`);
  lines.push(`<defs>
<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#d9ccab"/><line x1="0" y1="0" x2="0" y2="6" stroke="#b8a582" stroke-width="1.6"/></pattern>
<style>
.province{stroke:#8a7654;stroke-width:0.6;stroke-linejoin:round}
.land,.coastal{fill:#f1e6c8}
.sea{fill:#c4d4d0;stroke:#9fb3b0;stroke-width:0.5}
.impassable{fill:url(#hatch)}
.bg-land{fill:#e4dcc6;stroke:none}
.coastline{fill:none;stroke:#6b5a3e;stroke-width:0.9;stroke-linejoin:round}
.frame{fill:none;stroke:#6b5a3e;stroke-width:2}
#links path{fill:none;stroke:#5b3f1f;stroke-width:1.8;stroke-dasharray:3 2;stroke-linecap:round}
#links circle{fill:#5b3f1f;stroke:none}
#links path.canal{stroke:#2f5f8a;stroke-dasharray:2.2 1.8}
#coast-ticks line{stroke:#3b2a12;stroke-width:1}
.island{fill:#e9dfc4;stroke:#8a7654;stroke-width:0.5;pointer-events:none}
.river{fill:none;stroke:#7d9db0;stroke-width:0.8;stroke-linecap:round;stroke-linejoin:round;pointer-events:none}
#coast-ticks text{font-size:6.5px;fill:#3b2a12;font-style:italic}
#labels text{font-size:10.5px;text-anchor:middle;dominant-baseline:central;paint-order:stroke;stroke-width:2.4px;stroke-linejoin:round}
#labels text.land,#labels text.coastal{fill:#4a3518;stroke:#f1e6c8;font-weight:bold}
#labels text.sea{fill:#38586a;stroke:#c4d4d0;font-style:italic;letter-spacing:0.5px}
#labels text.impassable{fill:#6b5a3e;stroke:#e4dcc6}
</style>
</defs>`);
  lines.push(`<rect id="background-water" x="0" y="0" width="${W}" height="${H}" fill="#d3dcd8"/>`);
  lines.push(`<path id="background-land" class="bg-land" d="${pathD(geometry.background.land)}"/>`);
  lines.push(`<g id="provinces">`);
  provinces.forEach((p, i) => {
    lines.push(`<path id="p-${p.id}" class="province ${kinds[i]}" fill-rule="evenodd" d="${pathD(provinceRings[i])}"><title>${esc(p.name)}</title></path>`);
  });
  lines.push(`</g>`);
  // Coastlines: every arc between land (province or background) and water, drawn on top.
  const isLandLabel = (l: number) => l === BG_LAND || (isProvince(l) && !isSea(l));
  const isWaterLabel = (l: number) => l === BG_WATER || isSea(l);
  const coastArcs: string[] = [];
  topo.arcs.forEach((arc, i) => {
    if ((isLandLabel(arc.left) && isWaterLabel(arc.right)) || (isWaterLabel(arc.left) && isLandLabel(arc.right)))
      coastArcs.push(`M${arcCoords[i].map(([x, y]) => `${x} ${y}`).join('L')}`);
  });
  lines.push(`<g id="rivers">`);
  for (const r of RIVERS)
    lines.push(
      `<path class="river" d="M${r.course
        .map(toSvg)
        .map(([x, y]) => `${x} ${y}`)
        .join('L')}"><title>${esc(r.name)}</title></path>`,
    );
  lines.push(`</g>`);
  lines.push(`<path id="coastline" class="coastline" d="${coastArcs.join('')}"/>`);
  lines.push(`<path id="islands" class="island" d="${pathD(geometry.islands)}"/>`);
  // Links.
  lines.push(`<g id="links">`);
  for (const link of SPECIAL_LINKS) {
    const pts = link.draw.map(toSvg);
    lines.push(
      `<path class="${link.kind}" d="M${pts.map(([x, y]) => `${x} ${y}`).join('L')}"><title>${esc(link.note)} (${link.between.join('–')})</title></path>`,
    );
    if (link.kind === 'passage') for (const [x, y] of [pts[0], pts[pts.length - 1]]) lines.push(`<circle cx="${x}" cy="${y}" r="1.6"/>`);
  }
  lines.push(`</g>`);
  // Double-coast ticks: short strokes across the coastline at both ends of each named coast, and its id.
  lines.push(`<g id="coast-ticks">`);
  for (const p of provinces) {
    if (!p.coasts) continue;
    const i = index.get(p.id)!;
    for (const [c, coast] of Object.entries(p.coasts)) {
      const seaSet = new Set(coast.seas.map((s) => index.get(s)!));
      // Coast arcs of this province on this coast's seas, chained; ticks at the chain ends.
      const ends = new Map<string, number>();
      const keyOf = (q: number[]) => `${q[0]},${q[1]}`;
      const segs: number[][][] = [];
      topo.arcs.forEach((arc, a) => {
        if ((arc.left === i && seaSet.has(arc.right)) || (arc.right === i && seaSet.has(arc.left))) segs.push(arcCoords[a]);
      });
      for (const s of segs) for (const q of [s[0], s[s.length - 1]]) ends.set(keyOf(q), (ends.get(keyOf(q)) ?? 0) + 1);
      for (const s of segs)
        for (const [q, nb] of [
          [s[0], s[1]],
          [s[s.length - 1], s[s.length - 2]],
        ] as number[][][]) {
          if (ends.get(keyOf(q)) !== 1 || !nb) continue;
          const dx = nb[0] - q[0];
          const dy = nb[1] - q[1];
          const len = Math.hypot(dx, dy) || 1;
          const nx = -dy / len;
          const ny = dx / len;
          lines.push(`<line x1="${round1(q[0] - nx * 3.5)}" y1="${round1(q[1] - ny * 3.5)}" x2="${round1(q[0] + nx * 3.5)}" y2="${round1(q[1] + ny * 3.5)}"/>`);
        }
      const u = coastUnit.get(`${p.id}/${c}`);
      const m = coastMid.get(`${p.id}/${c}`);
      if (u && m) {
        const dx = m[0] - u[0];
        const dy = m[1] - u[1];
        const len = Math.hypot(dx, dy) || 1;
        const [tx, ty] = [round1(m[0] + (dx / len) * 7), round1(m[1] + (dy / len) * 7)];
        lines.push(`<text x="${tx}" y="${ty}" text-anchor="middle" dominant-baseline="central">${c}<title>${esc(p.name)}, ${esc(coast.name)}</title></text>`);
      }
    }
  }
  lines.push(`</g>`);
  lines.push(`<g id="labels">`);
  provinces.forEach((p, i) => {
    const [x, y] = draw[i].label;
    lines.push(`<text id="l-${p.id}" class="${kinds[i]}" x="${x}" y="${y}"><title>${esc(p.name)}</title>${p.id}</text>`);
  });
  lines.push(`</g>`);
  lines.push(`<rect class="frame" x="1" y="1" width="${W - 2}" height="${H - 2}"/>`);
  lines.push(`</svg>`);
  return `${lines.join('\n')}\n`;
}

/* ------------------------------------------------------------------ */
/* README table                                                        */
/* ------------------------------------------------------------------ */

function readmeTable(): string {
  const rows = ['| Id | Name | Kind | Centre | Anchor (lon, lat) |', '|---|---|---|---|---|'];
  provinces.forEach((p, i) => {
    const c = CENTRES[p.id];
    let centre = '';
    if (c?.centre) {
      const parts = [
        c.centre.supplyFor
          ? `${c.centre.supply} (${Object.entries(c.centre.supplyFor)
              .map(([k, v]) => `${v} for ${k}`)
              .join(', ')})`
          : String(c.centre.supply),
      ];
      if (c.home) parts.push(`home ${c.home}`);
      if (c.centre.rebel) parts.push('rebel');
      if (c.centre.indestructible) parts.push('indestructible');
      centre = parts.join(', ');
    } else if (c?.buildCentre) centre = 'build centre';
    const kind = kinds[i] + (p.coasts ? ` (${Object.keys(p.coasts).join('/')})` : '');
    rows.push(`| ${p.id} | ${p.name} | ${kind} | ${centre} | ${p.anchor[0]}, ${p.anchor[1]} |`);
  });
  return rows.join('\n');
}

/* ------------------------------------------------------------------ */
/* Debug preview                                                       */
/* ------------------------------------------------------------------ */

function writePng(path: string, w: number, h: number, rgb: Uint8Array) {
  const crcTable = new Int32Array(256).map((_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  const crc = (buf: Buffer) => {
    let c = -1;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ -1) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0;
    Buffer.from(rgb.buffer, y * w * 3, w * 3).copy(raw, y * (w * 3 + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  writeFileSync(
    path,
    Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]),
  );
}

if (process.env.MAPGEN_DEBUG_PNG) {
  const rgb = new Uint8Array(N * 3);
  const colour = (l: number): [number, number, number] => {
    if (l === BG_LAND) return [200, 200, 190];
    if (l === BG_WATER) return [225, 235, 240];
    const h = (l * 137.508) % 360;
    const sea = isSea(l);
    const v = sea ? 0.8 : 0.92;
    const s = sea ? 0.3 : 0.45;
    const c = v * s;
    const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
    const m = v - c;
    const [r, g, b] = h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
    return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
  };
  for (let k = 0; k < N; k++) {
    const [r, g, b] = colour(label[k]);
    rgb[k * 3] = r;
    rgb[k * 3 + 1] = g;
    rgb[k * 3 + 2] = b;
  }
  writePng(process.env.MAPGEN_DEBUG_PNG, grid.w, grid.h, rgb);
  log(`wrote ${process.env.MAPGEN_DEBUG_PNG}`);
}

/* ------------------------------------------------------------------ */
/* Write                                                               */
/* ------------------------------------------------------------------ */

for (const p of problems) log(`  PROBLEM: ${p}`);
writeFileSync(join(outDir, 'variant.json'), `${JSON.stringify(variant, null, 2)}\n`);
{
  // One province per line, so that a change to the map gives a readable diff.
  const { provinces: provs, background, islands, ...head } = geometry;
  const body = [
    ...Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`),
    `  "provinces": {\n${Object.entries(provs)
      .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(',\n')}\n  }`,
    `  "background": ${JSON.stringify(background)}`,
    `  "islands": ${JSON.stringify(islands)}`,
  ];
  writeFileSync(join(outDir, 'geometry.json'), `{\n${body.join(',\n')}\n}\n`);
}
writeFileSync(join(outDir, 'map.svg'), svg());
{
  const readmePath = join(outDir, 'README.md');
  let readme = '';
  try {
    readme = readFileSync(readmePath, 'utf8');
  } catch {
    readme = '# Diadochi V map\n\n<!-- province-table:start -->\n<!-- province-table:end -->\n';
  }
  const start = '<!-- province-table:start -->';
  const end = '<!-- province-table:end -->';
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a >= 0 && b > a) {
    readme = `${readme.slice(0, a + start.length)}\n${readmeTable()}\n${readme.slice(b)}`;
    writeFileSync(readmePath, readme);
  }
}
const supply = Object.values(CENTRES).reduce((s, c) => s + (c.centre ? Math.max(c.centre.supply, ...Object.values(c.centre.supplyFor ?? {})) : 0), 0);
log(
  `${NP} provinces (${kinds.filter((k) => k === 'sea').length} sea, ${kinds.filter((k) => k === 'land' || k === 'coastal').length} land, ${kinds.filter((k) => k === 'impassable').length} impassable); supply ${supply}; ${topo.arcs.length} arcs; ${W}×${H}`,
);
