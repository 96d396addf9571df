/**
 * What a sea battle's outcome means for the Diplomacy phase: the decided province the engine re-adjudicates with
 * (shared/phases/movement/decided.ts). Nobody won: a standoff. A side won: its power that stood in the sea holds it;
 * if it had none there, its fleet that attacked enters (the first listed, when allies or one power attacked with
 * several: the others' moves fail, as the engine's `unit` says).
 */
import type { DecidedProvince } from '../game/process.ts';
import { err, ok, type Result } from '../result.ts';
import type { SeaForces } from './forces.ts';

export function decisionFrom(forces: SeaForces, winnerSide: string | null): Result<DecidedProvince, string> {
  if (winnerSide === null) return ok({ province: forces.sea, outcome: { standoff: true } });
  const side = forces.sides.find((s) => s.id === winnerSide);
  if (!side) return err(`no side "${winnerSide}" fought in ${forces.seaName}`);
  const defender = side.fleets.find((f) => f.role === 'defender');
  if (defender) return ok({ province: forces.sea, outcome: { winner: defender.power } });
  const attacker = side.fleets.find((f) => f.role === 'attacker');
  if (!attacker) return err(`${side.name} had no fleet in or moving into ${forces.seaName}`);
  const several = side.fleets.filter((f) => f.role === 'attacker' && f.power === attacker.power).length > 1;
  return ok({ province: forces.sea, outcome: several ? { winner: attacker.power, unit: attacker.at } : { winner: attacker.power } });
}
