/**
 * The Diplomacy fleets a finished sea battle cost: a fleet that lost all its ships is lost with them (the engine's
 * `destroyed`, shared/phases/movement/decided.ts). Each ruleset says what a lost ship is; a ship is traced to its
 * fleet by its squadron (the fleet's id, ids.ts) or, where a ruleset has no squadrons, by the ids muster.ts gave.
 *
 * Sunk and captured (or surrendered) ships are lost, a ship recaptured is not, a crippled or damaged one is not. Oi
 * Navarcoi! counts stands, not ships: a squadron with no stand left is lost; one that routed off the table or fled is
 * not (its ships live to fight again, README.md).
 */
import { RULESETS } from '../naval/index.ts';
import type { RulesetId } from '../naval/ruleset.ts';
import type { ClassisState } from '../naval/classis/index.ts';
import type { State as DiadochiNavalState } from '../naval/diadochi-naval/index.ts';
import type { State as OiNavarcoiState } from '../naval/oi-navarcoi/index.ts';
import type { State as ShipToShipState } from '../naval/ship-to-ship/index.ts';
import { err, ok, type Result } from '../result.ts';
import type { SeaFleet, SeaForces } from './forces.ts';
import { fleetIdOf } from './ids.ts';
import { muster } from './muster.ts';
import { SHIP_TO_SHIP_SCALE } from './setups/ship-to-ship.ts';

/** Each fleet of the battle by its id: lost (true) or not; undefined when the battle has nothing of it. */
type FleetFates = (forces: SeaForces, state: never) => Map<string, boolean>;

/** Fleets whose every ship (of those they brought) is lost, by the ships' squadrons. */
function bySquadron<Ship>(ships: readonly Ship[], squadronOf: (s: Ship) => string, lostShip: (s: Ship) => boolean): Map<string, boolean> {
  const fates = new Map<string, boolean>();
  for (const ship of ships) {
    const id = squadronOf(ship);
    fates.set(id, (fates.get(id) ?? true) && lostShip(ship));
  }
  return fates;
}

const FATES: Record<RulesetId, FleetFates> = {
  // A prize changes squadron and side while held; its first squadron and side say whose it was.
  classis: (_forces, state: ClassisState) =>
    bySquadron(
      state.ships,
      (s) => s.originalSquadron,
      (s) => s.sunk || s.side !== s.originalSide,
    ),
  'diadochi-naval': (_forces, state: DiadochiNavalState) =>
    bySquadron(
      state.ships,
      (s) => s.squadron,
      (s) => s.status !== 'afloat',
    ),
  // No squadrons: the ships are the fleet's by the ids muster.ts numbered them with.
  'ship-to-ship': (forces, state: ShipToShipState) => {
    const mustered = muster(forces, SHIP_TO_SHIP_SCALE);
    const fleetOf = new Map<string, string>();
    if (mustered.ok) for (const side of mustered.value) for (const f of side.fleets) for (const ship of f.ships) fleetOf.set(ship.id, f.id);
    const ships = state.ships.filter((s) => fleetOf.has(s.id));
    return bySquadron(
      ships,
      (s) => fleetOf.get(s.id)!,
      (s) => s.status !== 'afloat',
    );
  },
  'oi-navarcoi': (_forces, state: OiNavarcoiState) => new Map(state.squadrons.map((q) => [q.id, q.status === 'destroyed' || q.halves === 0])),
};

/**
 * The fleets of `forces` lost in the battle that ended in `state` (a state of `ruleset`, as stored), in the order the
 * sides list them; an error when the state is not of that ruleset or not this battle's.
 */
export function fleetsLost(ruleset: RulesetId, forces: SeaForces, state: unknown): Result<SeaFleet[], string[]> {
  const read = RULESETS[ruleset].stateSchema.safeParse(state);
  if (!read.success) return err([`the battle's state is not one of ${RULESETS[ruleset].title}: ${read.error.issues[0]?.message ?? 'unreadable'}`]);
  const fates = FATES[ruleset](forces, read.data as never);
  const lost: SeaFleet[] = [];
  const missing: string[] = [];
  for (const side of forces.sides)
    for (const fleet of side.fleets) {
      const fate = fates.get(fleetIdOf(side.id, fleet.unit));
      if (fate === undefined) missing.push(`${fleet.power}'s ${fleet.unit}`);
      else if (fate) lost.push(fleet);
    }
  if (missing.length > 0) return err([`the battle has no ships of ${missing.join(', ')}: it is not the battle of ${forces.seaName}`]);
  return ok(lost);
}
