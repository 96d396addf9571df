/** What a side may do: hand in its plot for the turn, or, as a repulsing defender, choose what follows. */
import { z } from 'zod';
import { MAX_SHIPS } from './setup.ts';
import { ShipPlotSchema } from './state.ts';

const id = z.string().min(1).max(40);

export const ActionSchema = z.discriminatedUnion('kind', [
  /** A side's orders for the turn: one plot for each of its ships afloat. */
  z.object({ kind: z.literal('plot'), plots: z.array(ShipPlotSchema).min(1).max(MAX_SHIPS) }).strict(),
  /** A defender that threw back boarders: cut the grapples, or counter-board the attacker. */
  z.object({ kind: z.literal('repulse'), ship: id, choice: z.enum(['cut', 'counter-board']) }).strict(),
]);
export type Action = z.infer<typeof ActionSchema>;
