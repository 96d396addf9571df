/**
 * A Classis battle's set-up, as a scenario file holds it and a client sends it: the sea, the two sides, their
 * squadrons (each with its commander and flagship) and their ships (type, crew, towers, engines, iron hands,
 * hex and facing). What it leaves out is rolled when the battle starts: crews (1.4), commanders' ratings (1.5)
 * and, if asked, the wind (1.9).
 */
import { z } from 'zod';
import { FacingSchema, HexSchema, hexKey } from '../hex.ts';
import { SeaSchema, impassable } from '../sea.ts';
import { CrewSchema, RULES, maxTowers, shipType } from './rules.ts';

const IdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, - and _ (at most 40)');

export const ShipSetupSchema = z
  .object({
    id: IdSchema,
    name: z.string().min(1).max(60),
    type: z.string().min(1).max(40),
    /** Rolled on the crew quality chart when left out. */
    crew: CrewSchema.optional(),
    /** Cataphracts only; Sixes and above always have two of each. */
    towers: z.number().int().min(0).max(2).optional(),
    engines: z.number().int().min(0).max(2).optional(),
    ironHands: z.boolean().default(false),
    hex: HexSchema,
    facing: FacingSchema,
  })
  .strict();

export const SquadronSetupSchema = z
  .object({
    id: IdSchema,
    name: z.string().min(1).max(60),
    commander: z
      .object({
        name: z.string().min(1).max(60),
        /** The command radius (2, 3 or 4); rolled on the commander quality chart when left out. */
        rating: z.number().int().min(1).max(6).optional(),
      })
      .strict(),
    /** The ship (of this squadron) the commander sails in. */
    flagship: IdSchema,
    ships: z.array(ShipSetupSchema).min(RULES.squadronShips.min).max(RULES.squadronShips.max),
  })
  .strict();

export const SideSetupSchema = z
  .object({
    id: IdSchema,
    name: z.string().min(1).max(60),
    /** The first squadron's commander is the fleet admiral. */
    squadrons: z.array(SquadronSetupSchema).min(1).max(8),
  })
  .strict();

/** Where a scenario comes from: the document, its place in it, and how it was turned into a Classis set-up. */
export const SourceSchema = z
  .object({
    document: z.string().min(1).max(300),
    section: z.string().max(200).optional(),
    note: z.string().max(1_000).optional(),
  })
  .strict();

export const MAX_TURN_LIMIT = 200;

export const SetupSchema = z
  .object({
    title: z.string().min(1).max(120),
    source: SourceSchema.optional(),
    description: z.string().max(2_000).optional(),
    sea: SeaSchema,
    /** "none": no wind; "roll": a d6 at the start (shown, without effect in Classis); or the facing it blows from. */
    wind: z.union([z.literal('none'), z.literal('roll'), FacingSchema]).default('none'),
    /** After this many turns the battle ends (see the README: the side with fewer losses wins). */
    turnLimit: z.number().int().min(1).max(MAX_TURN_LIMIT).default(30),
    sides: z.array(SideSetupSchema).length(2),
  })
  .strict()
  .superRefine((setup, ctx) => {
    const ids = new Map<string, string>();
    const hexes = new Map<string, string>();
    const blocked = impassable(setup.sea);
    const claim = (id: string, path: (string | number)[]) => {
      if (ids.has(id)) ctx.addIssue({ code: 'custom', path, message: `the id "${id}" is already used by ${ids.get(id)}` });
      else ids.set(id, path.join('.'));
    };
    setup.sides.forEach((side, si) => {
      claim(side.id, ['sides', si, 'id']);
      side.squadrons.forEach((sq, qi) => {
        const at = ['sides', si, 'squadrons', qi];
        claim(sq.id, [...at, 'id']);
        if (!sq.ships.some((s) => s.id === sq.flagship))
          ctx.addIssue({ code: 'custom', path: [...at, 'flagship'], message: `the flagship "${sq.flagship}" is not a ship of this squadron` });
        if (sq.commander.rating !== undefined && !RULES.commanderChart.some((row) => row.rating === sq.commander.rating))
          ctx.addIssue({
            code: 'custom',
            path: [...at, 'commander', 'rating'],
            message: `a commander's rating is one of ${RULES.commanderChart.map((r) => r.rating).join(', ')}`,
          });
        sq.ships.forEach((ship, i) => {
          const path = [...at, 'ships', i];
          claim(ship.id, [...path, 'id']);
          const type = shipType(ship.type);
          if (!type) {
            ctx.addIssue({
              code: 'custom',
              path: [...path, 'type'],
              message: `"${ship.type}" is not a ship type (${RULES.shipTypes.map((t) => t.id).join(', ')})`,
            });
            return;
          }
          if (type.fitted) {
            if (ship.towers !== undefined && ship.towers !== type.fitted.towers)
              ctx.addIssue({ code: 'custom', path: [...path, 'towers'], message: `a ${type.name} always has ${type.fitted.towers} towers` });
            if (ship.engines !== undefined && ship.engines !== type.fitted.engines)
              ctx.addIssue({ code: 'custom', path: [...path, 'engines'], message: `a ${type.name} always has ${type.fitted.engines} engines` });
          } else {
            if ((ship.towers ?? 0) > maxTowers(type))
              ctx.addIssue({
                code: 'custom',
                path: [...path, 'towers'],
                message: type.cataphract
                  ? `a ${type.name} may carry at most ${maxTowers(type)} tower(s): tower points may not exceed its boarding factor ${type.boarding}`
                  : `only cataphract ships may carry towers; a ${type.name} is not one`,
              });
            if ((ship.engines ?? 0) > (type.cataphract ? RULES.maxEngines : 0))
              ctx.addIssue({
                code: 'custom',
                path: [...path, 'engines'],
                message: type.cataphract
                  ? `at most ${RULES.maxEngines} engines (one at the bow, one at the stern)`
                  : `only cataphract ships may carry engines; a ${type.name} is not one`,
              });
          }
          if (blocked(ship.hex)) ctx.addIssue({ code: 'custom', path: [...path, 'hex'], message: 'off the board, on land or on a reef' });
          const key = hexKey(ship.hex);
          if (hexes.has(key)) ctx.addIssue({ code: 'custom', path: [...path, 'hex'], message: `two ships in one hex (with ${hexes.get(key)})` });
          else hexes.set(key, ship.id);
        });
      });
    });
  });

export type Setup = z.infer<typeof SetupSchema>;
export type SetupInput = z.input<typeof SetupSchema>;
export type ShipSetup = z.infer<typeof ShipSetupSchema>;
