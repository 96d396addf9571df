/** Waiting in the fault tests for something a server does in its own time (a lock waited on, a row written). */
import { pause } from './load.ts';

/** Asks `probe` every `everyMs` until it answers something truthy, which it returns; past `timeoutMs`, fails naming `what`. */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, { timeoutMs = 30_000, everyMs = 50 } = {}): Promise<T> {
  for (const giveUp = Date.now() + timeoutMs; ; ) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > giveUp) throw new Error(`timed out waiting for ${what}`);
    await pause(everyMs);
  }
}
