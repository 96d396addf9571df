/**
 * A user's own preferences, under /api/auth: the time zone in which the web client, mail and calendars show
 * times (users.time_zone; null: the browser's own, and UTC where no browser is asking). Registered by the
 * accounts plugin (routes.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PreferencesSchema, UpdatePreferencesRequestSchema, type Preferences } from '../../shared/api/preferences.ts';
import { requireUser } from '../auth/authenticate.ts';
import type { Db } from '../db/database.ts';
import { errorResponses } from '../schemas.ts';

/** The user's chosen time zone, or null. */
export async function timeZoneOf(db: Db, userId: string): Promise<string | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { timeZone: true } });
  return user?.timeZone ?? null;
}

const preferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/preferences',
    {
      // Your own account's settings: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      schema: {
        tags: ['accounts'],
        summary: 'Set your preferences: the time zone times are shown in',
        description:
          'An IANA time zone (e.g. "Europe/Amsterdam"), or null for the browser\'s own. Who-am-I answers it as `user.timeZone`. ' +
          'A zone the server does not know is 400 `validation_failed` naming `body.timeZone`.',
        body: UpdatePreferencesRequestSchema,
        response: { 200: PreferencesSchema, ...errorResponses },
      },
    },
    async (request): Promise<Preferences> => {
      const user = requireUser(request);
      const { timeZone } = await app.prisma.user.update({ where: { id: user.id }, data: { timeZone: request.body.timeZone }, select: { timeZone: true } });
      return { timeZone };
    },
  );
};

export default preferencesRoutes;
