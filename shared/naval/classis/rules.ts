/**
 * Classis's charts and tables as data (rules.json), checked by a schema when they load: ship types and their
 * factors, engines and towers, the crew and commander charts, the ram, grapple, boarding and repair numbers.
 * A typo in the file fails loading with the place named ("shipTypes[4].ram: …").
 */
import { z } from 'zod';
import { type Loaded, checkDataFile, shippedDataFile } from '../data-file.ts';
import rulesData from './rules.json';

export const CREWS = ['green', 'average', 'expert'] as const;
export const CrewSchema = z.enum(CREWS);
export type Crew = z.infer<typeof CrewSchema>;

export const ASPECTS = ['bow', 'bow-beam', 'quarter-beam', 'stern'] as const;
export const AspectSchema = z.enum(ASPECTS);

const ShipTypeSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{1,30}$/, 'lower-case letters, digits and hyphens'),
    name: z.string().min(1).max(40),
    ram: z.number().int().min(0).max(30),
    boarding: z.number().int().min(0).max(100),
    speed: z.number().int().min(1).max(10),
    turning: z.number().int().min(1).max(3),
    /** Only cataphract (decked) ships may carry towers and engines. */
    cataphract: z.boolean(),
    /** Banks of oars, which set an engine's points; cataphracts only. */
    banks: z.number().int().min(1).max(99).optional(),
    /** Towers and engines every ship of the type has, whatever the set-up says (Sixes and above). */
    fitted: z
      .object({ towers: z.number().int().min(0).max(2), engines: z.number().int().min(0).max(2) })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.cataphract && t.banks === undefined) ctx.addIssue({ code: 'custom', path: ['banks'], message: 'a cataphract type needs its banks of oars' });
    if (!t.cataphract && (t.banks !== undefined || t.fitted !== undefined))
      ctx.addIssue({ code: 'custom', path: ['cataphract'], message: 'only a cataphract type has banks and fitted towers or engines' });
  });
export type ShipType = z.infer<typeof ShipTypeSchema>;

/** A row of a die's chart: faces from..to. */
const faces = { from: z.number().int().min(1).max(12), to: z.number().int().min(1).max(12) };

const RamResultSchema = z
  .object({
    from: z.number().int().min(-30).max(30).nullable(),
    to: z.number().int().min(-30).max(30).nullable(),
    result: z.enum(['sunk', 'crippled', 'roll', 'none']),
  })
  .strict();

export const RulesSchema = z
  .object({
    source: z.string().min(1).max(400),
    shipTypes: z.array(ShipTypeSchema).min(1).max(40),
    enginePoints: z
      .array(
        z.object({ fromBanks: z.number().int().min(1).max(99), toBanks: z.number().int().min(1).max(99), points: z.number().int().min(0).max(10) }).strict(),
      )
      .min(1)
      .max(10),
    maxEngines: z.number().int().min(0).max(2),
    maxTowers: z.number().int().min(0).max(2),
    towerPoints: z.number().int().min(0).max(20),
    crewChart: z
      .array(z.object({ ...faces, crew: CrewSchema }).strict())
      .min(1)
      .max(12),
    commanderChart: z
      .array(
        z
          .object({
            ...faces,
            quality: z.enum(['below-average', 'average', 'above-average']),
            rating: z.number().int().min(1).max(6),
            moraleModifier: z.number().int().min(-3).max(3),
          })
          .strict(),
      )
      .min(1)
      .max(12),
    squadronShips: z.object({ min: z.number().int().min(1).max(10), max: z.number().int().min(2).max(40) }).strict(),
    initiativeDie: z.number().int().min(2).max(20),
    aspectBonus: z.object({ bow: z.number().int(), 'bow-beam': z.number().int(), 'quarter-beam': z.number().int(), stern: z.number().int() }).strict(),
    rakeAspects: z.array(AspectSchema).min(1).max(4),
    ramResults: z.array(RamResultSchema).min(1).max(10),
    /** On a close call (the "roll" row) a ship is crippled on a d6 up to this face. */
    closeCallCrippledUpTo: z.number().int().min(0).max(6),
    ironHandsBonus: z.number().int().min(0).max(6),
    captureMargin: z.number().int().min(1).max(10),
    repairResults: z
      .array(
        z
          .object({
            from: z.number().int().min(1).max(6),
            to: z.number().int().min(1).max(6),
            result: z.enum(['sinks', 'permanently-crippled', 'nothing', 'recovers']),
          })
          .strict(),
      )
      .min(1)
      .max(6),
  })
  .strict()
  .superRefine((r, ctx) => {
    const ids = new Set<string>();
    r.shipTypes.forEach((t, i) => {
      if (ids.has(t.id)) ctx.addIssue({ code: 'custom', path: ['shipTypes', i, 'id'], message: `"${t.id}" is listed twice` });
      ids.add(t.id);
    });
    coversFaces(r.crewChart, 12, 'crewChart', ctx);
    coversFaces(r.commanderChart, 12, 'commanderChart', ctx);
    coversFaces(r.repairResults, 6, 'repairResults', ctx);
    // The ram results must cover every difference exactly once: open below, rows in order, open above.
    const rows = r.ramResults;
    if (rows[0].from !== null) ctx.addIssue({ code: 'custom', path: ['ramResults', 0, 'from'], message: 'the first row must be open below (null)' });
    if (rows[rows.length - 1].to !== null)
      ctx.addIssue({ code: 'custom', path: ['ramResults', rows.length - 1, 'to'], message: 'the last row must be open above (null)' });
    for (let i = 1; i < rows.length; i++) {
      const before = rows[i - 1].to;
      if (before === null || rows[i].from !== before + 1)
        ctx.addIssue({ code: 'custom', path: ['ramResults', i, 'from'], message: `must follow the row before (${before === null ? 'open' : before + 1})` });
    }
  });
