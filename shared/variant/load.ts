import type { ParsedMapData, UnitType } from './schema.ts';
import { defaultRuleOptions, type RuleOptions } from './options.ts';
import { err, ok, type Result } from '../result.ts';
import type { Rules, Variant } from '../model.ts';
import { DELIMITER_CHARACTERS, isNotationWord } from '../orders/words.ts';

/** Province kinds, as small integers for the hot path. */
export const LAND = 0;
export const COASTAL = 1;
export const SEA = 2;
export const IMPASSABLE = 3;
const kindCode = { land: LAND, coastal: COASTAL, sea: SEA, impassable: IMPASSABLE } as const;

export const ARMY = 0;
export const FLEET = 1;
export const unitTypeCode = (t: UnitType): number => (t === 'army' ? ARMY : FLEET);
export const unitTypeName = (c: number): UnitType => (c === ARMY ? 'army' : 'fleet');

export type { Variant } from '../model.ts';

export const isAdjacentArmy = (v: Variant, from: number, to: number): boolean => v.armyMatrix[from * v.provinceCount + to] === 1;
export const isAdjacentFleet = (v: Variant, from: number, to: number): boolean => v.fleetMatrix[from * v.locationCount + to] === 1;

/** Look up a province by id or full name, ignoring case and surrounding space. */
export function findProvince(v: Variant, name: string): number {
  const exact = v.locationById.get(name);
  if (exact !== undefined && exact < v.provinceCount) return exact;
  const p = v.provinceByName.get(normaliseName(name));
  return p === undefined ? -1 : p;
}

/** Look up a power by id, abbreviation or adjective, ignoring case. */
export function findPower(v: Variant, name: string): number {
  const exact = v.powers.indexOf(name);
  if (exact >= 0) return exact;
  const p = v.powerByName.get(normaliseName(name));
  return p === undefined ? -1 : p;
}

