import { z } from 'zod';

/** Things that happened at the end of a phase besides the orders' own results. */
export const PhaseEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('centre-destroyed'), province: z.string(), by: z.string() }),
  z.object({ kind: z.literal('centre-rebuilt'), province: z.string(), by: z.string() }),
  z.object({ kind: z.literal('centre-captured'), province: z.string(), from: z.string().nullable(), to: z.string() }),
  z.object({ kind: z.literal('centre-rebelled'), province: z.string(), from: z.string() }),
  z.object({ kind: z.literal('loan-ended'), centre: z.string(), from: z.string(), to: z.string() }),
  z.object({ kind: z.literal('victory'), powers: z.array(z.string()) }),
  /** A unit lost with all its ships in the battle for a decided province (`at`: where it stood; `battle`: the province). */
  z.object({ kind: z.literal('unit-lost'), power: z.string(), unit: z.string(), at: z.string(), battle: z.string() }),
]);
export type PhaseEvent = z.infer<typeof PhaseEventSchema>;
