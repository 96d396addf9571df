/**
 * What a player does: hand in the secret deployment and signal plan, choose to move first or second, launch a
 * squadron from the beach (Bottled up), give a signal, move one squadron (its order, and the attack it makes),
 * give a phalanx its order (the Amphibious battle), or end the side's movement.
 */
import { z } from 'zod';
import { FORMATIONS } from './rules.ts';

const id = z.string().min(1).max(40);
const inches = z.number().finite().min(0).max(200);
const degrees = z.number().finite().min(-180).max(180);
const heading = z.number().finite().min(0).lt(360);
const toward = z.enum(['left', 'right']);

export const OrderSchema = z.discriminatedUnion('type', [
  /** Stay still (and rally, if disordered and not in melee). */
  z.object({ type: z.literal('hold') }).strict(),
  /** Wheel first (+ to the right), then straight ahead; for a column, turn in succession after the lead's first `after` inches. */
  z
    .object({
      type: z.literal('advance'),
      distance: inches,
      wheel: degrees.default(0),
      /** A column's turn: where its lead turns, in inches from the start. */
      turnAfter: inches.default(0),
      turn: degrees.default(0),
    })
    .strict(),
  z.object({ type: z.literal('back'), distance: inches }).strict(),
  z.object({ type: z.literal('about-face') }).strict(),
  z.object({ type: z.literal('change-front'), toward }).strict(),
  /** A change of formation (or, when unformed, forming one): stands turn or deploy to the left or right. */
  z
    .object({ type: z.literal('form'), formation: z.enum(FORMATIONS), toward: toward.default('right'), method: z.enum(['turn', 'deploy']).default('deploy') })
    .strict(),
  /** "Follow me!": go unformed and move straight in any direction (an unformed squadron's only move; a freighter's sail). */
  z.object({ type: z.literal('follow-me'), heading, distance: inches }).strict(),
]);
export type Order = z.infer<typeof OrderSchema>;

export const ATTACKS = ['melee', 'diekplous', 'periplous'] as const;

export const ActionSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('deploy'),
      /** Where each squadron starts (absent: where the scenario puts it). */
      placements: z
        .array(z.object({ squadron: id, x: z.number().finite(), y: z.number().finite(), heading, formation: z.enum(FORMATIONS) }).strict())
        .max(24)
        .default([]),
      /** The signals written down for each squadron. */
      signals: z
        .array(z.object({ squadron: id, signals: z.array(z.number().int().min(1).max(5)).max(5) }).strict())
        .max(24)
        .default([]),
    })
    .strict(),
  z.object({ kind: z.literal('initiative'), first: z.boolean() }).strict(),
  /** Bottled up: the squadron launched by choice this turn (null: none), before the rolls for the rest. */
  z.object({ kind: z.literal('launch'), squadron: id.nullable() }).strict(),
  /** A signal given this turn; every squadron it was written for obeys it in its move. */
  z.object({ kind: z.literal('signal'), signal: z.number().int().min(1).max(5) }).strict(),
  z
    .object({
      kind: z.literal('move'),
      squadron: id,
      order: OrderSchema,
      /** The enemy squadron its straight run contacts, and how. */
      attack: z
        .object({ target: id, manoeuvre: z.enum(ATTACKS).default('melee') })
        .strict()
        .optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('phalanx'),
      phalanx: id,
      order: z.enum(['charge', 'move', 'form', 'recover', 'hold', 'send-euzonoi']),
      /** The enemy phalanx or position it charges or moves to (send-euzonoi: their target). */
      target: id.nullable().default(null),
    })
    .strict(),
  z.object({ kind: z.literal('end-movement') }).strict(),
]);
export type Action = z.infer<typeof ActionSchema>;
export type MoveAction = Extract<Action, { kind: 'move' }>;
