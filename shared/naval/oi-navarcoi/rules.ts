/**
 * The rules' numbers as data (rules.json), checked when they load: the modifiers, the average die, the five
 * formations and their movement, the manoeuvre, battle and morale tests, the event table, signals, deployment,
 * launching, the full-size option, the post-battle count and the land battle. A typo fails loading with the
 * place named ("battleTest.results.2.upTo: …").
 */
import { z } from 'zod';
import { type Loaded, checkDataFile, shippedDataFile } from '../data-file.ts';
import data from './rules.json';

export const FORMATIONS = ['epi-mias', 'epi-pollon', 'epi-keras', 'kyklos', 'unformed'] as const;
export type Formation = (typeof FORMATIONS)[number];
export const QUALITIES = ['well-trained', 'average', 'green'] as const;
export type Quality = (typeof QUALITIES)[number];
export const MORALES = ['poorly-motivated', 'average', 'determined'] as const;
export type Morale = (typeof MORALES)[number];
export const SHIPS = ['fast', 'average', 'heavy'] as const;
export type Ships = (typeof SHIPS)[number];
export const EVENTS = ['storm-all', 'omen-alpha', 'navarch-alpha', 'leave-field', 'navarch-beta', 'omen-beta', 'storm-invaders'] as const;
export type EventKind = (typeof EVENTS)[number];

const modifier = z.number().int().min(-3).max(3);
const inches = z.number().min(0).max(100);
const total = z.number().int().min(2).max(99);
const label = z.string().min(1).max(200);
const dice = z.number().int().min(1).max(4);

const MoveSchema = z.union([z.object({ averageDice: dice, plus: modifier }).strict(), z.object({ inches }).strict()]);

const FormationSchema = z
  .object({
    name: z.string().min(1).max(40),
    /** Its place in the order of formations for melee, 1 the best. */
    meleeRank: z.number().int().min(1).max(5),
    move: MoveSchema,
    wheel: z.boolean(),
    backWater: z.boolean(),
    aboutFace: z.boolean(),
    changeFront: z.boolean(),
    /** Moves as a column: turns in succession after its lead, at no cost in distance. */
    column: z.boolean(),
  })
  .strict();
export type FormationRules = z.infer<typeof FormationSchema>;

/** A table read by the first row whose `upTo` the total reaches; the rows must rise. */
const rising = <T extends { upTo: number }>(rows: T[]) => rows.every((r, i) => i === 0 || r.upTo > rows[i - 1].upTo);

const byModifier = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, modifier])) as Record<K, typeof modifier>).strict();

