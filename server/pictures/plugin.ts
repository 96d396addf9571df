/**
 * App-wide: `app.mapPictures`, the pictures of phases and their one cache (map-pictures.ts), for the map-images routes,
 * the Open Graph card and the mail that attaches a phase's map.
 */
import fp from 'fastify-plugin';
import { MapPictures } from './map-pictures.ts';

/** Pictures kept in memory at once (a PNG of a shipped map is about 0.3–0.4 MB, its SVG about 0.15 MB). */
export const MAP_PICTURE_CACHE_BYTES = 32 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    mapPictures: MapPictures;
  }
}

export default fp(
  async (app) => {
    app.decorate('mapPictures', new MapPictures(MAP_PICTURE_CACHE_BYTES));
  },
  { name: 'map-pictures' },
);
