/**
 * A worker thread of the computer opponent (computer-pool.ts): it runs the rules' slow parts, so that the server's
 * event loop goes on serving while the computer thinks (a fleet battle of the measured-table rulesets takes seconds a
 * decision): the computer's planned moves, a side's legal actions, a sea's battle fought to its end, and a chunk of a
 * sea's odds. One job at a time, answered by its id; everything it gets and gives back is plain JSON.
 */
import { parentPort } from 'node:worker_threads';
import { battleOdds } from '../../shared/campaign/odds.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { fightOn } from './computer-fight.ts';
import { planMoves } from './computer-plan.ts';
import type { ComputerJob, ComputerAnswer } from './computer-jobs.ts';

function answer(job: ComputerJob): unknown {
  if (job.kind === 'fight') return fightOn(job);
  if (job.kind === 'odds') return battleOdds(job.ruleset, job.setup, job.battles, job.seed);
  if (job.kind === 'plan') return planMoves(job);
  const ruleset = RULESETS[job.ruleset];
  return ruleset
    .legalActions(job.state, job.side)
    .slice(0, job.limit)
    .map((action) => ({ side: job.side, action, text: ruleset.describe(job.state, action) }));
}

function run(job: ComputerJob): ComputerAnswer {
  const started = performance.now();
  try {
    const value = answer(job);
    return { id: job.id, ok: true, value, ms: performance.now() - started };
  } catch (error) {
    return { id: job.id, ok: false, error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) };
  }
}

if (!parentPort) throw new Error('computer-worker.ts runs as a worker thread of computer-pool.ts');
const port = parentPort;
port.on('message', (job: ComputerJob) => port.postMessage(run(job)));
