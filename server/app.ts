/**
 * buildApp: the whole server as one Fastify instance, without listening, so
 * tests drive it with `inject` or `listen({ port: 0 })` exactly as production does.
 *
 * App-wide plugins (database, live bus, authentication) are registered with
 * fastify-plugin so every domain sees them; each domain (accounts, games, live)
 * is an encapsulated plugin with its own routes.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIVE_LIMITS } from '../shared/api/live.ts';
import authPlugin from './auth/authenticate.ts';
import accountsRoutes from './accounts/routes.ts';
import adminRoutes from './admin/routes.ts';
import profilesRoutes from './profiles/routes.ts';
import pushRoutes from './push/routes.ts';
import seatsRoutes from './seats/routes.ts';
import type { Database, DatabaseOptions } from './db/database.ts';
import databasePlugin from './db/plugin.ts';
import { HttpError, installErrorHandlers } from './errors.ts';
import { installJsonParser } from './json-body.ts';
import gamesRoutes from './games/routes.ts';
import busPlugin from './bus/plugin.ts';
import liveRoutes from './live/routes.ts';
import archiveRoutes from './archive/routes.ts';
import battlesRoutes from './battles/routes.ts';
import campaignRoutes from './campaign/routes.ts';
import drawsRoutes from './draws/routes.ts';
import vacationsRoutes from './vacations/routes.ts';
import clockVotesRoutes from './clock-votes/routes.ts';
import gmRoutes from './gm/routes.ts';
import loansRoutes from './loans/routes.ts';
import ordersRoutes from './orders/routes.ts';
import phasesRoutes from './phases/routes.ts';
import playPlugin from './play/plugin.ts';
import notifyPlugin from './notify/plugin.ts';
import gameMailPlugin from './notify/events-plugin.ts';
import pressRoutes from './press/routes.ts';
import notificationRoutes from './notifications/routes.ts';
import webhooksRoutes from './webhooks/routes.ts';
import calendarRoutes from './calendar/routes.ts';
import mapImagesPlugin from './map-images/plugin.ts';
import mapPicturesPlugin from './pictures/plugin.ts';
import { errorResponses } from './schemas.ts';
import { defaultSettings, type AppSettings } from './settings.ts';
import { checkRouteViews } from './views/route-views.ts';
import './types.ts';

/** Longest path parameter (Fastify's maxParamLength). */
export const MAX_PARAM_LENGTH = 100;

export type AppOptions = {
  database: DatabaseOptions | Database;
  settings?: Partial<AppSettings>;
  logger?: FastifyServerOptions['logger'];
  trustProxy?: false | string[];
  /** How long to retry an unreachable database at start-up. */
  startupTimeoutMs?: number;
};

