/**
 * The outbox messages a game event makes for the game's webhooks: one per webhook that is on and subscribed to the
 * event, written by the event's own writer in its transaction (`enqueue(tx, await webhookDrafts(…))`).
 */
import { WebhookPayloadSchema, type WebhookPayload } from '../../shared/api/notifications.ts';
import type { Db } from '../db/database.ts';
import type { OutboxDraft } from '../db/tables/outbox.ts';

/** Room left in outbox.dedupe_key (200) after `webhook:<uuid>:`. */
export const MAX_WEBHOOK_EVENT_KEY = 200 - 'webhook:'.length - 36 - 1;

/**
 * Drafts for every enabled webhook of `gameId` subscribed to `payload.event.type`. `eventKey` names the event once
 * for all its recipients (e.g. `phase-processed:<phaseId>`, `deadline-reminder:<phaseId>:24h`): the dedupe key is
 * `webhook:<webhookId>:<eventKey>`, so writing the same event twice posts it once. The payload is checked against
 * its schema here, in the writer's transaction, rather than failing at delivery.
 */
export async function webhookDrafts(tx: Db, gameId: string, eventKey: string, payload: WebhookPayload): Promise<OutboxDraft[]> {
  if (eventKey.length === 0 || eventKey.length > MAX_WEBHOOK_EVENT_KEY)
    throw new Error(`webhook event key must be 1 to ${MAX_WEBHOOK_EVENT_KEY} characters: ${eventKey.slice(0, 40)}…`);
  const body = WebhookPayloadSchema.parse(payload);
  if (body.event.gameId !== gameId) throw new Error(`webhook payload is for game ${body.event.gameId}, not ${gameId}`);
  const webhooks = await tx.gameWebhook.findMany({
    where: { gameId, disabledAt: null, events: { has: body.event.type } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  return webhooks.map((webhook) => ({
    channel: 'webhook' as const,
    dedupeKey: `webhook:${webhook.id}:${eventKey}`,
    gameId,
    userId: null,
    target: webhook.id,
    payload: body,
  }));
}
