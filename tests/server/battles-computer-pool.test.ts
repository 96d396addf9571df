/**
 * The computer's worker threads (server/battles/computer-pool.ts): moves planned in a worker are the ones planned on
 * the main thread, and legal; the legal actions it lists are the rules' own; past its bounded queue the pool refuses
 * at once with 503 server_busy; a job that throws fails with the reason; one that thinks too long has its worker
 * ended, and the next job gets a new one.
 */
import { afterEach, expect, test } from 'vitest';
import { ComputerBusy, ComputerPool } from '../../server/battles/computer-pool.ts';
import type { PlanRequest } from '../../server/battles/computer-jobs.ts';
import { planMoves } from '../../server/battles/computer-plan.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { RULESETS, SCENARIOS } from '../../shared/naval/index.ts';

const pools: ComputerPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});
const poolOf = (options: ConstructorParameters<typeof ComputerPool>[0]) => {
  const pool = new ComputerPool(options);
  pools.push(pool);
  return pool;
};

/** The opening of a Classis duel: the side to act and the state. */
function opening() {
  const ruleset = RULESETS.classis;
  const setup = ruleset.setupSchema.parse(SCENARIOS.classis.find((s) => s.id === 'training-duel')!.setup);
  const state = ruleset.start(setup, streamDice('computer-pool-test-seed-0123456789', 'salt')).state;
  const turn = ruleset.turn(state);
  if (turn.kind !== 'side') throw new Error('a Classis battle opens with one side to act');
  return { ruleset, state, side: turn.side };
}

test('plans in a worker the moves planned on the main thread, legal ones; lists legal actions', { timeout: 60_000 }, async () => {
  const { ruleset, state, side } = opening();
  const pool = poolOf({ workers: 1, maxWaiting: 4, jobTimeoutMs: 30_000 });
  // The computer plays the side to act, one move: what it plans does not depend on how fast the worker thinks.
  const request: PlanRequest = {
    ruleset: 'classis',
    state,
    seed: 'computer-pool-test-seed-0123456789',
    salt: 'salt',
    nextRoll: 0,
    battleId: 'battle-1',
    actionCount: 7,
    computerSides: [side],
    budgetMs: 30_000,
    maxMoves: 1,
  };
  const planned = await pool.plan(request);
  expect(planned.value).toEqual(planMoves(request));
  expect(planned.value.moves).toHaveLength(1);
  expect(ruleset.check(state, side, planned.value.moves[0].action)).toBeNull();
  expect(planned.ms).toBeGreaterThanOrEqual(0);
  const legal = await pool.describedLegalActions('classis', state, side, 3);
  expect(legal.value).toEqual(
    ruleset
      .legalActions(state, side)
      .slice(0, 3)
      .map((action) => ({ side, action, text: ruleset.describe(state, action) })),
  );
});

test('past its queue, refuses at once with 503 server_busy; the jobs it took are answered', { timeout: 60_000 }, async () => {
  const { state, side } = opening();
  const pool = poolOf({ workers: 1, maxWaiting: 1, jobTimeoutMs: 30_000 });
  const running = pool.describedLegalActions('classis', state, side, 5);
  const waiting = pool.describedLegalActions('classis', state, side, 5);
  expect(pool.load).toEqual({ running: 1, waiting: 1 });
  const refused = await pool.describedLegalActions('classis', state, side, 5).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ComputerBusy);
  expect(refused).toMatchObject({ statusCode: 503, code: 'server_busy' });
  await expect(running).resolves.toMatchObject({ value: expect.arrayContaining([expect.objectContaining({ side })]) });
  await expect(waiting).resolves.toMatchObject({ value: expect.arrayContaining([expect.objectContaining({ side })]) });
  expect(pool.load).toEqual({ running: 0, waiting: 0 });
});

test('a job that throws fails with the reason; the worker goes on', { timeout: 60_000 }, async () => {
  const { state, side } = opening();
  const pool = poolOf({ workers: 1, maxWaiting: 4, jobTimeoutMs: 30_000 });
  await expect(pool.describedLegalActions('classis', null, side, 5)).rejects.toThrow(/the computer opponent failed/);
  await expect(pool.describedLegalActions('classis', state, side, 5)).resolves.toMatchObject({
    value: expect.arrayContaining([expect.objectContaining({ side })]),
  });
});

test('a worker thinking past its time is ended; the next job gets a new one; a closed pool takes no job', { timeout: 60_000 }, async () => {
  const { state, side } = opening();
  // A millisecond: the worker has not even started by then.
  const hasty = poolOf({ workers: 1, maxWaiting: 4, jobTimeoutMs: 1 });
  await expect(hasty.describedLegalActions('classis', state, side, 5)).rejects.toThrow(/thought for more than/);
  expect(hasty.load).toEqual({ running: 0, waiting: 0 });
  await hasty.close();
  await expect(hasty.describedLegalActions('classis', state, side, 5)).rejects.toThrow(/shutting down/);
});
