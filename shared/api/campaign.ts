/**
 * Campaign play on the wire: a game whose sea fights are fought out as naval battles (shared/campaign/). The game's
 * campaign settings, and the contested seas of a held movement phase — each fought as a battle, decided by the game
 * master, auto-resolved by the computer opponents, or waived to the ordinary rules — until the phase can be
 * adjudicated with those outcomes fixed (the engine's decided provinces).
 */
import { z } from 'zod';
import { FleetListsSchema } from '../campaign/fleets.ts';
import { BattleClockSchema, BattleRulesetIdSchema } from './battles.ts';
import { IdSchema, TimestampSchema } from './common.ts';

/** Longest a held phase's battles may take before the seas not yet fought are auto-resolved. */
export const MAX_BATTLE_HOURS = 14 * 24;

const BattleHoursSchema = z
  .number()
  .int()
  .min(1, 'must be at least 1')
  .max(MAX_BATTLE_HOURS, `must be at most ${MAX_BATTLE_HOURS} (14 days)`)
  .describe('Hours the contested seas of a phase have to be fought or decided; then every sea still undecided and not being fought is auto-resolved');

/** What the creator (or the game master, before the start) asks for. */
export const CampaignSettingsSchema = z
  .object({
    ruleset: BattleRulesetIdSchema,
    fleets: FleetListsSchema.optional().describe("Each power's fleet list (the ships one Diplomacy fleet stands for); the period's defaults when omitted"),
    battleHours: BattleHoursSchema.default(72),
  })
  .meta({ id: 'CampaignSettings' });
export type CampaignSettings = z.input<typeof CampaignSettingsSchema>;

/** A game's campaign as stored and shown: every power's list filled in. */
export const CampaignSchema = z.object({ ruleset: BattleRulesetIdSchema, fleets: FleetListsSchema, battleHours: BattleHoursSchema }).meta({ id: 'Campaign' });
export type Campaign = z.infer<typeof CampaignSchema>;

/**
 * undecided: waiting for the game master (or the deadline); fighting: a battle is being fought for it; decided: its
 * outcome is fixed; waived: the game master left it to the ordinary rules.
 */
export const SeaBattleStatusSchema = z.enum(['undecided', 'fighting', 'decided', 'waived']);
export type SeaBattleStatus = z.infer<typeof SeaBattleStatusSchema>;

export const SeaFleetSchema = z
  .object({
    power: z.string(),
    /** "F AEG", as the engine writes it. */
    unit: z.string(),
    at: z.string(),
    role: z.enum(['defender', 'attacker', 'support']),
  })
  .meta({ id: 'SeaFleet' });

export const SeaBattleSideSchema = z
  .object({ id: z.string(), name: z.string(), powers: z.array(z.string()), fleets: z.array(SeaFleetSchema) })
  .meta({ id: 'SeaBattleSide' });

/** The fleets (their locations) a battle sank to the last ship: they leave the board after the phase. */
const DestroyedSchema = z.array(z.string().min(1).max(20)).max(64).readonly().optional();

/**
 * What decided the sea: a power won it (`unit`: which of its fleets enters, when it attacked with several), or nobody
 * did; `destroyed`: the fleets lost with all their ships in its battle.
 */
export const SeaOutcomeSchema = z
  .union([
    z.object({ winner: z.string(), unit: z.string().optional(), destroyed: DestroyedSchema }).strict(),
    z.object({ standoff: z.literal(true), destroyed: DestroyedSchema }).strict(),
  ])
  .meta({ id: 'SeaOutcome' });
export type SeaOutcome = z.infer<typeof SeaOutcomeSchema>;

/** The odds before auto-resolving: computer battles fought so far out of `of`, won by side id, and drawn. */
export const SeaOddsSchema = z
  .object({ battles: z.number().int(), of: z.number().int(), won: z.record(z.string(), z.number().int()), drawn: z.number().int() })
  .meta({ id: 'SeaOdds' });
export type SeaOdds = z.infer<typeof SeaOddsSchema>;

export const SeaBattleSchema = z
  .object({
    /** The sea's province id and name. */
    sea: z.string(),
    seaName: z.string(),
    status: SeaBattleStatusSchema,
    /** Every power with a fleet in the fight. */
    powers: z.array(z.string()),
    /** The two sides; null while three or more powers met and the game master has not set the sides. */
    sides: z.array(SeaBattleSideSchema).nullable(),
    /** The battle fought (or auto-resolved) for the sea. */
    battleId: IdSchema.nullable(),
    outcome: SeaOutcomeSchema.nullable(),
    decidedBy: z.enum(['battle', 'game-master', 'computer']).nullable(),
    /** When the seas still undecided will be auto-resolved. */
    deadlineAt: TimestampSchema.nullable(),
    odds: SeaOddsSchema.nullable(),
    /** The powers of the fight whose players agreed to auto-resolve it (always sent; optional for older answers). */
    agreed: z.array(z.string()).optional(),
  })
  .meta({ id: 'SeaBattle' });
export type SeaBattle = z.infer<typeof SeaBattleSchema>;

export const SeaBattleListSchema = z.object({ seas: z.array(SeaBattleSchema) }).meta({ id: 'SeaBattleList' });
export type SeaBattleList = z.infer<typeof SeaBattleListSchema>;

export const DecideSeaRequestSchema = z
  .object({ winner: z.string().min(1).max(40).nullable().describe('The power whose side won the sea; null: nobody did (a standoff)') })
  .strict()
  .meta({ id: 'DecideSeaRequest' });
export type DecideSeaRequest = z.infer<typeof DecideSeaRequestSchema>;

export const SeaSidesRequestSchema = z
  .object({
    sides: z
      .array(z.array(z.string().min(1).max(40)).min(1, 'a side needs a power').max(20))
      .length(2, 'a battle has two sides')
      .describe('The powers of each side; every power with a fleet in the fight exactly once'),
  })
  .strict()
  .meta({ id: 'SeaSidesRequest' });
export type SeaSidesRequest = z.infer<typeof SeaSidesRequestSchema>;

export const FightSeaRequestSchema = z
  .object({ clock: BattleClockSchema.optional().describe("The battle's clock; by correspondence, 48 hours a decision, when omitted") })
  .strict()
  .meta({ id: 'FightSeaRequest' });
export type FightSeaRequest = z.input<typeof FightSeaRequestSchema>;
