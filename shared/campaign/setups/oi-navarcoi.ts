/**
 * A contested sea as an Oi Navarcoi! battle: each Diplomacy fleet one squadron of four stands, the "Clash in open
 * seas" scenario (both fleets invaders, each out to destroy the other), average crews and morale. A fleet of heavy
 * classes (five banks or more on average) has heavy ships, one of trieres and lighter fast ships (README.md). The
 * first squadron of each side carries its strategos; each side opens twelve inches in from its own edge.
 */
import { RULESETS } from '../../naval/index.ts';
import type { Setup } from '../../naval/oi-navarcoi/index.ts';
import type { Result } from '../../result.ts';
import { err } from '../../result.ts';
import { type FleetList, banksOf } from '../fleets.ts';
import type { SeaForces } from '../forces.ts';
import { fleetIdOf } from '../ids.ts';
import { parsed } from './parsed.ts';

const DEPTH = 48;
const FROM_EDGE = 12;
const SPACING = 12;
const MAX_SQUADRONS_A_SIDE = 12;

function shipsOf(list: FleetList): 'fast' | 'average' | 'heavy' {
  const count = list.reduce((n, e) => n + e.count, 0);
  const banks = list.reduce((n, e) => n + banksOf(e.class) * e.count, 0) / count;
  return banks >= 5 ? 'heavy' : banks <= 3 ? 'fast' : 'average';
}

export function oiNavarcoiFromSea(forces: SeaForces, title: string): Result<Setup, string[]> {
  const crowded = forces.sides.find((s) => s.fleets.length > MAX_SQUADRONS_A_SIDE);
  if (crowded) return err([`${crowded.name} brings ${crowded.fleets.length} fleets; Oi Navarcoi! takes at most ${MAX_SQUADRONS_A_SIDE} squadrons a side`]);
  const most = Math.max(...forces.sides.map((s) => s.fleets.length));
  const width = Math.max(72, SPACING * most + 24);
  const [a, b] = forces.sides.map((s) => s.id);
  return parsed(RULESETS['oi-navarcoi'].setupSchema, {
    title,
    source: `Campaign battle in ${forces.seaName}`,
    scenario: 'clash',
    table: { width, depth: DEPTH },
    terrain: [],
    edges: {
      [a]: { south: 'friendly', north: 'enemy', east: 'neutral', west: 'neutral' },
      [b]: { north: 'friendly', south: 'enemy', east: 'neutral', west: 'neutral' },
    },
    sides: forces.sides.map((side, i) => ({
      id: side.id,
      name: side.name,
      fleet: i === 0 ? 'alpha' : 'beta',
      role: 'invader',
      zone:
        i === 0
          ? { x0: 10, y0: FROM_EDGE - 3, x1: width - 10, y1: FROM_EDGE + 2 }
          : { x0: 10, y0: DEPTH - FROM_EDGE - 2, x1: width - 10, y1: DEPTH - FROM_EDGE + 3 },
    })),
    squadrons: forces.sides.flatMap((side, i) => {
      const first = (width - SPACING * (side.fleets.length - 1)) / 2;
      return side.fleets.map((fleet, k) => ({
        id: fleetIdOf(side.id, fleet.unit),
        name: `${fleet.power}'s ${fleet.unit}`,
        side: side.id,
        ships: shipsOf(fleet.list),
        strategos: k === 0,
        formation: 'epi-mias',
        x: first + SPACING * k,
        y: i === 0 ? FROM_EDGE : DEPTH - FROM_EDGE,
        heading: i === 0 ? 0 : 180,
      }));
    }),
  });
}
