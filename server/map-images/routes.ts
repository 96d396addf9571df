/**
 * A game's map as a picture, mounted at /api: any phase's (`/games/:gameId/phases/:index/map.svg|png`) and the current
 * position's (`/games/:gameId/map.svg|png`, the phase being played or the one the game ended in). Whoever may see the
 * game may see its pictures (access/policy.ts `mayView`, as the phases' routes; 404 otherwise), and a picture shows
 * what every such viewer may see of the phase (views/map-image.ts): orders only once adjudicated, powers, never
 * players. So one picture per phase serves them all, kept in a cache (image-cache.ts) under the fingerprint of what
 * it shows: the same fingerprint is its ETag, answered 304 when the browser has it.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import pLimit from 'p-limit';
import { mayView } from '../access/policy.ts';
import type { Db } from '../db/database.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { HttpError, notFound } from '../errors.ts';
import { viewableGame, type GameContext } from '../play/context.ts';
import { errorResponses } from '../schemas.ts';
import { mapDrawingOf, phaseMapSvg, type PicturedPhase } from '../views/map-image.ts';
import { svgToPng } from '../views/map-png.ts';
import { viewed } from '../views/viewed.ts';
import type { ImageCache } from './image-cache.ts';
import { CurrentMapParamsSchema, PhaseMapParamsSchema, PngAnswerSchema, SvgAnswerSchema } from './schemas.ts';

const tags = ['map images'];
/** Bump when the pictures' look changes: old ETags then no longer match. */
const LOOK = 1;
/** PNGs drawn at once (each takes a thread of libuv's pool and some 10 MB while drawn), and how many may wait for one. */
const PNG_CONCURRENCY = 2;
const MOST_WAITING = 16;
const busy = () => new HttpError(503, 'server_busy', 'the server is drawing many map pictures at once; try again in a few seconds');

const PICTURED = {
  id: true,
  index: true,
  name: true,
  status: true,
  engineVersion: true,
  stateBefore: true,
  loanActions: true,
  results: true,
  disbanded: true,
  stateAfter: true,
} as const;

type Format = 'svg' | 'png';

/** What the picture shows, as a hash: the look, the game's name, the variant and what the phase shows of itself. */
function fingerprint(context: GameContext, phase: PicturedPhase): string {
  const shown = phase.status === 'processed' ? [phase.results, phase.disbanded, phase.stateAfter, phase.engineVersion] : [];
  const content = JSON.stringify([
    LOOK,
    context.variant.id,
    context.game.name,
    phase.index,
    phase.name,
    phase.status,
    phase.stateBefore,
    phase.loanActions,
    shown,
  ]);
  return createHash('sha256').update(content).digest('base64url').slice(0, 32);
}

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

const mapImagesRoutes: FastifyPluginAsyncZod<{ cache: ImageCache }> = async (app, { cache }) => {
  const drawPng = pLimit(PNG_CONCURRENCY);

  async function answer(context: GameContext, phase: PicturedPhase | null, format: Format, ifNoneMatch: string | undefined, reply: FastifyReply) {
    if (!phase) throw notFound('the game has not started: it has no phase to draw yet');
    if (mapDrawingOf(context.variant.id) === null)
      throw new HttpError(
        404,
        'not_found',
        `variant "${context.variant.id}" has no map drawing (maps/${context.variant.id}/map.svg), so its phases have no picture`,
      );
    const key = `${fingerprint(context, phase)}.${format}`;
    const etag = `"${key}"`;
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

    const { image, hit } = await cache.get(key, async () => {
      const svg = phaseMapSvg(context.variant, context.game, phase);
      if (svg === null) throw notFound(`variant "${context.variant.id}" has no map drawing`);
      if (format === 'svg') return Buffer.from(svg, 'utf8');
      // A PNG takes a thread for a few hundred milliseconds: past a short queue, the caller is asked to come back.
      if (drawPng.pendingCount >= MOST_WAITING) {
        reply.header('retry-after', '5');
        throw busy();
      }
      return (await drawPng(() => svgToPng(svg))).png;
    });
    caching();
    reply.header('x-map-cache', hit ? 'hit' : 'miss');
    reply.header('content-disposition', `inline; filename="${fileName(context, phase, format)}"`);
    reply.type(format === 'svg' ? 'image/svg+xml; charset=utf-8' : 'image/png');
    reply.header('content-length', image.length);
    // The picture is this view's (views/map-image.ts) of what every viewer of the game may see.
    return reply.send(viewed(Readable.from([image])));
  }

  const phaseAt = async (db: Db, gameId: string, index: number) =>
    phaseOf(await db.phase.findUnique({ where: { gameId_index: { gameId, index } }, select: PICTURED }));
  const lastPhase = async (db: Db, gameId: string) => phaseOf(await db.phase.findFirst({ where: { gameId }, orderBy: { index: 'desc' }, select: PICTURED }));

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
