/**
 * Browser push: the server's VAPID public key, and the logged-in user's subscribed browsers (each one a
 * `push_subscriptions` row that the outbox's push messages name: server/notify/push.ts). Mounted at /api.
 */
import { createPublicKey } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PUSH_LIMITS,
  PushEndpointQuerySchema,
  PushKeySchema,
  PushSubscriptionIdParamsSchema,
  PushSubscriptionListSchema,
  PushSubscriptionRequestSchema,
  PushSubscriptionSchema,
  type PushSubscriptionView,
} from '../../shared/api/push.ts';
import { requireUser } from '../auth/authenticate.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { endpointProblem } from '../notify/push-settings.ts';
import { vapidKeysOf } from '../notify/vapid.ts';
import { errorResponses } from '../schemas.ts';

const tags = ['push'];

type SubscriptionRow = { id: string; endpoint: string; userAgent: string | null; createdAt: Date; lastSuccessAt: Date | null };

function subscriptionView(row: SubscriptionRow): PushSubscriptionView {
  return {
    id: row.id,
    endpoint: row.endpoint,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
  };
}

/** Whether the browser's key is a point of P-256 (its length and form are the schema's; a point off the curve cannot encrypt). */
function isP256Point(p256dh: string): boolean {
  const point = Buffer.from(p256dh, 'base64url');
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = app.settings.push;
  const vapid = vapidKeysOf(settings, app.settings.publicUrl);

  app.get(
    '/push/key',
    {
      // The server's public key: names nobody.
      config: { view: 'none' },
      schema: {
        tags,
        summary: "The server's VAPID public key, the applicationServerKey a browser subscribes with",
        response: { 200: PushKeySchema, ...errorResponses },
      },
    },
    async () => ({ publicKey: vapid.publicKey }),
  );

  app.get(
    '/push/subscriptions',
    {
      // Your own browsers: no game data, nobody else's.
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Your browsers subscribed to notifications, newest first',
        response: { 200: PushSubscriptionListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const rows = await app.prisma.pushSubscription.findMany({ where: { userId: user.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return { subscriptions: rows.map(subscriptionView) };
    },
  );

  app.post(
    '/push/subscriptions',
    {
      // Your own browser's subscription: no game data.
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Subscribe this browser to your notifications',
        description:
          'The body is what `PushSubscription.toJSON()` gives once the browser subscribed with the key of `GET /api/push/key`. ' +
          'The endpoint must be an https URL at a known push service (the `PUSH_ENDPOINT_HOSTS` setting). A browser already ' +
          'subscribed (the same endpoint) is updated (200), for whoever is logged in now; a new one is 201. At most ' +
          `${PUSH_LIMITS.subscriptionsPerUser} browsers per user: a new one past that replaces the one subscribed longest ago.`,
        body: PushSubscriptionRequestSchema,
        response: { 200: PushSubscriptionSchema, 201: PushSubscriptionSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { endpoint, keys } = request.body;
      const problem = endpointProblem(endpoint, settings);
      if (problem) throw invalid('body.endpoint', problem);
      if (!isP256Point(keys.p256dh)) throw invalid('body.keys.p256dh', 'is not a point of the P-256 curve');
      const userAgent = request.headers['user-agent']?.slice(0, 200) ?? null;
      const { row, created } = await app.prisma
        .$transaction(async (tx) => {
          // One subscription at a time per user, so two at once cannot both pass the limit.
          await tx.$queryRaw`SELECT id FROM users WHERE id = ${user.id}::uuid FOR UPDATE`;
          const existing = await tx.pushSubscription.findUnique({ where: { endpoint } });
          if (existing?.userId === user.id) {
            const row = await tx.pushSubscription.update({ where: { id: existing.id }, data: { p256dh: keys.p256dh, auth: keys.auth, userAgent } });
            return { row, created: false };
          }
          // The browser subscribes for whoever is logged in now: the other account's messages stop reaching it
          // (a new id, so the outbox's messages for the old one are refused, never shown here).
          if (existing) await tx.pushSubscription.delete({ where: { id: existing.id } });
          const row = await tx.pushSubscription.create({ data: { userId: user.id, endpoint, p256dh: keys.p256dh, auth: keys.auth, userAgent } });
          const surplus = await tx.pushSubscription.findMany({
            where: { userId: user.id },
            orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
            skip: PUSH_LIMITS.subscriptionsPerUser,
            select: { id: true },
          });
          if (surplus.length > 0) await tx.pushSubscription.deleteMany({ where: { id: { in: surplus.map((s) => s.id) } } });
          return { row, created: true };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw conflict('conflict', 'this browser was subscribed by another request at the same moment; try again');
          throw error;
        });
      return reply.code(created ? 201 : 200).send(subscriptionView(row));
    },
  );

  app.delete(
    '/push/subscriptions/:subscriptionId',
    {
      // Your own browser's subscription: no game data.
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Stop notifications to one of your browsers',
        params: PushSubscriptionIdParamsSchema,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { count } = await app.prisma.pushSubscription.deleteMany({ where: { id: request.params.subscriptionId, userId: user.id } });
      if (count === 0) throw notFound('you have no subscribed browser with that id');
      return reply.code(204).send();
    },
  );

  app.delete(
    '/push/subscriptions',
    {
      // Your own browser's subscription: no game data.
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Stop notifications to this browser, named by its endpoint',
        description: 'What a browser calls when it unsubscribes: it knows its endpoint, not the id the server gave it.',
        querystring: PushEndpointQuerySchema,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { count } = await app.prisma.pushSubscription.deleteMany({ where: { endpoint: request.query.endpoint, userId: user.id } });
      if (count === 0) throw notFound('none of your subscribed browsers has that endpoint');
      return reply.code(204).send();
    },
  );
};

export default pushRoutes;
