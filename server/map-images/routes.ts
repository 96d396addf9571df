/**
 * A game's map as a picture, mounted at /api: any phase's (`/games/:gameId/phases/:index/map.svg|png`) and the current
 * position's (`/games/:gameId/map.svg|png`, the phase being played or the one the game ended in). Whoever may see the
 * game may see its pictures (access/policy.ts `mayView`, as the phases' routes; 404 otherwise), and a picture shows
 * what every such viewer may see of the phase (views/map-image.ts): orders only once adjudicated, powers, never
 * players. So one picture per phase serves them all, kept in the app's one cache of pictures (pictures/map-pictures.ts)
 * under the fingerprint of what it shows: the same fingerprint is its ETag, answered 304 when the browser has it.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mayView } from '../access/policy.ts';
import type { Db } from '../db/database.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { HttpError, notFound } from '../errors.ts';
import { viewableGame, type GameContext } from '../play/context.ts';
import { PICTURED_PHASE, PicturesBusy, type PictureFormat } from '../pictures/map-pictures.ts';
import { errorResponses } from '../schemas.ts';
import type { PicturedPhase } from '../views/map-image.ts';
import { viewed } from '../views/viewed.ts';
import { CurrentMapParamsSchema, PhaseMapParamsSchema, PngAnswerSchema, SvgAnswerSchema } from './schemas.ts';

const tags = ['map images'];
/** PNGs a request may queue behind before it is asked to come back (a PNG takes a few hundred milliseconds). */
const MOST_WAITING = 16;
const busy = () => new HttpError(503, 'server_busy', 'the server is drawing many map pictures at once; try again in a few seconds');

type Format = PictureFormat;

/** A file name for the download: the game's name in plain letters, and the phase. */
function fileName(context: GameContext, phase: PicturedPhase, format: Format): string {
  const slug = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .toLowerCase();
  return `${slug(context.game.name) || 'game'}-${phase.index}-${slug(phase.name) || 'phase'}.${format}`;
}

const mapImagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const pictures = app.mapPictures;

  async function answer(context: GameContext, phase: PicturedPhase | null, format: Format, ifNoneMatch: string | undefined, reply: FastifyReply) {
    if (!phase) throw notFound('the game has not started: it has no phase to draw yet');
    if (!pictures.drawn(context.variant))
      throw new HttpError(
        404,
        'not_found',
        `variant "${context.variant.id}" has no map drawing (maps/${context.variant.id}/map.svg), so its phases have no picture`,
      );
    const etag = `"${pictures.key(context.variant, context.game, phase, format)}"`;
    const caching = () => {
      // Anyone may see a public game's pictures, so shared caches may keep them; a private game's only the viewer's browser.
      const open = mayView(context.game, null);
      // A processed phase changes only if the game master rolls the game back; the current position whenever a phase is processed.
      reply.header('cache-control', `${open ? 'public' : 'private'}, max-age=${phase.status === 'processed' ? 300 : 30}`);
      reply.header('etag', etag);
      if (!open) reply.header('vary', 'Cookie, Authorization');
    };
    if (ifNoneMatch?.split(/\s*,\s*/).includes(etag)) {
      caching();
      return reply.code(304).send();
    }

    const picture = await pictures.picture(context.variant, context.game, phase, format, { refuseWhenQueued: MOST_WAITING }).catch((error: unknown) => {
      if (!(error instanceof PicturesBusy)) throw error;
      reply.header('retry-after', '5');
      throw busy();
    });
    if (picture === null) throw notFound(`variant "${context.variant.id}" has no map drawing`);
    const { image, hit } = picture;
    caching();
    reply.header('x-map-cache', hit ? 'hit' : 'miss');
    reply.header('content-disposition', `inline; filename="${fileName(context, phase, format)}"`);
    reply.type(format === 'svg' ? 'image/svg+xml; charset=utf-8' : 'image/png');
    reply.header('content-length', image.length);
    // The picture is this view's (views/map-image.ts) of what every viewer of the game may see.
    return reply.send(viewed(Readable.from([image])));
  }

  const phaseAt = async (db: Db, gameId: string, index: number) =>
    phaseOf(await db.phase.findUnique({ where: { gameId_index: { gameId, index } }, select: PICTURED_PHASE }));
  const lastPhase = async (db: Db, gameId: string) =>
    phaseOf(await db.phase.findFirst({ where: { gameId }, orderBy: { index: 'desc' }, select: PICTURED_PHASE }));

  for (const format of ['svg', 'png'] as const) {
    const response = { 200: format === 'svg' ? SvgAnswerSchema : PngAnswerSchema, ...errorResponses };
    const produces = [format === 'svg' ? 'image/svg+xml' : 'image/png'];
    const what = format === 'svg' ? 'SVG' : 'PNG';

    app.get(
      `/games/:gameId/map.${format}`,
      {
        schema: {
          tags,
          summary: `The game's current position as a picture (${what}): the phase being played, or the one it ended in`,
          description:
            'Units, owners and supply centres; no orders (they are not public before the phase is processed). Whoever may see the game may see it (404 otherwise, and for a variant without a map drawing). ETag and Cache-Control set; `X-Map-Cache` says whether it came from the cache.',
          params: CurrentMapParamsSchema,
          produces,
          response,
        },
      },
      async (request, reply) => {
        const context = await viewableGame(app.prisma, request.params.gameId, request.auth?.user ?? null);
        return answer(context, await lastPhase(app.prisma, context.game.id), format, request.headers['if-none-match'], reply);
      },
    );

    app.get(
      `/games/:gameId/phases/:index/map.${format}`,
      {
        schema: {
          tags,
          summary: `One phase as a picture (${what}): its orders and their results drawn once it is processed`,
          description:
            'A processed phase: the position after it with every order drawn as on the board (moves, supports, convoys, holds, builds, failures crossed). An open phase: its position only. Powers are named, players never. Whoever may see the game may see it (404 otherwise).',
          params: PhaseMapParamsSchema,
          produces,
          response,
        },
      },
      async (request, reply) => {
        const context = await viewableGame(app.prisma, request.params.gameId, request.auth?.user ?? null);
        const phase = await phaseAt(app.prisma, context.game.id, request.params.index);
        if (!phase) throw notFound(`no phase ${request.params.index} in this game`);
        return answer(context, phase, format, request.headers['if-none-match'], reply);
      },
    );
  }
};

export default mapImagesRoutes;
