/** Campaign play, mounted at /api: a game's campaign settings, and the game master's hand on a held phase's contested seas. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CampaignSettingsSchema, DecideSeaRequestSchema, SeaBattleListSchema, SeaBattleSchema, SeaSidesRequestSchema } from '../../shared/api/campaign.ts';
import { GameDetailSchema, GameIdParamsSchema } from '../../shared/api/games.ts';
import { PhaseParamsSchema } from '../../shared/api/play.ts';
import { requireUser } from '../auth/authenticate.ts';
import { errorResponses } from '../schemas.ts';
import { SeaParamsSchema } from './schemas.ts';
import { decide, listSeas, setCampaign, setSides, waive } from './service.ts';

const tags = ['campaign'];
const gameMastersOwn =
  'The game master only; a game master who plays a power fighting in that sea may not (403 game_master_plays): the battle or the computer decides it.';

const campaignRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/games/:gameId/campaign',
    {
      schema: {
        tags,
        summary:
          "Set the game's campaign: sea fights fought out as battles of a ruleset, the fleet lists, the battles' time (the game master, before the start)",
        params: GameIdParamsSchema,
        body: CampaignSettingsSchema,
        response: { 200: GameDetailSchema, ...errorResponses },
      },
    },
    async (request) => setCampaign(app, requireUser(request), request.params.gameId, request.body),
  );

  app.get(
    '/games/:gameId/phases/:index/seas',
    {
      schema: {
        tags,
        summary: "A phase's contested seas: each fought, decided or waived before its results are out (whoever may see the game)",
        params: PhaseParamsSchema,
        response: { 200: SeaBattleListSchema, ...errorResponses },
      },
    },
    async (request) => listSeas(app, request.auth?.user ?? null, request.params.gameId, request.params.index),
  );

  app.put(
    '/games/:gameId/phases/:index/seas/:sea/sides',
    {
      schema: {
        tags,
        summary: `Set the two sides of a sea where three or more powers met: every power of the fight exactly once. ${gameMastersOwn}`,
        params: SeaParamsSchema,
        body: SeaSidesRequestSchema,
        response: { 200: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request) => setSides(app, requireUser(request), request.params, request.body),
  );

  app.post(
    '/games/:gameId/phases/:index/seas/:sea/decide',
    {
      schema: {
        tags,
        summary: `Decide a sea: the power whose side won it, or null for a standoff; the phase is adjudicated once every sea is decided or waived. ${gameMastersOwn}`,
        params: SeaParamsSchema,
        body: DecideSeaRequestSchema,
        response: { 200: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request) => decide(app, requireUser(request), request.params, request.body),
  );

  app.post(
    '/games/:gameId/phases/:index/seas/:sea/waive',
    {
      schema: {
        tags,
        summary: `Leave a sea to the ordinary rules; the phase is adjudicated once every sea is decided or waived. ${gameMastersOwn}`,
        params: SeaParamsSchema,
        response: { 200: SeaBattleSchema, ...errorResponses },
      },
    },
    async (request) => waive(app, requireUser(request), request.params),
  );
};

export default campaignRoutes;
