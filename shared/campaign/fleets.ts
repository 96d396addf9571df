/**
 * A campaign game's fleet lists: the ships each power's Diplomacy fleet stands for when the game's sea fights are
 * fought out as naval battles. A list gives the make-up of one fleet by ship class, the period's own count of oar
 * banks (trieres, tetreres, penteres … as the Diadochi Naval Rules name them); each battle ruleset turns a class into
 * a ship type of its own and takes as many ships as its scale wants (setups/). The game master may edit the lists
 * before the game starts; the defaults follow the period's recorded fleets (README.md).
 */
import { z } from 'zod';
import { SHIP_TYPES } from '../naval/diadochi-naval/rules.ts';
import { err, ok, type Result } from '../result.ts';

/** The ship classes, lightest first: by banks of oars, from light ships to the forties. */
export const SHIP_CLASSES = SHIP_TYPES;
export type ShipClass = (typeof SHIP_CLASSES)[number];

/** Banks of oars of a class, for ordering and weighing (light ships count as two). */
export function banksOf(c: ShipClass): number {
  if (c === 'light') return 2;
  const index = SHIP_CLASSES.indexOf(c);
  // trieres (index 1) to hekkaidekeres (index 14) are 3 to 16 banks; then the twenty, thirty and forty.
  return index <= 14 ? index + 2 : [20, 30, 40][index - 15];
}

/** The most ships one list may make a fleet of. */
export const MAX_SHIPS_PER_FLEET = 40;
/** The most powers a game's lists may name. */
export const MAX_POWERS = 20;

export const FleetListSchema = z
  .array(z.object({ class: z.enum(SHIP_CLASSES), count: z.number().int().min(1).max(MAX_SHIPS_PER_FLEET) }).strict())
  .min(1, 'a fleet needs at least one ship')
  .max(SHIP_CLASSES.length)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((entry, i) => {
      if (seen.has(entry.class)) ctx.addIssue({ code: 'custom', path: [i, 'class'], message: `${entry.class} is listed twice` });
      seen.add(entry.class);
    });
    const total = list.reduce((n, entry) => n + entry.count, 0);
    if (total > MAX_SHIPS_PER_FLEET) ctx.addIssue({ code: 'custom', message: `a fleet has at most ${MAX_SHIPS_PER_FLEET} ships, not ${total}` });
  });
export type FleetList = z.infer<typeof FleetListSchema>;

/** Fleet lists by power. */
export const FleetListsSchema = z
  .record(z.string().min(1).max(40), FleetListSchema)
  .refine((lists) => Object.keys(lists).length <= MAX_POWERS, { message: `at most ${MAX_POWERS} powers` });
export type FleetLists = z.infer<typeof FleetListsSchema>;

/**
 * Diadochi V's powers in 240 BC, one Diplomacy fleet each, eight ships a fleet in the proportions of a recorded fleet
 * of the power (README.md says which and how they were scaled).
 */
export const DIADOCHI_V_FLEETS: Readonly<Record<string, FleetList>> = {
  // Ptolemy II's fleet as counted about 246 BC: many great polyremes beside the trieres and tetreres.
  Egypt: [
    { class: 'trieres', count: 2 },
    { class: 'tetreres', count: 1 },
    { class: 'penteres', count: 1 },
    { class: 'hepteres', count: 2 },
    { class: 'enneres', count: 1 },
    { class: 'hendekeres', count: 1 },
  ],
  // The Antigonid fleet as Demetrius led it in 306 BC: trieres and tetreres with a heavy wing of sixes and sevens.
  Macedonia: [
    { class: 'trieres', count: 3 },
    { class: 'tetreres', count: 2 },
    { class: 'penteres', count: 1 },
    { class: 'hexeres', count: 1 },
    { class: 'hepteres', count: 1 },
  ],
  // The Seleucids' Phoenician squadrons, as the Phoenician fleet built for Antigonus at Tyre in 314 BC.
  Syria: [
    { class: 'light', count: 1 },
    { class: 'trieres', count: 3 },
    { class: 'tetreres', count: 3 },
    { class: 'penteres', count: 1 },
  ],
  // The First Punic War's fleets: Rome's built on the quinquereme, Carthage's quinqueremes with tetreres and trieres.
  Rome: [
    { class: 'trieres', count: 2 },
    { class: 'penteres', count: 6 },
  ],
  Carthage: [
    { class: 'trieres', count: 1 },
    { class: 'tetreres', count: 2 },
    { class: 'penteres', count: 5 },
  ],
};

/** For a power the defaults do not know: a Hellenistic fleet of the middle sort. */
export const GENERIC_FLEET: FleetList = [
  { class: 'trieres', count: 3 },
  { class: 'tetreres', count: 3 },
  { class: 'penteres', count: 2 },
];

/** The lists a new campaign game starts from: the defaults for its powers, the generic fleet for any other. */
export function defaultFleetLists(powers: readonly string[]): FleetLists {
  return Object.fromEntries(powers.map((power) => [power, DIADOCHI_V_FLEETS[power] ?? GENERIC_FLEET]));
}

/** Checks a game's lists against its powers: every power has one, and none is listed that the game lacks. */
export function checkFleetLists(powers: readonly string[], lists: FleetLists): Result<FleetLists, string[]> {
  const problems: string[] = [];
  for (const power of powers) if (!lists[power]) problems.push(`${power} has no fleet list`);
  for (const power of Object.keys(lists)) if (!powers.includes(power)) problems.push(`${power} is not a power of this game`);
  return problems.length ? err(problems) : ok(lists);
}

/**
 * `count` ships of the list's make-up, heaviest first: each class gets its share rounded down, and the ships left
 * over go to the classes with the largest remainders (the heavier first on a tie), so that a list of eight scaled
 * to four keeps its proportions as nearly as whole ships can.
 */
export function shipsOfFleet(list: FleetList, count: number): ShipClass[] {
  const total = list.reduce((n, entry) => n + entry.count, 0);
  const byWeight = [...list].sort((a, b) => banksOf(b.class) - banksOf(a.class));
  const shares = byWeight.map((entry) => {
    const exact = (entry.count * count) / total;
    return { class: entry.class, whole: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = count - shares.reduce((n, s) => n + s.whole, 0);
  for (const s of [...shares].sort((a, b) => b.rest - a.rest)) {
    if (left <= 0) break;
    s.whole++;
    left--;
  }
  return shares.flatMap((s) => Array.from({ length: s.whole }, () => s.class));
}
