/**
 * A page's reload asked for by live events. Events come in bursts (a game
 * fills up, games start and end, a busy lobby never rests), and each reload is
 * one or more requests, so: the first event after a quiet spell reloads at
 * once; further ones within `gapMs` of that reload's start make one more
 * reload, at the end of the gap; and a reload never overlaps another (an event
 * during one asks for one more after it). A page open on a busy server thus
 * costs at most one reload per gap, however many events arrive.
 */
export type Reloader = { ask(): void; stop(): void };

export function coalescedReload(reload: () => Promise<unknown>, gapMs = 1000): Reloader {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let again = false;
  let stopped = false;
  let lastStart = -Infinity;

  async function run() {
    timer = null;
    running = true;
    lastStart = performance.now();
    try {
      await reload();
    } catch {
      // The page shows its own error; the next event tries again.
    } finally {
      running = false;
      if (again) {
        again = false;
        ask();
      }
    }
  }

  function ask() {
    if (stopped || timer) return;
    if (running) {
      again = true;
      return;
    }
    timer = setTimeout(run, Math.max(0, lastStart + gapMs - performance.now()));
  }

  return {
    ask,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
