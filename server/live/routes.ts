/**
 * The websocket at /api/live: authenticated with the session cookie or an API token before the upgrade (and
 * again at every heartbeat, by the hub), each client message parsed here and handed to the live hub (hub.ts),
 * which keeps the subscriptions fed by the live bus. Protocol and limits: shared/api/live.ts.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ClientMessageSchema, LIVE_LIMITS, type ClientMessage } from '../../shared/api/live.ts';
import { credentialsOf } from '../auth/authenticate.ts';
import { findSession } from '../auth/sessions.ts';
import { forbidden, HttpError, unauthenticated } from '../errors.ts';
import { errorResponses } from '../schemas.ts';
import { POLICY_VIOLATION } from './connection.ts';
import { LiveHub } from './hub.ts';
import { readGameFacts } from './who-may-watch.ts';

/** A client's text frame as a message, or what is wrong with it (the client is told, the socket stays open). */
function parseMessage(text: string): { message: ClientMessage } | { error: { code: string; message: string } } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: { code: 'bad_request', message: 'messages must be JSON objects' } };
  }
  const parsed = ClientMessageSchema.safeParse(json);
  if (parsed.success) return { message: parsed.data };
  const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ');
  return { error: { code: 'validation_failed', message: details } };
}

const liveRoutes: FastifyPluginAsync = async (app) => {
  const hub = new LiveHub({
    feed: {
      subscribe: (channel, listener) => app.bus.subscribe(channel, listener),
      onResync: (listener) => app.bus.onResync(listener),
      currentSeq: (channel) => app.bus.currentSeq(app.prisma, channel),
      history: (channel, after) => app.bus.history(app.prisma, channel, after),
    },
    gameFacts: (gameId) => readGameFacts(app.prisma, gameId),
    sessionOf: (credentials) => findSession(app.database, credentials.token, credentials.kind),
    log: app.log,
    heartbeatMs: app.settings.heartbeatMs,
  });
  app.addHook('preClose', async () => hub.close());

  function originAllowed(request: FastifyRequest): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return true; // not a browser
    if (app.settings.allowedOrigins.includes(origin)) return true;
    try {
      return new URL(origin).host === request.host;
    } catch {
      return false;
    }
  }

  app.route({
    method: 'GET',
    url: '/live',
    schema: {
      tags: ['live'],
      summary: 'Websocket for live events: open it with an Upgrade request (protocol: shared/api/live.ts)',
      response: { ...errorResponses },
    },
    // Runs before the upgrade, so refusals are ordinary HTTP error responses.
    preValidation: async (request) => {
      const auth = request.auth;
      if (!auth) throw unauthenticated();
      // Browsers send cookies with cross-site websocket requests too (no CORS for websockets).
      if (auth.via === 'cookie' && !originAllowed(request)) {
        throw forbidden('origin_not_allowed', `websocket connections from ${request.headers.origin} are not allowed`);
      }
      if (hub.socketsOf(auth.user.id) >= LIVE_LIMITS.maxSocketsPerUser) {
        throw new HttpError(429, 'rate_limited', `at most ${LIVE_LIMITS.maxSocketsPerUser} live connections per user`);
      }
    },
    // A plain GET (no Upgrade header) gets an explanation instead of a socket.
    handler: async () => {
      throw new HttpError(426, 'upgrade_required', 'open /api/live as a websocket (send "Upgrade: websocket")');
    },
    wsHandler: (socket, request) => {
      const user = request.auth!.user;
      // Upgrades racing past the check in preValidation: the limit holds all the same.
      if (hub.socketsOf(user.id) >= LIVE_LIMITS.maxSocketsPerUser) {
        socket.close(POLICY_VIOLATION, `at most ${LIVE_LIMITS.maxSocketsPerUser} live connections per user`);
        return;
      }
      // Checked in preValidation: the upgrade was authenticated with these.
      const connection = hub.open(socket, user, credentialsOf(request)!);
      socket.on('message', (data, isBinary) => {
        if (!connection.admit()) return;
        if (isBinary) return connection.sendError('bad_request', 'send text frames');
        const text = data.toString();
        connection.inTurn(
          () => {
            const parsed = parseMessage(text);
            if ('error' in parsed) return connection.sendError(parsed.error.code, parsed.error.message);
            return hub.handle(connection, parsed.message);
          },
          (error: unknown) => {
            request.log.warn({ err: error }, 'live message failed');
            connection.sendError('internal_error', 'could not handle the message; try again');
          },
        );
      });
    },
  });
};

export default liveRoutes;
