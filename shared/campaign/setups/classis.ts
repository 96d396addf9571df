/**
 * A contested sea as a Classis battle: each Diplomacy fleet a squadron of four (fewer in a crowded sea) under a
 * navarch, its heaviest ship the flagship; crews and commanders' ratings left to the dice as the rules roll them (1.4,
 * 1.5). Classes become Classis types by banks; the period's decked ships are not made cataphracts (README.md).
 */
import { RULESETS } from '../../naval/index.ts';
import type { ClassisSetup } from '../../naval/classis/index.ts';
import type { Result } from '../../result.ts';
import type { ShipClass } from '../fleets.ts';
import type { SeaForces } from '../forces.ts';
import { fleetName, muster } from '../muster.ts';
import { ROWS, columnsFor, openingLine } from './hex-line.ts';
import { parsed } from './parsed.ts';

const TYPES: Record<ShipClass, string> = {
  light: 'bireme',
  trieres: 'trireme',
  tetreres: 'quadrireme',
  penteres: 'quinquereme',
  hexeres: 'six',
  hepteres: 'seven',
  okteres: 'eight',
  enneres: 'nine',
  dekeres: 'ten',
  hendekeres: 'polyreme',
  dodekeres: 'polyreme',
  triskaidekeres: 'polyreme',
  fourteen: 'polyreme',
  pentekaidekeres: 'polyreme',
  hekkaidekeres: 'polyreme',
  eikoseres: 'polyreme',
  triakonteres: 'polyreme',
  tessarakonteres: 'polyreme',
};

export function classisFromSea(forces: SeaForces, title: string): Result<ClassisSetup, string[]> {
  const mustered = muster(forces, { perFleet: 4, minPerFleet: 2, maxShips: 48, maxShipsPerSide: 24, maxFleetsPerSide: 8 });
  if (!mustered.ok) return mustered;
  const sides = mustered.value;
  const columns = columnsFor(sides, 14, 40);
  const at = openingLine(sides, columns);
  return parsed(RULESETS.classis.setupSchema, {
    title,
    description: `The fleets that met in ${forces.seaName}: ${sides.map((s) => s.fleets.map(fleetName).join(', ')).join(' against ')}.`,
    sea: { columns, rows: ROWS, land: [], reefs: [] },
    wind: 'none',
    sides: sides.map((side) => ({
      id: side.id,
      name: side.name,
      squadrons: side.fleets.map((fleet) => ({
        id: fleet.id,
        name: fleetName(fleet),
        commander: { name: `Navarch of ${fleet.fleet.unit}` },
        flagship: fleet.ships[0].id,
        ships: fleet.ships.map((ship) => ({ id: ship.id, name: ship.name, type: TYPES[ship.class], ...at.get(ship.id)! })),
      })),
    })),
  });
}
