/**
 * A user's notification choices: their defaults for every game (`/notifications/settings`), each game's own
 * (`/games/{gameId}/notifications`, for the game's players and game master), and the one-click unsubscribe link
 * every game mail carries (RFC 8058: a POST with the body `List-Unsubscribe=One-Click`, no log-in; a GET shows a
 * page that asks first, since mail scanners follow links). Mounted at /api.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { effectiveNotifications, NotificationSettingsSchema, type NotificationSettings } from '../../shared/api/notifications.ts';
import { NotificationChoicesSchema, UnsubscribeQuerySchema, UnsubscribeResultSchema, type NotificationChoices } from '../../shared/api/notification-routes.ts';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import { requireUser } from '../auth/authenticate.ts';
import type { Auth } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { notificationSettingOf, notificationSettingValues } from '../db/tables/notification-settings.ts';
import { forbidden, HttpError } from '../errors.ts';
import { viewableGame } from '../play/context.ts';
import { DEFAULT_SCOPE } from '../notify/preferences.ts';
import { applyUnsubscribe, verifyUnsubscribeToken, type UnsubscribeClaim } from '../notify/unsubscribe.ts';
import { errorResponses } from '../schemas.ts';

const tags = ['notifications'];

async function storedSettings(db: Db, userId: string, scope: string): Promise<NotificationSettings | null> {
  const row = await db.notificationSetting.findUnique({ where: { userId_scope: { userId, scope } } });
  return row ? notificationSettingOf(row).settings : null;
}

async function choicesOf(db: Db, userId: string, scope: string): Promise<NotificationChoices> {
  const defaults = await storedSettings(db, userId, DEFAULT_SCOPE);
  const own = scope === DEFAULT_SCOPE ? defaults : await storedSettings(db, userId, scope);
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, emailVerifiedAt: true, emailUndeliverableAt: true } });
  return {
    scope,
    settings: own ?? {},
    effective: scope === DEFAULT_SCOPE ? effectiveNotifications(defaults, null) : effectiveNotifications(defaults, own),
    mail: { address: user.email, verified: user.emailVerifiedAt !== null, undeliverable: user.emailUndeliverableAt !== null },
  };
}

async function store(db: Db, userId: string, scope: string, settings: NotificationSettings): Promise<void> {
  const values = notificationSettingValues({ settings });
  await db.notificationSetting.upsert({ where: { userId_scope: { userId, scope } }, create: { userId, scope, ...values }, update: values });
}

/** The game's players and its game master have choices for it; anyone else is told so (404 for a game they cannot see). */
async function memberScope(db: Db, user: Auth['user'], gameId: string): Promise<string> {
  const context = await viewableGame(db, gameId, user);
  if (!context.seat && context.game.gameMasterId !== user.id) {
    throw forbidden('forbidden', 'you play no power in this game and do not run it: it sends you nothing to choose about');
  }
  return gameId;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const EVENT_WORDS: Record<UnsubscribeClaim['event'], string> = {
  'phase-processed': 'results of each phase',
  'deadline-reminder': 'deadline reminders',
  press: 'new press',
  'game-started': 'the game starting',
  'game-ended': 'the game ending',
  'gm-announcement': "the game master's announcements",
  'seat-opened': 'seats opened for new players',
  'deadline-moved': 'deadlines moved',
  vote: 'votes',
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} · Diadochi</title></head><body style="font-family: sans-serif; max-width: 40em; margin: 2em auto; line-height: 1.4"><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  // The unsubscribe POST comes from mail providers as a form (RFC 8058): read here only, as text, bounded.
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
    done(null, body),
  );
  const secret = () => app.gameMail.env.secret;

  app.get(
    '/notifications/settings',
    {
      // The caller's own choices and address: names nobody else.
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Your notification choices for every game (each game may override them)',
        response: { 200: NotificationChoicesSchema, ...errorResponses },
      },
    },
    async (request) => choicesOf(app.prisma, requireUser(request).id, DEFAULT_SCOPE),
  );

  app.put(
    '/notifications/settings',
    {
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Replace your notification choices for every game',
        description: 'Events left out keep the site’s default (on); each game’s own choices still override these.',
        body: NotificationSettingsSchema,
        response: { 200: NotificationChoicesSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await store(app.prisma, user.id, DEFAULT_SCOPE, request.body);
      return choicesOf(app.prisma, user.id, DEFAULT_SCOPE);
    },
  );

  app.get(
    '/games/:gameId/notifications',
    {
      // The caller's own choices for the game: no game data, nobody else.
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Your notification choices for one game (over your defaults)',
        params: GameIdParamsSchema,
        response: { 200: NotificationChoicesSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return choicesOf(app.prisma, user.id, await memberScope(app.prisma, user, request.params.gameId));
    },
  );

  app.put(
    '/games/:gameId/notifications',
    {
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'Replace your notification choices for one game',
        description: 'Events left out follow your defaults. For the game’s players and its game master.',
        params: GameIdParamsSchema,
        body: NotificationSettingsSchema,
        response: { 200: NotificationChoicesSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const scope = await memberScope(app.prisma, user, request.params.gameId);
      await store(app.prisma, user.id, scope, request.body);
      return choicesOf(app.prisma, user.id, scope);
    },
  );

  const claimOf = (token: string): UnsubscribeClaim => {
    const claim = verifyUnsubscribeToken(secret(), token);
    if (!claim) throw new HttpError(400, 'token_invalid', 'query.token: this unsubscribe link is not valid (mistyped, or from another server)');
    return claim;
  };

  app.get(
    '/notifications/unsubscribe',
    {
      // A page naming the event only: no game data, nobody.
      config: { view: 'none' },
      schema: {
        tags,
        summary: 'The page an unsubscribe link opens: it asks before turning the mail off',
        description: 'Mail scanners follow links, so the GET changes nothing; the page’s button (or a mail client’s one-click POST) does.',
        querystring: UnsubscribeQuerySchema.extend({ done: z.literal('1').optional().describe('shown after the button was pressed') }),
        produces: ['text/html'],
        response: { 200: z.string().describe('an HTML page'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const claim = claimOf(request.query.token);
      const game = claim.scope === DEFAULT_SCOPE ? null : await app.prisma.game.findUnique({ where: { id: claim.scope }, select: { name: true } });
      const where = game ? `about “${escapeHtml(game.name)}”` : 'about any game';
      if (request.query.done) {
        reply.type('text/html; charset=utf-8');
        return page(
          'Done',
          `<p>You will get no more mail about ${escapeHtml(EVENT_WORDS[claim.event])} ${where}.</p><p>Your account page has all your choices.</p>`,
        );
      }
      const action = `/api/notifications/unsubscribe?token=${encodeURIComponent(request.query.token)}`;
      reply.type('text/html; charset=utf-8');
      return page(
        'Stop these mails?',
        `<p>Stop mail about ${escapeHtml(EVENT_WORDS[claim.event])} ${where}?</p>` +
          `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop these mails</button></form>` +
          '<p>You can turn them on again, and choose others, on your account page.</p>',
      );
    },
  );

  app.post(
    '/notifications/unsubscribe',
    {
      // One-click: no session, the signed token is the authority (RFC 8058); nothing to forge across sites without it.
      config: { csrf: false, view: 'none' },
      schema: {
        tags,
        summary: 'One-click unsubscribe (RFC 8058): turns one event’s mail off for one game, without logging in',
        description: 'The body is the form field `List-Unsubscribe=One-Click` (application/x-www-form-urlencoded or multipart/form-data).',
        querystring: UnsubscribeQuerySchema,
        response: { 200: UnsubscribeResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      // The form field as RFC 8058 sends it (urlencoded or multipart), or the same as JSON for API clients.
      const body = typeof request.body === 'string' ? request.body : '';
      const json = request.body !== null && typeof request.body === 'object' && (request.body as Record<string, unknown>)['List-Unsubscribe'] === 'One-Click';
      const oneClick = json || /List-Unsubscribe=One-Click/.test(body) || (/name="List-Unsubscribe"/.test(body) && /One-Click/.test(body));
      if (!oneClick) throw new HttpError(400, 'validation_failed', 'body: must be the form field List-Unsubscribe=One-Click (RFC 8058)');
      const claim = claimOf(request.query.token);
      const done = await app.prisma.$transaction((tx) => applyUnsubscribe(tx, claim));
      if (!done) throw new HttpError(400, 'token_invalid', 'query.token: the account or game this link was for no longer exists');
      // A person who pressed the page's button is sent to the page that says it is done; a mail client gets JSON.
      if (request.headers.accept?.includes('text/html')) {
        return reply.redirect(`/api/notifications/unsubscribe?token=${encodeURIComponent(request.query.token)}&done=1`, 303);
      }
      return { unsubscribed: true as const, event: claim.event, scope: claim.scope };
    },
  );
};

export default notificationRoutes;
