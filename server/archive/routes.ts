/** The archive, mounted at /api: exports (JSON, DATC text) and import. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_LIMITS, ExportedGameSchema, IMPORT_LIMITS, ImportGameRequestSchema } from '../../shared/api/archive.ts';
import { GameDetailSchema, GameIdParamsSchema } from '../../shared/api/games.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { datcExportBody, exportContext, gameExportBody } from './export.ts';
import { Gate } from './gate.ts';
import { importGame } from './import.ts';

const tags = ['archive'];

/**
 * The import's validator: zod's stops at the first problem in each object and
 * list (`abortEarly`, as zod's own `validate` does). The default one reports
 * every problem zod finds, and an import of a million values can have millions
 * (a body of empty objects: gigabytes of issues). `abortEarly` is not in zod's
 * public ParseContext type, hence the cast; tests/server/import-memory.test.ts
 * would catch a zod that ignored it. The issues are marked as the zod type
 * provider marks its own (a Symbol.for key), so the error handler words them alike.
 */
const zodIssue = Symbol.for('ZodFastifySchemaValidationError');
function firstProblemValidator({ schema }: { schema: unknown }) {
  return (data: unknown) => {
    const result = (schema as z.ZodType).safeParse(data, { abortEarly: true } as z.core.ParseContext<z.core.$ZodIssue>);
    if (result.success) return { value: result.data };
    return {
      error: result.error.issues.slice(0, 10).map((issue) => ({
        [zodIssue]: true,
        keyword: issue.code,
        instancePath: `/${issue.path.join('/')}`,
        schemaPath: `#/${issue.path.join('/')}/${issue.code}`,
        message: issue.message,
        params: {},
      })),
    };
  };
}

const archiveRoutes: FastifyPluginAsyncZod = async (app) => {
  // Per process: what one import or export may hold in memory is bounded, and so is how many run at once.
  const imports = new Gate({ what: 'imports', concurrent: IMPORT_LIMITS.concurrent, maxWaiting: IMPORT_LIMITS.maxWaiting, maxWaitMs: IMPORT_LIMITS.maxWaitMs });
  const exports = new Gate({ what: 'exports', concurrent: EXPORT_LIMITS.concurrent, maxWaiting: EXPORT_LIMITS.maxWaiting, maxWaitMs: EXPORT_LIMITS.maxWaitMs });

  app.get(
    '/games/:gameId/export',
    {
      schema: {
        tags,
        summary: 'The whole game as JSON, re-importable: settings, powers, every phase (positions, orders, results), press, loans, votes, GM log',
        description:
          'For a game still going on, only what you may see: processed phases, and press you may read (`complete` is false). ' +
          `Written as it is read; at most ${EXPORT_LIMITS.concurrent} at once per server, others wait a few seconds or get 503 \`server_busy\`.`,
        params: GameIdParamsSchema,
        response: { 200: ExportedGameSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const context = await exportContext(app.prisma, request.auth?.user ?? null, request.params.gameId);
      await exports.enter(request, reply);
      reply.type('application/json; charset=utf-8').header('content-disposition', `attachment; filename="game-${request.params.gameId}.json"`);
      // A stream: not through the route's serializer (the schema documents what it writes).
      return reply.send(gameExportBody(app.prisma, context) as never);
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
      const context = await exportContext(app.prisma, request.auth?.user ?? null, request.params.gameId);
      await exports.enter(request, reply);
      reply.type('text/plain; charset=utf-8').header('content-disposition', `attachment; filename="game-${request.params.gameId}.datc"`);
      return reply.send(datcExportBody(app.prisma, context) as never);
    },
  );

  app.post(
    '/games/import',
    {
      bodyLimit: IMPORT_LIMITS.bodyBytes,
      // Who may import is known before the body is read and validated: anonymous requests stop here. Then it waits
      // for its turn, its body still unread: one import's body is parsed and checked at a time.
      preParsing: async (request, reply) => {
        requireUser(request);
        await imports.enter(request, reply);
      },
      validatorCompiler: firstProblemValidator,
      config: {
        maxJsonItems: IMPORT_LIMITS.jsonItems,
        maxJsonKeys: IMPORT_LIMITS.jsonKeys,
        // Each import re-adjudicates every phase: a few per user and window.
        rateLimit: {
          max: app.settings.importRateLimit.max,
          timeWindow: app.settings.importRateLimit.windowMs,
          keyGenerator: (request) => request.auth?.user.id ?? request.ip,
        },
      },
      schema: {
        tags,
        summary: 'Create a game from an export; you are its game master. Every phase must re-adjudicate to what the export records',
        description:
          'Seats are vacant (hand them to users with the game-master replace tool). 422 `import_invalid` names the first problem. ' +
          `The body: at most ${IMPORT_LIMITS.bodyBytes / 1024 / 1024} MiB, ${IMPORT_LIMITS.jsonItems} JSON values and keys, ${IMPORT_LIMITS.jsonKeys} different keys (413). ` +
          `One import at a time per server; up to ${IMPORT_LIMITS.maxWaiting} more wait, others get 503 \`server_busy\` with Retry-After.`,
        body: ImportGameRequestSchema,
        response: { 201: GameDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => imports.run(request, async () => reply.code(201).send(await importGame(app, requireUser(request), request.body))),
  );
};

export default archiveRoutes;
