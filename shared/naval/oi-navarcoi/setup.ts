/**
 * An Oi Navarcoi! battle's set-up, as a scenario file holds it and a client sends it: the table (inches, x east,
 * y north, headings clockwise from north, as in ../table), its terrain, each edge's standing for each fleet, the two fleets (alpha
 * and beta, invader or defender), their squadrons where the scenario deploys them, the deployment zones a side
 * may re-place its squadrons in, the wind, and for the amphibious battle the phalanxes and positions.
 */
import { z } from 'zod';
import { EDGES, STANDINGS, TerrainSchema } from '../table/table.ts';
import { FORMATIONS, MORALES, QUALITIES, RULES, SHIPS } from './rules.ts';

export const SCENARIO_KINDS = ['clash', 'defending-land', 'meeting', 'ambush', 'bottled-up', 'convoy', 'amphibious'] as const;
export type ScenarioKind = (typeof SCENARIO_KINDS)[number];

/** Squadrons in one battle: a log line or two each per phase, within a log's 400 lines. */
export const MAX_SQUADRONS = 24;

const id = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens');
const coordinate = z.number().finite().min(-200).max(400);
const heading = z.number().finite().min(0).lt(360);
export const PointSchema = z.object({ x: coordinate, y: coordinate }).strict();

export const RectSchema = z
  .object({ x0: coordinate, y0: coordinate, x1: coordinate, y1: coordinate })
  .strict()
  .refine((r) => r.x0 < r.x1 && r.y0 < r.y1, { message: 'x0 < x1 and y0 < y1' });
export type Rect = z.infer<typeof RectSchema>;

export const SquadronSetupSchema = z
  .object({
    id,
    name: z.string().min(1).max(40),
    side: id,
    quality: z.enum(QUALITIES).default('average'),
    morale: z.enum(MORALES).default('average'),
    ships: z.enum(SHIPS).default('average'),
    /** The fleet's commander is with this squadron (it matters only if he is killed). */
    strategos: z.boolean().default(false),
    formation: z.enum(FORMATIONS),
    x: coordinate,
    y: coordinate,
    heading,
    /** Civilian sailing freighters (the Convoy): always unformed, move with the wind, never attack. */
    freighters: z.boolean().default(false),
    /** At anchor on the beach (Bottled up) until launched. */
    anchored: z.boolean().default(false),
  })
  .strict();
export type SquadronSetup = z.infer<typeof SquadronSetupSchema>;

export const SideSetupSchema = z
  .object({
    id,
    name: z.string().min(1).max(60),
    fleet: z.enum(['alpha', 'beta']),
    role: z.enum(['invader', 'defender']),
    /** Where the side may re-place its squadrons before the battle; absent: they stay where the scenario puts them. */
    zone: RectSchema.optional(),
    /** The formations it may deploy in (the Meeting engagement: epi keras only). */
    deployFormations: z.array(z.enum(FORMATIONS)).min(1).max(5).default(['epi-mias', 'epi-pollon', 'epi-keras']),
    /** Whether it may use signals (the ambushed invaders may not). */
    signals: z.boolean().default(true),
  })
  .strict();
export type SideSetup = z.infer<typeof SideSetupSchema>;

export const PhalanxSetupSchema = z
  .object({
    id,
    name: z.string().min(1).max(40),
    side: id,
    x: coordinate,
    y: coordinate,
    heading,
    /** Stands of light infantry with the hoplites (0 to 2). */
    euzonoi: z.number().int().min(0).max(4).default(2),
  })
  .strict();
export type PhalanxSetup = z.infer<typeof PhalanxSetupSchema>;

export const PositionSetupSchema = z
  .object({
    id,
    name: z.string().min(1).max(60),
    /** The side it belongs to. */
    side: id,
    x: coordinate,
    y: coordinate,
    radius: z.number().positive().max(12),
    /** Manned (someone defends it though no phalanx troops are in it) or unmanned. */
    manned: z.boolean(),
  })
  .strict();
export type PositionSetup = z.infer<typeof PositionSetupSchema>;

