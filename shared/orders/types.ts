import { z } from 'zod';
import { LocationId, UnitType } from '../variant/schema.ts';

/**
 * An order as a player means it, before it is checked against the board:
 * ids are strings exactly as the variant spells them (locations may carry a
 * coast, `spa/nc`). This is also the structured JSON form clients may submit.
 */

export const UnitRefSchema = z.object({ type: UnitType.optional(), at: LocationId }).strict();
export type UnitRef = z.infer<typeof UnitRefSchema>;

export const OrderSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hold'), unit: UnitRefSchema }).strict(),
  z.object({ kind: z.literal('move'), unit: UnitRefSchema, to: LocationId, viaConvoy: z.boolean().default(false) }).strict(),
  /** Support to hold when `to` is absent, support to move otherwise. A coast on `to` must match the supported move. */
  z.object({ kind: z.literal('support'), unit: UnitRefSchema, supported: UnitRefSchema, to: LocationId.optional() }).strict(),
  z.object({ kind: z.literal('convoy'), unit: UnitRefSchema, army: UnitRefSchema, to: LocationId }).strict(),
  /** Diadochi V rule 7 (Z): destroy the supply centre the unit stands on. */
  z.object({ kind: z.literal('destroy'), unit: UnitRefSchema }).strict(),
  /** Diadochi V rule 8 (R): work on rebuilding the destroyed centre the unit stands on. */
  z.object({ kind: z.literal('rebuild'), unit: UnitRefSchema }).strict(),
  z.object({ kind: z.literal('retreat'), unit: UnitRefSchema, to: LocationId }).strict(),
  z.object({ kind: z.literal('disband'), unit: UnitRefSchema }).strict(),
  z.object({ kind: z.literal('build'), unitType: UnitType.optional(), at: LocationId }).strict(),
  z.object({ kind: z.literal('remove'), unit: UnitRefSchema }).strict(),
  z.object({ kind: z.literal('waive') }).strict(),
]);
export type Order = z.infer<typeof OrderSchema>;
export type OrderInput = z.input<typeof OrderSchema>;
export type OrderKind = Order['kind'];
