/**
 * The battle's dice: every roll comes from one stream that the server commits to before the first roll and
 * reveals when the battle ends, so that anyone can check each die afterwards.
 *
 * Roll number n of a battle is HMAC-SHA-256 keyed by the secret seed over "<salt>:<n>", read as 32-bit words
 * until one falls in the largest multiple of the die's sides (so every face is equally likely), that word
 * modulo the sides, plus one. The salt is public and fixed when the battle starts (the battle's id and what
 * its players contributed), so not even the server can choose a seed that suits one battle. Before the end,
 * only SHA-256(seed), the commitment, is public.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';

export const RollSchema = z
  .object({
    /** Its place in the battle's stream, from 0. */
    index: z.number().int().min(0),
    sides: z.number().int().min(2).max(100),
    value: z.number().int().min(1).max(100),
    /** What it was rolled for, e.g. "Nike ram". */
    label: z.string().max(120),
  })
  .strict();
export type Roll = z.infer<typeof RollSchema>;

/** The public commitment to a seed: hex SHA-256 of its UTF-8 text. */
export const commitmentOf = (seed: string): string => bytesToHex(sha256(utf8ToBytes(seed)));

/** Roll `index` of the stream (seed, salt), a die of `sides` faces. */
export function rollAt(seed: string, salt: string, index: number, sides: number): number {
  const limit = Math.floor(0x1_0000_0000 / sides) * sides;
  for (let attempt = 0; ; attempt++) {
    const message = attempt === 0 ? `${salt}:${index}` : `${salt}:${index}:${attempt}`;
    const mac = hmac(sha256, utf8ToBytes(seed), utf8ToBytes(message));
    const view = new DataView(mac.buffer, mac.byteOffset, mac.byteLength);
    for (let i = 0; i < 32; i += 4) {
      const word = view.getUint32(i);
      if (word < limit) return (word % sides) + 1;
    }
  }
}

/** What an engine rolls with: each call takes the stream's next roll and remembers it for the log. */
export interface Dice {
  roll(sides: number, label: string): number;
}

/** A source of rolls that records them; the engine's log lines take the rolls made for them with `take`. */
export interface RecordingDice extends Dice {
  /** The rolls made since the last take, oldest first, and forgets them. */
  take(): Roll[];
  /** The index the next roll will have. */
  readonly next: number;
}

/** The seeded stream from `start` onwards. */
export function streamDice(seed: string, salt: string, start = 0): RecordingDice {
  return recording(start, (index, sides) => rollAt(seed, salt, index, sides));
}

/**
 * Dice that hand out given values in order (a test's or a replay's), failing loudly when the engine asks for
 * a die it was not given or of another size.
 */
export function fixedDice(values: readonly number[], start = 0): RecordingDice {
  let i = 0;
  return recording(start, (index, sides) => {
    const v = values[i++];
    if (v === undefined) throw new Error(`no die left for roll ${index} (d${sides})`);
    if (v < 1 || v > sides) throw new Error(`roll ${index}: ${v} is not a face of a d${sides}`);
    return v;
  });
}

function recording(start: number, source: (index: number, sides: number) => number): RecordingDice {
  let next = start;
  let pending: Roll[] = [];
  return {
    roll(sides, label) {
      const value = source(next, sides);
      pending.push({ index: next, sides, value, label: label.slice(0, 120) });
      next++;
      return value;
    },
    take() {
      const out = pending;
      pending = [];
      return out;
    },
    get next() {
      return next;
    },
  };
}
