/**
 * The game page's card for chats and social sites (Open Graph): `/games/:gameId` answers the web client's index.html
 * with og:title, og:description and, for a game anyone may see, og:image, the PNG of its current phase (an address
 * per phase, so a chat that keeps pictures by address shows the position of the day). A game not everyone may see,
 * or no such game, gets the site's neutral card: its name, players and position stay inside.
 * Only where the server serves the built client (settings.webDistDir with an index.html).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { IdSchema } from '../../shared/api/common.ts';
import { BAND_HEIGHT, drawingSize } from '../../shared/drawing/map-image.ts';
import { mayView } from '../access/policy.ts';
import { viewableGame } from '../play/context.ts';
import { mapDrawingOf } from '../views/map-image.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export type OpenGraphCard = { title: string; description: string; url: string; image: { url: string; width: number; height: number; alt: string } | null };

/** The card as meta tags. */
export function cardTags(card: OpenGraphCard): string {
  const tags: [string, string][] = [
    ['og:type', 'website'],
    ['og:site_name', 'Diadochi Online'],
    ['og:title', card.title],
    ['og:description', card.description],
    ['og:url', card.url],
  ];
  if (card.image)
    tags.push(
      ['og:image', card.image.url],
      ['og:image:type', 'image/png'],
      ['og:image:width', String(card.image.width)],
      ['og:image:height', String(card.image.height)],
      ['og:image:alt', card.image.alt],
    );
  const twitter = card.image ? 'summary_large_image' : 'summary';
  return [
    ...tags.map(([property, content]) => `<meta property="${property}" content="${escapeHtml(content)}" />`),
    `<meta name="twitter:card" content="${twitter}" />`,
  ].join('\n    ');
}

/** The web client's page with the card's tags at the end of its head (a page without a </head> is left as it is). */
export function withCard(indexHtml: string, card: OpenGraphCard): string {
  const at = indexHtml.indexOf('</head>');
  if (at < 0) return indexHtml;
  return `${indexHtml.slice(0, at)}    ${cardTags(card)}\n  ${indexHtml.slice(at)}`;
}

const openGraphRoutes: FastifyPluginAsync = async (app) => {
  const dir = app.settings.webDistDir;
  const indexFile = dir ? path.join(dir, 'index.html') : null;
  if (!indexFile || !existsSync(indexFile)) return;
  // Read once: the build names its scripts by content, so a new build is a new deployment (and a restart).
  const indexHtml = readFileSync(indexFile, 'utf8');
  const { publicUrl } = app.settings;

  const neutral = (url: string): OpenGraphCard => ({
    title: 'A game on Diadochi Online',
    description: 'Diplomacy variants played online by correspondence: Diadochi V and more.',
    url,
    image: null,
  });

  async function cardOf(gameId: string): Promise<OpenGraphCard> {
    const url = `${publicUrl}/games/${gameId}`;
    if (!IdSchema.safeParse(gameId).success) return neutral(url);
    // As an anonymous visitor sees it: whatever a logged-in player could see more stays out of a card anyone may read.
    const context = await viewableGame(app.prisma, gameId, null).catch(() => null);
    if (!context || !mayView(context.game, null)) return neutral(url);
    const { game, variant } = context;
    const phase = await app.prisma.phase.findFirst({ where: { gameId }, orderBy: { index: 'desc' }, select: { index: true, name: true } });
    const status =
      game.status === 'forming' ? 'forming: seats open' : game.status === 'finished' ? 'finished' : game.status === 'cancelled' ? 'cancelled' : 'being played';
    const description = `${variant.name}, ${variant.powers.length} powers, ${status}${phase ? `; ${phase.name}` : ''}.`;
    const drawing = mapDrawingOf(variant.id);
    if (!phase || drawing === null) return { title: game.name, description, url, image: null };
    // The PNG is drawn a pixel per unit of the drawing, with the band under it (shared/drawing/map-image.ts).
    const { width, height } = drawingSize(drawing);
    const image = {
      url: `${publicUrl}/api/games/${gameId}/phases/${phase.index}/map.png`,
      width,
      height: height + BAND_HEIGHT,
      alt: `The map of ${game.name}, ${phase.name}`,
    };
    return { title: game.name, description, url, image };
  }

  app.get<{ Params: { gameId: string } }>('/games/:gameId', { schema: { hide: true } }, async (request, reply) => {
    const card = await cardOf(request.params.gameId);
    // As @fastify/static serves index.html: checked again on every visit.
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(withCard(indexHtml, card));
  });
};

export default openGraphRoutes;
