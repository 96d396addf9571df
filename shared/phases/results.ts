import { z } from 'zod';
import { LocationId, PowerId, ProvinceId } from '../variant/schema.ts';
import { OrderSchema } from '../orders/types.ts';

/**
 * What happened to each order, for players: a machine-readable code, a
 * sentence that explains it, and the facts behind it (strengths, who cut a
 * support, where an attack came from). The client shows these.
 */
export const ResultCode = z.enum([
  // movement
  'held',
  'moved',
  'bounced',
  'no-route',
  'supported',
  'support-cut',
  'support-void',
  'convoyed',
  'convoy-disrupted',
  'convoy-paradox',
  'convoy-void',
  'destroyed-centre',
  'rebuilding',
  'rebuilt-centre',
  // retreat
  'retreated',
  'retreat-bounced',
  'disbanded',
  // adjustment
  'built',
  'removed',
  'waived',
  /** Builds a power could not use: no free build site left (nobody chose to waive them). */
  'no-build-site',
  'civil-disorder',
  // any phase
  'illegal',
  'unordered',
]);
export type ResultCode = z.infer<typeof ResultCode>;

export const OrderResultSchema = z
  .object({
    power: PowerId,
    /** The order in canonical notation (as given, when it was illegal or unreadable). */
    order: z.string(),
    /** The same order, structured, whenever it could be read (for drawing it on the map). */
    parsed: OrderSchema.optional(),
    /** Location of the unit the order is for (absent for builds and waives). */
    unit: LocationId.optional(),
    success: z.boolean(),
    code: ResultCode,
    /** A sentence a player can read. */
    reason: z.string(),
    /** Set when the unit was dislodged: where the attacker came from (null by convoy) and which unit it was. */
    dislodgedBy: z.object({ from: ProvinceId.nullable(), unit: z.string() }).optional(),
    /** Moves: the attack strength and the strongest opposition. */
    strength: z.object({ attack: z.number().int(), opposition: z.number().int() }).optional(),
    /** Units whose strength stopped a move, or that cut a support. */
    against: z.array(z.string()).optional(),
    /** Adjustments: builds the power did not use (`unordered`: no order was given for them; `no-build-site`: none could be placed). */
    unused: z.number().int().positive().optional(),
  })
  .strict();
export type OrderResult = z.infer<typeof OrderResultSchema>;
