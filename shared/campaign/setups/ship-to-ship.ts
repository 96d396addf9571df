/**
 * A contested sea as a battle of the 2007 ship-to-ship rules: each Diplomacy fleet three ships (fewer in a crowded
 * sea), average crews, at rest. The rules know two fleets, Roman and Hellenistic: Rome's ships are Roman, every other
 * power's Hellenistic (Carthage's too: its ships were of the Hellenistic kind; README.md). Classes above the penteres
 * are the rules' heptere, the largest they have; light ships are biremes; a class the nation's fleet lacks in the
 * rules' table becomes the nearest type it has (Rome's trieres, quadriremes).
 */
import { RULESETS } from '../../naval/index.ts';
import { RULES, type Setup } from '../../naval/ship-to-ship/index.ts';
import { type Nation, SHIP_TYPES, type ShipType } from '../../naval/ship-to-ship/rules.ts';
import type { Result } from '../../result.ts';
import { type ShipClass, banksOf } from '../fleets.ts';
import type { SeaForces } from '../forces.ts';
import { muster, type Scale } from '../muster.ts';
import { ROWS, columnsFor, openingLine } from './hex-line.ts';
import { parsed } from './parsed.ts';

/** The rules' types by banks: bireme 2, trireme 3, quadrireme 4, quinquereme 5, heptere 7. */
const BANKS: Record<ShipType, number> = { bireme: 2, trireme: 3, quadrireme: 4, quinquereme: 5, heptere: 7 };

/**
 * The type nearest the class in banks that the nation's fleet has (the rules' table leaves some out: the Roman
 * fleet has no trireme), the heavier of two equally near.
 */
function typeOf(c: ShipClass, nation: Nation): ShipType {
  const banks = banksOf(c);
  const offered = SHIP_TYPES.filter((t) => RULES.shipTypes[t].crews[nation]);
  const distance = (t: ShipType) => Math.abs(BANKS[t] - Math.min(banks, 7));
  return offered.reduce((best, t) => (distance(t) < distance(best) || (distance(t) === distance(best) && BANKS[t] > BANKS[best]) ? t : best));
}

/** A fleet's ships at this ruleset's scale (losses.ts musters the same to trace a ship to its fleet). */
export const SHIP_TO_SHIP_SCALE: Scale = { perFleet: 3, minPerFleet: 1, maxShips: 24, maxShipsPerSide: 20, maxFleetsPerSide: 12 };

export function shipToShipFromSea(forces: SeaForces, title: string): Result<Setup, string[]> {
  const mustered = muster(forces, SHIP_TO_SHIP_SCALE);
  if (!mustered.ok) return mustered;
  const sides = mustered.value;
  const columns = columnsFor(sides, 12, 40);
  const at = openingLine(sides, columns);
  return parsed(RULESETS['ship-to-ship'].setupSchema, {
    title,
    source: `Campaign battle in ${forces.seaName}`,
    sides: sides.map((side) => ({ id: side.id, name: side.name })),
    sea: { columns, rows: ROWS, land: [], reefs: [] },
    ships: sides.flatMap((side) =>
      side.fleets.flatMap((fleet) =>
        fleet.ships.map((ship) => {
          const nation: Nation = fleet.fleet.power === 'Rome' ? 'roman' : 'hellenistic';
          return { id: ship.id, name: ship.name, side: side.id, type: typeOf(ship.class, nation), nation, crew: 'average', ...at.get(ship.id)! };
        }),
      ),
    ),
  });
}
