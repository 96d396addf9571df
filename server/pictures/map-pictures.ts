/**
 * The pictures of a game's phases, for whoever shows one: the map-images routes and the Open Graph card
 * (server/map-images/) and the phase-processed mail, which attaches its PNG when the mail is delivered (notify/mail.ts),
 * not when it is written: the outbox keeps a reference, not half a megabyte per recipient, and the phase's
 * processing does not wait on a drawing.
 *
 * What a picture shows is decided by its view (views/map-image.ts): what every viewer allowed the game may see of the
 * phase. So one picture per phase serves all of them, kept in one cache (image-cache.ts) under the fingerprint of what
 * it shows, which is also its ETag. PNGs are drawn a few at once (each holds a thread of libuv's pool for a few hundred
 * milliseconds); a caller that cannot wait long (an HTTP request) may ask to be refused when many are queued.
 */
import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import type { Variant } from '../../shared/index.ts';
import { mapDrawingOf, phaseMapSvg, type PicturedPhase } from '../views/map-image.ts';
import { ImageCache, type CacheStats } from './image-cache.ts';
import { svgToPng } from './png.ts';

export type PictureFormat = 'svg' | 'png';

/** Bump when the pictures' look changes: old ETags then no longer match. */
const LOOK = 1;
/** PNGs drawn at once. */
const PNG_CONCURRENCY = 2;

/** The phase columns a picture needs (a Prisma select). */
export const PICTURED_PHASE = {
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

/** Thrown when a caller asked not to queue behind `refuseWhenQueued` PNGs. */
export class PicturesBusy extends Error {
  constructor() {
    super('many map pictures are being drawn at once');
  }
}

export type Picture = { image: Buffer; hit: boolean; key: string };

export class MapPictures {
  private readonly cache: ImageCache;
  private readonly drawPng = pLimit(PNG_CONCURRENCY);

  constructor(maxBytes: number) {
    this.cache = new ImageCache(maxBytes);
  }

  /** Whether the variant has a drawing (maps/<variant>/map.svg) to picture its phases on. */
  drawn(variant: Variant): boolean {
    return mapDrawingOf(variant.id) !== null;
  }

  /** What the picture shows, as a hash: the look, the variant, the game's name and what the phase shows of itself. */
  key(variant: Variant, game: { name: string }, phase: PicturedPhase, format: PictureFormat): string {
    const shown = phase.status === 'processed' ? [phase.results, phase.disbanded, phase.stateAfter, phase.engineVersion] : [];
    const content = JSON.stringify([LOOK, variant.id, game.name, phase.index, phase.name, phase.status, phase.stateBefore, phase.loanActions, shown]);
    return `${createHash('sha256').update(content).digest('base64url').slice(0, 32)}.${format}`;
  }

  /** The phase's picture, from the cache or drawn now; null when the variant has no drawing. */
  async picture(
    variant: Variant,
    game: { name: string },
    phase: PicturedPhase,
    format: PictureFormat,
    options: { refuseWhenQueued?: number } = {},
  ): Promise<Picture | null> {
    if (!this.drawn(variant)) return null;
    const key = this.key(variant, game, phase, format);
    const { image, hit } = await this.cache.get(key, async () => {
      const svg = phaseMapSvg(variant, game, phase);
      if (svg === null) throw new Error(`variant "${variant.id}" has no map drawing`);
      if (format === 'svg') return Buffer.from(svg, 'utf8');
      if (options.refuseWhenQueued !== undefined && this.drawPng.pendingCount >= options.refuseWhenQueued) throw new PicturesBusy();
      return (await this.drawPng(() => svgToPng(svg))).png;
    });
    return { image, hit, key };
  }

  stats(): CacheStats {
    return this.cache.stats();
  }
}
