/**
 * The rules' numbers as data (rules.json), checked when they load: the ship table per nation, the firing
 * table, the marines' kill numbers, plugging, crew quality and the movement phases. A typo in the file fails
 * loading with the place named ("shipTypes.trireme.hull: …").
 */
import { z } from 'zod';
import { type Loaded, checkDataFile, shippedDataFile } from '../data-file.ts';
import data from './rules.json';

export const NATIONS = ['roman', 'hellenistic'] as const;
export type Nation = (typeof NATIONS)[number];
export const MARINE_CLASSES = ['light', 'medium', 'heavy'] as const;
export type MarineClass = (typeof MARINE_CLASSES)[number];
export const CREW_QUALITIES = ['poor', 'average', 'elite'] as const;
export type CrewQuality = (typeof CREW_QUALITIES)[number];
export const SHIP_TYPES = ['bireme', 'trireme', 'quadrireme', 'quinquereme', 'heptere'] as const;
export type ShipType = (typeof SHIP_TYPES)[number];
export const WEAPONS = ['bow', 'catapult', 'stoneThrower'] as const;
export type Weapon = (typeof WEAPONS)[number];

const count = z.number().int().min(0).max(50);
const die = z.number().int().min(1).max(6);

const CrewSchema = z
  .object({
    marines: z.object({ class: z.enum(MARINE_CLASSES), count }).strict(),
    bows: count,
    catapults: count,
    stoneThrowers: count,
  })
  .strict();
export type Complement = z.infer<typeof CrewSchema>;

const ShipTypeSchema = z
  .object({
    name: z.string().min(1).max(40),
    ramModifier: z.number().int().min(-3).max(5),
    hull: z.number().int().min(1).max(30),
    maxSpeed: z.number().int().min(1).max(5),
    cruisingSpeed: z.number().int().min(1).max(5),
    turningCircle: z.number().int().min(0).max(5),
    maxAcceleration: z.number().int().min(1).max(5),
    /** null: the nation has no such ship (n/a in the table). */
    crews: z.object({ roman: CrewSchema.nullable(), hellenistic: CrewSchema.nullable() }).strict(),
  })
  .strict()
  .refine((t) => t.cruisingSpeed <= t.maxSpeed, { message: 'cruising speed is above the maximum speed' });

const CrewQualitySchema = z
  .object({
    /** Levels of quality: the difference is what a head-on ram roll adds, and only a better crew may rake. */
    rank: z.number().int().min(0).max(5),
    maxSpeed: z.number().int().min(-2).max(2),
    turningCircle: z.number().int().min(-2).max(2),
    maxAcceleration: z.number().int().min(-2).max(2),
  })
  .strict();

const FiringRowSchema = z
  .object({
    weapon: z.enum(WEAPONS),
    minRange: z.number().int().min(1).max(20),
    maxRange: z.number().int().min(1).max(20),
    /** Highest first: the first whose `from` the die reaches is the result. */
    results: z
      .array(z.object({ from: die, kills: count, damage: count }).strict())
      .min(1)
      .max(6),
  })
  .strict()
  .refine((r) => r.minRange <= r.maxRange, { message: 'minRange is above maxRange' })
  .refine((r) => r.results.every((x, i) => i === 0 || x.from < r.results[i - 1].from), { message: 'results must run from the highest die down' });
export type FiringRow = z.infer<typeof FiringRowSchema>;

const phases = z
  .array(z.number().int().min(1).max(6))
  .max(6)
  .refine((p) => p.every((x, i) => i === 0 || x > p[i - 1]), { message: 'phases must rise' });

export const RulesSchema = z
  .object({
    source: z.string().max(200),
    shipTypes: z.object(Object.fromEntries(SHIP_TYPES.map((t) => [t, ShipTypeSchema])) as Record<ShipType, typeof ShipTypeSchema>).strict(),
    crewQualities: z.object({ poor: CrewQualitySchema, average: CrewQualitySchema, elite: CrewQualitySchema }).strict(),
    firing: z.array(FiringRowSchema).min(1).max(20),
    marineKillsOn: z.object({ light: die, medium: die, heavy: die }).strict(),
    plugging: z.object({ quietOn: die, boardingFightOn: die }).strict(),
    grappleOn: die,
    maxSpeedTurnsPerGame: z.number().int().min(0).max(20),
    fullSpeedRamBonus: z.number().int().min(0).max(3),
    backwardsSpeed: z.literal(1),
    surrenderRatio: z.number().min(1).max(10),
    movementPhases: z.object({ '1': phases, '2': phases, '3': phases, '4': phases, '5': phases, '6': phases }).strict(),
  })
  .strict()
  .superRefine((r, ctx) => {
    for (const [speed, list] of Object.entries(r.movementPhases))
      if (list.length !== Number(speed))
        ctx.addIssue({ code: 'custom', path: ['movementPhases', speed], message: `speed ${speed} must move in ${speed} phases, not ${list.length}` });
  });
export type Rules = z.infer<typeof RulesSchema>;

/** Checks a rules table, or says where it is wrong. */
export const loadRules = (input: unknown): Loaded<Rules> => checkDataFile(RulesSchema, input, 'ship-to-ship rules.json');

export const RULES: Rules = shippedDataFile(RulesSchema, data, 'ship-to-ship rules.json');

/** Whether a ship at `speed` (1 to 6) moves in `phase` (1 to 6). */
export const movesInPhase = (rules: Rules, speed: number, phase: number): boolean =>
  speed >= 1 && speed <= 6 && rules.movementPhases[String(speed) as keyof Rules['movementPhases']].includes(phase);
