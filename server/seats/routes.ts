/** Seats offered to new players: the lobby's list, a game's offers, and the requests to take them; mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import {
  GameSeatOffersSchema,
  GameSeatsQuerySchema,
  OpenSeatListSchema,
  OpenSeatsQuerySchema,
  SeatParamsSchema,
  SeatRequestOutcomeSchema,
  SeatRequestParamsSchema,
  TakeSeatRequestSchema,
} from '../../shared/api/seats.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { decideRequest, gameSeatOffers, listOpenSeats, offerSeat, requestSeat, withdrawOffer, withdrawRequest } from './service.ts';

const tags = ['seats'];
const rulesNote =
  "403 `seat_rule_unmet` when the user does not meet the game's minimum of deadlines kept or of finished games (the message names the rule and where the user stands).";

const seatsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/seats/open',
    {
      schema: {
        tags,
        summary: 'Seats offered to new players in games under way, newest offer first, with the power’s position (paginated)',
        description: 'Public games, the games you play in or run, and the private game whose invite code you give. An anonymous game names nobody.',
        querystring: OpenSeatsQuerySchema,
        response: { 200: OpenSeatListSchema, ...errorResponses },
      },
    },
    async (request) => listOpenSeats(app, request.auth?.user ?? null, request.query),
  );

  app.get(
    '/games/:gameId/seats',
    {
      schema: {
        tags,
        summary: "A game's offered seats and the requests to take them (the game master sees every request; others their own)",
        params: GameIdParamsSchema,
        querystring: GameSeatsQuerySchema,
        response: { 200: GameSeatOffersSchema, ...errorResponses },
      },
    },
    async (request) => gameSeatOffers(app, request.auth?.user ?? null, request.params.gameId, request.query.inviteCode),
  );

  app.post(
    '/games/:gameId/seats/:power/offer',
    {
      schema: {
        tags,
        summary: "Offer a power's seat to new players: the lobby lists it until it is taken or the offer withdrawn (game master)",
        params: SeatParamsSchema,
        response: { 200: GameSeatOffersSchema, ...errorResponses },
      },
    },
    async (request) => offerSeat(app, requireUser(request), request.params.gameId, request.params.power),
  );

  app.delete(
    '/games/:gameId/seats/:power/offer',
    {
      schema: {
        tags,
        summary: 'Withdraw the offer of a seat; requests waiting for it are declined (game master)',
        params: SeatParamsSchema,
        response: { 200: GameSeatOffersSchema, ...errorResponses },
      },
    },
    async (request) => withdrawOffer(app, requireUser(request), request.params.gameId, request.params.power),
  );

  app.post(
    '/games/:gameId/seats/:power/requests',
    {
      schema: {
        tags,
        summary: 'Ask to take an offered seat: handed over at once when the game needs no approval, else waiting for the game master',
        description: `${rulesNote} 403 also for the game's game master and for a user who already plays in it.`,
        params: SeatParamsSchema,
        body: TakeSeatRequestSchema,
        response: { 201: SeatRequestOutcomeSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await requestSeat(app, requireUser(request), request.params.gameId, request.params.power, request.body.inviteCode)),
  );

  app.post(
    '/games/:gameId/seats/:power/requests/:requestId/approve',
    {
      schema: {
        tags,
        summary: 'Approve a request: the seat is handed over, the offer ends and the other requests for it are declined (game master)',
        params: SeatRequestParamsSchema,
        response: { 200: SeatRequestOutcomeSchema, ...errorResponses },
      },
    },
    async (request) => decideRequest(app, requireUser(request), request.params.gameId, request.params.power, request.params.requestId, true),
  );

  app.post(
    '/games/:gameId/seats/:power/requests/:requestId/decline',
    {
      schema: {
        tags,
        summary: 'Decline a request to take a seat (game master)',
        params: SeatRequestParamsSchema,
        response: { 200: SeatRequestOutcomeSchema, ...errorResponses },
      },
    },
    async (request) => decideRequest(app, requireUser(request), request.params.gameId, request.params.power, request.params.requestId, false),
  );

  app.delete(
    '/games/:gameId/seats/:power/requests/:requestId',
    {
      schema: {
        tags,
        summary: 'Withdraw your request to take a seat while it waits',
        params: SeatRequestParamsSchema,
        response: { 200: SeatRequestOutcomeSchema, ...errorResponses },
      },
    },
    async (request) => withdrawRequest(app, requireUser(request), request.params.gameId, request.params.power, request.params.requestId),
  );
};

export default seatsRoutes;
