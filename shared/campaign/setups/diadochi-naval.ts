/**
 * A contested sea as a battle of the Diadochi Naval Rules: each Diplomacy fleet a squadron of eight ships (the rules'
 * smallest squadron; fewer in a crowded sea), its heaviest ship the flagship, every squadron rated 6 (a steady
 * commander: the rules rate from 1 to 9 and leave ratings to the scenario). Each side opens in line abreast five
 * cables in from its own edge, which is friendly to it and hostile to the other; the classes are the rules' own.
 */
import type { Setup } from '../../naval/diadochi-naval/index.ts';
import { RULES } from '../../naval/diadochi-naval/index.ts';
import { RULESETS } from '../../naval/index.ts';
import type { Result } from '../../result.ts';
import type { SeaForces } from '../forces.ts';
import { fleetName, muster } from '../muster.ts';
import { parsed } from './parsed.ts';

const DEPTH = 30;
const FROM_EDGE = 5;
const RATING = 6;
/** Room between ships abreast, and between squadrons, in cables. */
const SHIP_GAP = 0.25;
const SQUADRON_GAP = 1;

export function diadochiNavalFromSea(forces: SeaForces, title: string): Result<Setup, string[]> {
  const mustered = muster(forces, { perFleet: 8, minPerFleet: 2, maxShips: 48, maxShipsPerSide: 40, maxFleetsPerSide: 6 });
  if (!mustered.ok) return mustered;
  const sides = mustered.value;
  const pitch = RULES.baseWidth + SHIP_GAP;
  const lineWidth = (i: number) => sides[i].fleets.reduce((w, f) => w + f.ships.length * pitch, 0) + (sides[i].fleets.length - 1) * SQUADRON_GAP;
  const width = Math.max(30, Math.ceil(Math.max(lineWidth(0), lineWidth(1)) + 16));
  const ships = sides.flatMap((side, i) => {
    const y = i === 0 ? FROM_EDGE : DEPTH - FROM_EDGE;
    let x = (width - lineWidth(i)) / 2 + pitch / 2;
    return side.fleets.flatMap((fleet) => {
      const placed = fleet.ships.map((ship) => {
        const at = { x, y, heading: i === 0 ? 0 : 180 };
        x += pitch;
        return { id: ship.id, name: ship.name, squadron: fleet.id, type: ship.class, ...at };
      });
      x += SQUADRON_GAP;
      return placed;
    });
  });
  const [a, b] = sides.map((s) => s.id);
  return parsed(RULESETS['diadochi-naval'].setupSchema, {
    title,
    source: `Campaign battle in ${forces.seaName}`,
    table: {
      unit: 'cable',
      width,
      depth: DEPTH,
      terrain: [],
      edges: { [a]: { south: 'friendly', north: 'enemy' }, [b]: { north: 'friendly', south: 'enemy' } },
    },
    sides: sides.map((side, i) => ({ id: side.id, name: side.name, home: i === 0 ? 'south' : 'north' })),
    squadrons: sides.flatMap((side) =>
      side.fleets.map((fleet) => ({ id: fleet.id, side: side.id, name: fleetName(fleet), rating: RATING, flagship: fleet.ships[0].id })),
    ),
    ships,
  });
}
