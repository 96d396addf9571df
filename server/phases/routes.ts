/**
 * The phases of a game, mounted at /api: positions, the supply table, who has
 * submitted and is ready, and — once a phase is processed, never before — every
 * power's orders, the results and the position after. Visible to whoever may
 * see the game (players, the public for public or finished games).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import { PhaseDetailSchema, PhaseListSchema, PhaseParamsSchema } from '../../shared/api/play.ts';
import { notFound } from '../errors.ts';
import { errorResponses } from '../schemas.ts';
import { viewableGame } from '../play/context.ts';
import { PHASE_HEADER, phaseOf } from '../db/tables/phases.ts';
import { phaseDetail, phaseListView } from '../views/phase.ts';

const tags = ['phases'];

const phasesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/games/:gameId/phases',
    {
      schema: { tags, summary: 'The phases of a game, oldest first', params: GameIdParamsSchema, response: { 200: PhaseListSchema, ...errorResponses } },
    },
    async (request) => {
      const context = await viewableGame(app.prisma, request.params.gameId, request.auth?.user ?? null);
      // Without their positions: a list has no use for them.
      const phases = await app.prisma.phase.findMany({ where: { gameId: context.game.id }, orderBy: { index: 'asc' }, select: PHASE_HEADER });
      return phaseListView(phases);
    },
  );

  app.get(
    '/games/:gameId/phases/current',
    {
      schema: {
        tags,
        summary: 'The phase being played (the last one once the game has ended)',
        params: GameIdParamsSchema,
        response: { 200: PhaseDetailSchema, ...errorResponses },
      },
    },
    async (request) => {
      const context = await viewableGame(app.prisma, request.params.gameId, request.auth?.user ?? null);
      const phase = phaseOf(await app.prisma.phase.findFirst({ where: { gameId: context.game.id }, orderBy: { index: 'desc' } }));
      if (!phase) throw notFound('the game has not started: it has no phase yet');
      return phaseDetail(app.prisma, context, phase);
    },
  );

  app.get(
    '/games/:gameId/phases/:index',
    {
      schema: { tags, summary: 'One phase', params: PhaseParamsSchema, response: { 200: PhaseDetailSchema, ...errorResponses } },
    },
    async (request) => {
      const context = await viewableGame(app.prisma, request.params.gameId, request.auth?.user ?? null);
      const phase = phaseOf(await app.prisma.phase.findUnique({ where: { gameId_index: { gameId: context.game.id, index: request.params.index } } }));
      if (!phase) throw notFound(`no phase ${request.params.index} in this game`);
      return phaseDetail(app.prisma, context, phase);
    },
  );
};

export default phasesRoutes;
