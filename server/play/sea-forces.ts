/** Who fights a held phase's contested sea: the engine's contested sea, the game's fleet lists and the game master's sides. */
import { forcesAtSea, type SeaForces } from '../../shared/campaign/forces.ts';
import type { Campaign } from '../../shared/api/campaign.ts';
import type { Result } from '../../shared/result.ts';
import type { SeaBattleRow } from '../db/tables/sea-battles.ts';

export type { SeaForces };

/** The two sides of the sea's battle; refused (with the reasons) while three or more powers met and no sides are set. */
export function seaForcesOf(campaign: Pick<Campaign, 'fleets'>, row: Pick<SeaBattleRow, 'contested' | 'sides'>): Result<SeaForces, string[]> {
  return forcesAtSea(row.contested, campaign.fleets, row.sides ?? undefined);
}
