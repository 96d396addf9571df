/**
 * What the map draws on top of the drawing for a position: who owns each
 * province, the supply-centre markers, the unit counters. Pure functions of
 * the variant and the game state, so they are tested without a browser.
 * Every fact comes from the variant data and the state; no rule is decided here.
 */
import { findLocation, findProvince, locationName as engineLocationName, type GameState, type Loan, type Unit, type Variant } from '../index.ts';
import { compileEconomy } from '../game/economy.ts';

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
  /** The centre lent (a variant's rule, Diadochi V's), as the position keeps it; null when it is not. */
  loan: CentreLoan | null;
  at: Point;
}

/** A lent centre: its links from the owner on, and who its supply goes to (the engine's holder: the last borrower). */
export interface CentreLoan {
  links: readonly Loan[];
  holder: string;
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
  /** Its centre's loan in words (loanWords), if it is lent. */
  loan?: string;
}

/** "Neapolis; neutral supply centre; a build site: B or Enter to build here; ordered: Build F Nea". */
export function describeProvince(p: ProvinceInWords): string {
  const parts = [p.name];
  if (p.centre) parts.push(p.centre);
  if (p.loan) parts.push(`${p.loan[0].toLowerCase()}${p.loan.slice(1)}`);
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

  const loans = centreLoans(variant, state);
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
      loan: loans.get(province.id) ?? null,
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

/**
 * The position's loans by centre: the links in order from the owner (owner to A, A on to B), and the holder the
 * engine's rules give the centre's supply to. A position whose loans the engine cannot read shows none.
 */
export function centreLoans(variant: Variant, state: GameState): Map<string, CentreLoan> {
  const lent = new Map<string, CentreLoan>();
  if (state.loans.length === 0) return lent;
  const eco = compileEconomy(variant, state);
  if (!eco.ok) return lent;
  for (const id of new Set(state.loans.map((l) => canonicalProvince(variant, l.centre)))) {
    const p = findProvince(variant, id);
    const holder = variant.rules.holder(eco.value, p);
    if (holder < 0) continue;
    const links = state.loans.filter((l) => canonicalProvince(variant, l.centre) === id);
    // Told in the order the centre passes along: from its owner on.
    const ordered: Loan[] = [];
    for (let from = variant.powers[eco.value.owner[p]]; ordered.length < links.length; ) {
      const next = links.find((l) => l.from === from && !ordered.includes(l));
      if (!next) break;
      ordered.push(next);
      from = next.to;
    }
    lent.set(id, { links: [...ordered, ...links.filter((l) => !ordered.includes(l))], holder: variant.powers[holder] });
  }
  return lent;
}

/**
 * A lent centre in words: "Lent by Egypt to Syria (since Spring 240 BC)", a chain "…, and on by Syria to Rome". `since`
 * names the phase a link was made in, where the page knows it.
 */
export function loanWords(loan: CentreLoan, since: (link: Loan) => string | null = () => null): string {
  return loan.links
    .map((l, i) => {
      const when = since(l);
      return `${i === 0 ? 'Lent' : 'and on'} by ${l.from} to ${l.to}${when ? ` (since ${when})` : ''}`;
    })
    .join(', ');
}

/** A dislodged unit is drawn beside the unit that took its place. */
export const DISLODGED_OFFSET: Point = [14, 11];

function canonicalProvince(variant: Variant, id: string): string {
  const p = findProvince(variant, id);
  return p < 0 ? id : variant.provinceIds[p];
}
