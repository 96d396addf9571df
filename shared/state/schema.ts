import { z } from 'zod';
import { LocationId, PowerId, ProvinceId, UnitType } from '../variant/schema.ts';

/**
 * The game state as stored and sent over the wire: plain JSON, ids as strings.
 * The engine compiles it into integer tables for adjudication.
 */

export const Season = z.enum(['spring', 'fall', 'winter']);
export type Season = z.infer<typeof Season>;
export const PhaseType = z.enum(['movement', 'retreat', 'adjustment']);
export type PhaseType = z.infer<typeof PhaseType>;

export const PhaseSchema = z.object({ season: Season, year: z.number().int(), type: PhaseType }).strict();
export type Phase = z.infer<typeof PhaseSchema>;

export const UnitSchema = z.object({ power: PowerId, type: UnitType, at: LocationId }).strict();
export type Unit = z.infer<typeof UnitSchema>;

export const DislodgedUnitSchema = UnitSchema.extend({
  /** Province the attacker came from; it may not retreat there. Null when the attack came by convoy (DATC 4.A.5). */
  attackerFrom: ProvinceId.nullable(),
}).strict();
export type DislodgedUnit = z.infer<typeof DislodgedUnitSchema>;

/** One link of a loan chain: `from` lends `centre` to `to` (Diadochi V rule 9). */
export const LoanSchema = z.object({ centre: ProvinceId, from: PowerId, to: PowerId }).strict();
export type Loan = z.infer<typeof LoanSchema>;

export const GameStateSchema = z
  .object({
    variant: z.string(),
    phase: PhaseSchema,
    units: z.array(UnitSchema),
    /** Retreat phase: units dislodged by the movement phase just played. */
    dislodged: z.array(DislodgedUnitSchema).default([]),
    /** Retreat phase: provinces left empty by a standoff, where no unit may retreat. */
    standoffs: z.array(ProvinceId).default([]),
    /** Supply-centre owners. */
    owners: z.record(ProvinceId, PowerId),
    /** Controllers of special build centres (same capture rule as centres). */
    control: z.record(ProvinceId, PowerId).default({}),
    /** Destroyed supply centres (Diadochi V rule 7). */
    destroyed: z.array(ProvinceId).default([]),
    /** Destroyed centres whose occupying unit ordered a rebuild in the last movement phase (rule 8). */
    rebuilding: z.array(ProvinceId).default([]),
    loans: z.array(LoanSchema).default([]),
    /** Set once the game is won: every power that reached the victory condition together. */
    winners: z.array(PowerId).optional(),
  })
  .strict();
export type GameState = z.output<typeof GameStateSchema>;
export type GameStateInput = z.input<typeof GameStateSchema>;
