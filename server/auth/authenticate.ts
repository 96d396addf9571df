/**
 * Authentication for every request, and CSRF protection.
 *
 * Credentials: the httpOnly `sid` cookie (browsers) or `Authorization: Bearer
 * <API token>` (bots, scripts). `request.auth` is the result, null for anonymous
 * requests; routes that need a user call `requireUser(request)`.
 *
 * CSRF: a cookie is sent by the browser whatever page made the request, so a
 * cookie-authenticated POST/PUT/PATCH/DELETE must also carry the session's CSRF
 * token in the `X-CSRF-Token` header (synchronizer-token pattern; the token is
 * an HMAC of the session secret, returned by log-in and who-am-I). Another site
 * can neither read the token nor set a custom header without a CORS preflight,
 * which this server never grants. Bearer tokens are never sent implicitly, so
 * they need no CSRF token.
 */
import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthenticated } from '../errors.ts';
import type { Auth } from './caller.ts';
import { SESSIONS_CHANNEL, SessionCache } from './session-cache.ts';
import { SESSION_COOKIE, csrfTokenFor, deleteExpiredSessions, findSession, type SessionKind } from './sessions.ts';

export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireUser(request: FastifyRequest): Auth['user'] {
  if (!request.auth) throw unauthenticated();
  return request.auth.user;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, ttlMs: number): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    // Secure whenever the client reached us over https (directly or through a trusted proxy).
    secure: request.protocol === 'https',
    path: '/',
    maxAge: Math.floor(ttlMs / 1000),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', path: '/' });
}

/** A secret presented by a client, and which kind of session it opens. */
export type Credentials = { token: string; kind: SessionKind };

/** The secret a request presents, if any: an API token (which wins) or the session cookie. */
export function credentialsOf(request: FastifyRequest): Credentials | null {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!token) throw unauthenticated('the Authorization header must be "Bearer <API token>"');
    return { token, kind: 'api_token' };
  }
  const cookie = request.cookies[SESSION_COOKIE];
  return cookie ? { token: cookie, kind: 'cookie' } : null;
}

/** Resolves the credentials of a request (also used for the websocket upgrade). */
export async function authenticate(request: FastifyRequest): Promise<Auth | null> {
  const credentials = credentialsOf(request);
  if (!credentials) return null;
  const session = await findSession(request.server.database, credentials.token, credentials.kind, request.server.sessions);
  if (credentials.kind === 'api_token') {
    if (!session) throw unauthenticated('the API token is invalid or has been revoked');
    return { user: session.user, sessionId: session.id, via: 'api_token', csrfToken: null };
  }
  if (!session) return null;
  return { user: session.user, sessionId: session.id, via: 'cookie', csrfToken: csrfTokenFor(credentials.token) };
}

const SESSION_SWEEP_MS = 3600_000;

export default fp(
  async (app) => {
    // Background work: drop expired sessions hourly (they are refused anyway); stopped on close.
    const sweep = setInterval(() => {
      deleteExpiredSessions(app.prisma).catch((error: unknown) => app.log.warn({ err: error }, 'expired-session sweep failed'));
    }, SESSION_SWEEP_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));

    // Told of every session that ends or changes, on any instance (session-cache.ts).
    const sessions = new SessionCache();
    const unlisten = await app.database.listen(SESSIONS_CHANNEL, {
      onNotification: (payload) => sessions.notified(payload),
      onLost: () => sessions.listening(false),
      onReconnected: () => sessions.listening(true),
    });
    sessions.listening(true);
    app.decorate('sessions', sessions);
    app.addHook('onClose', async () => {
      sessions.listening(false);
      await unlisten();
    });

    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/') || request.url.startsWith('/api/docs')) return;
      request.auth = await authenticate(request);
      const auth = request.auth;
      if (auth?.via === 'cookie' && !SAFE_METHODS.has(request.method) && request.routeOptions.config.csrf !== false) {
        const sent = request.headers[CSRF_HEADER];
        if (typeof sent !== 'string' || !sameSecret(sent, auth.csrfToken!)) {
          throw forbidden('csrf_failed', `cookie-authenticated writes need the ${CSRF_HEADER} header from log-in or GET /api/auth/me`);
        }
      }
    });
  },
  { name: 'auth', dependencies: ['database'] },
);