export const RulesSchema = z
  .object({
    source: z.string().max(200),
    stand: z.object({ frontageCm: z.number().positive().max(20), depthCm: z.number().positive().max(20) }).strict(),
    squadronStands: z.object({ standard: z.literal(4), fullSize: z.literal(8) }).strict(),
    modifiers: z.object({ crewQuality: byModifier(QUALITIES), crewMorale: byModifier(MORALES), ships: byModifier(SHIPS) }).strict(),
    /** What each face of a d6 counts as on the average die, face 1 first. */
    averageDie: z.array(z.number().int().min(1).max(6)).length(6),
    formations: z.object(Object.fromEntries(FORMATIONS.map((f) => [f, FormationSchema])) as Record<Formation, typeof FormationSchema>).strict(),
    movement: z
      .object({
        disorderedModifier: modifier,
        backWaterInches: inches,
        columnMaxTurnDegrees: z.number().min(0).max(180),
        wheelMaxDegrees: z.number().min(0).max(180),
        freighterDownwindAverageDice: dice,
        freighterCrossAverageDice: dice,
        flotsamSpeedFactor: z.number().positive().max(1),
      })
      .strict(),
    manoeuvreTest: z.object({ dice, passOn: total, nearEnemyInches: inches, nearEnemyModifier: modifier }).strict(),
    battleTest: z
      .object({
        dice,
        disorderedModifier: modifier,
        results: z
          .array(z.object({ upTo: total, enemyLosesHalfStands: z.number().int().min(0).max(6), label }).strict())
          .min(2)
          .max(8)
          .refine(rising, { message: 'rows must rise' }),
        routAloneStands: z.number().int().min(1).max(4),
        routAloneAgainstStands: z.number().int().min(1).max(16),
      })
      .strict(),
    specialAttack: z.object({ dice, passOn: total, diekplousAbortInches: inches }).strict(),
    periplousChase: z.object({ returnOn: total, dice, standsLostDie: z.number().int().min(2).max(6) }).strict(),
    moraleTest: z.object({ dice, passOn: total, katastropheModifier: modifier, pursuingModifier: modifier }).strict(),
    rout: z.object({ averageDice: dice, disorderBehindInches: inches }).strict(),
    events: z
      .array(z.object({ upTo: total, event: z.enum(EVENTS), label }).strict())
      .length(7)
      .refine(rising, { message: 'rows must rise' })
      .refine((rows) => rows[rows.length - 1].upTo >= 12, { message: 'the last row must reach 12' }),
    leaveField: z.object({ defender: modifier, moreDetermined: modifier, morePoorlyMotivated: modifier, admiralKilled: modifier }).strict(),
    signals: z
      .object({
        squadronsPerSignal: z.number().int().min(1).max(10),
        list: z
          .array(z.object({ id: z.number().int().min(1).max(5), name: label }).strict())
          .length(5)
          .refine((l) => l.every((s, i) => s.id === i + 1), { message: 'signals are numbered 1 to 5 in order' }),
      })
      .strict(),
    deployment: z.object({ minFromMedian: inches, maxFromMedian: inches, minFromShortEdge: inches }).strict(),
    table: z.object({ width: inches, depth: inches }).strict(),
    launching: z.object({ dice, launchOn: total }).strict(),
    fullSize: z.object({ lossMultiplier: z.number().int().min(1).max(4), moraleTestAtOrBelowStands: z.number().int().min(1).max(8) }).strict(),
    postBattle: z.object({ dice, neutralSurvivalOn: total }).strict(),
    land: z
      .object({
        testDice: dice,
        passOn: total,
        pushBackInches: inches,
        pushesToDestroy: z.number().int().min(1).max(5),
        hoplites: z.object({ lineAverageDice: dice, columnPlus: modifier, badGoingModifier: modifier }).strict(),
        euzonoiAlone: z.object({ averageDice: dice, plus: modifier }).strict(),
        modifiers: z.object({ disordered: modifier, unprotectedAgainstEuzonoi: modifier, positionDefended: modifier, enemyOnlyEuzonoi: modifier }).strict(),
        overrun: z.object({ dice, disorderPhalanxUpTo: total, routEuzonoiFrom: total, unprotectedModifier: modifier }).strict(),
      })
      .strict(),
    turnLimit: z.number().int().min(1).max(60),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.deployment.minFromMedian > r.deployment.maxFromMedian)
      ctx.addIssue({ code: 'custom', path: ['deployment', 'minFromMedian'], message: 'is above maxFromMedian' });
    if (r.battleTest.results[r.battleTest.results.length - 1].upTo < 12)
      ctx.addIssue({ code: 'custom', path: ['battleTest', 'results'], message: 'the last row must reach 12' });
  });
export type Rules = z.infer<typeof RulesSchema>;

/** Checks a rules table, or says where it is wrong. */
export const loadRules = (input: unknown): Loaded<Rules> => checkDataFile(RulesSchema, input, 'oi-navarcoi rules.json');

export const RULES: Rules = shippedDataFile(RulesSchema, data, 'oi-navarcoi rules.json');

/** Inches in a centimetre: the stands are measured in centimetres, the table in inches. */
export const INCHES_PER_CM = 1 / 2.54;

/** The first row of a rising table the total reaches (totals above the last row read the last). */
export function rowOf<T extends { upTo: number }>(rows: readonly T[], totalValue: number): T {
  return rows.find((r) => totalValue <= r.upTo) ?? rows[rows.length - 1];
}
