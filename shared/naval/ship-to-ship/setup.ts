/** A ship-to-ship battle's set-up, as a scenario file holds it and a client sends it. */
import { z } from 'zod';
import { HexSchema, hexKey } from '../hex.ts';
import { SeaSchema, impassable } from '../sea.ts';
import { FacingField } from './facing.ts';
import { CREW_QUALITIES, NATIONS, RULES, SHIP_TYPES } from './rules.ts';

export const MAX_SIDES = 4;
/** Ships in one battle: each plays up to 3 fire lines, a move line and its fights per turn, within a log's 400 lines. */
export const MAX_SHIPS = 24;
export const MAX_TURN_LIMIT = 60;

const id = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens');

export const ShipSetupSchema = z
  .object({
    id,
    name: z.string().min(1).max(40),
    side: id,
    type: z.enum(SHIP_TYPES),
    nation: z.enum(NATIONS),
    crew: z.enum(CREW_QUALITIES),
    /** The Roman boarding bridge: with it a grapple the ship wants is certain. */
    corvus: z.boolean().default(false),
    hex: HexSchema,
    facing: FacingField,
    /** Its speed as the battle opens, at most its cruising speed. */
    speed: z.number().int().min(0).max(5).default(0),
  })
  .strict();
export type ShipSetup = z.infer<typeof ShipSetupSchema>;

export const SetupSchema = z
  .object({
    title: z.string().min(1).max(120),
    /** Where the scenario comes from (the document and what was scaled). */
    source: z.string().max(400).default(''),
    sides: z
      .array(z.object({ id, name: z.string().min(1).max(60) }).strict())
      .min(2)
      .max(MAX_SIDES),
    sea: SeaSchema,
    ships: z.array(ShipSetupSchema).min(2).max(MAX_SHIPS),
    /** The battle ends after this turn whatever happens. */
    turnLimit: z.number().int().min(1).max(MAX_TURN_LIMIT).default(30),
    /**
     * A side is beaten when the hull its ships still have afloat (hull less damage, ships not sunk or taken)
     * falls below this share of what it began with; 0: only when it has no ship left.
     */
    breakBelow: z.number().min(0).max(0.9).default(0),
  })
  .strict()
  .superRefine((s, ctx) => {
    const sides = new Set<string>();
    s.sides.forEach((side, i) => {
      if (sides.has(side.id)) ctx.addIssue({ code: 'custom', path: ['sides', i, 'id'], message: `side ${side.id} is named twice` });
      sides.add(side.id);
    });
    const ids = new Set<string>();
    const hexes = new Set<string>();
    const blocked = impassable(s.sea);
    s.ships.forEach((ship, i) => {
      const at = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: ['ships', i, field], message });
      if (ids.has(ship.id)) at('id', `ship ${ship.id} is named twice`);
      ids.add(ship.id);
      if (!sides.has(ship.side)) at('side', `ship ${ship.id}: no side ${ship.side}`);
      const type = RULES.shipTypes[ship.type];
      if (!type.crews[ship.nation]) at('type', `ship ${ship.id}: the ${ship.nation} fleet has no ${type.name.toLowerCase()} (n/a in the ship table)`);
      if (ship.speed > type.cruisingSpeed) at('speed', `ship ${ship.id}: starts at ${ship.speed}, above its cruising speed ${type.cruisingSpeed}`);
      if (blocked(ship.hex)) at('hex', `ship ${ship.id}: ${hexKey(ship.hex)} is off the board, land or reef`);
      if (hexes.has(hexKey(ship.hex))) at('hex', `ship ${ship.id}: another ship is already at ${hexKey(ship.hex)}`);
      hexes.add(hexKey(ship.hex));
    });
    for (const side of sides)
      if (!s.ships.some((ship) => ship.side === side)) ctx.addIssue({ code: 'custom', path: ['sides'], message: `side ${side} has no ships` });
  });
export type Setup = z.infer<typeof SetupSchema>;
