/**
 * What the map draws on top of the drawing for a position: who owns each
 * province, the supply-centre markers, the unit counters. Pure functions of
 * the variant and the game state, so they are tested without a browser.
 * Every fact comes from the variant data and the state; no rule is decided here.
 */
import { findLocation, findProvince, locationName as engineLocationName, type GameState, type Unit, type Variant } from '../../../shared/index.ts';

export type Point = readonly [number, number];

export interface PowerStyle {
  id: string;
  index: number;
  adjective: string;
  abbreviation: string;
  colour: string;
  /** One letter drawn on its counters. */
  initial: string;
}

export type CentreKind = 'single' | 'double' | 'triple' | 'build';

export interface CentreMarker {
  province: string;
  name: string;
  kind: CentreKind;
  /** Supply to the owner (or, unowned, the most it gives anyone). */
  supply: number;
  owner: string | null;
  destroyed: boolean;
  rebuilding: boolean;
  rebel: boolean;
  indestructible: boolean;
  /** Home centre of this power, if any. */
  home: string | null;
  at: Point;
}

export interface UnitCounter {
  /** Stable key: location and whether dislodged. */
  key: string;
  power: string;
  type: 'army' | 'fleet';
  location: string;
  province: string;
  at: Point;
  dislodged: boolean;
  /** "Roman army in Rome", "Egyptian fleet in Alexandria (Red Sea Coast)", "dislodged …". */
  label: string;
}

export interface MapOverlay {
  /** Province id → power whose colour fills it (centre owners and build-centre controllers). */
  fills: Map<string, string>;
  centres: CentreMarker[];
  units: UnitCounter[];
}

/** Power styles in variant order; initials are the first letter unless two powers share one. */
export function powerStyles(variant: Variant): PowerStyle[] {
  const powers = variant.data.powers;
  const firstLetters = powers.map((p) => p.id[0].toUpperCase());
  return powers.map((p, index) => ({
    id: p.id,
    index,
    adjective: p.adjective,
    abbreviation: p.abbreviation,
    colour: p.colour,
    initial: firstLetters.filter((l) => l === firstLetters[index]).length > 1 ? p.abbreviation.slice(0, 2) : firstLetters[index],
  }));
}

/** Where a unit at this location is drawn: the coast's own point for a named coast, else the province's. */
export function locationPoint(variant: Variant, location: string): Point | null {
  const l = findLocation(variant, location);
  if (l < 0) return null;
  const p = variant.locationProvince[l];
  const province = variant.data.provinces[p];
  if (l !== p && province.coasts) {
    const coast = variant.locationIds[l].split('/')[1];
    const point = province.coasts[coast]?.draw?.unit;
    if (point) return point;
  }
  return province.draw?.unit ?? null;
}

/** The province's label point (where its name is written). */
export function labelPoint(variant: Variant, province: string): Point | null {
  const p = findProvince(variant, province);
  return p < 0 ? null : (variant.data.provinces[p].draw?.label ?? null);
}

/** "Aquitania (South Coast)", "Rome". */
export function locationName(variant: Variant, location: string): string {
  const l = findLocation(variant, location);
  return l < 0 ? location : engineLocationName(variant, l);
}

export function describeUnit(variant: Variant, unit: Unit, dislodged = false): string {
  const power = variant.data.powers.find((p) => p.id === unit.power);
  return `${dislodged ? 'dislodged ' : ''}${power?.adjective ?? unit.power} ${unit.type} in ${locationName(variant, unit.at)}`;
}

/** "Roman triple supply centre (for Rome)", "neutral special build centre", "… (destroyed, being rebuilt)". */
export function describeCentre(c: CentreMarker, powers: ReadonlyMap<string, PowerStyle>): string {
  const what =
    c.kind === 'build' ? 'special build centre' : `${c.kind === 'single' ? '' : `${c.kind} `}supply centre${c.kind === 'triple' ? ' (for Rome)' : ''}`;
  const flags = [c.destroyed ? 'destroyed' : '', c.rebuilding ? 'being rebuilt' : '', c.rebel ? 'rebel' : '', c.indestructible ? 'indestructible' : '']
    .filter(Boolean)
    .join(', ');
  const owner = c.owner ? `${powers.get(c.owner)?.adjective ?? c.owner}` : 'neutral';
  return `${owner} ${what}${flags ? ` (${flags})` : ''}`;
}

