/**
 * The computer opponent's own random numbers: drawn from the battle's id and how many actions were taken before
 * its move, never from the battle's dice (so its choices cannot shift a roll), and the same every time (a move can
 * be explained, and a test can expect it).
 */
import { createHash } from 'node:crypto';

/** Uniform numbers in [0, 1) for the computer's move at `actionCount` in battle `battleId` (sfc32 seeded by SHA-256). */
export function computerRandom(battleId: string, actionCount: number): () => number {
  const digest = createHash('sha256').update(`${battleId}:${actionCount}`).digest();
  let a = digest.readUInt32BE(0);
  let b = digest.readUInt32BE(4);
  let c = digest.readUInt32BE(8);
  let d = digest.readUInt32BE(12);
  return () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 0x1_0000_0000;
  };
}
