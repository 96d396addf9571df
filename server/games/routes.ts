/** The game lobby, mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateGameRequestSchema,
  GameDetailSchema,
  GameIdParamsSchema,
  GameListSchema,
  JoinGameRequestSchema,
  ListGamesQuerySchema,
  VARIANT_IDS,
  VariantListSchema,
  ViewGameQuerySchema,
} from '../../shared/api/games.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { createGame, joinGame, leaveGame, listGames, startGameAsMaster } from './lobby.ts';
import { readGame } from '../views/game.ts';
import { variantPowers } from '../play/variants.ts';

const tags = ['games'];

const gamesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/variants',
    {
      // The engine's variants and their powers: no game data, so no view makes the body (server/views/route-views.ts).
      config: { view: 'none' },
      schema: { tags, summary: 'Variants a game can be created with', response: { 200: VariantListSchema, ...errorResponses } },
    },
    async () => ({
      variants: VARIANT_IDS.map((id) => {
        const powers = variantPowers(id);
        return { id, available: powers !== null, powers: powers ?? [] };
      }),
    }),
  );

  app.post(
    '/games',
    {
      schema: {
        tags,
        summary: 'Create a game',
        body: CreateGameRequestSchema,
        response: { 201: GameDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createGame(app, requireUser(request), request.body)),
  );

  app.get(
    '/games',
    {
      schema: {
        tags,
        summary: 'List games: open, active, finished, or mine; newest first (finished: the latest to finish first), paginated',
        querystring: ListGamesQuerySchema,
        response: { 200: GameListSchema, ...errorResponses },
      },
    },
    async (request) => listGames(app, request.auth?.user ?? null, request.query),
  );

  app.get(
    '/games/:gameId',
    {
      schema: {
        tags,
        summary: 'View a game',
        params: GameIdParamsSchema,
        querystring: ViewGameQuerySchema,
        response: { 200: GameDetailSchema, ...errorResponses },
      },
    },
    async (request) => readGame(app.prisma, request.auth?.user ?? null, request.params.gameId, request.query.inviteCode),
  );

  app.post(
    '/games/:gameId/join',
    {
      schema: {
        tags,
        summary: 'Take a seat (with the invite code for a private game); starts the game when it fills up',
        params: GameIdParamsSchema,
        body: JoinGameRequestSchema,
        response: { 200: GameDetailSchema, ...errorResponses },
      },
      // The body is optional: a POST without one joins a public game with no preferences.
      preValidation: async (request) => {
        (request as { body: unknown }).body ??= {};
      },
    },
    async (request) => joinGame(app, requireUser(request), request.params.gameId, request.body),
  );

  app.post(
    '/games/:gameId/leave',
    {
      schema: {
        tags,
        summary: 'Give up your seat before the game starts',
        params: GameIdParamsSchema,
        response: { 200: GameDetailSchema, ...errorResponses },
      },
    },
    async (request) => leaveGame(app, requireUser(request), request.params.gameId),
  );

  app.post(
    '/games/:gameId/start',
    {
      schema: {
        tags,
        summary: 'Start a full game (game master only; needed when autoStart is off)',
        params: GameIdParamsSchema,
        response: { 200: GameDetailSchema, ...errorResponses },
      },
    },
    async (request) => startGameAsMaster(app, requireUser(request), request.params.gameId),
  );
};

export default gamesRoutes;
