/**
 * A game's webhooks, the game master's setting (mounted at /api): list, add (the secret shown once), delete, turn on
 * again after a receiver's refusal turned it off, and a test call. Calls themselves go through the outbox
 * (notify/webhook-drafts.ts writes them, notify/webhook.ts posts them); only the test call is made here, at once, so
 * the game master sees what the receiver answered.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import {
  CreatedWebhookSchema,
  CreateWebhookRequestSchema,
  MOST_WEBHOOKS_PER_GAME,
  WEBHOOK_HEADERS,
  WebhookListSchema,
  WebhookParamsSchema,
  WebhookSchema,
  WebhookTestResultSchema,
  type Webhook,
} from '../../shared/api/webhooks.ts';
import { WEBHOOK_EVENTS, WebhookEventSchema } from '../../shared/api/notifications.ts';
import { requireUser } from '../auth/authenticate.ts';
import type { Prisma } from '../db/database.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { requireGameMaster, viewableGame, withLockedGame } from '../play/context.ts';
import { errorResponses } from '../schemas.ts';
import { callWebhook } from '../notify/webhook.ts';
import { webhookUrlProblem } from '../notify/webhook-address.ts';

const tags = ['webhooks'];
type WebhookRow = Prisma.GameWebhookGetPayload<object>;

/** A webhook as its game master sees it: never the secret. `retrying`: why a call waiting to be tried again failed. */
function webhookOf(row: WebhookRow, retrying: string | null = null): Webhook {
  return {
    id: row.id,
    url: row.url,
    // Only events the schema knows (a stored list is written by this file alone).
    events: row.events.filter((event) => WebhookEventSchema.safeParse(event).success) as Webhook['events'],
    createdAt: row.createdAt.toISOString(),
    disabledAt: row.disabledAt?.toISOString() ?? null,
    lastError: row.lastError ?? retrying,
  };
}

/** The game, for its game master (or an administrator): 404 to whoever may not see it, 403 to the others. */
async function gameMasterOf(app: FastifyInstance, request: FastifyRequest, gameId: string) {
  const context = await viewableGame(app.prisma, gameId, requireUser(request));
  requireGameMaster(context);
  return context;
}

async function webhookIn(app: FastifyInstance, gameId: string, webhookId: string): Promise<WebhookRow> {
  const row = await app.prisma.gameWebhook.findFirst({ where: { id: webhookId, gameId } });
  if (!row) throw notFound('no webhook with that id in this game');
  return row;
}

const webhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { webhooks: options } = app.settings;
  // The game master's own settings: addresses and events, naming nobody, so no view makes them (server/views/route-views.ts).
  const config = { view: 'none' as const };

  app.get(
    '/games/:gameId/webhooks',
    {
      config,
      schema: {
        tags,
        summary: "The game's webhooks (its game master only), with why the last call failed; never their secrets",
        params: GameIdParamsSchema,
        response: { 200: WebhookListSchema, ...errorResponses },
      },
    },
    async (request) => {
      await gameMasterOf(app, request, request.params.gameId);
      const rows = await app.prisma.gameWebhook.findMany({ where: { gameId: request.params.gameId }, orderBy: { createdAt: 'asc' } });
      // A call that failed and waits to be tried again says so on its outbox row (pending rows are few: indexed).
      const waiting = await app.prisma.outboxMessage.findMany({
        where: { status: 'pending', channel: 'webhook', target: { in: rows.map((row) => row.id) }, lastError: { not: null } },
        orderBy: { nextAttemptAt: 'desc' },
        select: { target: true, lastError: true, nextAttemptAt: true },
      });
      const retrying = (id: string) => {
        const row = waiting.find((message) => message.target === id);
        return row ? `${row.lastError} (trying again from ${row.nextAttemptAt.toISOString()})`.slice(0, 400) : null;
      };
      return { webhooks: rows.map((row) => webhookOf(row, retrying(row.id))), most: MOST_WEBHOOKS_PER_GAME };
    },
  );

  app.post(
    '/games/:gameId/webhooks',
    {
      config,
      schema: {
        tags,
        summary: `Add a webhook (game master; at most ${MOST_WEBHOOKS_PER_GAME} a game): the answer holds its secret, shown this once`,
        description:
          `Called with Discord- and Slack-compatible JSON (\`content\`, \`text\`, and \`event\` with the facts) on the chosen events (${WEBHOOK_EVENTS.join(', ')}). ` +
          `Every call is signed: \`${WEBHOOK_HEADERS.signature}: sha256=<hex HMAC-SHA-256 of "<timestamp>.<body>" keyed with the secret>\`, ` +
          `with \`${WEBHOOK_HEADERS.timestamp}\` (Unix seconds) and \`${WEBHOOK_HEADERS.delivery}\` (the same for every retry of one message). ` +
          'The address must be https and must not point at a private, link-local or loopback address (400 naming why).',
        params: GameIdParamsSchema,
        body: CreateWebhookRequestSchema,
        response: { 201: CreatedWebhookSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { url, events } = request.body;
      const problem = webhookUrlProblem(url, options.allowLoopback);
      if (problem) throw invalid('body.url', problem);
      const secret = randomBytes(32).toString('hex');
      const row = await withLockedGame(app, request.params.gameId, user, async (tx, context) => {
        requireGameMaster(context);
        const { status } = context.game;
        if (status === 'finished' || status === 'cancelled')
          throw conflict('game_not_active', `the game ${status === 'finished' ? 'is over' : 'was cancelled'}: it has no more events to post`);
        const count = await tx.gameWebhook.count({ where: { gameId: context.game.id } });
        if (count >= MOST_WEBHOOKS_PER_GAME)
          throw conflict('too_many_webhooks', `a game may have at most ${MOST_WEBHOOKS_PER_GAME} webhooks: delete one first`);
        return tx.gameWebhook.create({ data: { gameId: context.game.id, url, secret, events, createdById: user.id } });
      });
      return reply.code(201).send({ webhook: webhookOf(row), secret });
    },
  );

  app.delete(
    '/games/:gameId/webhooks/:webhookId',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a webhook (game master): calls not yet made are dropped',
        params: WebhookParamsSchema,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await gameMasterOf(app, request, request.params.gameId);
      const { count } = await app.prisma.gameWebhook.deleteMany({ where: { id: request.params.webhookId, gameId: request.params.gameId } });
      if (count === 0) throw notFound('no webhook with that id in this game');
      return reply.code(204).send();
    },
  );

  app.post(
    '/games/:gameId/webhooks/:webhookId/enable',
    {
      config,
      schema: {
        tags,
        summary: 'Turn on again a webhook that a refusal turned off (game master); events from now on are posted',
        params: WebhookParamsSchema,
        response: { 200: WebhookSchema, ...errorResponses },
      },
    },
    async (request) => {
      await gameMasterOf(app, request, request.params.gameId);
      await webhookIn(app, request.params.gameId, request.params.webhookId);
      const row = await app.prisma.gameWebhook.update({ where: { id: request.params.webhookId }, data: { disabledAt: null, lastError: null } });
      return webhookOf(row);
    },
  );

  app.post(
    '/games/:gameId/webhooks/:webhookId/test',
    {
      config: {
        ...config,
        // Each one makes the server call out: a few a minute per user.
        rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (request) => request.auth?.user.id ?? request.ip },
      },
      schema: {
        tags,
        summary: 'Send a test call now (game master), signed like the others, and say what the receiver answered. Changes nothing stored',
        description: `The body's \`event.type\` is \`test\`; \`${WEBHOOK_HEADERS.delivery}\` starts with \`test-\`. A webhook that is turned off may be tested.`,
        params: WebhookParamsSchema,
        response: { 200: WebhookTestResultSchema, ...errorResponses },
      },
    },
    async (request) => {
      const context = await gameMasterOf(app, request, request.params.gameId);
      const webhook = await webhookIn(app, request.params.gameId, request.params.webhookId);
      const line = `Test call from Diadochi for the game "${context.game.name}": this webhook works.`;
      const body = JSON.stringify({ content: line, text: line, event: { type: 'test', gameId: context.game.id, at: new Date().toISOString() } });
      const result = await callWebhook(webhook, body, `test-${randomUUID()}`, options);
      return { delivered: result.outcome === 'sent', status: result.status, error: result.outcome === 'sent' ? null : result.error };
    },
  );
};

export default webhooksRoutes;
