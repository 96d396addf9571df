/** The archive, mounted at /api: exports (JSON, DATC text) and import. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ExportedGameSchema, IMPORT_BODY_LIMIT, ImportGameRequestSchema } from '../../shared/api/archive.ts';
import { GameDetailSchema, GameIdParamsSchema } from '../../shared/api/games.ts';
import { requireUser } from '../accounts/auth.ts';
import { errorResponses } from '../schemas.ts';
import { exportDatc, exportGame } from './export.ts';
import { importGame } from './import.ts';

const tags = ['archive'];

const archiveRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/games/:gameId/export',
    {
      schema: {
        tags,
        summary: 'The whole game as JSON, re-importable: settings, powers, every phase (positions, orders, results), press, loans, votes, GM log',
        description: 'For a game still going on, only what you may see: processed phases, and press you may read (`complete` is false).',
        params: GameIdParamsSchema,
        response: { 200: ExportedGameSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const data = await exportGame(app.prisma, request.auth?.user ?? null, request.params.gameId);
      reply.header('content-disposition', `attachment; filename="game-${request.params.gameId}.json"`);
      return data;
    },
  );

  app.get(
    '/games/:gameId/export/datc',
    {
      schema: {
        tags,
        summary: 'Every processed phase as a case in the DATC text format (re-check with `npm run -s datc -- FILE`)',
        params: GameIdParamsSchema,
        produces: ['text/plain'],
        response: { 200: z.string().describe('DATC text cases'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const text = await exportDatc(app.prisma, request.auth?.user ?? null, request.params.gameId);
      return reply.type('text/plain; charset=utf-8').header('content-disposition', `attachment; filename="game-${request.params.gameId}.datc"`).send(text);
    },
  );

  app.post(
    '/games/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      // Who may import is known before the (up to 32 MiB) body is read and validated: anonymous requests stop here.
      preParsing: async (request) => {
        requireUser(request);
      },
      // Each import re-adjudicates every phase: a few per user and window.
      config: { rateLimit: { max: app.settings.importRateLimit.max, timeWindow: app.settings.importRateLimit.windowMs, keyGenerator: (request) => request.auth?.user.id ?? request.ip } },
      schema: {
        tags,
        summary: 'Create a game from an export; you are its game master. Every phase must re-adjudicate to what the export records',
        description: 'Seats are vacant (hand them to users with the game-master replace tool). 422 `import_invalid` names the first problem.',
        body: ImportGameRequestSchema,
        response: { 201: GameDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await importGame(app, requireUser(request), request.body)),
  );
};

export default archiveRoutes;
