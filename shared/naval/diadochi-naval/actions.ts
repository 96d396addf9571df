/**
 * What a side may do: plot its deployment; order a ship or a group (a move, a formation change, falling out or
 * reforming), or end its movement; fire its missiles; fight its close combats.
 */
import { z } from 'zod';
import { MAX_SHIPS } from './setup.ts';

const id = z.string().min(1).max(40);
const length = z.number().finite().min(0).max(50);
const angle = z.number().finite().min(-360).max(360);

/** One leg of a move (lengths in cables, angles in degrees, + clockwise). */
export const LegSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ahead'), distance: length }).strict(),
  z.object({ kind: z.literal('back'), distance: length }).strict(),
  z.object({ kind: z.literal('oblique'), degrees: angle, distance: length }).strict(),
  z.object({ kind: z.literal('turn'), degrees: angle }).strict(),
  z.object({ kind: z.literal('wheel'), degrees: angle }).strict(),
]);
export type DnLeg = z.infer<typeof LegSchema>;

export const MoveSchema = z.discriminatedUnion('kind', [
  /**
   * A move by legs. With `charge`, it stops the moment it touches an enemy ship (the way into contact: "up to"
   * the allowance); without, running into anything is refused.
   */
  z.object({ kind: z.literal('legs'), legs: z.array(LegSchema).min(1).max(8), charge: z.boolean().default(false) }).strict(),
  /** A group changes formation by turning 90° (+ right, − left): line abreast to line ahead or back. */
  z.object({ kind: z.literal('change'), degrees: z.union([z.literal(90), z.literal(-90)]) }).strict(),
  /** A group standing in formation but flagged out of it forms up again (an entire move). */
  z.object({ kind: z.literal('reform') }).strict(),
]);
export type Move = z.infer<typeof MoveSchema>;

export const FORMATIONS = ['single', 'abreast', 'ahead'] as const;
export type Formation = (typeof FORMATIONS)[number];

export const PlacementActionSchema = z
  .object({ ship: id, x: z.number().finite().min(-100).max(1_000), y: z.number().finite().min(-100).max(1_000), heading: z.number().finite().min(0).lt(360) })
  .strict();

export const ActionSchema = z.discriminatedUnion('kind', [
  /** The secret initial plot: where each of the side's ships starts. */
  z.object({ kind: z.literal('deploy'), placements: z.array(PlacementActionSchema).min(1).max(MAX_SHIPS) }).strict(),
  /**
   * An order to one ship or a group of 2–8 of one squadron: `ships` in line ahead leader first; the group's
   * formation as the player sees it (checked against the table).
   */
  z.object({ kind: z.literal('order'), ships: z.array(id).min(1).max(8), formation: z.enum(FORMATIONS), move: MoveSchema }).strict(),
  /** The side's movement phase is over. */
  z.object({ kind: z.literal('end-movement') }).strict(),
  /** Missile fire: each listed ship shoots at its target (its closest, or one of the equally close); others able to fire support. */
  z.object({ kind: z.literal('fire'), attacks: z.array(z.object({ ship: id, target: id }).strict()).max(MAX_SHIPS) }).strict(),
  /** Close combat: each attacker's target and kind of attack; the others in contact forward with that target support. */
  z
    .object({
      kind: z.literal('combat'),
      attacks: z.array(z.object({ ship: id, target: id, attack: z.enum(['ram', 'rake', 'board', 'disengage']) }).strict()).max(MAX_SHIPS),
    })
    .strict(),
]);
export type Action = z.infer<typeof ActionSchema>;
export type CloseAttack = Extract<Action, { kind: 'combat' }>['attacks'][number];
