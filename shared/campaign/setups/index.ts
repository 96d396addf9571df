/**
 * A contested sea's battle set up under any of the four rulesets: the registry a campaign game reads by its chosen
 * ruleset. Each builder holds what is particular to its ruleset (scale, ship types, opening positions); what the
 * sides are and what each fleet brings is decided once, in forces.ts and muster.ts.
 */
import type { RulesetId } from '../../naval/ruleset.ts';
import type { Result } from '../../result.ts';
import type { SeaForces } from '../forces.ts';
import { classisFromSea } from './classis.ts';
import { diadochiNavalFromSea } from './diadochi-naval.ts';
import { oiNavarcoiFromSea } from './oi-navarcoi.ts';
import { shipToShipFromSea } from './ship-to-ship.ts';

export const BATTLE_FROM_SEA: Record<RulesetId, (forces: SeaForces, title: string) => Result<unknown, string[]>> = {
  classis: classisFromSea,
  'ship-to-ship': shipToShipFromSea,
  'diadochi-naval': diadochiNavalFromSea,
  'oi-navarcoi': oiNavarcoiFromSea,
};

/** The battle's set-up for `ruleset`, read by that ruleset's schema, or why the sea cannot be fought under it. */
export function battleFromSea(ruleset: RulesetId, forces: SeaForces, title: string): Result<unknown, string[]> {
  return BATTLE_FROM_SEA[ruleset](forces, title);
}
