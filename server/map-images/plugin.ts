/**
 * Map pictures (server/map-images/): the image routes under /api, the game page's Open Graph card, and the pictures'
 * cache, shared by both and shown to tests and monitoring as `app.mapImages.stats()`.
 */
import fp from 'fastify-plugin';
import { ImageCache, type CacheStats } from './image-cache.ts';
import mapImagesRoutes from './routes.ts';
import openGraphRoutes from './open-graph.ts';

/** Pictures kept in memory at once (a PNG of a shipped map is about 0.3–0.4 MB, its SVG about 0.15 MB). */
export const MAP_IMAGE_CACHE_BYTES = 32 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** The map pictures' cache (server/map-images/). */
    mapImages: { stats: () => CacheStats };
  }
}

export default fp(
  async (app) => {
    const cache = new ImageCache(MAP_IMAGE_CACHE_BYTES);
    app.decorate('mapImages', { stats: () => cache.stats() });
    await app.register(mapImagesRoutes, { prefix: '/api', cache });
    await app.register(openGraphRoutes);
  },
  { name: 'map-images', dependencies: ['database'] },
);
