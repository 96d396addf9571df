/**
 * The calendar feed (mounted at /api): a user's secret iCalendar address with the open deadline of every game they
 * play or run, and the user's own routes to make, change or drop that address. The feed needs no log-in (calendar
 * apps cannot log in): the secret in the address is the key, so an unknown one learns nothing but 404, and changing
 * it (or turning the feed off) is how a user shuts out whoever had the old address.
 *
 * One event per game, at the open phase's deadline, with a UID made of the game and the phase: a calendar app that
 * reads the feed again moves the event when the deadline moves, and the next phase's is a new event. The feed names
 * the user's own games and their own seat only: never another player (anonymous games stay anonymous).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import ical, { ICalAlarmType } from 'ical-generator';
import { z } from 'zod';
import { CalendarFeedSchema, type CalendarFeed } from '../../shared/api/calendar.ts';
import { mayView } from '../access/policy.ts';
import { requireUser } from '../auth/authenticate.ts';
import { gameOf } from '../db/tables/games.ts';
import { HttpError } from '../errors.ts';
import { preferencesOf } from '../notify/preferences.ts';
import { errorResponses } from '../schemas.ts';

const tags = ['calendar'];
/** Games one feed lists at most (a user in more sees the soonest deadlines). */
const MOST_EVENTS = 200;
/** The secret: 32 random bytes, base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  const { publicUrl } = app.settings;
  const feedUrl = (token: string | null): CalendarFeed => ({ url: token ? `${publicUrl}/api/calendar/${token}.ics` : null });
  const host = new URL(publicUrl).host;
  // Nothing in these answers but the user's own feed address: no view makes them (server/views/route-views.ts).
  const own = { view: 'none' as const };

  app.get(
    '/calendar/:token.ics',
    {
      // The user's own games and seats only, naming no other player: no view makes it (server/views/route-views.ts).
      config: own,
      schema: {
        tags,
        summary: 'A user\'s calendar feed (iCalendar): each active game\'s open deadline, "<game>: <phase> orders due", with a reminder',
        description:
          "No log-in: the secret in the address is the key (`POST /api/calendar/token` makes it). Each event's UID names the game and the phase, so a calendar app moves it when the deadline moves. Paused games are left out until they resume. An unknown address is 404.",
        params: z.object({ token: z.string().max(64) }),
        security: [],
        produces: ['text/calendar'],
        response: { 200: z.string().describe('An iCalendar document (RFC 5545)'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const user = TOKEN.test(token) ? await app.prisma.user.findUnique({ where: { calendarToken: token }, select: { id: true, username: true } }) : null;
      if (!user) throw new HttpError(404, 'not_found', 'no such calendar');

      const games = await app.prisma.game.findMany({
        where: {
          status: 'active',
          pausedAt: null,
          OR: [{ gameMasterId: user.id }, { players: { some: { userId: user.id, status: { not: 'eliminated' } } } }],
          phases: { some: { status: 'open', deadlineAt: { not: null } } },
        },
        include: {
          players: { select: { userId: true, power: true, status: true } },
          phases: {
            where: { status: 'open', deadlineAt: { not: null } },
            orderBy: { index: 'desc' },
            take: 1,
            select: { index: true, name: true, deadlineAt: true },
          },
        },
        take: MOST_EVENTS,
      });

      const calendar = ical({
        name: 'Diadochi deadlines',
        description: `Deadlines of ${user.username}'s games`,
        prodId: { company: 'Diadochi', product: 'deadlines', language: 'EN' },
        // A hint to calendar apps to look again often: deadlines move.
        ttl: 15 * 60,
      });
      const viewer = { id: user.id, isAdmin: false };
      for (const row of games) {
        const game = gameOf(row);
        const phase = row.phases[0];
        if (!game || !phase?.deadlineAt || !mayView(game, viewer)) continue;
        const seat = row.players.find((player) => player.userId === user.id);
        const role = seat?.power ? `You play ${seat.power}.` : 'You run this game as its game master.';
        const link = `${publicUrl}/games/${game.id}`;
        const leads = (await preferencesOf(app.prisma, [user.id], game.id)).get(user.id)?.reminderLeadHours ?? [];
        calendar.createEvent({
          id: `game-${game.id}-phase-${phase.index}@${host}`,
          start: phase.deadlineAt,
          summary: `${game.name}: ${phase.name} orders due`,
          description: `${role}\n${link}`,
          url: link,
          alarms: leads.map((hours) => ({
            type: ICalAlarmType.display,
            triggerBefore: hours * 3600,
            description: `${game.name}: ${phase.name} orders due in ${hours} h`,
          })),
        });
      }
      return (
        reply
          .type('text/calendar; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('content-disposition', 'inline; filename="diadochi.ics"')
          // Sent as bytes: the route's schema only documents it, nothing serialises it.
          .send(Buffer.from(calendar.toString()) as never)
      );
    },
  );

  app.get(
    '/calendar/token',
    {
      config: own,
      schema: { tags, summary: 'Your calendar feed address, or null when you have none', response: { 200: CalendarFeedSchema, ...errorResponses } },
    },
    async (request) => {
      const { id } = requireUser(request);
      const user = await app.prisma.user.findUniqueOrThrow({ where: { id }, select: { calendarToken: true } });
      return feedUrl(user.calendarToken);
    },
  );

  app.post(
    '/calendar/token',
    {
      config: own,
      schema: {
        tags,
        summary: 'Make your calendar feed address, or change it: the old address stops working at once',
        response: { 200: CalendarFeedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = requireUser(request);
      const token = randomBytes(32).toString('base64url');
      await app.prisma.user.update({ where: { id }, data: { calendarToken: token } });
      return feedUrl(token);
    },
  );

  app.delete(
    '/calendar/token',
    { config: own, schema: { tags, summary: 'Turn your calendar feed off: its address stops working', response: { 204: z.undefined(), ...errorResponses } } },
    async (request, reply) => {
      const { id } = requireUser(request);
      await app.prisma.user.update({ where: { id }, data: { calendarToken: null } });
      return reply.code(204).send();
    },
  );
};

export default calendarRoutes;
