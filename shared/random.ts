/**
 * mulberry32: a small, fast seeded generator of numbers from 0 to 1, for what must come out the same from the same
 * seed (a power assignment in tests and replays, the computer opponents' own choices, random test games). Never the
 * battles' dice: those come from the committed seed (shared/naval/dice.ts).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
