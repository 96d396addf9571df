/** Players' votes to pause, resume or extend the clock, mounted at /api; and the loop that closes them when due (expiry.ts). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClockBallotRequestSchema, ClockVoteParamsSchema, ClockVotesSchema, ProposeClockVoteRequestSchema } from '../../shared/api/clock-votes.ts';
import { GameIdParamsSchema } from '../../shared/api/games.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { ClockVoteExpiry } from './expiry.ts';
import { castClockBallot, listClockVotes, proposeClockVote, withdrawClockVote } from './service.ts';

const tags = ['clock votes'];

const clockVotesRoutes: FastifyPluginAsyncZod = async (app) => {
  // On the scheduler's settings, as the battles' deadlines: tests turn both off and call expireDue themselves.
  const expiry = new ClockVoteExpiry(app, app.settings.scheduler);
  app.addHook('onReady', async () => expiry.start());
  app.addHook('preClose', async () => expiry.stop());

  app.get(
    '/games/:gameId/clock-votes',
    {
      schema: {
        tags,
        summary: "Votes on the game's clock: the open one, the latest decided, the rule and who votes (public)",
        description:
          'An open vote is closed (failed) by the server once its time runs out or its phase ends, and the players are told; ' +
          'one read before the server got to it is settled as it is read.',
        params: GameIdParamsSchema,
        response: { 200: ClockVotesSchema, ...errorResponses },
      },
    },
    async (request) => listClockVotes(app, request.auth?.user ?? null, request.params.gameId),
  );

  app.post(
    '/games/:gameId/clock-votes',
    {
      schema: {
        tags,
        summary: 'Propose to pause, resume or extend the deadline (1 hour to 7 days); your ballot agrees',
        description:
          "Players of powers still in the game vote; it passes when the game's vote rule is met (every voter, or more than " +
          "half) within a day or before the deadline, whichever is first, and the clock changes as the game master's tool " +
          'would. One open vote per game (409 `clock_vote_open`).',
        params: GameIdParamsSchema,
        body: ProposeClockVoteRequestSchema,
        response: { 201: ClockVotesSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await proposeClockVote(app, requireUser(request), request.params.gameId, request.body)),
  );

  app.post(
    '/games/:gameId/clock-votes/:voteId/ballot',
    {
      schema: {
        tags,
        summary: 'Agree or disagree with the open clock vote (once per power)',
        params: ClockVoteParamsSchema,
        body: ClockBallotRequestSchema,
        response: { 200: ClockVotesSchema, ...errorResponses },
      },
    },
    async (request) => castClockBallot(app, requireUser(request), request.params.gameId, request.params.voteId, request.body.agree),
  );

  app.delete(
    '/games/:gameId/clock-votes/:voteId',
    {
      schema: { tags, summary: 'Withdraw the clock vote you proposed', params: ClockVoteParamsSchema, response: { 200: ClockVotesSchema, ...errorResponses } },
    },
    async (request) => withdrawClockVote(app, requireUser(request), request.params.gameId, request.params.voteId),
  );
};

export default clockVotesRoutes;