/** One access-log line per request, once answered (Fastify's default is two: "incoming request", "request completed"). */
class AccessLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // remoteAddress: the client's (the forwarded one behind a trusted proxy).
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      remoteAddress: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const settings: AppSettings = { ...defaultSettings, ...options.settings };
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new AccessLog(),
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 64 * 1024,
    // Path parameters (ids, power names) are short; longer ones are refused before routing.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any hook runs get the API's error body too.
    frameworkErrors: (error, _request, frameworkReply) => {
      const reply = frameworkReply as FastifyReply;
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return reply.code(414).send({ error: { code: 'uri_too_long', message: `a path parameter is longer than ${MAX_PARAM_LENGTH} characters` } });
      }
      return reply.code(400).send({ error: { code: 'bad_request', message: `the URL is malformed (${error.message})` } });
    },
    // Requests arriving while we shut down get our JSON 503 (hook below), not Fastify's.
    return503OnClosing: false,
    // The database plugin keeps retrying an unreachable database (startupTimeoutMs, 30 s by default)
    // and an embedded database recovering from a crash may take a while: Fastify's 10 s default would cut both short.
    pluginTimeout: (options.startupTimeoutMs ?? 30_000) + 60_000,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const serveClient = settings.webDistDir !== null && existsSync(settings.webDistDir);
  installErrorHandlers(app, { serveClientIndex: serveClient });
  installJsonParser(app);
  app.decorate('settings', settings);

  // First, so its hooks mark websocket upgrades before any other hook can refuse one
  // (a refused upgrade's socket is then destroyed, not left open to block shutdown).
  await app.register(websocket, {
    options: { maxPayload: LIVE_LIMITS.maxMessageBytes },
    preClose(done) {
      // 1001 "going away" tells clients to reconnect (to another instance) rather than give up.
      for (const client of this.websocketServer.clients) client.close(1001, 'server shutting down');
      this.websocketServer.close(() => done());
    },
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (closing) throw new HttpError(503, 'shutting_down', 'the server is restarting; try again in a moment');
  });

  // Helmet's security headers on every answer. Its middleware is built once here: @fastify/helmet built it
  // again for each request, about 7 % of the server's CPU under order submissions (bench/README.md).
  const securityHeaders = helmet({
    // swagger-ui at /api/docs needs its own inline script; it sets its own CSP (staticCSP below).
    contentSecurityPolicy: {
      // No upgrade-insecure-requests: plain-http deployments (LAN, localhost) must keep working.
      directives: { 'connect-src': ["'self'"], 'upgrade-insecure-requests': null },
    },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new HttpError(429, 'rate_limited', `too many attempts; try again in ${context.after}`),
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Diadochi Online API',
        version: '0.1.0',
        description:
          'Errors always have the body `{ error: { code, message } }`. Cookie-authenticated writes need the ' +
          '`X-CSRF-Token` header from log-in or `GET /api/auth/me`; API tokens go in `Authorization: Bearer`. ' +
          'Live events: a websocket at `/api/live`, protocol in `shared/api/live.ts`.',
      },
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
          apiToken: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ sessionCookie: [] }, { apiToken: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // The docs page's own policy (swagger-ui's default, less upgrade-insecure-requests, as above): swagger-ui's
    // script injects <style> elements, which 'self' alone blocks (a console error on every visit). Its page shows
    // nothing a user wrote, so inline styles are allowed there, and there only.
    staticCSP:
      "default-src 'self'; base-uri 'self'; font-src 'self' https: data:; frame-ancestors 'self'; img-src 'self' data: validator.swagger.io; " +
      "object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' https: 'unsafe-inline'",
  });

  await app.register(databasePlugin, { database: options.database, startupTimeoutMs: options.startupTimeoutMs });
  await app.register(busPlugin);
  await app.register(authPlugin);
  await app.register(playPlugin);
  await app.register(mapPicturesPlugin);
  await app.register(notifyPlugin);
  await app.register(gameMailPlugin);

  // Before the routes: in tests, every API answer must come from a view (server/views/).
  checkRouteViews(app);
  await app.register(accountsRoutes, { prefix: '/api/auth' });
  await app.register(gamesRoutes, { prefix: '/api' });
  await app.register(phasesRoutes, { prefix: '/api' });
  await app.register(ordersRoutes, { prefix: '/api' });
  await app.register(pressRoutes, { prefix: '/api' });
  await app.register(notificationRoutes, { prefix: '/api' });
  await app.register(loansRoutes, { prefix: '/api' });
  await app.register(drawsRoutes, { prefix: '/api' });
  await app.register(vacationsRoutes, { prefix: '/api' });
  await app.register(clockVotesRoutes, { prefix: '/api' });
  await app.register(gmRoutes, { prefix: '/api' });
  await app.register(archiveRoutes, { prefix: '/api' });
  await app.register(adminRoutes, { prefix: '/api' });
  await app.register(profilesRoutes, { prefix: '/api' });
  await app.register(pushRoutes, { prefix: '/api' });
  await app.register(seatsRoutes, { prefix: '/api' });
  await app.register(battlesRoutes, { prefix: '/api' });
  await app.register(campaignRoutes, { prefix: '/api' });
  await app.register(webhooksRoutes, { prefix: '/api' });
  await app.register(calendarRoutes, { prefix: '/api' });
  await app.register(mapImagesPlugin);
  await app.register(liveRoutes, { prefix: '/api' });
  await app.register(
    async (health) => {
      health.withTypeProvider<ZodTypeProvider>().get(
        '/health',
        {
          // Whether the server and its database are up: no game data.
          config: { view: 'none' },
          schema: {
            tags: ['server'],
            summary: 'Liveness and database reachability (503 when the database is down)',
            response: { 200: z.object({ status: z.literal('ok'), database: z.literal('up') }), ...errorResponses },
          },
        },
        async () => {
          await app.prisma.$queryRaw`SELECT 1`;
          return { status: 'ok' as const, database: 'up' as const };
        },
      );
    },
    { prefix: '/api' },
  );

  if (serveClient)
    await app.register(fastifyStatic, {
      root: settings.webDistDir!,
      wildcard: false,
      // The build writes .br and .gz beside each script and stylesheet (web/vite.config.ts): sent to browsers that accept them.
      preCompressed: true,
      // Vite names what it puts in assets/ by its content, so a browser may keep those for good;
      // index.html (which names them) and the rest are checked again on every visit.
      setHeaders: (reply, file) =>
        reply.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });

  return app;
}
