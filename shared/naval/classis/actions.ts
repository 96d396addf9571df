/**
 * What a side may do while one of its squadrons is activated (3.2): each action costs one initiative point.
 * Moves and backwater moves may be made by a whole command (each ship in it in command) or by one ship;
 * every attack, the repair and the grapples are one ship's. `end` gives up the points left.
 */
import { z } from 'zod';
import { HexSchema } from '../hex.ts';
import { RULES } from './rules.ts';
import { FacingField } from './state.ts';

const Id = z.string().min(1).max(40);
/** The hexes entered, one after the other (a move of turns only enters none). */
const PathSchema = z.array(HexSchema).max(12);

export const ShipMoveSchema = z.object({ ship: Id, path: PathSchema, facing: FacingField }).strict();
export type ShipMove = z.infer<typeof ShipMoveSchema>;

const attack = <K extends string>(kind: K) => z.object({ kind: z.literal(kind), ship: Id, target: Id }).strict();

export const ActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('move'), ship: Id, path: PathSchema, facing: FacingField }).strict(),
  /** Several ships of the activated squadron, each in command, moving for one point; made in the order given. */
  z.object({ kind: z.literal('command-move'), moves: z.array(ShipMoveSchema).min(1).max(RULES.squadronShips.max) }).strict(),
  z.object({ kind: z.literal('backwater'), ship: Id }).strict(),
  z.object({ kind: z.literal('command-backwater'), ships: z.array(Id).min(1).max(RULES.squadronShips.max) }).strict(),
  attack('ram'),
  attack('follow-up-ram'),
  attack('rake'),
  attack('grapple'),
  attack('degrapple'),
  attack('board'),
  z.object({ kind: z.literal('repair'), ship: Id }).strict(),
  z.object({ kind: z.literal('end') }).strict(),
]);
export type Action = z.infer<typeof ActionSchema>;
export type AttackAction = Extract<Action, { target: string }>;
