/**
 * The pictures of phases (server/pictures/): one drawing per phase whoever asks, a PNG queue that an HTTP request may
 * refuse to wait in (the routes' 503 server_busy), and no picture for a variant without a drawing.
 */
import { describe, expect, test } from 'vitest';
import { MapPictures, PicturesBusy } from '../../server/pictures/map-pictures.ts';
import type { PicturedPhase } from '../../server/views/map-image.ts';
import { getVariant, initialState } from '../../shared/index.ts';
import { ENGINE_VERSION } from '../../shared/version.ts';

const variant = getVariant('diadochi-v')!;
const opening: PicturedPhase = {
  index: 0,
  name: 'Spring 240 BC',
  status: 'open',
  engineVersion: ENGINE_VERSION,
  stateBefore: initialState(variant),
  loanActions: [],
  results: null,
  disbanded: null,
  stateAfter: null,
} as unknown as PicturedPhase;

describe('the pictures of phases', () => {
  test('a phase asked for by many at once is drawn once, then served from the cache', async () => {
    const pictures = new MapPictures(8 * 1024 * 1024);
    const answers = await Promise.all(Array.from({ length: 4 }, () => pictures.picture(variant, { name: 'One game' }, opening, 'svg')));
    expect(new Set(answers.map((answer) => answer!.key)).size).toBe(1);
    expect(pictures.stats().renders).toBe(1);
    expect((await pictures.picture(variant, { name: 'One game' }, opening, 'svg'))!.hit).toBe(true);
  });

  test('a caller that will not queue behind others is refused while the PNG queue is full, and served once it empties', async () => {
    const pictures = new MapPictures(64 * 1024 * 1024);
    // Two PNGs are drawn at once: four distinct pictures leave two waiting.
    const drawing = ['A', 'B', 'C', 'D'].map((name) => pictures.picture(variant, { name }, opening, 'png'));
    await expect(pictures.picture(variant, { name: 'E' }, opening, 'png', { refuseWhenQueued: 2 })).rejects.toBeInstanceOf(PicturesBusy);
    await Promise.all(drawing);
    const later = await pictures.picture(variant, { name: 'E' }, opening, 'png', { refuseWhenQueued: 2 });
    expect(later!.image.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  });

  test('a variant without a drawing has no picture', async () => {
    const pictures = new MapPictures(1024);
    const undrawn = { ...variant, id: 'no-such-drawing' };
    expect(await pictures.picture(undrawn, { name: 'x' }, opening, 'svg')).toBeNull();
  });
});
