/** Orders and readiness for the open phase, mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MyOrdersSchema,
  OrdersRejectedSchema,
  PhaseParamsSchema,
  ReadyResponseSchema,
  SetReadyRequestSchema,
  SubmitOrdersRequestSchema,
  SubmitOrdersResponseSchema,
} from '../../shared/api/play.ts';
import { requireUser } from '../auth/authenticate.ts';
import { compiledSuccessSerializer } from '../fast-serializer.ts';
import { errorResponses } from '../schemas.ts';
import { setReady } from '../play/submissions.ts';
import { myOrders } from './service.ts';

const tags = ['orders'];

const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/games/:gameId/phases/:index/orders',
    {
      schema: {
        tags,
        summary: "Your power's orders in a phase: the submission that counts and every earlier one",
        params: PhaseParamsSchema,
        response: { 200: MyOrdersSchema, ...errorResponses },
      },
    },
    async (request) => myOrders(app, requireUser(request), request.params.gameId, request.params.index),
  );

  app.put(
    '/games/:gameId/phases/:index/orders',
    {
      schema: {
        tags,
        summary: "Submit or replace your power's orders for the open phase (text, one per line, or structured JSON)",
        description:
          'Each order is checked by the rules engine. All or nothing: if any is refused, nothing is stored and the 422 ' +
          'answer (`orders_rejected`) gives the verdict on every order. 409 `phase_closed` when the phase is no longer open.',
        params: PhaseParamsSchema,
        body: SubmitOrdersRequestSchema,
        response: { 200: SubmitOrdersResponseSchema, 422: OrdersRejectedSchema, ...errorResponses },
      },
      // The busiest route; its body is built field by field (play/submissions.ts).
      serializerCompiler: compiledSuccessSerializer,
    },
    // Submissions arriving together are stored together (play/submissions.ts).
    async (request) =>
      app.submissions.submit({ user: requireUser(request), gameId: request.params.gameId, phaseIndex: request.params.index, body: request.body }),
  );

  app.post(
    '/games/:gameId/phases/:index/ready',
    {
      schema: {
        tags,
        summary: 'Mark your power ready (or not) for the open phase; it is processed early when every power that must order is',
        description: 'Ready without any submission stores an empty one: every unit holds.',
        params: PhaseParamsSchema,
        body: SetReadyRequestSchema,
        response: { 200: ReadyResponseSchema, ...errorResponses },
      },
    },
    async (request) => setReady(app, requireUser(request), request.params.gameId, request.params.index, request.body.ready),
  );
};

export default ordersRoutes;
