/** Reloads asked for by live events: bursts coalesced, never two at once, none after the page has gone. */
import { describe, expect, it } from 'vitest';
import { coalescedReload } from '../../web/src/lib/reload.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('coalescedReload', () => {
  it('a reload slower than the gap is never overlapped: events during it make exactly one more, after it', async () => {
    let running = 0;
    let most = 0;
    let done = 0;
    const reloader = coalescedReload(async () => {
      most = Math.max(most, ++running);
      await sleep(120);
      running -= 1;
      done += 1;
    }, 50);
    reloader.ask();
    await sleep(10);
    for (let i = 0; i < 5; i++) reloader.ask();
    await sleep(400);
    expect(done).toBe(2);
    expect(most).toBe(1);
    reloader.stop();
  });

  it('after stop, nothing more is read, even what was already asked for', async () => {
    let reads = 0;
    const reloader = coalescedReload(async () => void (reads += 1), 100);
    reloader.ask();
    await sleep(10);
    reloader.ask();
    reloader.stop();
    reloader.ask();
    await sleep(250);
    expect(reads).toBe(1);
  });

  it('a failed reload does not stop the next', async () => {
    let calls = 0;
    const reloader = coalescedReload(async () => {
      calls += 1;
      if (calls === 1) throw new Error('the server is away');
    }, 20);
    reloader.ask();
    await sleep(30);
    reloader.ask();
    await sleep(60);
    expect(calls).toBe(2);
    reloader.stop();
  });
});
