/** The logged-in user's absences and the sitter they name, mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DeclareVacationRequestSchema, VacationListSchema, VacationParamsSchema } from '../../shared/api/vacations.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { cancelVacation, declareVacation, listVacations } from './service.ts';

const tags = ['vacations'];

const vacationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/vacations',
    {
      schema: {
        tags,
        summary: 'Your absences not yet over (and, per game, whether your sitter plays your seat), and those in which you sit for someone',
        response: { 200: VacationListSchema, ...errorResponses },
      },
    },
    async (request) => listVacations(app.prisma, requireUser(request)),
  );

  app.post(
    '/vacations',
    {
      schema: {
        tags,
        summary: 'Declare an absence, optionally with a sitter who plays your seats meanwhile',
        description:
          'Starts now or later, ends after it starts, lasts at most 30 days; at most 60 days of absence in any 365 and 10 ' +
          'absences not yet over; none overlapping. The sitter (a username, not yours) plays your power in each of your ' +
          'games during the absence, except where they play too or run the game: the answer says so per game.',
        body: DeclareVacationRequestSchema,
        response: { 201: VacationListSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await declareVacation(app, requireUser(request), request.body)),
  );

  app.delete(
    '/vacations/:vacationId',
    {
      schema: {
        tags,
        summary: 'Cancel an absence: one in progress ends now, one to come is dropped',
        params: VacationParamsSchema,
        response: { 200: VacationListSchema, ...errorResponses },
      },
    },
    async (request) => cancelVacation(app.prisma, requireUser(request), request.params.vacationId),
  );
};

export default vacationsRoutes;