export const SetupSchema = z
  .object({
    title: z.string().min(1).max(120),
    /** Where the scenario comes from: the document and its section. */
    source: z.string().max(600).default(''),
    scenario: z.enum(SCENARIO_KINDS),
    /** The full-size version: squadrons of 8 stands, losses doubled. */
    fullSize: z.boolean().default(false),
    table: z.object({ width: z.number().min(24).max(240), depth: z.number().min(24).max(240) }).strict(),
    /** Land, islands and beaches, with what each is to each side (a rout onto an enemy beach loses the squadron). */
    terrain: z.array(TerrainSchema).max(8).default([]),
    /** What each table edge is to each side (by side id), for the post-battle count; an edge not named is neutral. */
    edges: z.record(id, z.partialRecord(z.enum(EDGES), z.enum(STANDINGS))),
    sides: z.array(SideSetupSchema).length(2),
    squadrons: z.array(SquadronSetupSchema).min(2).max(MAX_SQUADRONS),
    /** Where the wind blows towards, in degrees (the Convoy's tailwind). */
    wind: heading.optional(),
    /** The edge the Convoy's freighters must leave by. */
    convoyExit: z.enum(EDGES).optional(),
    phalanxes: z.array(PhalanxSetupSchema).max(2).default([]),
    positions: z.array(PositionSetupSchema).max(6).default([]),
    /** The battle ends after this turn whatever happens (the scenario's goals then decide). */
    turnLimit: z.number().int().min(1).max(60).default(RULES.turnLimit),
  })
  .strict()
  .superRefine((s, ctx) => {
    const sides = new Set(s.sides.map((x) => x.id));
    if (sides.size !== 2) ctx.addIssue({ code: 'custom', path: ['sides'], message: 'the two sides need different ids' });
    if (s.sides[0].fleet === s.sides[1].fleet) ctx.addIssue({ code: 'custom', path: ['sides', 1, 'fleet'], message: 'one side is alpha, the other beta' });
    const ids = new Set<string>();
    s.squadrons.forEach((q, i) => {
      const at = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: ['squadrons', i, field], message });
      if (ids.has(q.id)) at('id', `squadron ${q.id} is named twice`);
      ids.add(q.id);
      if (!sides.has(q.side)) at('side', `squadron ${q.id}: no side ${q.side}`);
      if (q.freighters && q.formation !== 'unformed') at('formation', `squadron ${q.id}: freighters are always unformed`);
      if (q.freighters && s.wind === undefined) at('freighters', `squadron ${q.id}: freighters sail, so the set-up needs a wind`);
    });
    for (const side of s.sides) {
      const mine = s.squadrons.filter((q) => q.side === side.id && !q.freighters);
      if (mine.length === 0) ctx.addIssue({ code: 'custom', path: ['sides'], message: `side ${side.id} has no squadrons` });
      if (s.sides.filter((x) => x.id === side.id).length > 1) continue;
      const strategoi = mine.filter((q) => q.strategos).length;
      if (strategoi > 1) ctx.addIssue({ code: 'custom', path: ['squadrons'], message: `side ${side.id} names ${strategoi} strategoi` });
    }
    for (const side of Object.keys(s.edges)) if (!sides.has(side)) ctx.addIssue({ code: 'custom', path: ['edges', side], message: `no side ${side}` });
    s.phalanxes.forEach((p, i) => {
      if (!sides.has(p.side)) ctx.addIssue({ code: 'custom', path: ['phalanxes', i, 'side'], message: `no side ${p.side}` });
    });
    s.positions.forEach((p, i) => {
      if (!sides.has(p.side)) ctx.addIssue({ code: 'custom', path: ['positions', i, 'side'], message: `no side ${p.side}` });
    });
    if (s.squadrons.some((q) => q.freighters) && !s.convoyExit)
      ctx.addIssue({ code: 'custom', path: ['convoyExit'], message: 'freighters need an edge to leave by' });
  });
export type Setup = z.infer<typeof SetupSchema>;
