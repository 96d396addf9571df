/** Battles for tests that need one under way. */

/** Tries before a test takes whatever the last opening gave (and its own assertions fail on a finished battle). */
const TRIES = 5;

/**
 * A battle as `open` creates it, opened again while it comes back finished. About one Classis training-duel opening
 * in 800 against the computer is won before the human side acts: the End of Turn chit (Classis 2.5) may end turns
 * before that side's squadrons are drawn while the computer rams. Each try is a fresh battle, so a fresh seed.
 */
export async function openUnfinished<T extends { status: string }>(open: () => Promise<T>): Promise<T> {
  let battle = await open();
  for (let tries = 1; battle.status === 'finished' && tries < TRIES; tries += 1) battle = await open();
  return battle;
}
