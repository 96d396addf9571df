/** Accounts: sign-up, log-in/out, who-am-I, password changes, API tokens. Mounted at /api/auth. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiTokenListSchema,
  ChangePasswordRequestSchema,
  CreateApiTokenRequestSchema,
  CreatedApiTokenSchema,
  LoginRequestSchema,
  PasswordChangedSchema,
  RegisterRequestSchema,
  SessionInfoSchema,
  TokenIdParamsSchema,
  WhoAmISchema,
  type ApiToken,
  type SessionInfo,
  type WhoAmI,
} from '../../shared/api/accounts.ts';
import { conflict, forbidden, HttpError, invalid, notFound } from '../errors.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { errorResponses } from '../schemas.ts';
import type { Auth } from '../auth/caller.ts';
import { clearSessionCookie, requireUser, setSessionCookie } from '../auth/authenticate.ts';
import { passwordWeakness } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { announceSessionsChanged } from '../auth/session-cache.ts';
import { createSession, csrfTokenFor } from '../auth/sessions.ts';
import { emailKeyOf } from '../../shared/api/account-mail.ts';
import emailRoutes, { emailTaken, sendVerification } from './email.ts';
import preferencesRoutes, { timeZoneOf } from './preferences.ts';

const tags = ['accounts'];

function sessionInfo(user: Auth['user'] & { timeZone: string | null }, via: Auth['via'], csrfToken: string | null): SessionInfo {
  return {
    user: { id: user.id, username: user.username, createdAt: user.createdAt.toISOString(), isAdmin: user.isAdmin, timeZone: user.timeZone },
    authenticatedBy: via,
    csrfToken,
  };
}

function apiToken(session: { id: string; name: string | null; createdAt: Date; lastUsedAt: Date }): ApiToken {
  return {
    id: session.id,
    name: session.name ?? '',
    createdAt: session.createdAt.toISOString(),
    lastUsedAt: session.lastUsedAt.toISOString(),
  };
}

const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sessionTtlMs, scryptCost, authRateLimit } = app.settings;
  // Same limit for sign-up and for password guesses, counted separately, per client IP.
  const rateLimit = { max: authRateLimit.max, timeWindow: authRateLimit.windowMs };
  // Password guesses: log-ins and the current password of a change draw on ONE budget per address, so a guesser
  // gets no second one by switching route. One hook for both routes, since its counters live in the hook: the
  // plugin's groupId would not share them (in 11.2 each route's store is its own; fastify-rate-limit#463).
  const passwordGuesses = app.rateLimit(rateLimit);
  // Verifying against this when the username is unknown makes both failures take as long.
  let dummyHash: Promise<string> | undefined;
  // Account mail (email.ts): the address, its verification, password reset, change of address.
  await app.register(emailRoutes, { passwordGuesses });
  await app.register(preferencesRoutes);

  app.post(
    '/register',
    {
      // Your own account, sessions and tokens: no game data, so no view makes the body (server/views/route-views.ts).
      config: { csrf: false, rateLimit, view: 'none' },
      schema: {
        tags,
        summary: 'Create an account and log in',
        description:
          'The password must be 8 to 256 characters and hard to guess (zxcvbn score 3 of 4: not a common password, word, ' +
          'name, keyboard run, repeat or date, nor built from the username); a 400 `validation_failed` says why one is not. ' +
          'An email address is optional: given, it is mailed a verification link; 409 `email_taken` when another account has it.',
        body: RegisterRequestSchema,
        response: { 201: SessionInfoSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { username, password, email } = request.body;
      const weakness = await passwordWeakness(password, username);
      if (weakness) throw invalid('body.password', `${weakness}`);
      const passwordHash = await hashPassword(password, scryptCost);
      const emailKey = email === undefined ? null : emailKeyOf(email);
      const result = await app.prisma
        .$transaction(async (tx) => {
          if (emailKey && (await tx.user.findUnique({ where: { emailKey }, select: { id: true } }))) throw emailTaken();
          const user = await tx.user.create({ data: { username, usernameKey: username.toLowerCase(), passwordHash, email: email ?? null, emailKey } });
          // The verification mail is written with the account: it exists exactly when the account does.
          if (email !== undefined) await sendVerification(tx, app.settings.publicUrl, user, email);
          const { token } = await createSession(tx, user.id, 'cookie', { ttlMs: sessionTtlMs });
          return { user, token };
        })
        .catch(async (error: unknown) => {
          if (isUniqueViolation(error)) {
            // Two sign-ups raced for the name or the address: say which one was taken.
            if (emailKey && (await app.prisma.user.findUnique({ where: { emailKey }, select: { id: true } }))) throw emailTaken();
            throw conflict('username_taken', `the username "${username}" is taken`);
          }
          throw error;
        });
      setSessionCookie(request, reply, result.token, sessionTtlMs);
      return reply.code(201).send(sessionInfo(result.user, 'cookie', csrfTokenFor(result.token)));
    },
  );

  app.post(
    '/login',
    {
      // Your own account, sessions and tokens: no game data, so no view makes the body (server/views/route-views.ts).
      config: { csrf: false, view: 'none' },
      onRequest: passwordGuesses,
      schema: {
        tags,
        summary: 'Log in: sets the session cookie',
        body: LoginRequestSchema,
        response: { 200: SessionInfoSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const user = await app.prisma.user.findUnique({ where: { usernameKey: username.toLowerCase() } });
      if (!user) {
        dummyHash ??= hashPassword('not a password', scryptCost);
        await verifyPassword(password, await dummyHash);
        throw new HttpError(401, 'invalid_credentials', 'wrong username or password');
      }
      if (!(await verifyPassword(password, user.passwordHash))) {
        throw new HttpError(401, 'invalid_credentials', 'wrong username or password');
      }
      const { token } = await createSession(app.prisma, user.id, 'cookie', { ttlMs: sessionTtlMs });
      setSessionCookie(request, reply, token, sessionTtlMs);
      return sessionInfo(user, 'cookie', csrfTokenFor(token));
    },
  );

  app.post(
    '/logout',
    {
      // Your own account, sessions and tokens: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'End the session (or revoke the API token) that authenticated this request',
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (request.auth) {
        const { sessionId } = request.auth;
        await app.prisma.$transaction([
          app.prisma.session.deleteMany({ where: { id: sessionId } }),
          announceSessionsChanged(app.prisma, `session ${sessionId}`),
        ]);
        // The other instances are told when it commits; this one must not answer the next request from its cache meanwhile.
        app.sessions.forgetSession(sessionId);
      }
      clearSessionCookie(request, reply);
      return reply.code(204).send();
    },
  );

  app.get(
    '/me',
    {
      // Your own account, sessions and tokens: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Who am I: the current user and the CSRF token for cookie sessions',
        description:
          'A visitor (no session cookie nor API token, or a cookie whose session has ended) gets 200 with `user`, ' +
          '`authenticatedBy` and `csrfToken` null: not being logged in is an answer, not an error. ' +
          'An API token that is invalid or revoked is refused with 401, as on every route.',
        response: { 200: WhoAmISchema, ...errorResponses },
      },
    },
    async (request): Promise<WhoAmI> => {
      const auth = request.auth;
      if (!auth) return { user: null, authenticatedBy: null, csrfToken: null };
      return sessionInfo({ ...auth.user, timeZone: await timeZoneOf(app.prisma, auth.user.id) }, auth.via, auth.csrfToken);
    },
  );

  app.post(
    '/password',
    {
      // Your own account, sessions and tokens: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      // In the log-in's budget: the current password could otherwise be guessed here.
      onRequest: passwordGuesses,
      schema: {
        tags,
        summary: 'Change your password (from a browser session); your other browser sessions end',
        description:
          'The current password proves it is you. API tokens cannot change it (a leaked bot token must not take the account) ' +
          'and are kept; every other cookie session of yours ends, this one goes on. 403 `wrong_password` when the current password is wrong; 409 `conflict` when another session changed it meanwhile. ' +
          'The new password must be as hard to guess as at sign-up (400 `validation_failed` says why not). Attempts count towards the log-in limit of the address.',
        body: ChangePasswordRequestSchema,
        response: { 200: PasswordChangedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const auth = request.auth!;
      if (auth.via !== 'cookie') throw forbidden('forbidden', 'the password can be changed only when logged in with it, not with an API token');
      const { currentPassword, newPassword } = request.body;
      if (newPassword.toLowerCase() === user.username.toLowerCase()) throw invalid('body.newPassword', 'must not be the username');
      const weakness = await passwordWeakness(newPassword, user.username);
      if (weakness) throw invalid('body.newPassword', `${weakness}`);
      const { passwordHash } = await app.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
      const changedMeanwhile = () => conflict('conflict', 'your password was changed meanwhile (in another session); log in again with the new one');
      if (!(await verifyPassword(currentPassword, passwordHash))) {
        // A change made in another session since this request was let in ended this session: say so, not "wrong".
        if ((await app.prisma.session.count({ where: { id: auth.sessionId } })) === 0) throw changedMeanwhile();
        throw forbidden('wrong_password', 'the current password is wrong');
      }
      const newHash = await hashPassword(newPassword, scryptCost);
      const ended = await app.prisma.$transaction(async (tx) => {
        // Only over the hash just verified: two changes at once cannot both win.
        const { count } = await tx.user.updateMany({ where: { id: user.id, passwordHash }, data: { passwordHash: newHash } });
        if (count === 0) throw changedMeanwhile();
        await announceSessionsChanged(tx, `user ${user.id}`);
        return tx.session.deleteMany({ where: { userId: user.id, kind: 'cookie', id: { not: auth.sessionId } } });
      });
      app.sessions.forgetUser(user.id);
      return { otherSessionsEnded: ended.count };
    },
  );

  app.post(
    '/tokens',
    {
      // Your own account, sessions and tokens: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Create an API token (shown once) for a bot or script',
        description: 'From a browser session only: an API token cannot create another (403), so revoking a leaked one ends it.',
        body: CreateApiTokenRequestSchema,
        response: { 201: CreatedApiTokenSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // A token that could mint tokens would outlive its own revocation once leaked.
      if (request.auth!.via !== 'cookie')
        throw forbidden('forbidden', 'API tokens can be created only when logged in with your password (a browser session), not with an API token');
      const { token, session } = await createSession(app.prisma, user.id, 'api_token', { name: request.body.name });
      return reply.code(201).send({ ...apiToken(session), token });
    },
  );

  app.get(
    '/tokens',
    {
      // Your own account, sessions and tokens: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      schema: { tags, summary: 'List your API tokens', response: { 200: ApiTokenListSchema, ...errorResponses } },
    },
    async (request) => {
      const user = requireUser(request);
      const sessions = await app.prisma.session.findMany({
        where: { userId: user.id, kind: 'api_token' },
        orderBy: { createdAt: 'asc' },
      });
      return { tokens: sessions.map(apiToken) };
    },
  );

  app.delete(
    '/tokens/:tokenId',
    {
      // Your own account, sessions and tokens: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Revoke an API token',
        params: TokenIdParamsSchema,
        response: { 204: z.undefined(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const [{ count }] = await app.prisma.$transaction([
        app.prisma.session.deleteMany({ where: { id: request.params.tokenId, userId: user.id, kind: 'api_token' } }),
        announceSessionsChanged(app.prisma, `session ${request.params.tokenId}`),
      ]);
      if (count === 0) throw notFound('you have no API token with that id');
      app.sessions.forgetSession(request.params.tokenId);
      return reply.code(204).send();
    },
  );
};

export default accountsRoutes;
