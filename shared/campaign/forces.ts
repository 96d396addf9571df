/**
 * Who fights a contested sea, and with what: the two sides of its battle, each a group of powers with their fleets.
 *
 * The fleets that met in the sea fight, and so does every fleet whose support into the sea (or for the fleet holding
 * it) was given: in a campaign the support is the fleet taking part. Armies cannot fight at sea; a support an army
 * gives from a coast is left out. Two powers met: one side each. Three or more: the game master says who sides with
 * whom (or fights the sea as more than one battle). A supporting fleet of a power that has no fleet of its own in the
 * sea fights on the side of the power it supports.
 */
import type { ContestedSea } from '../game/contested-seas.ts';
import { err, ok, type Result } from '../result.ts';
import type { FleetList, FleetLists } from './fleets.ts';
import { idOf } from './ids.ts';

/** One Diplomacy fleet in the battle. */
export interface SeaFleet {
  readonly power: string;
  /** "F AEG", as the engine writes it. */
  readonly unit: string;
  /** Its location id. */
  readonly at: string;
  /** In the sea and stayed (`defender`), moved into it (`attacker`), or supported one of those (`support`). */
  readonly role: 'defender' | 'attacker' | 'support';
  /** The make-up of its ships, from its power's list. */
  readonly list: FleetList;
}

export interface SeaSide {
  /** A short id for the battle's set-up: the powers' names in lower case, joined by hyphens ("egypt-rome"). */
  readonly id: string;
  /** "Egypt", or "Egypt and Rome". */
  readonly name: string;
  readonly powers: readonly string[];
  readonly fleets: readonly SeaFleet[];
}

export interface SeaForces {
  /** The sea's province id and name. */
  readonly sea: string;
  readonly seaName: string;
  readonly sides: readonly [SeaSide, SeaSide];
}

const isFleet = (unit: string) => unit.startsWith('F ');

/**
 * The battle of a contested sea: its two sides from the powers that met there (or `sides`, the game master's
 * grouping, which must name each of those powers once), with the fleets of each and their lists.
 */
export function forcesAtSea(contested: ContestedSea, lists: FleetLists, sides?: readonly (readonly string[])[]): Result<SeaForces, string[]> {
  const met = contested.powers;
  let groups: string[][];
  if (sides === undefined) {
    if (met.length !== 2) return err([`${met.join(', ')} met in ${contested.name}: with ${met.length} powers, the game master sets the two sides`]);
    groups = met.map((power) => [power]);
  } else {
    const problems: string[] = [];
    if (sides.length !== 2) problems.push(`a battle has two sides, not ${sides.length}`);
    const named = sides.flat();
    for (const power of met) {
      const times = named.filter((p) => p === power).length;
      if (times === 0) problems.push(`${power} met in ${contested.name} but is on neither side`);
      if (times > 1) problems.push(`${power} is named ${times} times`);
    }
    for (const power of new Set(named)) if (!met.includes(power)) problems.push(`${power} has no fleet in ${contested.name}`);
    sides.forEach((side, i) => {
      if (side.length === 0) problems.push(`side ${i + 1} has no power`);
    });
    if (problems.length) return err(problems);
    groups = sides.map((side) => [...side]);
  }

  const sideOf = new Map<string, number>();
  groups.forEach((powers, i) => {
    for (const power of powers) sideOf.set(power, i);
  });
  const fleets: SeaFleet[][] = [[], []];
  const missing = new Set<string>();
  const listOf = (power: string) => {
    const list = lists[power];
    if (!list) missing.add(power);
    return list ?? [];
  };
  for (const u of contested.units) {
    if (!isFleet(u.unit)) continue;
    fleets[sideOf.get(u.power)!].push({ power: u.power, unit: u.unit, at: u.at, role: u.role, list: listOf(u.power) });
  }
  for (const s of contested.supports) {
    if (!s.given || !isFleet(s.unit)) continue;
    const supported = contested.units.find((u) => u.at === s.supports);
    if (!supported) continue;
    const side = sideOf.get(s.power) ?? sideOf.get(supported.power)!;
    if (!groups[side].includes(s.power)) groups[side].push(s.power);
    fleets[side].push({ power: s.power, unit: s.unit, at: s.at, role: 'support', list: listOf(s.power) });
  }
  if (missing.size) return err([...missing].map((power) => `${power} has no fleet list`));
  const built = groups.map(
    (powers, i): SeaSide => ({
      id: powers.map(idOf).join('-'),
      name: powers.length === 1 ? powers[0] : `${powers.slice(0, -1).join(', ')} and ${powers.at(-1)}`,
      powers,
      fleets: fleets[i],
    }),
  );
  for (const side of built) if (side.fleets.length === 0) return err([`${side.name} has no fleet in ${contested.name}`]);
  return ok({ sea: contested.province, seaName: contested.name, sides: [built[0], built[1]] });
}
