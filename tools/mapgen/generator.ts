/**
 * Draws a variant's map from real geography: the generic generator behind
 * `npm run mapgen -- <variant>` (tools/mapgen/generate.ts). The variant's
 * decisions are its `MapSource` (tools/mapgen/source.ts); the method is here.
 *
 * Input: the source and the Natural Earth 1:50m land polygons (world-atlas; 1:110m for the surroundings beyond the
 * board's frame, which are decoration).
 * Output (deterministic): geometry.json, map.svg, and either a whole
 * variant.json (generated variants) or the `draw` points of the existing one
 * (hand-written variants, whose adjacency the drawing must reproduce exactly).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoConicConformal, geoPath, type GeoProjection } from 'd3-geo';
import { feature } from 'topojson-client';
import type { Topology as TopoTopology, GeometryCollection } from 'topojson-specification';
import { writePng } from './png.ts';
import {
  components,
  distanceInside,
  douglasPeucker,
  polylinePixels,
  rasterisePolygons,
  seededFill,
  simplifyArc,
  traceTopology,
  type Grid,
  type Seed,
} from './raster.ts';
import type { CentreSource, LonLat, MapSource, ProvinceSource } from './source.ts';

const require = createRequire(import.meta.url);

/** Natural Earth's land as GeoJSON: 1:50m for the board, the coarser 1:110m for the surroundings beyond its frame. */
function naturalEarthLand(scale: '50m' | '110m') {
  const topo = JSON.parse(readFileSync(require.resolve(`world-atlas/land-${scale}.json`), 'utf8')) as TopoTopology<{ land: GeometryCollection }>;
  return feature(topo, topo.objects.land);
}

/** The rings `projection` draws of `land` (clipped as it clips), added to `rings` as plain point lists. */
function projectedRings(projection: GeoProjection, land: ReturnType<typeof naturalEarthLand>, rings: number[][][] = []): number[][][] {
  let ring: number[][] = [];
  // d3 draws a path into anything with a canvas's moveTo / lineTo: each moveTo begins a ring.
  const context = {
    moveTo(x: number, y: number) {
      ring = [[x, y]];
      rings.push(ring);
    },
    lineTo(x: number, y: number) {
      ring.push([x, y]);
    },
    closePath() {},
    arc() {},
  };
  geoPath(projection, context as unknown as CanvasRenderingContext2D)(land);
  return rings;
}

/** Shortest border (SVG units) that counts as a shared border. Must match the geometry test. */
export const MIN_BORDER = 2;
/** Douglas–Peucker tolerance in raster pixels. */
const SIMPLIFY = 1.2;
/**
 * The board is shown whole in frames of any shape, so a frame taller or wider than the board shows bands beyond it:
 * the drawing reaches far enough beyond its frame to fill them for frames from a phone held upright (the map's frame
 * on a 375×812 screen, about 0.5 wide for 1 high) to a phone on its side (about 2.4), with a little to spare.
 */
export const SURROUNDINGS_ASPECTS = { narrowest: 0.45, widest: 2.6 } as const;
/**
 * The surroundings are decoration, drawn from Natural Earth's coarsest land (1:110m, a third of the bytes of the
 * board's 1:50m at these scales): coastlines simplified to within this many SVG units, points on whole units.
 */
const SURROUNDINGS_SIMPLIFY = 1.2;
/** How far the surroundings reach under the board (hidden by it), so that no hairline shows at the frame. */
const SURROUNDINGS_OVERLAP = 3;

const round1 = (v: number) => Math.round(v * 10) / 10;

/** A hand-written variant's data, as far as the generator reads it. */
export interface HandWrittenData {
  provinces: {
    id: string;
    name: string;
    kind: string;
    army: string[];
    fleet: string[];
    coasts?: Record<string, { name: string; fleet: string[] }>;
  }[];
  specialLinks?: { kind: string; between: string[] }[];
}

export interface GenerateOptions {
  /** Raster pixels per SVG unit (2 for committed output, 1 for quick drafts). */
  scale: number;
  /** Also write a raster preview of the partition here. */
  debugPng?: string;
  /** The hand-written variant's data (required for hand-written sources). */
  data?: HandWrittenData;
  log?: (...a: unknown[]) => void;
}

