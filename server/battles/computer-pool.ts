/**
 * The computer opponent's thinking, off the event loop: a small fixed pool of worker threads (computer-worker.ts) that
 * plan the computer's moves, fight a sea's battle out, estimate a sea's odds and list legal actions, so that a fleet
 * battle of the measured-table rulesets (seconds a decision) never stalls the requests of everyone else. Jobs wait in
 * a bounded queue; past it the pool refuses at once (`ComputerBusy`, a 503 `server_busy`) rather than let work pile
 * up. A worker that fails or thinks past JOB_TIMEOUT_MS is ended and replaced, its job failed with a clear error.
 * Workers start on first use and end with the app.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RulesetId } from '../../shared/naval/ruleset.ts';
import { HttpError } from '../errors.ts';
import type { Odds } from '../../shared/campaign/odds.ts';
import type { FoughtStretch } from './computer-fight.ts';
import type { ComputerAnswer, ComputerJob, FightRequest, PlanRequest } from './computer-jobs.ts';
import type { Plan } from './computer-plan.ts';

export type ComputerPoolOptions = {
  /** Worker threads: each thinks about one battle at a time. */
  workers: number;
  /** Jobs that may wait for a worker; one more is refused (503). */
  maxWaiting: number;
  /** A job taking longer ends its worker (a fault of the opponent's). */
  jobTimeoutMs: number;
};

/** One worker beside the main thread on a small machine, never more than four. */
export const COMPUTER_POOL: ComputerPoolOptions = {
  workers: Math.min(4, Math.max(1, availableParallelism() - 1)),
  maxWaiting: 64,
  jobTimeoutMs: 60_000,
};

/** The pool's queue is full: the caller leaves the computer's move for later, or the request fails with 503. */
export class ComputerBusy extends HttpError {
  constructor(waiting: number) {
    super(503, 'server_busy', `the computer is thinking for ${waiting} other moves already; try again in a few seconds`);
  }
}

type Job = ComputerJob extends infer J ? (J extends ComputerJob ? Omit<J, 'id'> : never) : never;
/** An answer and how long the worker thought about it. */
export type Thought<T> = { value: T; ms: number };
type Pending = { job: ComputerJob; resolve: (thought: Thought<unknown>) => void; reject: (error: Error) => void };
type Slot = { worker: Worker; busy: Pending | null; timer: NodeJS.Timeout | null };

/**
 * The worker: the bundled script beside the running bundle (the server build), else the TypeScript source loaded
 * through tsx's API (tests, `npm run dev`, and a bundle built without it: found from dist/server/ back to
 * server/battles/).
 */
function startWorker(): Worker {
  const bundled = fileURLToPath(new URL('./battle-computer-worker.mjs', import.meta.url));
  if (existsSync(bundled)) return new Worker(bundled);
  for (const relative of ['./computer-worker.ts', '../../server/battles/computer-worker.ts']) {
    const source = new URL(relative, import.meta.url);
    if (!existsSync(fileURLToPath(source))) continue;
    // tsx's ESM API, as its package's exports map `tsx/esm/api` for import (require.resolve gives the CommonJS one).
    const tsx = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
    const load = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(source.href)}))`;
    return new Worker(load, { eval: true });
  }
  throw new Error(`the computer opponent's worker script is missing: neither ${bundled} nor server/battles/computer-worker.ts`);
}

export class ComputerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ComputerPoolOptions = COMPUTER_POOL) {}

  /** Jobs being thought about, and waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.slots.filter((slot) => slot.busy).length, waiting: this.queue.length };
  }

  /** `side`'s legal actions with their words, at most `limit` (a big table position's list is seconds of work). */
  describedLegalActions(ruleset: RulesetId, state: unknown, side: string, limit: number): Promise<Thought<{ side: string; action: unknown; text: string }[]>> {
    return this.submit({ kind: 'legal-described', ruleset, state, side, limit }) as Promise<Thought<{ side: string; action: unknown; text: string }[]>>;
  }

  /** The computer's moves after a change, thought out before the battle is locked (computer-plan.ts). */
  plan(request: PlanRequest): Promise<Thought<Plan>> {
    return this.submit({ kind: 'plan', ...request }) as Promise<Thought<Plan>>;
  }

  /** A stretch of a started battle fought by the computer on every side (a contested sea auto-resolved: computer-fight.ts). */
  fight(request: FightRequest): Promise<Thought<FoughtStretch>> {
    return this.submit({ kind: 'fight', ...request }) as Promise<Thought<FoughtStretch>>;
  }

  /** `battles` computer battles of the set-up on dice seeded by `seed`: one chunk of a sea's odds. */
  odds(ruleset: RulesetId, setup: unknown, battles: number, seed: string): Promise<Thought<Odds>> {
    return this.submit({ kind: 'odds', ruleset, setup, battles, seed }) as Promise<Thought<Odds>>;
  }

  /** Ends every worker; jobs still waiting or running fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the server is shutting down'));
    await Promise.all(this.slots.splice(0).map((slot) => this.end(slot, new Error('the server is shutting down'))));
  }

  private submit(job: Job): Promise<Thought<unknown>> {
    if (this.closed) return Promise.reject(new Error('the server is shutting down'));
    if (this.queue.length >= this.options.maxWaiting) return Promise.reject(new ComputerBusy(this.queue.length));
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { ...job, id: this.nextId++ } as ComputerJob, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((candidate) => candidate.busy === null);
      if (!slot && this.slots.length < this.options.workers) slot = this.spawn();
      if (!slot) return;
      const pending = this.queue.shift()!;
      slot.busy = pending;
      slot.timer = setTimeout(() => {
        void this.end(slot, new Error(`the computer thought for more than ${this.options.jobTimeoutMs / 1000} seconds and was stopped`));
      }, this.options.jobTimeoutMs);
      slot.worker.postMessage(pending.job);
    }
  }

  private spawn(): Slot {
    const worker = startWorker();
    // The app's close ends the workers; an idle one keeps no process alive.
    worker.unref();
    const slot: Slot = { worker, busy: null, timer: null };
    worker.on('message', (answer: ComputerAnswer) => {
      const pending = slot.busy;
      if (!pending || pending.job.id !== answer.id) return;
      if (slot.timer) clearTimeout(slot.timer);
      slot.busy = null;
      slot.timer = null;
      if (answer.ok) pending.resolve({ value: answer.value, ms: answer.ms });
      else pending.reject(new Error(`the computer opponent failed: ${answer.error}`));
      this.dispatch();
    });
    worker.on('error', (error) => void this.end(slot, error));
    worker.on('exit', (code) => void this.end(slot, new Error(`the computer's worker thread stopped (exit code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  /** Ends a worker, failing its job; the next job starts a new one. */
  private async end(slot: Slot, error: Error): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    if (slot.timer) clearTimeout(slot.timer);
    const pending = slot.busy;
    slot.busy = null;
    slot.timer = null;
    pending?.reject(error);
    await slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}
