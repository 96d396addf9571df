/** A Diadochi Naval Rules battle's set-up, as a scenario file holds it and a client sends it. */
import { z } from 'zod';
import { TableSchema } from '../table/index.ts';
import { RULES, SHIP_TYPES } from './rules.ts';

/** Ships in one battle: each may log a command line, a move, a fire and a combat line a turn, within a log's 400 lines. */
export const MAX_SHIPS = 48;
export const MAX_TURN_LIMIT = 60;

const id = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens');

const coordinate = z.number().finite().min(-100).max(1_000);

export const ShipSetupSchema = z
  .object({
    id,
    name: z.string().min(1).max(40),
    squadron: id,
    type: z.enum(SHIP_TYPES),
    /** Where the scenario deploys it (each side may plot its own deployment before the battle). */
    x: coordinate,
    y: coordinate,
    heading: z.number().finite().min(0).lt(360),
  })
  .strict();
export type ShipSetup = z.infer<typeof ShipSetupSchema>;

export const ZoneSchema = z
  .object({ x0: coordinate, y0: coordinate, x1: coordinate, y1: coordinate })
  .strict()
  .refine((z) => z.x0 < z.x1 && z.y0 < z.y1, { message: 'a zone runs from its lower corner to its upper' });
export type Zone = z.infer<typeof ZoneSchema>;

export const SetupSchema = z
  .object({
    title: z.string().min(1).max(120),
    /** Where the scenario comes from (the document and what was made of it). */
    source: z.string().max(400).default(''),
    table: TableSchema,
    sides: z
      .array(
        z
          .object({
            id,
            name: z.string().min(1).max(60),
            /** The side's own edge: where it deploys and where its prizes are towed. */
            home: z.enum(['north', 'south']),
          })
          .strict(),
      )
      .length(2),
    squadrons: z
      .array(
        z
          .object({
            id,
            side: id,
            name: z.string().min(1).max(60),
            rating: z.number().int().min(RULES.command.ratingRange.min).max(RULES.command.ratingRange.max),
            flagship: id,
          })
          .strict(),
      )
      .min(2)
      .max(12),
    ships: z.array(ShipSetupSchema).min(2).max(MAX_SHIPS),
    /** Where each side may plot its ships; by default its half of the table at least 8 cables from the centreline. */
    zones: z.record(id, ZoneSchema).default({}),
    /** The side that moves first; null: the dice decide. */
    first: id.nullable().default(null),
    turnLimit: z.number().int().min(1).max(MAX_TURN_LIMIT).default(20),
    /** The share of its starting combat value (flagships double) whose loss breaks a side; the rules' third by default. */
    lossFraction: z.number().gt(0).max(1).default(RULES.victory.lossFraction),
    /** The scenario's own victory conditions, in words, when they add to the loss rule. */
    victory: z.string().max(400).default(''),
  })
  .strict()
  .superRefine((s, ctx) => {
    const sides = new Set(s.sides.map((x) => x.id));
    if (sides.size !== s.sides.length) ctx.addIssue({ code: 'custom', path: ['sides'], message: 'the two sides need different ids' });
    if (s.sides[0]?.home === s.sides[1]?.home) ctx.addIssue({ code: 'custom', path: ['sides'], message: 'the two sides need opposite home edges' });
    if (s.first !== null && !sides.has(s.first)) ctx.addIssue({ code: 'custom', path: ['first'], message: `no side ${s.first}` });
    const squadrons = new Map(s.squadrons.map((q) => [q.id, q]));
    s.squadrons.forEach((q, i) => {
      if (!sides.has(q.side)) ctx.addIssue({ code: 'custom', path: ['squadrons', i, 'side'], message: `squadron ${q.id}: no side ${q.side}` });
      const flagship = s.ships.find((ship) => ship.id === q.flagship);
      if (flagship?.squadron !== q.id)
        ctx.addIssue({ code: 'custom', path: ['squadrons', i, 'flagship'], message: `squadron ${q.id}: its flagship ${q.flagship} is not one of its ships` });
    });
    const ids = new Set<string>();
    s.ships.forEach((ship, i) => {
      if (ids.has(ship.id)) ctx.addIssue({ code: 'custom', path: ['ships', i, 'id'], message: `ship ${ship.id} is named twice` });
      ids.add(ship.id);
      if (!squadrons.has(ship.squadron))
        ctx.addIssue({ code: 'custom', path: ['ships', i, 'squadron'], message: `ship ${ship.id}: no squadron ${ship.squadron}` });
    });
    for (const side of sides)
      if (!s.squadrons.some((q) => q.side === side)) ctx.addIssue({ code: 'custom', path: ['squadrons'], message: `side ${side} has no squadron` });
    for (const zoneSide of Object.keys(s.zones))
      if (!sides.has(zoneSide)) ctx.addIssue({ code: 'custom', path: ['zones', zoneSide], message: `no side ${zoneSide}` });
  });
export type Setup = z.infer<typeof SetupSchema>;