interface DrawPos {
  label: [number, number];
  unit: [number, number];
}

export interface GeneratedMap {
  /** geometry.json text. */
  geometry: string;
  /** map.svg text. */
  svg: string;
  /** Generated variants: the whole variant.json text. */
  variant?: string;
  /** Hand-written variants: the draw points, by province id and by `id/coast`. */
  draw?: { provinces: Record<string, DrawPos>; coasts: Record<string, [number, number]> };
  /** Generated variants with a README table: the table's rows. */
  readmeTable?: string;
  /** Adjacency the drawing shows that the data lacks, and the reverse (hand-written variants). Empty when they agree. */
  mismatches: string[];
  /** Other problems in the source (a coast that touches none of its seas, a wrong province kind). */
  problems: string[];
  summary: string;
}

const byLowerId = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

export function generateMap(source: MapSource, options: GenerateOptions): GeneratedMap {
  const S = options.scale;
  const log = options.log ?? (() => {});
  const generated = source.data.kind === 'generated' ? source.data : null;
  const handData = options.data;
  if (!generated && !handData) throw new Error(`${source.id}: a hand-written variant needs its variant.json data`);

  /* ---------------------------------------------------------------- */
  /* Provinces                                                         */
  /* ---------------------------------------------------------------- */

  const provinces: ProvinceSource[] = [...source.provinces].sort((a, b) => byLowerId(a.id, b.id));
  const ids = provinces.map((p) => p.id);
  {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id.toLowerCase())) throw new Error(`duplicate province id ${id}`);
      seen.add(id.toLowerCase());
    }
    if (generated) {
      for (const id of Object.keys(generated.centres)) if (!ids.includes(id)) throw new Error(`centres name unknown ${id}`);
      for (const p of provinces) if (!p.name) throw new Error(`${p.id} has no name (a generated variant's names come from its source)`);
    }
    for (const link of source.links)
      for (const id of link.between) if (!ids.includes(id)) throw new Error(`link ${link.between.join('–')} names unknown ${id}`);
  }
  const dataById = new Map((handData?.provinces ?? []).map((p) => [p.id, p]));
  if (handData) {
    const inData = [...dataById.keys()].sort(byLowerId);
    const missing = inData.filter((id) => !ids.includes(id));
    const extra = ids.filter((id) => !dataById.has(id));
    if (missing.length || extra.length)
      throw new Error(
        `the source's provinces differ from variant.json: missing ${missing.join(', ') || 'none'}; not in the data ${extra.join(', ') || 'none'}`,
      );
  }
  const nameOf = (p: ProvinceSource): string => p.name ?? dataById.get(p.id)?.name ?? p.id;
  const index = new Map(ids.map((id, i) => [id, i]));
  const NP = provinces.length;
  const BG_LAND = NP;
  const BG_WATER = NP + 1;
  const isSea = (i: number) => i >= 0 && i < NP && provinces[i].type === 'sea';
  const isProvince = (i: number) => i >= 0 && i < NP;

  /* ---------------------------------------------------------------- */
  /* Projection                                                        */
  /* ---------------------------------------------------------------- */

  const FRAME = source.frame;
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

  /* ---------------------------------------------------------------- */
  /* Land raster                                                       */
  /* ---------------------------------------------------------------- */

  function landRings(): number[][][] {
    const rp = geoConicConformal()
      .parallels(FRAME.parallels)
      .rotate([-FRAME.centralMeridian, 0])
      .scale(projection.scale() * S)
      .translate([projection.translate()[0] * S, projection.translate()[1] * S])
      .clipExtent([
        [-4, -4],
        [grid.w + 4, grid.h + 4],
      ]);
    return projectedRings(rp, naturalEarthLand('50m'));
  }

  const domain = new Uint8Array(N); // 1 land, 0 water
  rasterisePolygons(grid, landRings(), domain, 1);
  /** The coastline's own water, for drawing inland water. */
  const naturalLand = domain.slice();
  if (source.landFills?.length)
    rasterisePolygons(
      grid,
      source.landFills.map((ring) => ring.map(toRaster)),
      domain,
      1,
    );
  for (const cut of source.waterCuts) for (const p of polylinePixels(grid, cut.map(toRaster), 1.0)) domain[p] = 0;

  /* ---------------------------------------------------------------- */
  /* Seeds                                                             */
  /* ---------------------------------------------------------------- */

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

  const BACKGROUND = source.background;
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

  /** Water made land (filled, or an unseeded lake), drawn as decoration. */
  function inlandWater(): number[][][] {
    const lake = new Int16Array(N);
    for (let k = 0; k < N; k++) lake[k] = naturalLand[k] === 0 && domain[k] === 1 ? 1 : 0;
    const t = traceTopology(grid, lake);
    const coords = t.arcs.map((arc) => simplifyArc(grid, arc, SIMPLIFY).map(([x, y]) => [round1(x / S), round1(y / S)]));
    const rings: number[][][] = [];
    for (const refs of t.rings.get(1) ?? []) {
      const out: number[][] = [];
      for (const r of refs) for (const p of r >= 0 ? coords[r] : [...coords[~r]].reverse()) out.push(p);
      if (out.length >= 3) rings.push(out);
    }
    return rings;
  }

  /* ---------------------------------------------------------------- */
  /* Topology and geometry                                             */
  /* ---------------------------------------------------------------- */

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

  /* ---------------------------------------------------------------- */
  /* Named coasts: which coast each stretch of shore belongs to        */
  /* ---------------------------------------------------------------- */

  /** The coasts of province `i` that list sea `sea`. */
  const coastsListing = (i: number, sea: number): string[] =>
    Object.entries(provinces[i].coasts ?? {})
      .filter(([, c]) => c.seas.includes(ids[sea]))
      .map(([c]) => c);
  const sideSvg = new Map<string, [number, number]>();
  for (const p of provinces)
    for (const [c, coast] of Object.entries(p.coasts ?? {})) {
      for (const s of coast.seas) if (!index.has(s) || !isSea(index.get(s)!)) throw new Error(`${p.id}/${c} lists ${s}, which is not a sea`);
      if (coast.side) sideSvg.set(`${p.id}/${c}`, toSvg(coast.side));
    }
  /** Of several coasts listing one sea, the one whose `side` point is nearest to (x, y) in SVG units. */
  function nearestSide(i: number, candidates: string[], x: number, y: number): string {
    let best = candidates[0];
    let bd = Infinity;
    for (const c of candidates) {
      const s = sideSvg.get(`${ids[i]}/${c}`);
      if (!s) throw new Error(`${ids[i]}/${c} shares a sea with another coast of ${ids[i]} and needs a \`side\` point`);
      const d = Math.hypot(s[0] - x, s[1] - y);
      if (d < bd) (bd = d), (best = c);
    }
    return best;
  }
  /** The named coast of province `i` that arc `a` (between `i` and a sea) belongs to, or null. */
  function coastOfArc(i: number, a: number): string | null {
    const arc = topo.arcs[a];
    const sea = arc.left === i ? arc.right : arc.left;
    const cands = coastsListing(i, sea);
    if (cands.length <= 1) return cands[0] ?? null;
    const pts = arcCoords[a];
    const [x, y] = pts[Math.floor(pts.length / 2)];
    return nearestSide(i, cands, x, y);
  }

  /* ---------------------------------------------------------------- */
  /* Adjacency                                                         */
  /* ---------------------------------------------------------------- */

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
    if (len > 0 && len < 10)
      log(`  short border ${ids[Math.floor(k / 4096)]}–${ids[k % 4096]}: ${len.toFixed(2)} units${len < MIN_BORDER ? ' (ignored)' : ''}`);
  }

  const kindOf = (i: number): 'sea' | 'land' | 'coastal' | 'impassable' => {
    const p = provinces[i];
    if (p.type === 'sea') return 'sea';
    if (p.type === 'impassable') return 'impassable';
    for (let j = 0; j < NP; j++) if (isSea(j) && borders(i, j)) return 'coastal';
    // A canal's province holds fleets even where no sea touches it (a river port reached only by the canal).
    if (source.links.some((link) => link.kind === 'canal' && link.between[0] === p.id)) return 'coastal';
    return 'land';
  };
  const kinds = ids.map((_, i) => kindOf(i));

  /** The locations of land province `i` that face sea `sea`: the province, or the named coasts with enough of that shore. */
  function locsFor(i: number, sea: number): string[] {
    const p = provinces[i];
    if (!p.coasts) return [p.id];
    const cands = coastsListing(i, sea);
    if (cands.length <= 1) return cands.map((c) => `${p.id}/${c}`);
    const share = new Map<string, number>();
    for (const a of pairArcs.get(pairKey(i, sea)) ?? []) {
      const c = coastOfArc(i, a)!;
      share.set(c, (share.get(c) ?? 0) + arcLength[a]);
    }
    return cands.filter((c) => (share.get(c) ?? 0) >= MIN_BORDER).map((c) => `${p.id}/${c}`);
  }
  /** The location of land province `i` on sea `sea` at raster corner `node` (an end of one of its arcs with that sea). */
  function locAt(i: number, sea: number, node: number): string | null {
    const p = provinces[i];
    if (!p.coasts) return p.id;
    const cands = coastsListing(i, sea);
    if (cands.length <= 1) return cands[0] ? `${p.id}/${cands[0]}` : null;
    for (const a of pairArcs.get(pairKey(i, sea)) ?? []) {
      const arc = topo.arcs[a];
      if (!arc.closed && (arc.corners[0] === node || arc.corners[arc.corners.length - 1] === node)) return `${p.id}/${coastOfArc(i, a)}`;
    }
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
                const la = locAt(a, s, node);
                const lb = locAt(b, s, node);
                if (la && lb) addFleet(la, lb);
              }
            }
          }
        }
      } else if (ka === 'sea' && kb === 'sea') {
        addFleet(ids[a], ids[b]);
      } else {
        const [land, sea] = ka === 'sea' ? [b, a] : [a, b];
        const locs = locsFor(land, sea);
        if (locs.length === 0) problems.push(`${ids[land]} touches ${ids[sea]} but none of its named coasts lists it`);
        for (const loc of locs) addFleet(loc, ids[sea]);
      }
    }

  for (const link of source.links) {
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

  // Named coasts: each must touch at least one of its seas.
  for (const p of provinces) {
    if (!p.coasts) continue;
    for (const [c, coast] of Object.entries(p.coasts)) {
      // A coast with no sea (on a river, reached only by a canal link) touches nothing by design.
      const touching = coast.seas.filter((s) => borders(index.get(p.id)!, index.get(s)!));
      if (coast.seas.length > 0 && touching.length === 0) problems.push(`${p.id}/${c} touches none of ${coast.seas.join(', ')}`);
    }
  }

  /* ---------------------------------------------------------------- */
  /* Drawing positions                                                 */
  /* ---------------------------------------------------------------- */

  const dIn = distanceInside(grid, label);
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
        /** Whether a pixel of the province next to sea label `l` is on this coast. */
        const onCoast = (k: number, l: number): boolean => {
          if (!seaLabels.has(l)) return false;
          const cands = coastsListing(i, l);
          return cands.length <= 1 || nearestSide(i, cands, (px(k) + 0.5) / S, (py(k) + 0.5) / S) === c;
        };
        const coastPix: number[] = [];
        for (let k = 0; k < N; k++) {
          if (label[k] !== i) continue;
          const x = px(k);
          const y = py(k);
          if (
            (x > 0 && onCoast(k, label[k - 1])) ||
            (x < grid.w - 1 && onCoast(k, label[k + 1])) ||
            (y > 0 && onCoast(k, label[k - grid.w])) ||
            (y < grid.h - 1 && onCoast(k, label[k + grid.w]))
          )
            coastPix.push(k);
        }
        if (coastPix.length === 0) {
          // A coast on no sea (a river reached by a canal): its fleet stands where the province's unit does.
          coastUnit.set(`${p.id}/${c}`, draw[i].unit);
          continue;
        }
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

  /** Arcs of each named coast's shore (`id/coast` -> arc indices), in arc order. */
  const coastArcs = new Map<string, number[]>();
  for (const p of provinces) {
    if (!p.coasts) continue;
    const i = index.get(p.id)!;
    for (const c of Object.keys(p.coasts)) coastArcs.set(`${p.id}/${c}`, []);
    topo.arcs.forEach((arc, a) => {
      const other = arc.left === i ? arc.right : arc.right === i ? arc.left : -1;
      if (!isSea(other)) return;
      const c = coastOfArc(i, a);
      if (c) coastArcs.get(`${p.id}/${c}`)!.push(a);
    });
  }

  /* ---------------------------------------------------------------- */
  /* Adjacency against a hand-written variant's data                  */
  /* ---------------------------------------------------------------- */

  const mismatches: string[] = [];
  if (handData) {
    const pk = (a: string, b: string) => (byLowerId(a, b) <= 0 ? `${a}–${b}` : `${b}–${a}`);
    const drawnArmy = new Set<string>();
    const drawnFleet = new Set<string>();
    for (const [a, to] of army) for (const b of to) drawnArmy.add(pk(a, b));
    for (const [a, to] of fleet) for (const b of to) drawnFleet.add(pk(a, b));
    const dataArmy = new Set<string>();
    const dataFleet = new Set<string>();
    for (const p of handData.provinces) {
      for (const b of p.army) dataArmy.add(pk(p.id, b));
      if (p.coasts) for (const [c, coast] of Object.entries(p.coasts)) for (const b of coast.fleet) dataFleet.add(pk(`${p.id}/${c}`, b));
      else for (const b of p.fleet) dataFleet.add(pk(p.id, b));
    }
    const lenOf = (edge: string) => {
      const [a, b] = edge.split('–').map((l) => index.get(l.split('/')[0])!);
      return borderLen(a, b).toFixed(1);
    };
    for (const [what, drawn, data] of [
      ['army', drawnArmy, dataArmy],
      ['fleet', drawnFleet, dataFleet],
    ] as const) {
      for (const e of [...data].sort()) if (!drawn.has(e)) mismatches.push(`missing ${what} ${e}: in the data, not on the drawing (border ${lenOf(e)} units)`);
      for (const e of [...drawn].sort()) if (!data.has(e)) mismatches.push(`extra ${what} ${e}: on the drawing (border ${lenOf(e)} units), not in the data`);
    }
    for (const p of provinces) {
      const want = dataById.get(p.id)!.kind;
      const got = kinds[index.get(p.id)!];
      if (want !== got) problems.push(`${p.id} is ${want} in the data but ${got} on the drawing`);
      const dataCoasts = Object.keys(dataById.get(p.id)!.coasts ?? {}).sort();
      const srcCoasts = Object.keys(p.coasts ?? {}).sort();
      if (dataCoasts.join() !== srcCoasts.join())
        problems.push(`${p.id} has coasts ${dataCoasts.join('/') || 'none'} in the data but ${srcCoasts.join('/') || 'none'} in the source`);
    }
    const linkKey = (l: { kind: string; between: string[] }) => `${l.kind} ${l.between.join(' ')}`;
    const drawnLinks = new Set(source.links.map(linkKey));
    for (const l of handData.specialLinks ?? [])
      if (!drawnLinks.has(linkKey(l))) problems.push(`the data's special link ${linkKey(l)} is not among the source's links`);
  }

  /* ---------------------------------------------------------------- */
  /* variant.json (generated variants)                                */
  /* ---------------------------------------------------------------- */

  const sortLoc = byLowerId;
  const CENTRES: Record<string, CentreSource> = generated?.centres ?? {};

  let variantText: string | undefined;
  if (generated) {
    const variant = {
      id: generated.variant.id,
      name: generated.variant.name,
      description: generated.variant.description,
      powers: generated.powers,
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
      specialLinks: source.links.map(({ kind, between, note }) => ({ kind, between, note })),
      rules: generated.rules,
      start: {
        units: generated.startUnits,
        owners: Object.fromEntries(
          Object.entries(CENTRES)
            .filter(([, c]) => c.home)
            .sort((a, b) => sortLoc(a[0], b[0]))
            .map(([id, c]) => [id, c.home!]),
        ),
      },
    };
    variantText = `${JSON.stringify(variant, null, 2)}\n`;
  }

  /* ---------------------------------------------------------------- */
  /* geometry.json                                                     */
  /* ---------------------------------------------------------------- */

  const provinceRings = provinces.map((_, i) => ringsOf(i));
  const background = { land: ringsOf(BG_LAND) };
  const islands = decorativeIslands();
  let geometryText: string;
  {
    const head = {
      description:
        `${source.name} province polygons in SVG user units (viewBox below), generated by tools/mapgen/generate.ts. ` +
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
    };
    // The shore of each named coast (its borders with its seas), so that a sea two coasts share is split between them.
    const coasts = Object.fromEntries([...coastArcs].map(([loc, arcs]) => [loc, arcs.map((a) => arcCoords[a])]));
    // The passages and canals: the adjacency the drawing shows as links rather than borders.
    const links = source.links.map(({ kind, between, note }) => ({ kind, between, note }));
    // One province per line, so that a change to the map gives a readable diff.
    const body = [
      ...Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`),
      `  "provinces": {\n${ids.map((id, i) => `    ${JSON.stringify(id)}: ${JSON.stringify(provinceRings[i])}`).join(',\n')}\n  }`,
      `  "background": ${JSON.stringify(background)}`,
      `  "islands": ${JSON.stringify(islands)}`,
      `  "coasts": {${
        Object.keys(coasts).length
          ? `\n${Object.entries(coasts)
              .map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
              .join(',\n')}\n  `
          : ''
      }}`,
      `  "links": ${JSON.stringify(links)}`,
    ];
    geometryText = `{\n${body.join(',\n')}\n}\n`;
  }

  /* ---------------------------------------------------------------- */
  /* map.svg                                                           */
  /* ---------------------------------------------------------------- */

  /**
   * The land and sea beyond the board's frame (muted, not interactive, not part of play): the bands a frame of
   * another shape shows around the whole board (SURROUNDINGS_ASPECTS) show geography rather than blank. Drawn from
   * Natural Earth land in the board's projection, in four bands (above, below, left, right of the board: a view
   * never goes past the board's width and height at once, so the corners are never seen), coarsely simplified.
   */
  function surroundingsMarkup(): string {
    const above = Math.max(0, Math.ceil((W / SURROUNDINGS_ASPECTS.narrowest - H) / 2));
    const beside = Math.max(0, Math.ceil((H * SURROUNDINGS_ASPECTS.widest - W) / 2));
    const o = SURROUNDINGS_OVERLAP;
    const bands: [[number, number], [number, number]][] = [];
    if (above > 0)
      bands.push(
        [
          [0, -above],
          [W, o],
        ],
        [
          [0, H - o],
          [W, H + above],
        ],
      );
    if (beside > 0)
      bands.push(
        [
          [-beside, 0],
          [o, H],
        ],
        [
          [W - o, 0],
          [W + beside, H],
        ],
      );
    const land = naturalEarthLand('110m');
    const rings: number[][][] = [];
    for (const band of bands) {
      const clipped = geoConicConformal()
        .parallels(FRAME.parallels)
        .rotate([-FRAME.centralMeridian, 0])
        .scale(projection.scale())
        .translate(projection.translate())
        .clipExtent(band);
      projectedRings(clipped, land, rings);
    }
    const coarse: number[][][] = [];
    for (const ring of rings) {
      // Closed: split at the point farthest from the first, so that both halves keep their ends.
      let far = 0;
      for (let i = 1; i < ring.length; i++)
        if (Math.hypot(ring[i][0] - ring[0][0], ring[i][1] - ring[0][1]) > Math.hypot(ring[far][0] - ring[0][0], ring[far][1] - ring[0][1])) far = i;
      const simple = [
        ...douglasPeucker(ring.slice(0, far + 1), SURROUNDINGS_SIMPLIFY),
        ...douglasPeucker([...ring.slice(far), ring[0]], SURROUNDINGS_SIMPLIFY).slice(1, -1),
      ];
      const whole = simple.map(([x, y]) => [Math.round(x), Math.round(y)]).filter((p, i, a) => i === 0 || p[0] !== a[i - 1][0] || p[1] !== a[i - 1][1]);
      let area = 0;
      for (let i = 0; i < whole.length; i++) {
        const [x0, y0] = whole[i];
        const [x1, y1] = whole[(i + 1) % whole.length];
        area += x0 * y1 - x1 * y0;
      }
      // Islets smaller than a few units are not worth their bytes at the scale the surroundings are seen.
      if (whole.length >= 3 && Math.abs(area / 2) >= 6) coarse.push(whole);
    }
    // Relative moves: the surroundings are the largest part of a small file's growth.
    const relative = coarse
      .map((r) => {
        let [px, py] = r[0];
        const steps = r.slice(1).map(([x, y]) => {
          const step = `${x - px} ${y - py}`;
          [px, py] = [x, y];
          return step;
        });
        return `M${r[0][0]} ${r[0][1]}l${steps.join(' ')}z`;
      })
      .join('');
    const sea = [above > 0 ? `M0 ${-above}H${W}V${H + above}H0Z` : '', beside > 0 ? `M${-beside} 0H${W + beside}V${H}H${-beside}Z` : ''].join('');
    return `<g id="surroundings"><path class="beyond-sea" d="${sea}"/><path class="beyond-land" d="${relative}"/></g>`;
  }

  const pathD = (rings: number[][][]) => rings.map((r) => `M${r.map(([x, y]) => `${x} ${y}`).join('L')}Z`).join('');
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  function svg(): string {
    const lines: string[] = [];
    lines.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="Georgia, 'Times New Roman', serif">`);
    lines.push(`<title>${esc(source.name)}</title>`);
    lines.push(`<desc>Generated by tools/mapgen/generate.ts from Natural Earth 1:50m land; do not edit by hand.</desc>`);
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
#surroundings{pointer-events:none}
.beyond-sea{fill:#d9e0dd}
.beyond-land{fill:#e7e1d1;stroke:#bfb397;stroke-width:0.6;stroke-linejoin:round}
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
#labels text.impassable{fill:#6b5a3e;stroke:#e4dcc6}${source.drawInlandWater ? '\n.inland-water{fill:#c4d4d0;stroke:#7d9db0;stroke-width:0.5;pointer-events:none}' : ''}
</style>
</defs>`);
    // Beyond the frame, under the board: seen only in the bands around a board shown whole in a frame of another shape.
    lines.push(surroundingsMarkup());
    lines.push(`<rect id="background-water" x="0" y="0" width="${W}" height="${H}" fill="#d3dcd8"/>`);
    lines.push(`<path id="background-land" class="bg-land" d="${pathD(background.land)}"/>`);
    lines.push(`<g id="provinces">`);
    provinces.forEach((p, i) => {
      lines.push(
        `<path id="p-${p.id}" class="province ${kinds[i]}" fill-rule="evenodd" d="${pathD(provinceRings[i])}"><title>${esc(nameOf(p))}</title></path>`,
      );
    });
    lines.push(`</g>`);
    // Coastlines: every arc between land (province or background) and water, drawn on top.
    const isLandLabel = (l: number) => l === BG_LAND || (isProvince(l) && !isSea(l));
    const isWaterLabel = (l: number) => l === BG_WATER || isSea(l);
    const coastPaths: string[] = [];
    topo.arcs.forEach((arc, i) => {
      if ((isLandLabel(arc.left) && isWaterLabel(arc.right)) || (isWaterLabel(arc.left) && isLandLabel(arc.right)))
        coastPaths.push(`M${arcCoords[i].map(([x, y]) => `${x} ${y}`).join('L')}`);
    });
    lines.push(`<g id="rivers">`);
    for (const r of source.rivers)
      lines.push(
        `<path class="river" d="M${r.course
          .map(toSvg)
          .map(([x, y]) => `${x} ${y}`)
          .join('L')}"><title>${esc(r.name)}</title></path>`,
      );
    lines.push(`</g>`);
    lines.push(`<path id="coastline" class="coastline" d="${coastPaths.join('')}"/>`);
    lines.push(`<path id="islands" class="island" d="${pathD(islands)}"/>`);
    if (source.drawInlandWater) lines.push(`<path id="inland-water" class="inland-water" fill-rule="evenodd" d="${pathD(inlandWater())}"/>`);
    // Links.
    lines.push(`<g id="links">`);
    for (const link of source.links) {
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
      for (const [c, coast] of Object.entries(p.coasts)) {
        // This coast's arcs, chained; ticks at the chain ends.
        const ends = new Map<string, number>();
        const keyOf = (q: number[]) => `${q[0]},${q[1]}`;
        const segs = coastArcs.get(`${p.id}/${c}`)!.map((a) => arcCoords[a]);
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
            lines.push(
              `<line x1="${round1(q[0] - nx * 3.5)}" y1="${round1(q[1] - ny * 3.5)}" x2="${round1(q[0] + nx * 3.5)}" y2="${round1(q[1] + ny * 3.5)}"/>`,
            );
          }
        const u = coastUnit.get(`${p.id}/${c}`);
        const m = coastMid.get(`${p.id}/${c}`);
        if (u && m) {
          const dx = m[0] - u[0];
          const dy = m[1] - u[1];
          const len = Math.hypot(dx, dy) || 1;
          const [tx, ty] = [round1(m[0] + (dx / len) * 7), round1(m[1] + (dy / len) * 7)];
          lines.push(
            `<text x="${tx}" y="${ty}" text-anchor="middle" dominant-baseline="central">${c}<title>${esc(nameOf(p))}, ${esc(coast.name)}</title></text>`,
          );
        }
      }
    }
    lines.push(`</g>`);
    lines.push(`<g id="labels">`);
    provinces.forEach((p, i) => {
      const [x, y] = draw[i].label;
      lines.push(`<text id="l-${p.id}" class="${kinds[i]}" x="${x}" y="${y}"><title>${esc(nameOf(p))}</title>${p.id}</text>`);
    });
    lines.push(`</g>`);
    lines.push(`<rect class="frame" x="1" y="1" width="${W - 2}" height="${H - 2}"/>`);
    lines.push(`</svg>`);
    return `${lines.join('\n')}\n`;
  }

  /* ---------------------------------------------------------------- */
  /* README table (generated variants)                                */
  /* ---------------------------------------------------------------- */

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

  /* ---------------------------------------------------------------- */
  /* Debug preview                                                     */
  /* ---------------------------------------------------------------- */

  if (options.debugPng) {
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
    writePng(options.debugPng, grid.w, grid.h, rgb);
    log(`wrote ${options.debugPng}`);
  }

  const supply = Object.values(CENTRES).reduce((s, c) => s + (c.centre ? Math.max(c.centre.supply, ...Object.values(c.centre.supplyFor ?? {})) : 0), 0);
  const summary =
    `${NP} provinces (${kinds.filter((k) => k === 'sea').length} sea, ${kinds.filter((k) => k === 'land' || k === 'coastal').length} land, ` +
    `${kinds.filter((k) => k === 'impassable').length} impassable)${generated ? `; supply ${supply}` : ''}; ${topo.arcs.length} arcs; ${W}×${H}`;

  return {
    geometry: geometryText,
    svg: svg(),
    variant: variantText,
    draw: generated
      ? undefined
      : {
          provinces: Object.fromEntries(ids.map((id, i) => [id, draw[i]])),
          coasts: Object.fromEntries(coastUnit),
        },
    readmeTable: generated?.readmeTable ? readmeTable() : undefined,
    mismatches,
    problems,
    summary,
  };
}

/**
 * A hand-written variant.json's text with the drawing's `draw` points put in
 * (each province's label and unit, each named coast's unit) and nothing else
 * changed: the text must already be `JSON.stringify(data, null, 2)` with a
 * final newline, so that writing it back rewrites only those points.
 */
export function withDrawPoints(text: string, draw: NonNullable<GeneratedMap['draw']>): string {
  const data = JSON.parse(text) as {
    provinces: { id: string; draw?: unknown; coasts?: Record<string, { draw?: unknown }> }[];
  };
  if (`${JSON.stringify(data, null, 2)}\n` !== text)
    throw new Error('variant.json is not formatted as JSON.stringify(data, null, 2) with a final newline; writing the draw points would rewrite more');
  for (const p of data.provinces) {
    const at = draw.provinces[p.id];
    if (!at) throw new Error(`no drawing point for ${p.id}`);
    p.draw = at;
    for (const [c, coast] of Object.entries(p.coasts ?? {})) {
      const unit = draw.coasts[`${p.id}/${c}`];
      if (!unit) throw new Error(`no drawing point for ${p.id}/${c}`);
      coast.draw = { unit };
    }
  }
  return `${JSON.stringify(data, null, 2)}\n`;
}
