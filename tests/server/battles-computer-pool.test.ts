/**
 * The computer's worker threads (server/battles/computer-pool.ts): a choice made in a worker is the ruleset's own
 * opponent's (the same action as on the main thread, and legal); past its bounded queue the pool refuses at once
 * with 503 server_busy; an opponent that throws fails its job with the reason; one that thinks too long has its
 * worker ended, and the next job gets a new one.
 */
import { afterEach, expect, test } from 'vitest';
import { ComputerBusy, ComputerPool } from '../../server/battles/computer-pool.ts';
import { computerRandom } from '../../server/battles/computer-random.ts';
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

test('chooses in a worker what the opponent chooses on the main thread, a legal action; lists legal actions', { timeout: 60_000 }, async () => {
  const { ruleset, state, side } = opening();
  const pool = poolOf({ workers: 1, maxWaiting: 4, jobTimeoutMs: 30_000 });
  const chosen = await pool.choose('classis', state, side, 'battle-1', 7);
  expect(chosen.value).toEqual(ruleset.opponent(state, side, computerRandom('battle-1', 7)));
  expect(ruleset.check(state, side, chosen.value)).toBeNull();
  expect(chosen.ms).toBeGreaterThanOrEqual(0);
  const legal = await pool.legalActions('classis', state, side, 3);
  expect(legal.value).toEqual(ruleset.legalActions(state, side).slice(0, 3));
});

test('past its queue, refuses at once with 503 server_busy; the jobs it took are answered', { timeout: 60_000 }, async () => {
  const { state, side } = opening();
  const pool = poolOf({ workers: 1, maxWaiting: 1, jobTimeoutMs: 30_000 });
  const running = pool.choose('classis', state, side, 'battle-1', 0);
  const waiting = pool.choose('classis', state, side, 'battle-1', 1);
  expect(pool.load).toEqual({ running: 1, waiting: 1 });
  const refused = await pool.choose('classis', state, side, 'battle-1', 2).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ComputerBusy);
  expect(refused).toMatchObject({ statusCode: 503, code: 'server_busy' });
  await expect(running).resolves.toMatchObject({ value: expect.anything() });
  await expect(waiting).resolves.toMatchObject({ value: expect.anything() });
  expect(pool.load).toEqual({ running: 0, waiting: 0 });
});

test('an opponent that throws fails its job with the reason; the worker goes on', { timeout: 60_000 }, async () => {
  const { state, side } = opening();
  const pool = poolOf({ workers: 1, maxWaiting: 4, jobTimeoutMs: 30_000 });
  await expect(pool.choose('classis', null, side, 'battle-1', 0)).rejects.toThrow(/the computer opponent failed/);
  await expect(pool.choose('classis', state, side, 'battle-1', 0)).resolves.toMatchObject({ value: expect.anything() });
});

test('a worker thinking past its time is ended; the next job gets a new one; a closed pool takes no job', { timeout: 60_000 }, async () => {
  const { state, side } = opening();
  // A millisecond: the worker has not even started by then.
  const hasty = poolOf({ workers: 1, maxWaiting: 4, jobTimeoutMs: 1 });
  await expect(hasty.choose('classis', state, side, 'battle-1', 0)).rejects.toThrow(/thought for more than/);
  expect(hasty.load).toEqual({ running: 0, waiting: 0 });
  await hasty.close();
  await expect(hasty.choose('classis', state, side, 'battle-1', 0)).rejects.toThrow(/shutting down/);
});
