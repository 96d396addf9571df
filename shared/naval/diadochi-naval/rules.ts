/** The Diadochi Naval Rules' numbers as data (`rules.json`), checked by a zod schema when they load. */
import { z } from 'zod';
import { type Loaded, checkDataFile, shippedDataFile } from '../data-file.ts';
import data from './rules.json';

export const SHIP_TYPES = [
  'light',
  'trieres',
  'tetreres',
  'penteres',
  'hexeres',
  'hepteres',
  'okteres',
  'enneres',
  'dekeres',
  'hendekeres',
  'dodekeres',
  'triskaidekeres',
  'fourteen',
  'pentekaidekeres',
  'hekkaidekeres',
  'eikoseres',
  'triakonteres',
  'tessarakonteres',
] as const;
export type ShipType = (typeof SHIP_TYPES)[number];

export const ATTACKS = ['ram', 'rake', 'board', 'disengage', 'missile'] as const;
export type AttackKind = (typeof ATTACKS)[number];

/** The columns of the results table, by the attacker's total less the defender's. */
export const RESULT_COLUMNS = ['≤ −4', '−3', '−2', '−1 to +1', '+2', '+3', '≥ +4'] as const;
export function resultColumn(difference: number): number {
  if (difference <= -4) return 0;
  if (difference === -3) return 1;
  if (difference === -2) return 2;
  if (difference <= 1) return 3;
  if (difference === 2) return 4;
  if (difference === 3) return 5;
  return 6;
}

const ShipTypeSchema = z
  .object({
    name: z.string().min(1).max(40),
    banks: z.number().int().min(1).max(40),
    numeral: z.string().max(4),
    combatValue: z.number().int().min(1).max(10),
    /** Base length in cables (the width is `baseWidth`): 1 up to the hepteres, longer above. */
    length: z.number().min(1).max(3),
  })
  .strict();

export const BLUNDER_EFFECTS = ['back', 'turn-away', 'full-ahead', 'towards-enemy', 'halt-squadron', 'out-of-formation'] as const;
export type BlunderEffect = (typeof BLUNDER_EFFECTS)[number];

const ResultSchema = z
  .object({
    on: z.enum(['attacker', 'defender']).nullable(),
    effect: z.enum(['none', 'sink', 'cripple', 'capture', 'grapple', 'ungrapple', 'pass']),
    /** The ships also pass (a rake that cripples). */
    pass: z.boolean().default(false),
    /** No effect if the ship it falls on is smaller, not crippled or captured, and not in a bow to bow ram. */
    unlessSmaller: z.boolean().default(false),
  })
  .strict()
  .refine((r) => (r.on === null) === ['none', 'pass', 'ungrapple'].includes(r.effect), {
    message: 'a result falls on a ship exactly when it does something to one',
  });
export type Result = z.infer<typeof ResultSchema>;

const row = z.array(ResultSchema).length(RESULT_COLUMNS.length);
const mod = z.number().int().min(-5).max(5);
const distance = z.number().min(0).max(50);

export const RulesSchema = z
  .object({
    source: z.string().max(300),
    unit: z.literal('cable'),
    millimetresPerCable: z.number().positive(),
    shipTypes: z.object(Object.fromEntries(SHIP_TYPES.map((t) => [t, ShipTypeSchema])) as Record<ShipType, typeof ShipTypeSchema>).strict(),
    baseWidth: z.number().positive().max(3),
    movement: z
      .object({
        groupSize: z.object({ min: z.number().int().min(2), max: z.number().int().max(20) }).strict(),
        lineAbreast: z.object({ distance, slant: z.number().min(0).max(90), back: distance }).strict(),
        lineAhead: z.object({ distance, turn: z.number().min(0).max(180), bend: z.number().min(0).max(180) }).strict(),
        single: z.object({ distance, turn: z.number().min(0).max(360), back: distance }).strict(),
        crossingFront: distance,
        captureDrift: distance,
      })
      .strict(),
    command: z
      .object({
        die: z.number().int().min(2).max(20),
        blunderOn: z.number().int().min(1).max(20),
        flagshipDistance: distance,
        farFromFlagship: mod,
        outOfFormation: mod,
        flagshipLost: mod,
        ratingRange: z.object({ min: z.number().int(), max: z.number().int() }).strict(),
      })
      .strict(),
    blunders: z
      .array(
        z
          .object({
            roll: z.number().int().min(1).max(6),
            single: z.enum(BLUNDER_EFFECTS),
            lineAbreast: z.enum(BLUNDER_EFFECTS),
            lineAhead: z.enum(BLUNDER_EFFECTS),
            text: z.string().max(200),
          })
          .strict(),
      )
      .length(6)
      .refine((b) => b.every((x, i) => x.roll === i + 1), { message: 'the blunder table runs 1 to 6 in order' }),
    missileRange: distance,
    modifiers: z
      .object({
        grappledTarget: mod,
        crippledOrCaptured: mod,
        beam: mod,
        stern: mod,
        supportClose: mod,
        supportMissile: mod,
        flagship: mod,
      })
      .strict(),
    results: z.object({ ram: row, rake: row, board: row, disengage: row, missile: row }).strict(),
    victory: z.object({ lossFraction: z.number().gt(0).max(1), flagshipWeight: z.number().int().min(1).max(5) }).strict(),
    deployment: z.object({ fromCentreline: distance }).strict(),
  })
  .strict();
export type Rules = z.infer<typeof RulesSchema>;

/** Checks a rules table, or says where it is wrong. */
export const loadRules = (input: unknown): Loaded<Rules> => checkDataFile(RulesSchema, input, 'diadochi-naval rules.json');

export const RULES: Rules = shippedDataFile(RulesSchema, data, 'diadochi-naval rules.json');