/** Case, dots, apostrophes and hyphens do not matter in names: "St. Petersburg" = "st petersburg". */
export const normaliseName = (s: string): string =>
  // Most words read are plain ones already normal ("par", "north"): one test spares them the rewriting.
  /^[a-z0-9]+$/.test(s)
    ? s
    : s
        .toLowerCase()
        .replace(/[.'’]/g, '')
        .replace(/[\s_-]+/g, ' ')
        .trim();

/** Why a province alias could not be read back from an order, or undefined when it can be. */
function aliasProblem(alias: string): string | undefined {
  if (DELIMITER_CHARACTERS.test(alias)) return 'contains a character that separates the words of an order ( ( ) / , : ; -> => )';
  const k = normaliseName(alias);
  if (k === '') return 'has no letters or digits';
  if (isNotationWord(k)) return 'is a word of the order notation (a unit type, an order, a coast), so it cannot also name a province';
  return undefined;
}

/** Location id: `spa/nc` → its index, or -1. Case-insensitive. */
export function findLocation(v: Variant, id: string): number {
  const exact = v.locationById.get(id);
  if (exact !== undefined) return exact;
  const [prov, coast] = id.split('/');
  const p = findProvince(v, prov);
  if (p < 0) return -1;
  if (coast === undefined) return p;
  const c = coast.toLowerCase();
  for (const l of v.coasts[p]) if (v.locationIds[l].endsWith(`/${c}`)) return l;
  return -1;
}

/** Supply the centre at `province` gives to power `power` (0 if not a centre). */
export const supplyOf = (v: Variant, province: number, power: number): number => v.supplyTable[province * v.powers.length + power];

/**
 * Compile map data that is already in the schema's output form (every default written out), such as the
 * maps this build ships: their files are checked to be so by the test suite, and the browser, which
 * compiles one on every visit to a game, is spared a second validation of data that cannot have changed.
 * Still reports every problem beyond the schema's (unknown provinces, one-way adjacencies, ...).
 */
export function compileVariant(data: ParsedMapData, options: Partial<RuleOptions>, rulesOf: (v: Variant) => Rules): Result<Variant, string[]> {
  const errors: string[] = [];

  const P = data.provinces.length;
  const provinceIds = data.provinces.map((p) => p.id);
  const provinceByName = new Map<string, number>();
  // What each name read as a province is, for the message when two provinces claim it.
  const nameRole = new Map<string, string>();
  const describe = (i: number) => `${provinceIds[i]} (${data.provinces[i].name})`;
  const addName = (key: string, index: number, role: string) => {
    const k = normaliseName(key);
    const prev = provinceByName.get(k);
    if (prev !== undefined && prev !== index)
      errors.push(`${role} "${key}" of ${describe(index)} is already ${nameRole.get(k)} of ${describe(prev)}: a player typing it could mean either`);
    else if (prev === undefined) {
      provinceByName.set(k, index);
      nameRole.set(k, `the ${role} "${key}"`);
    }
  };
  data.provinces.forEach((p, i) => addName(p.id, i, 'id'));
  data.provinces.forEach((p, i) => {
    const k = normaliseName(p.name);
    if (!provinceByName.has(k)) {
      provinceByName.set(k, i);
      nameRole.set(k, `the name "${p.name}"`);
    }
  });
  data.provinces.forEach((p, i) =>
    p.aliases?.forEach((alias) => {
      const problem = aliasProblem(alias);
      if (problem) errors.push(`${p.id}: alias "${alias}" ${problem}`);
      else addName(alias, i, 'alias');
    }),
  );

  const powers = data.powers.map((p) => p.id);
  const powerByName = new Map<string, number>();
  data.powers.forEach((p, i) => {
    for (const key of [p.id, p.abbreviation, p.adjective]) {
      const k = normaliseName(key);
      const prev = powerByName.get(k);
      if (prev !== undefined && prev !== i) errors.push(`power name "${key}" is used by both ${powers[prev]} and ${p.id}`);
      powerByName.set(k, i);
    }
  });
  const powerIndex = (id: string, where: string): number => {
    const i = powers.indexOf(id);
    if (i < 0) errors.push(`${where}: unknown power "${id}"`);
    return i;
  };

  // Locations: provinces first, then named coasts.
  const locationIds = [...provinceIds];
  const locationProvince: number[] = provinceIds.map((_, i) => i);
  const coasts: number[][] = provinceIds.map(() => []);
  data.provinces.forEach((p, i) => {
    if (!p.coasts) return;
    if (p.kind !== 'coastal') errors.push(`${p.id}: only a coastal province can have named coasts`);
    const names = Object.keys(p.coasts);
    if (names.length < 2) errors.push(`${p.id}: a province with named coasts needs at least two of them`);
    if (p.fleet.length > 0) errors.push(`${p.id}: has named coasts, so its fleet moves belong to each coast, not to the province`);
    for (const c of names) {
      coasts[i].push(locationIds.length);
      locationIds.push(`${p.id}/${c}`);
      locationProvince.push(i);
    }
  });
  const L = locationIds.length;
  const locationIndex = new Map(locationIds.map((id, i) => [id, i]));

  const provinceKind = new Uint8Array(P);
  data.provinces.forEach((p, i) => (provinceKind[i] = kindCode[p.kind]));

  const armyMatrix = new Uint8Array(P * P);
  const fleetMatrix = new Uint8Array(L * L);
  const anyMatrix = new Uint8Array(P * P);

  // A river is drawn as a canal (specialLinks): a province on one only (Memphis on the Nile) has a coast with no sea.
  const onCanal = new Set(data.specialLinks.filter((l) => l.kind === 'canal').flatMap((l) => l.between));
  data.provinces.forEach((p, i) => {
    for (const to of p.army) {
      const j = provinceIds.indexOf(to);
      if (j < 0) {
        errors.push(`${p.id}: army adjacency names unknown province "${to}"`);
        continue;
      }
      if (j === i) errors.push(`${p.id}: army adjacency lists the province itself`);
      if (p.kind === 'sea' || p.kind === 'impassable' || provinceKind[j] === SEA || provinceKind[j] === IMPASSABLE)
        errors.push(`${p.id}: army adjacency ${p.id}–${to} involves a sea or impassable province`);
      armyMatrix[i * P + j] = 1;
    }
    const fleetLists: [number, string, string[]][] = p.coasts
      ? Object.entries(p.coasts).map(([c, coast]) => [locationIndex.get(`${p.id}/${c}`)!, `${p.id}/${c}`, coast.fleet])
      : [[i, p.id, p.fleet]];
    for (const [from, fromId, list] of fleetLists) {
      if (list.length > 0 && (p.kind === 'land' || p.kind === 'impassable')) errors.push(`${fromId}: a ${p.kind} province cannot have fleet adjacency`);
      let touchesSea = false;
      for (const to of list) {
        const j = locationIndex.get(to);
        if (j === undefined) {
          const [tp] = to.split('/');
          errors.push(
            provinceIds.includes(tp)
              ? `${fromId}: fleet adjacency names "${to}", which is not a location (a province with named coasts needs its coast)`
              : `${fromId}: fleet adjacency names unknown province "${to}"`,
          );
          continue;
        }
        if (locationProvince[j] === i) errors.push(`${fromId}: fleet adjacency lists its own province`);
        const k = provinceKind[locationProvince[j]];
        if (k === LAND || k === IMPASSABLE) errors.push(`${fromId}: fleet adjacency ${fromId}–${to} reaches a ${k === LAND ? 'land' : 'impassable'} province`);
        if (k === SEA) touchesSea = true;
        if (coasts[locationProvince[j]].length > 0 && j < P) errors.push(`${fromId}: fleet adjacency names "${to}" without its coast`);
        fleetMatrix[from * L + j] = 1;
      }
      if (p.kind === 'coastal' && !touchesSea && !onCanal.has(p.id))
        errors.push(`${fromId}: coast without sea (a coastal location must border at least one sea, or lie on a canal or river of specialLinks)`);
    }
  });

  // Symmetry.
  for (let i = 0; i < P; i++)
    for (let j = 0; j < P; j++)
      if (armyMatrix[i * P + j] && !armyMatrix[j * P + i])
        errors.push(`asymmetric army edge: ${provinceIds[i]} lists ${provinceIds[j]} but not the other way round`);
  for (let i = 0; i < L; i++)
    for (let j = 0; j < L; j++)
      if (fleetMatrix[i * L + j] && !fleetMatrix[j * L + i])
        errors.push(`asymmetric fleet edge: ${locationIds[i]} lists ${locationIds[j]} but not the other way round`);

  for (let i = 0; i < P; i++) for (let j = 0; j < P; j++) if (armyMatrix[i * P + j]) anyMatrix[i * P + j] = 1;
  for (let i = 0; i < L; i++) for (let j = 0; j < L; j++) if (fleetMatrix[i * L + j]) anyMatrix[locationProvince[i] * P + locationProvince[j]] = 1;

  const toLists = (m: Uint8Array, n: number): number[][] =>
    Array.from({ length: n }, (_, i) => {
      const out: number[] = [];
      for (let j = 0; j < n; j++) if (m[i * n + j]) out.push(j);
      return out;
    });

  // Centres.
  const N = powers.length;
  const isCentre = new Uint8Array(P);
  const supplyTable = new Uint8Array(P * N);
  const isBuildCentre = new Uint8Array(P);
  const isRebel = new Uint8Array(P);
  const isIndestructible = new Uint8Array(P);
  const homeOf = new Int8Array(P).fill(-1);
  const centres: number[] = [];
  data.provinces.forEach((p, i) => {
    if (p.centre) {
      if (p.kind === 'sea' || p.kind === 'impassable') errors.push(`${p.id}: a ${p.kind} province cannot be a supply centre`);
      if (p.buildCentre) errors.push(`${p.id}: cannot be both a supply centre and a special build centre`);
      isCentre[i] = 1;
      centres.push(i);
      for (let w = 0; w < N; w++) supplyTable[i * N + w] = p.centre.supply;
      for (const [power, s] of Object.entries(p.centre.supplyFor ?? {})) {
        const w = powerIndex(power, `${p.id}.centre.supplyFor`);
        if (w >= 0) supplyTable[i * N + w] = s;
      }
      if (p.centre.rebel) isRebel[i] = 1;
      if (p.centre.indestructible) isIndestructible[i] = 1;
    }
    if (p.buildCentre) {
      if (p.kind === 'sea' || p.kind === 'impassable') errors.push(`${p.id}: a ${p.kind} province cannot be a build centre`);
      isBuildCentre[i] = 1;
    }
    if (p.home) {
      const w = powerIndex(p.home, `${p.id}.home`);
      if (!p.centre) errors.push(`${p.id}: a home centre must be a supply centre`);
      homeOf[i] = w;
    }
  });

  for (const link of data.specialLinks) {
    for (const id of link.between) if (!provinceIds.includes(id)) errors.push(`special link ${link.between.join('–')}: unknown province "${id}"`);
  }

  // Starting position.
  const occupied = new Set<number>();
  data.start.units.forEach((u, k) => {
    const l = locationIndex.get(u.at);
    const where = `start.units[${k}] (${u.power} ${u.type} ${u.at})`;
    powerIndex(u.power, where);
    if (l === undefined) {
      errors.push(`${where}: unknown location`);
      return;
    }
    const p = locationProvince[l];
    if (occupied.has(p)) errors.push(`${where}: two units start in ${provinceIds[p]}`);
    occupied.add(p);
    const k2 = provinceKind[p];
    if (u.type === 'army' && (k2 === SEA || k2 === IMPASSABLE)) errors.push(`${where}: an army cannot stand at sea`);
    if (u.type === 'fleet' && (k2 === LAND || k2 === IMPASSABLE)) errors.push(`${where}: a fleet cannot stand inland`);
    if (u.type === 'fleet' && coasts[p].length > 0 && l < P) errors.push(`${where}: a fleet here must name its coast`);
    if (u.type === 'army' && l >= P) errors.push(`${where}: an army does not stand on a coast`);
  });
  for (const [prov, power] of Object.entries(data.start.owners)) {
    const p = provinceIds.indexOf(prov);
    if (p < 0) errors.push(`start.owners: unknown province "${prov}"`);
    else if (!isCentre[p] && !isBuildCentre[p]) errors.push(`start.owners: ${prov} is not a supply centre`);
    powerIndex(power, `start.owners.${prov}`);
  }

  if (errors.length > 0) return err(errors);

  const variant: Omit<Variant, 'rules'> & { rules?: Rules } = {
    id: data.id,
    name: data.name,
    data,
    options: { ...defaultRuleOptions, ...options },
    powers,
    powerAbbreviations: data.powers.map((p) => p.abbreviation),
    provinceCount: P,
    provinceIds,
    provinceNames: data.provinces.map((p) => p.name),
    provinceKind,
    locationCount: L,
    locationIds,
    locationProvince: Int16Array.from(locationProvince),
    coasts,
    armyAdjacent: toLists(armyMatrix, P),
    armyMatrix,
    fleetAdjacent: toLists(fleetMatrix, L),
    fleetMatrix,
    anyMatrix,
    isCentre,
    supplyTable,
    isBuildCentre,
    isRebel,
    isIndestructible,
    homeOf,
    centres,
    provinceByName,
    locationById: locationIndex,
    powerByName,
  };
  // The rules close over the variant they serve.
  variant.rules = rulesOf(variant as Variant);
  return ok(variant as Variant);
}