export type Rules = z.infer<typeof RulesSchema>;

function coversFaces(rows: readonly { from: number; to: number }[], die: number, name: string, ctx: z.RefinementCtx) {
  let next = 1;
  rows.forEach((row, i) => {
    if (row.from !== next) ctx.addIssue({ code: 'custom', path: [name, i, 'from'], message: `must be ${next}: the rows must cover 1 to ${die} in order` });
    if (row.to < row.from) ctx.addIssue({ code: 'custom', path: [name, i, 'to'], message: 'must not be below from' });
    next = row.to + 1;
  });
  if (next !== die + 1) ctx.addIssue({ code: 'custom', path: [name], message: `the rows must end at ${die}` });
}

/** Checks a rules table, or says where it is wrong. */
export const loadRules = (input: unknown): Loaded<Rules> => checkDataFile(RulesSchema, input, 'classis rules.json');

export const RULES: Rules = shippedDataFile(RulesSchema, rulesData, 'classis rules.json');

const typeIndex = new Map(RULES.shipTypes.map((t) => [t.id, t]));

export function shipType(id: string): ShipType | undefined {
  return typeIndex.get(id);
}

/** Points of one engine on a ship of this type (0 for types that cannot carry one). */
export function enginePointsPerEngine(type: ShipType): number {
  if (!type.cataphract || type.banks === undefined) return 0;
  const banks = type.banks;
  return RULES.enginePoints.find((row) => banks >= row.fromBanks && banks <= row.toBanks)?.points ?? 0;
}

/** The most towers a type may carry: cataphracts only, tower points not above the original boarding factor. */
export function maxTowers(type: ShipType): number {
  if (!type.cataphract) return 0;
  return Math.min(RULES.maxTowers, Math.floor(type.boarding / RULES.towerPoints));
}

export const crewLevel = (c: Crew): number => CREWS.indexOf(c);
export const crewAt = (level: number): Crew => CREWS[Math.max(0, Math.min(CREWS.length - 1, level))];

export function crewFromDie(face: number): Crew {
  return RULES.crewChart.find((row) => face >= row.from && face <= row.to)!.crew;
}

export function commanderFromDie(face: number): Rules['commanderChart'][number] {
  return RULES.commanderChart.find((row) => face >= row.from && face <= row.to)!;
}

export function commanderByRating(rating: number): Rules['commanderChart'][number] | undefined {
  return RULES.commanderChart.find((row) => row.rating === rating);
}

export function ramResultFor(difference: number): Rules['ramResults'][number] {
  return RULES.ramResults.find((row) => (row.from === null || difference >= row.from) && (row.to === null || difference <= row.to))!;
}

export function repairResultFor(face: number): Rules['repairResults'][number] {
  return RULES.repairResults.find((row) => face >= row.from && face <= row.to)!;
}

/** A table row in words, for the log: "-3 to -2", "-4 or less", "+2 or more", "5-6". */
export function rowWords(from: number | null, to: number | null): string {
  const n = (x: number) => (x > 0 ? `+${x}` : `${x}`);
  if (from === null && to !== null) return `${n(to)} or less`;
  if (to === null && from !== null) return `${n(from)} or more`;
  if (from === to) return n(from!);
  return `${n(from!)} to ${n(to!)}`;
}
