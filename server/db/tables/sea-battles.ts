/**
 * The `sea_battles` table's JSON columns: the engine's contested sea (shared/game/contested-seas.ts) as it was when the
 * row was made, the game master's sides, the decided outcome and the odds (shared/api/campaign.ts).
 */
import { z } from 'zod';
import { SeaOddsSchema, SeaOutcomeSchema, type SeaOdds, type SeaOutcome } from '../../../shared/api/campaign.ts';
import type { ContestedSea } from '../../../shared/game/contested-seas.ts';
import type { Prisma } from '../database.ts';
import { nullable, parser, storedRows, storedValues, type Parsed } from './stored.ts';

const ContestedUnitSchema = z.object({
  power: z.string(),
  unit: z.string(),
  at: z.string(),
  order: z.string(),
  role: z.enum(['defender', 'attacker']),
  success: z.boolean(),
});
const ContestedSupportSchema = z.object({ power: z.string(), unit: z.string(), at: z.string(), order: z.string(), supports: z.string(), given: z.boolean() });

/** The engine's ContestedSea, checked as it is read back. */
export const ContestedSeaSchema = z.object({
  province: z.string(),
  name: z.string(),
  powers: z.array(z.string()),
  units: z.array(ContestedUnitSchema),
  supports: z.array(ContestedSupportSchema),
  decided: SeaOutcomeSchema.optional(),
}) satisfies z.ZodType<ContestedSea>;

/** The game master's two sides: the powers of each. */
export const SeaSidesSchema = z.array(z.array(z.string()));
export type SeaSides = z.infer<typeof SeaSidesSchema>;

const columns = {
  contested: parser(ContestedSeaSchema),
  sides: nullable(parser(SeaSidesSchema)),
  outcome: nullable(parser(SeaOutcomeSchema)),
  odds: nullable(parser(SeaOddsSchema)),
};

export const seaBattleOf = storedRows('sea_battles', columns);
export const seaBattleValues = storedValues<{
  contested: z.infer<typeof ContestedSeaSchema>;
  sides: SeaSides | null;
  outcome: SeaOutcome | null;
  odds: SeaOdds | null;
}>();

/** A sea_battles row, its JSON columns parsed. */
export type SeaBattleRow = Parsed<Prisma.SeaBattleGetPayload<object>, typeof columns>;
