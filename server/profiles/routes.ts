/** Players' public pages, mounted at /api. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { UsernameParamsSchema, UserProfileSchema } from '../../shared/api/profiles.ts';
import { errorResponses } from '../schemas.ts';
import { userProfile } from './service.ts';

const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/:username',
    {
      schema: {
        tags: ['players'],
        summary: "A player's public page: the games they play and run that you may see, how those ended for them, and the deadlines they kept",
        params: UsernameParamsSchema,
        response: { 200: UserProfileSchema, ...errorResponses },
      },
    },
    async (request) => userProfile(app, request.auth?.user ?? null, request.params.username),
  );
};

export default profilesRoutes;
