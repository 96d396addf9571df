/**
 * What a sea battle's outcome means for the Diplomacy phase: the decided province the engine re-adjudicates with
 * (shared/phases/movement/decided.ts). Nobody won: a standoff. A side won: its power that stood in the sea holds it;
 * if it had none there, its fleet that attacked enters (the first listed still afloat, when allies or one power
 * attacked with several: the others' moves fail, as the engine's `unit` says). The fleets the battle cost (`lost`,
 * losses.ts) are the outcome's `destroyed`: they leave the board after the phase.
 */
import type { DecidedOutcome, DecidedProvince } from '../game/process.ts';
import { err, ok, type Result } from '../result.ts';
import type { SeaFleet, SeaForces } from './forces.ts';

export function decisionFrom(forces: SeaForces, winnerSide: string | null, lost: readonly SeaFleet[] = []): Result<DecidedProvince, string> {
  const destroyed = lost.length > 0 ? { destroyed: lost.map((f) => f.at) } : {};
  const decided = (outcome: DecidedOutcome): Result<DecidedProvince, string> => ok({ province: forces.sea, outcome: { ...outcome, ...destroyed } });
  if (winnerSide === null) return decided({ standoff: true });
  const side = forces.sides.find((s) => s.id === winnerSide);
  if (!side) return err(`no side "${winnerSide}" fought in ${forces.seaName}`);
  const defender = side.fleets.find((f) => f.role === 'defender');
  if (defender) return decided({ winner: defender.power });
  const attackers = side.fleets.filter((f) => f.role === 'attacker');
  if (attackers.length === 0) return err(`${side.name} had no fleet in or moving into ${forces.seaName}`);
  // The fleet that enters is one the battle left: a lost fleet cannot be the one named to win.
  const attacker = attackers.find((f) => !lost.includes(f)) ?? attackers[0];
  const several = attackers.filter((f) => f.power === attacker.power).length > 1;
  return decided(several && !lost.includes(attacker) ? { winner: attacker.power, unit: attacker.at } : { winner: attacker.power });
}
