/**
 * Map pictures (server/map-images/): the image routes under /api and the game page's Open Graph card, both drawing
 * through the app's pictures of phases (`app.mapPictures`, server/pictures/, with their one cache).
 */
import fp from 'fastify-plugin';
import mapImagesRoutes from './routes.ts';
import openGraphRoutes from './open-graph.ts';

export default fp(
  async (app) => {
    await app.register(mapImagesRoutes, { prefix: '/api' });
    await app.register(openGraphRoutes);
  },
  { name: 'map-images', dependencies: ['database', 'map-pictures'] },
);
