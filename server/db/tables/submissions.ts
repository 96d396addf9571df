/**
 * The `order_submissions` table: each submission keeps the orders the engine accepted (its CheckedOrder, accepted:
 * as given, in canonical notation, structured), read back with the wire's schema of an accepted order.
 */
import { z } from 'zod';
import { AcceptedOrderSchema } from '../../../shared/api/play.ts';
import type { Prisma } from '../database.ts';
import { parser, storedRows, storedValues, type Parsed } from './stored.ts';

const columns = { orders: parser(z.array(AcceptedOrderSchema)) };

export type StoredAcceptedOrder = z.output<typeof AcceptedOrderSchema>;

/** A row of `order_submissions` (of any selection with its id), its orders parsed. */
export const submissionOf = storedRows('order_submissions', columns);
export const submissionValues = storedValues<{ orders: StoredAcceptedOrder[] }>();

export type SubmissionRow = Parsed<Prisma.OrderSubmissionGetPayload<object>, typeof columns>;
