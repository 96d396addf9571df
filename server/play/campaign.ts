/**
 * A game's campaign as stored (games.campaign): the settings asked for, every power's fleet list filled in from the
 * period's defaults (shared/campaign/fleets.ts) and checked against the variant's powers. Used by the lobby at
 * creation and by the game master's change before the start (server/campaign/).
 */
import type { z } from 'zod';
import type { Campaign, CampaignSettingsSchema } from '../../shared/api/campaign.ts';
import { checkFleetLists, defaultFleetLists } from '../../shared/campaign/fleets.ts';
import { HttpError, invalid } from '../errors.ts';
import { variantPowers } from './variants.ts';

/** The campaign of a game of `variantId`; 400 at `field` (e.g. `body.campaign`) naming each problem of the fleet lists. */
export function campaignOf(variantId: string, settings: z.output<typeof CampaignSettingsSchema>, field: `body.${string}` | 'body'): Campaign {
  const powers = variantPowers(variantId)?.map((power) => power.id);
  if (!powers) throw new HttpError(422, 'variant_unavailable', `the rules engine cannot play variant "${variantId}" yet`);
  // A list not given is the period's default for that power.
  const fleets = { ...defaultFleetLists(powers), ...settings.fleets };
  const checked = checkFleetLists(powers, fleets);
  const at = field === 'body' ? 'body.fleets' : `${field}.fleets`;
  if (!checked.ok) throw invalid(at as `body.${string}`, `${checked.error.join('; ')} (the powers of ${variantId}: ${powers.join(', ')})`);
  return { ruleset: settings.ruleset, fleets: checked.value, battleHours: settings.battleHours };
}
