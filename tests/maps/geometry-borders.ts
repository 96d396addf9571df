/**
 * Borders and adjacency read from a drawn variant's geometry.json alone, for
 * the geometry tests. Neighbouring provinces share identical vertices, so a
 * border is the set of polygon segments two provinces have in common.
 */
import type { ParsedMapData } from '../../shared/variant/schema.ts';

/** Shortest shared border (SVG units) that makes two provinces neighbours. */
export const MIN_BORDER = 2;

type Pt = number[];
export interface Geometry {
  minBorder: number;
  provinces: Record<string, number[][][]>;
  /** The shore of each named coast (`id/coast`), as polylines. */
  coasts: Record<string, number[][][]>;
  links: { kind: 'passage' | 'canal'; between: string[] }[];
}

const vkey = (p: Pt) => `${p[0]},${p[1]}`;
const skey = (a: Pt, b: Pt) => {
  const ka = vkey(a);
  const kb = vkey(b);
  return ka < kb ? `${ka};${kb}` : `${kb};${ka}`;
};
export const pkey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** What a drawing shows: its borders, and the adjacency they give. */
export function readDrawing(map: ParsedMapData, geometry: Geometry) {
  const byId = new Map(map.provinces.map((p) => [p.id, p]));
  const ids = map.provinces.map((p) => p.id);
  const kind = (id: string) => byId.get(id)!.kind;
  const isSea = (id: string) => kind(id) === 'sea';
  const isLandish = (id: string) => kind(id) === 'land' || kind(id) === 'coastal';

  // Segment -> provinces that have it; vertex -> segments at it.
  const segOwners = new Map<string, string[]>();
  const segPts = new Map<string, [Pt, Pt]>();
  const segsAt = new Map<string, string[]>();
  for (const [id, rs] of Object.entries(geometry.provinces))
    for (const r of rs)
      for (let i = 0; i < r.length; i++) {
        const a = r[i];
        const b = r[(i + 1) % r.length];
        const k = skey(a, b);
        const owners = segOwners.get(k) ?? [];
        if (!owners.includes(id)) owners.push(id);
        segOwners.set(k, owners);
        if (!segPts.has(k)) {
          segPts.set(k, [a, b]);
          for (const p of [a, b]) segsAt.set(vkey(p), [...(segsAt.get(vkey(p)) ?? []), k]);
        }
      }
  const shared = new Map<string, string[]>();
  for (const [k, owners] of segOwners)
    for (let i = 0; i < owners.length; i++)
      for (let j = i + 1; j < owners.length; j++) {
        const pk = pkey(owners[i], owners[j]);
        shared.set(pk, [...(shared.get(pk) ?? []), k]);
      }
  const borderLength = (a: string, b: string): number =>
    (shared.get(pkey(a, b)) ?? []).reduce((s, k) => {
      const [p, q] = segPts.get(k)!;
      return s + Math.hypot(q[0] - p[0], q[1] - p[1]);
    }, 0);
  const borders = (a: string, b: string) => borderLength(a, b) >= MIN_BORDER;

  // Shore segment -> the named coast (`id/coast`) it belongs to.
  const shoreOf = new Map<string, string>();
  const doubleShore: string[] = [];
  for (const [loc, lines] of Object.entries(geometry.coasts ?? {}))
    for (const line of lines)
      for (let i = 0; i + 1 < line.length; i++) {
        const k = skey(line[i], line[i + 1]);
        if (shoreOf.has(k) && shoreOf.get(k) !== loc) doubleShore.push(`${k} on ${shoreOf.get(k)} and ${loc}`);
        shoreOf.set(k, loc);
      }
  /** The locations of `id` along its shared segments with sea `sea` (only those at vertex `at`, if given). */
  function locsOn(id: string, sea: string, at?: string): Set<string> {
    const segs = at
      ? (segsAt.get(at) ?? []).filter((k) => segOwners.get(k)!.includes(id) && segOwners.get(k)!.includes(sea))
      : (shared.get(pkey(id, sea)) ?? []);
    if (!byId.get(id)!.coasts) return new Set(segs.length ? [id] : []);
    return new Set(segs.map((k) => shoreOf.get(k) ?? `${id}/?`));
  }

  const army = new Set<string>();
  const fleet = new Set<string>();
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i];
      const b = ids[j];
      if (!borders(a, b) || kind(a) === 'impassable' || kind(b) === 'impassable') continue;
      if (isLandish(a) && isLandish(b)) {
        army.add(pkey(a, b));
        if (kind(a) !== 'coastal' || kind(b) !== 'coastal') continue;
        // Shared coastline: an end of the common border is a vertex of a sea both provinces touch.
        const degree = new Map<string, number>();
        for (const k of shared.get(pkey(a, b))!) for (const p of segPts.get(k)!) degree.set(vkey(p), (degree.get(vkey(p)) ?? 0) + 1);
        for (const [v, d] of degree) {
          if (d !== 1) continue;
          const seas = new Set((segsAt.get(v) ?? []).flatMap((k) => segOwners.get(k)!).filter((s) => isSea(s) && borders(a, s) && borders(b, s)));
          for (const s of seas) for (const la of locsOn(a, s, v)) for (const lb of locsOn(b, s, v)) fleet.add(pkey(la, lb));
        }
      } else if (isSea(a) && isSea(b)) {
        fleet.add(pkey(a, b));
      } else {
        const [land, sea] = isSea(a) ? [b, a] : [a, b];
        for (const loc of locsOn(land, sea)) fleet.add(pkey(loc, sea));
      }
    }
  return { army, fleet, borderLength, borders, doubleShore, locsOn, isSea };
}

/** Army and fleet edges listed in variant.json, with the ones listed in one direction only. */
export function listedEdges(map: ParsedMapData) {
  const army = new Set<string>();
  const fleet = new Set<string>();
  const directed = new Set<string>();
  for (const p of map.provinces) {
    for (const to of p.army) {
      army.add(pkey(p.id, to));
      directed.add(`A ${p.id}>${to}`);
    }
    const lists: [string, string[]][] = p.coasts ? Object.entries(p.coasts).map(([c, coast]) => [`${p.id}/${c}`, coast.fleet]) : [[p.id, p.fleet]];
    for (const [from, list] of lists)
      for (const to of list) {
        fleet.add(pkey(from, to));
        directed.add(`F ${from}>${to}`);
      }
  }
  const asymmetric = [...directed].filter((d) => {
    const [t, rest] = d.split(' ');
    const [a, b] = rest.split('>');
    return !directed.has(`${t} ${b}>${a}`);
  });
  return { army, fleet, asymmetric };
}

/** Edges the links give: a passage joins two provinces for armies and fleets; a canal joins a province to two seas. */
export function linkEdges(links: { kind: 'passage' | 'canal'; between: string[] }[]) {
  const army = new Set<string>();
  const fleet = new Set<string>();
  for (const link of links) {
    if (link.kind === 'passage') {
      const [a, b] = link.between;
      army.add(pkey(a, b));
      fleet.add(pkey(a, b));
    } else {
      const [p, s1, s2] = link.between;
      fleet.add(pkey(p, s1));
      fleet.add(pkey(p, s2));
    }
  }
  return { army, fleet };
}

/** Whether point `pt` lies inside the rings (even-odd rule). */
export function insideRings(rings: number[][][], pt: Pt): boolean {
  let inside = false;
  for (const r of rings)
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i];
      const [xj, yj] = r[j];
      if (yi > pt[1] !== yj > pt[1] && pt[0] < ((xj - xi) * (pt[1] - yi)) / (yj - yi) + xi) inside = !inside;
    }
  return inside;
}
