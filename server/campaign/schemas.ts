/** The campaign routes' own path parameters (the bodies are shared/api/campaign.ts). */
import { z } from 'zod';
import { PhaseParamsSchema } from '../../shared/api/play.ts';

export const SeaParamsSchema = PhaseParamsSchema.extend({
  sea: z.string().min(1).max(40).describe('The contested sea: its province id, as the phase lists it ("ION")'),
});
