/**
 * The hand-written source of a drawn variant: what `npm run mapgen -- <id>`
 * (tools/mapgen/generate.ts) needs to draw `maps/<id>/` from real geography.
 * Each variant has one module `tools/mapgen/variants/<id>.ts` whose default
 * export is a `MapSource`.
 *
 * Conventions:
 * - Places are real: [longitude, latitude] in degrees (`LonLat`). Nothing is
 *   given in SVG units; the frame's projection places everything.
 * - The land is Natural Earth 1:50m. `waterCuts` (polylines) paint narrow
 *   straits as water; `landFills` (polygons) paint water as land, for water
 *   the variant treats as land (Standard's Sea of Marmara, inside
 *   Constantinople). With `drawInlandWater`, water made land (filled, or a lake
 *   with no seed) is still drawn, as decoration.
 * - Every province has an `anchor` and optional extra `seeds` (points or
 *   polylines). A seeded flood fill gives each land pixel to the nearest land
 *   seed and each water pixel to the nearest sea seed, reached without
 *   crossing the other domain. `weight` below 1 grows a province.
 * - Beyond the frame the drawing goes on (the surroundings: Natural Earth's
 *   1:110m land, muted, not interactive, out of play), far enough to fill the
 *   bands a screen of another shape shows around the whole board; the viewBox
 *   stays the frame, so the map pictures and the file opened alone show the
 *   board only.
 * - Land outside every province is `background` (drawn, out of play): its
 *   `areas` are polygons, its `land`/`water` are seeds. An island with no seed
 *   becomes part of the sea around it (drawn as decoration); a lake with no
 *   seed becomes land.
 * - Two provinces border each other when their common border is at least
 *   `MIN_BORDER` units long. Adjacency follows from the borders: armies
 *   between neighbouring land provinces, fleets between neighbouring seas,
 *   between a sea and the land (or named coast) it touches, and between two
 *   coastal provinces whose land border ends at a sea both touch; plus the
 *   `links` (passages: army and fleet both ways; canals: a province to two seas).
 * - A province with named coasts lists each coast's seas. When one sea is
 *   listed by two coasts (Standard's Spain on the Mid-Atlantic), each stretch
 *   of that shore goes to the coast whose `side` point is nearest.
 * - Two kinds of variant (`data`):
 *   - `generated`: the generator writes `variant.json` too, from `data` and
 *     the adjacency it finds (Diadochi V).
 *   - `hand-written`: `variant.json` is the variant's data and the rules'
 *     adjacency. The generator writes geometry.json and map.svg, writes only the
 *     `draw` points into variant.json, and fails, listing every border the
 *     drawing has that the data lacks and every adjacency the drawing does not
 *     show. Province names come from the data; a link in the data's
 *     `specialLinks` must be among the source's `links` (so it is drawn);
 *     `links` not in the data are the drawing's conventional exceptions
 *     (a passage across a strait the rules treat as land), recorded in
 *     geometry.json for the geometry test.
 */

export type LonLat = [number, number];
/** A point, or a polyline given as a list of points. */
export type SeedShape = LonLat | LonLat[];

export interface CoastSource {
  name: string;
  /** The seas this coast faces: the coast's fleet moves are to these seas and along their shores. */
  seas: string[];
  /** Where a fleet on this coast is drawn (optional override). */
  unit?: LonLat;
  /** A point off this coast; needed when another coast of the province lists one of the same seas. */
  side?: LonLat;
}

export interface ProvinceSource {
  id: string;
  /** The name written to a generated variant.json; a hand-written variant's names come from its data. */
  name?: string;
  /** Other names players may type (generated variants only). */
  aliases?: string[];
  /** sea, or land (made `coastal` when it touches a sea), or impassable. */
  type: 'sea' | 'land' | 'impassable';
  anchor: LonLat;
  seeds?: SeedShape[];
  weight?: number;
  coasts?: Record<string, CoastSource>;
  /** Drawing overrides (lon/lat). */
  label?: LonLat;
  unit?: LonLat;
}

/**
 * A passage (two provinces, both ways for armies and fleets) or a canal (a
 * province and the two seas it joins; the province is coastal even if no sea
 * touches it, as a river port reached only by the canal).
 */
export interface LinkSource {
  kind: 'passage' | 'canal';
  between: string[];
  note: string;
  /** The real points the drawn link joins. */
  draw: LonLat[];
}

export interface FrameSource {
  /** SVG width in units; the height follows from the extent. */
  width: number;
  /** Conic conformal: standard parallels and central meridian. */
  parallels: [number, number];
  centralMeridian: number;
  /** Points the drawing must contain. */
  extent: LonLat[];
  /** Margin around the extent, in SVG units. */
  margin: number;
}

export interface BackgroundSource {
  land: SeedShape[];
  water: SeedShape[];
  /** Land inside these polygons is out of play. */
  areas: LonLat[][];
}

export interface CentreSource {
  centre?: { supply: 1 | 2 | 3; supplyFor?: Record<string, number>; rebel?: boolean; indestructible?: boolean };
  home?: string;
  buildCentre?: boolean;
}

/** The data a generated variant.json holds besides its provinces' geometry and adjacency. */
export interface GeneratedData {
  kind: 'generated';
  variant: { id: string; name: string; description: string };
  powers: { id: string; abbreviation: string; adjective: string; colour: string }[];
  rules: unknown;
  startUnits: { power: string; type: 'army' | 'fleet'; at: string }[];
  centres: Record<string, CentreSource>;
  /** Write the province table between the README's `province-table` markers. */
  readmeTable: boolean;
}

export interface MapSource {
  /** The variant id: the generator writes maps/<id>/. */
  id: string;
  /** The map's title in the SVG. */
  name: string;
  frame: FrameSource;
  background: BackgroundSource;
  waterCuts: LonLat[][];
  landFills?: LonLat[][];
  drawInlandWater?: boolean;
  provinces: ProvinceSource[];
  rivers: { name: string; course: LonLat[] }[];
  links: LinkSource[];
  data: GeneratedData | { kind: 'hand-written' };
}
