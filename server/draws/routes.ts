/** Draw votes and concessions, mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CastVoteRequestSchema, VoteKindParamsSchema, VotesSchema } from '../../shared/api/draws.ts';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { castVote, listVotes, withdrawVote } from './service.ts';

const tags = ['draws'];

const drawsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/games/:gameId/votes',
    { schema: { tags, summary: 'Draw votes and concessions (public)', params: GameIdParamsSchema, response: { 200: VotesSchema, ...errorResponses } } },
    async (request) => listVotes(app.prisma, request.auth?.user ?? null, request.params.gameId),
  );

  app.post(
    '/games/:gameId/votes',
    {
      schema: {
        tags,
        summary: 'Vote for a draw of all survivors, or concede to a power; the game ends when every survivor agrees',
        params: GameIdParamsSchema,
        body: CastVoteRequestSchema,
        response: { 200: VotesSchema, ...errorResponses },
      },
    },
    async (request) => castVote(app, requireUser(request), request.params.gameId, request.body),
  );

  app.delete(
    '/games/:gameId/votes/:kind',
    {
      schema: { tags, summary: 'Withdraw your draw vote or concession', params: VoteKindParamsSchema, response: { 200: VotesSchema, ...errorResponses } },
    },
    async (request) => withdrawVote(app, requireUser(request), request.params.gameId, request.params.kind),
  );
};

export default drawsRoutes;
