/** Press, mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import {
  ListPressQuerySchema,
  MarkPressReadRequestSchema,
  PressListSchema,
  PressMessageSchema,
  PressReadMarksSchema,
  SendPressRequestSchema,
} from '../../shared/api/press.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { listPress, markPressRead, pressReadMarks, sendPress } from './service.ts';

const tags = ['press'];

const pressRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/games/:gameId/press',
    {
      schema: {
        tags,
        summary:
          'Messages you may read, newest first: public ones, and private ones you sent or received (the game master: to "@gm"; all, once the game has ended)',
        params: GameIdParamsSchema,
        querystring: ListPressQuerySchema,
        response: { 200: PressListSchema, ...errorResponses },
      },
    },
    async (request) => listPress(app.prisma, request.auth?.user ?? null, request.params.gameId, request.query),
  );

  app.post(
    '/games/:gameId/press',
    {
      schema: {
        tags,
        summary: 'Send a message to all, to some powers or to the game master ("@gm") (as your power, or as the game master)',
        description:
          "Respects the game's press kind: none (gunboat) refuses players' messages, public refuses private ones (403 `press_not_allowed`), " +
          'except a private message to the game master alone (`"to": ["@gm"]`), which players may send whatever the press kind. ' +
          'The game master posts with `"asGameMaster": true`.',
        params: GameIdParamsSchema,
        body: SendPressRequestSchema,
        response: { 201: PressMessageSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await sendPress(app, requireUser(request), request.params.gameId, request.body)),
  );

  app.get(
    '/games/:gameId/press/read',
    {
      schema: {
        tags,
        summary: 'How far you have read each conversation of this game (kept per user: every browser and device of yours agrees)',
        params: GameIdParamsSchema,
        response: { 200: PressReadMarksSchema, ...errorResponses },
      },
    },
    async (request) => pressReadMarks(app.prisma, requireUser(request), request.params.gameId),
  );

  app.put(
    '/games/:gameId/press/read',
    {
      schema: {
        tags,
        summary: 'Mark a conversation read up to a message (players and the game master)',
        description:
          'A mark never moves back (two devices may report out of order) and never past now. The conversation is "public", or its members ' +
          'sorted and joined by "+" (powers, and "Game master"), you among them: 400 otherwise; 403 for someone who plays no power here and does not run the game.',
        params: GameIdParamsSchema,
        body: MarkPressReadRequestSchema,
        response: { 200: PressReadMarksSchema, ...errorResponses },
      },
    },
    async (request) => markPressRead(app.prisma, requireUser(request), request.params.gameId, request.body),
  );
};

export default pressRoutes;
