/** A Diadochi Naval Rules battle's state: plain JSON, checked by its schema when stored or loaded. */
import { z } from 'zod';
import { type Base, PlacementSchema, TableSchema } from '../table/index.ts';
import { RULES, type Rules, SHIP_TYPES } from './rules.ts';
import { MAX_SHIPS, ZoneSchema } from './setup.ts';

const id = z.string().min(1).max(40);

export const ShipStateSchema = z
  .object({
    id,
    name: z.string().max(40),
    side: id,
    squadron: id,
    type: z.enum(SHIP_TYPES),
    x: z.number().finite(),
    y: z.number().finite(),
    heading: z.number().finite().min(0).lt(360),
    /** Afloat, sunk, or captured (a prize towed towards the captor's edge, out of the fight). */
    status: z.enum(['afloat', 'sunk', 'captured']),
    crippled: z.boolean(),
    capturedBy: id.nullable(),
    /** Fallen out of formation (a blunder, or long bases changing back to line ahead) until reformed. */
    outOfFormation: z.boolean(),
    /** The enemy ship it is grappled to. */
    grappledWith: id.nullable(),
    /** It has had its order (or its blunder) this movement phase. */
    ordered: z.boolean(),
    /** It was its squadron's flagship when it was sunk or taken (it counts double among the losses). */
    lostAsFlagship: z.boolean(),
  })
  .strict();
export type ShipState = z.infer<typeof ShipStateSchema>;

export const SquadronStateSchema = z
  .object({
    id,
    side: id,
    name: z.string().max(60),
    /** The command rating now (less 1 for each flagship lost). */
    rating: z.number().int().min(-10).max(10),
    flagship: id.nullable(),
    /** A blunder stopped its orders for this turn. */
    halted: z.boolean(),
  })
  .strict();
export type SquadronState = z.infer<typeof SquadronStateSchema>;

export const STAGES = ['deploy', 'orders', 'fire', 'combat', 'over'] as const;

export const StateSchema = z
  .object({
    title: z.string().max(120),
    source: z.string().max(400),
    table: TableSchema,
    sides: z.array(z.object({ id, name: z.string().max(60), home: z.enum(['north', 'south']) }).strict()).length(2),
    squadrons: z.array(SquadronStateSchema).max(12),
    ships: z.array(ShipStateSchema).max(MAX_SHIPS),
    zones: z.record(id, ZoneSchema),
    turn: z.number().int().min(1).max(1000),
    turnLimit: z.number().int().min(1).max(1000),
    lossFraction: z.number().gt(0).max(1),
    victory: z.string().max(400),
    stage: z.enum(STAGES),
    /** The side whose player turn it is, and the side that moves first each turn. */
    active: id,
    first: id.nullable(),
    /** Where each ship stood when the movement phase began, and whether it was out of formation (command penalties). */
    phaseStart: z.record(id, PlacementSchema.extend({ outOfFormation: z.boolean() })),
    /** Secret deployments handed in, by side, until both are in. */
    deployments: z.record(id, z.array(PlacementSchema.extend({ ship: id })).max(MAX_SHIPS)),
    deployed: z.array(id).max(2),
    /** Each side's starting combat value, flagships counted double. */
    startValue: z.record(id, z.number().int().min(0)),
    rolls: z.number().int().min(0),
    outcome: z
      .object({ winner: id.nullable(), reason: z.string().max(400) })
      .strict()
      .nullable(),
  })
  .strict();
export type State = z.infer<typeof StateSchema>;

export const combatValue = (ship: Pick<ShipState, 'type'>, rules: Rules = RULES): number => rules.shipTypes[ship.type].combatValue;

export const baseOf = (ship: Pick<ShipState, 'type' | 'x' | 'y' | 'heading'>, rules: Rules = RULES): Base => ({
  x: ship.x,
  y: ship.y,
  heading: ship.heading,
  width: rules.baseWidth,
  length: rules.shipTypes[ship.type].length,
});

/** A ship still in the fight: afloat and not taken. */
export const afloat = (s: ShipState): boolean => s.status === 'afloat';
/** A ship on the table as an obstacle: afloat or a prize under tow. */
export const onTable = (s: ShipState): boolean => s.status !== 'sunk';

export const shipById = (state: State, shipId: string): ShipState | undefined => state.ships.find((s) => s.id === shipId);
export const squadronOf = (state: State, ship: ShipState): SquadronState | undefined => state.squadrons.find((q) => q.id === ship.squadron);
export const enemyOf = (state: State, side: string): string => state.sides.find((s) => s.id !== side)?.id ?? side;
export const isFlagship = (state: State, ship: ShipState): boolean => squadronOf(state, ship)?.flagship === ship.id;
export const sideName = (state: State, side: string): string => state.sides.find((s) => s.id === side)?.name ?? side;

/** What a side has lost so far: sunk and captured ships' combat values, a flagship's double. */
export function valueLost(state: State, side: string, rules: Rules = RULES): number {
  return state.ships
    .filter((s) => s.side === side && s.status !== 'afloat')
    .reduce((n, s) => n + combatValue(s, rules) * (s.lostAsFlagship ? rules.victory.flagshipWeight : 1), 0);
}
