/**
 * The ships of a sea battle's two sides at a ruleset's scale: each Diplomacy fleet becomes as many ships as the
 * ruleset wants of one fleet, fewer when the battle would not fit its limits, in the proportions of the fleet's list
 * (fleets.ts). Each fleet keeps its ships together (a ruleset with squadrons makes it one), heaviest first, so the
 * first is its flagship.
 */
import { err, ok, type Result } from '../result.ts';
import { type ShipClass, shipsOfFleet } from './fleets.ts';
import type { SeaFleet, SeaForces } from './forces.ts';
import { fleetIdOf } from './ids.ts';
import { shipNamer } from './ship-names.ts';

export interface MusteredShip {
  /** Unique in the battle: the side's id and a number ("egypt-3"). */
  readonly id: string;
  readonly name: string;
  readonly class: ShipClass;
}

export interface MusteredFleet {
  readonly fleet: SeaFleet;
  /** "egypt-f-ale": unique in the battle. */
  readonly id: string;
  readonly ships: readonly MusteredShip[];
}

export interface MusteredSide {
  readonly id: string;
  readonly name: string;
  readonly fleets: readonly MusteredFleet[];
}

/** What a ruleset wants of one fleet and can hold in one battle. */
export interface Scale {
  /** Ships a fleet becomes when there is room. */
  readonly perFleet: number;
  /** The fewest a fleet may become (a squadron's minimum). */
  readonly minPerFleet: number;
  /** The most ships in the whole battle, and on one side. */
  readonly maxShips: number;
  readonly maxShipsPerSide: number;
  /** The most fleets (squadrons) on one side. */
  readonly maxFleetsPerSide: number;
}

/** The two sides' ships, or why the battle cannot be set up at this scale. */
export function muster(forces: SeaForces, scale: Scale): Result<[MusteredSide, MusteredSide], string[]> {
  const fleets = forces.sides.map((s) => s.fleets.length);
  const crowded = forces.sides.find((s) => s.fleets.length > scale.maxFleetsPerSide);
  if (crowded) return err([`${crowded.name} brings ${crowded.fleets.length} fleets; this ruleset takes at most ${scale.maxFleetsPerSide} a side`]);
  const perFleet = Math.min(scale.perFleet, Math.floor(scale.maxShips / (fleets[0] + fleets[1])), Math.floor(scale.maxShipsPerSide / Math.max(...fleets)));
  if (perFleet < scale.minPerFleet)
    return err([`${fleets[0] + fleets[1]} fleets are too many for one battle of this ruleset (at most ${scale.maxShips} ships)`]);
  const sides = forces.sides.map((side): MusteredSide => {
    let n = 0;
    const nameShip = new Map<string, () => string>();
    return {
      id: side.id,
      name: side.name,
      fleets: side.fleets.map((fleet) => {
        if (!nameShip.has(fleet.power)) nameShip.set(fleet.power, shipNamer(fleet.power));
        const name = nameShip.get(fleet.power)!;
        return {
          fleet,
          id: fleetIdOf(side.id, fleet.unit),
          ships: shipsOfFleet(fleet.list, perFleet).map((c) => ({ id: `${side.id}-${++n}`, name: name(), class: c })),
        };
      }),
    };
  });
  return ok([sides[0], sides[1]]);
}

/** The fleet's name in a battle: "Egypt's F ALE". */
export const fleetName = (f: MusteredFleet): string => `${f.fleet.power}'s ${f.fleet.unit}`;
