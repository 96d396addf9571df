/** Game-master tools and the audit log, mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import {
  ChangeDeadlineRequestSchema,
  EndGameRequestSchema,
  GmActionResponseSchema,
  GmLogSchema,
  PowerRequestSchema,
  ReplacePlayerRequestSchema,
  RollbackRequestSchema,
} from '../../shared/api/gm.ts';
import { OrdersRejectedSchema, PhaseParamsSchema, SubmitOrdersRequestSchema, SubmitOrdersResponseSchema } from '../../shared/api/play.ts';
import { PowerIdSchema } from '../../shared/api/games.ts';
import { requireUser } from '../accounts/auth.ts';
import { enterOrdersAsMaster } from '../orders/service.ts';
import { errorResponses } from '../schemas.ts';
import { changeDeadline, civilDisorder, endGame, gmLog, pause, processNow, replacePlayer, resume, rollback } from './service.ts';

const tags = ['game master'];
const actionResponse = { 200: GmActionResponseSchema, ...errorResponses };

const gmRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/games/:gameId/gm/log',
    {
      schema: {
        tags,
        summary: "The game master's audit log, oldest first (visible to whoever may see the game)",
        params: GameIdParamsSchema,
        response: { 200: GmLogSchema, ...errorResponses },
      },
    },
    async (request) => gmLog(app, request.auth?.user ?? null, request.params.gameId),
  );

  app.post(
    '/games/:gameId/gm/process',
    { schema: { tags, summary: 'Process the open phase now', params: GameIdParamsSchema, response: actionResponse } },
    async (request) => processNow(app, requireUser(request), request.params.gameId),
  );

  app.post(
    '/games/:gameId/gm/deadline',
    {
      schema: {
        tags,
        summary: "Extend or shorten the open phase's deadline (not before now, at most 30 days ahead; a change must move it). While paused, it is kept as set: on resume only the time paused after the change moves it",
        params: GameIdParamsSchema,
        body: ChangeDeadlineRequestSchema,
        response: actionResponse,
      },
    },
    async (request) => changeDeadline(app, requireUser(request), request.params.gameId, request.body),
  );

  app.post(
    '/games/:gameId/gm/pause',
    { schema: { tags, summary: 'Stop the clock', params: GameIdParamsSchema, response: actionResponse } },
    async (request) => pause(app, requireUser(request), request.params.gameId),
  );

  app.post(
    '/games/:gameId/gm/resume',
    { schema: { tags, summary: 'Restart the clock; the deadline moves by the time paused (since it was last set, if set during the pause)', params: GameIdParamsSchema, response: actionResponse } },
    async (request) => resume(app, requireUser(request), request.params.gameId),
  );

  app.post(
    '/games/:gameId/gm/replace',
    {
      schema: { tags, summary: "Hand a power's seat to another user", params: GameIdParamsSchema, body: ReplacePlayerRequestSchema, response: actionResponse },
    },
    async (request) => replacePlayer(app, requireUser(request), request.params.gameId, request.body),
  );

  app.post(
    '/games/:gameId/gm/civil-disorder',
    {
      schema: {
        tags,
        summary: 'Put a power in civil disorder: phases stop waiting for it (its player can come back by submitting orders)',
        params: GameIdParamsSchema,
        body: PowerRequestSchema,
        response: actionResponse,
      },
    },
    async (request) => civilDisorder(app, requireUser(request), request.params.gameId, request.body.power),
  );

  app.put(
    '/games/:gameId/gm/phases/:index/orders/:power',
    {
      schema: {
        tags,
        summary: 'Enter orders for a power in the open phase (same checks and answers as a player\'s submission)',
        params: PhaseParamsSchema.extend({ power: PowerIdSchema }),
        body: SubmitOrdersRequestSchema,
        response: { 200: SubmitOrdersResponseSchema, 422: OrdersRejectedSchema, ...errorResponses },
      },
    },
    async (request) =>
      enterOrdersAsMaster(app, requireUser(request), request.params.gameId, request.params.index, request.params.power, request.body),
  );

  app.post(
    '/games/:gameId/gm/rollback',
    {
      schema: {
        tags,
        summary: 'Re-open an earlier phase: later phases are discarded (kept in the archive), its orders stay for re-adjudication. In a game that has ended, the open phase may be named: the game goes on from it',
        params: GameIdParamsSchema,
        body: RollbackRequestSchema,
        response: actionResponse,
      },
    },
    async (request) => rollback(app, requireUser(request), request.params.gameId, request.body.phase),
  );

  app.post(
    '/games/:gameId/gm/end',
    {
      schema: {
        tags,
        summary:
          'End the game now: a draw among surviving powers (every survivor unless named, at least two) or a concession to one. Votes pending are dropped; a rollback to the open phase re-opens the game',
        params: GameIdParamsSchema,
        body: EndGameRequestSchema,
        response: actionResponse,
      },
    },
    async (request) => endGame(app, requireUser(request), request.params.gameId, request.body),
  );
};

export default gmRoutes;
