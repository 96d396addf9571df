/**
 * The durable outbox: every mail, push notification and webhook call is first a row of `outbox`, written in the
 * transaction of the event that causes it (so it exists exactly when the event committed), then delivered by
 * whichever instance claims it (delivery.ts). The dedupe key names the event and the recipient: writing the same
 * message twice (a retried request, two instances noticing the same deadline) keeps the first.
 */
import type { Db } from '../db/database.ts';
import { outboxValues, type OutboxDraft } from '../db/tables/outbox.ts';

/** Writes messages to the outbox (inside the caller's transaction); those whose dedupe key exists already are skipped. Returns how many were new. */
export async function enqueue(tx: Db, messages: readonly OutboxDraft[]): Promise<number> {
  if (messages.length === 0) return 0;
  const { count } = await tx.outboxMessage.createMany({ data: messages.map(outboxValues), skipDuplicates: true });
  return count;
}