/** What a province on the map says to a screen reader: its name, centre and units, and what the player may do there. */
export interface ProvinceInWords {
  name: string;
  centre: string | undefined;
  units: readonly UnitCounter[];
  /** A build site, or another province ordered as itself (no unit to order stands there). */
  site: boolean;
  adjustment: boolean;
  /** The order given there, if any. */
  ordered: string | undefined;
  target: boolean;
}

/** "Neapolis; neutral supply centre; a build site: B or Enter to build here; ordered: Build F Nea". */
export function describeProvince(p: ProvinceInWords): string {
  const parts = [p.name];
  if (p.centre) parts.push(p.centre);
  for (const u of p.units) parts.push(u.label);
  if (p.site) parts.push(p.adjustment ? 'a build site: B or Enter to build here' : 'can be ordered: Enter to select');
  if (p.site && p.ordered !== undefined) parts.push(`ordered: ${p.ordered}`);
  if (p.target) parts.push('a target for the order being given');
  return parts.join('; ');
}

/** Centre markers sit just right of the province's name, so the unit point stays free for the counter. */
const CENTRE_OFFSET_PER_CHAR = 3.4;

export function computeOverlay(variant: Variant, state: GameState): MapOverlay {
  const fills = new Map<string, string>();
  for (const [province, power] of Object.entries(state.owners)) fills.set(canonicalProvince(variant, province), power);
  for (const [province, power] of Object.entries(state.control)) fills.set(canonicalProvince(variant, province), power);

  const destroyed = new Set(state.destroyed.map((id) => canonicalProvince(variant, id)));
  const rebuilding = new Set(state.rebuilding.map((id) => canonicalProvince(variant, id)));
  const centres: CentreMarker[] = [];
  variant.data.provinces.forEach((province, p) => {
    if (!province.centre && !province.buildCentre) return;
    const label = province.draw?.label;
    if (!label) return;
    const owner = (province.centre ? state.owners[province.id] : state.control[province.id]) ?? null;
    let supply = 0;
    if (province.centre) {
      const exceptions = Object.values(province.centre.supplyFor ?? {});
      supply = Math.max(province.centre.supply, ...exceptions);
    }
    const kind: CentreKind = !province.centre ? 'build' : supply >= 3 ? 'triple' : supply === 2 ? 'double' : 'single';
    centres.push({
      province: province.id,
      name: province.name,
      kind,
      supply,
      owner,
      destroyed: destroyed.has(province.id),
      rebuilding: rebuilding.has(province.id),
      rebel: province.centre?.rebel === true,
      indestructible: province.centre?.indestructible === true,
      home: variant.homeOf[p] >= 0 ? variant.powers[variant.homeOf[p]] : null,
      at: [label[0] + province.id.length * CENTRE_OFFSET_PER_CHAR + 6, label[1]],
    });
  });

  const units: UnitCounter[] = [];
  const counter = (unit: Unit, dislodged: boolean): UnitCounter | null => {
    const at = locationPoint(variant, unit.at);
    const l = findLocation(variant, unit.at);
    if (!at || l < 0) return null;
    const location = variant.locationIds[l];
    return {
      key: `${dislodged ? 'd:' : ''}${location}`,
      power: unit.power,
      type: unit.type,
      location,
      province: variant.provinceIds[variant.locationProvince[l]],
      at: dislodged ? [at[0] + DISLODGED_OFFSET[0], at[1] + DISLODGED_OFFSET[1]] : at,
      dislodged,
      label: describeUnit(variant, unit, dislodged),
    };
  };
  for (const u of state.units) {
    const c = counter(u, false);
    if (c) units.push(c);
  }
  for (const u of state.dislodged) {
    const c = counter(u, true);
    if (c) units.push(c);
  }
  return { fills, centres, units };
}

/** A dislodged unit is drawn beside the unit that took its place. */
export const DISLODGED_OFFSET: Point = [14, 11];

function canonicalProvince(variant: Variant, id: string): string {
  const p = findProvince(variant, id);
  return p < 0 ? id : variant.provinceIds[p];
}
