/**
 * The `order_submissions` table: each submission keeps the orders the engine accepted (its CheckedOrder, accepted:
 * as given, in canonical notation, structured), read back with the wire's schema of an accepted order.
 *
 * An order's `input` is stored only where it differs from its canonical `text`, and read back as the text where it is
 * not stored: orders typed as the engine writes them, and structured ones (the board's, whose input is their text),
 * would otherwise store the same words twice. Rows written before are read as they are.
 */
import { z } from 'zod';
import { AcceptedOrderSchema } from '../../../shared/api/play.ts';
import type { Prisma } from '../database.ts';
import { parser, storedRows, storedValues, type Parsed } from './stored.ts';

export type StoredAcceptedOrder = z.output<typeof AcceptedOrderSchema>;
/** An accepted order as the column holds it: without `input` where that is its `text`. */
type CompactOrder = Omit<StoredAcceptedOrder, 'input'> & { input?: string };

const CompactOrderSchema = AcceptedOrderSchema.extend({ input: z.string().optional() }).transform(
  ({ input, ...order }): StoredAcceptedOrder => ({ input: input ?? order.text, ...order }),
);

const columns = { orders: parser(z.array(CompactOrderSchema)) };

/** The orders as the column takes them (INSERT statements in plain SQL too). */
export function compactOrders(orders: readonly StoredAcceptedOrder[]): CompactOrder[] {
  return orders.map(({ input, ...order }) => (input === order.text ? order : { input, ...order }));
}

/** A row of `order_submissions` (of any selection with its id), its orders parsed. */
export const submissionOf = storedRows('order_submissions', columns);
const values = storedValues<{ orders: CompactOrder[] }>();
export const submissionValues = ({ orders }: { orders: readonly StoredAcceptedOrder[] }) => values({ orders: compactOrders(orders) });

export type SubmissionRow = Parsed<Prisma.OrderSubmissionGetPayload<object>, typeof columns>;
