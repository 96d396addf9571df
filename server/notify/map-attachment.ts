/**
 * The phase's map a game mail attaches (the "phase processed" mail names its phase, `payload.map`), drawn when the mail
 * is delivered through the app's pictures of phases, so the seven mails of a phase draw it once. The picture is the one
 * every member of the game may see of the phase (views/map-image.ts); a mail goes only to members.
 */
import { getVariant } from '../../shared/index.ts';
import type { PrismaClient } from '../db/database.ts';
import { phaseOf } from '../db/tables/phases.ts';
import { PICTURED_PHASE, type MapPictures } from '../pictures/map-pictures.ts';
import type { MapAttacher } from './mail.ts';

/** At most this large a PNG is attached (a shipped map's is about 0.4 MB). */
const MOST_ATTACHED_BYTES = 1_400_000;

/** A file name from the phase's name: `map-3-fall-239-bc.png`. */
function fileName(index: number, phaseName: string): string {
  const slug =
    phaseName
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'phase';
  return `map-${index}-${slug}.png`;
}

export function phaseMapAttacher(prisma: PrismaClient, pictures: MapPictures): MapAttacher {
  return async ({ gameId, phaseIndex }) => {
    const game = await prisma.game.findUnique({ where: { id: gameId }, select: { name: true, variantId: true } });
    const variant = game ? getVariant(game.variantId) : undefined;
    if (!game || !variant) return null;
    const row = await prisma.phase.findUnique({ where: { gameId_index: { gameId, index: phaseIndex } }, select: PICTURED_PHASE });
    if (!row) return null;
    const phase = phaseOf(row);
    const picture = await pictures.picture(variant, game, phase, 'png');
    if (!picture || picture.image.length > MOST_ATTACHED_BYTES) return null;
    return { filename: fileName(phase.index, phase.name), contentType: 'image/png', content: picture.image };
  };
}
