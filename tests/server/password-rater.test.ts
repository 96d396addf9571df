/**
 * zxcvbn's dictionaries (server/accounts/password-policy.ts) are in memory only around new passwords: loaded by the
 * first, let go after a while without one, and loaded again by the next; letting go gives their memory back, since
 * nothing but the rater keeps them (they are out of the module cache as soon as they are loaded).
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, test } from 'vitest';
import { PasswordRater, passwordWeakness } from '../../server/accounts/password-policy.ts';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const heapMb = () => {
  collect();
  collect();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

test('the dictionaries load with the first new password and are let go after a while without one', { timeout: 30_000 }, async () => {
  const rater = new PasswordRater({ idleMs: 300 });
  expect(rater.loaded).toBe(false);
  expect(await passwordWeakness('password', 'alice', rater)).toMatch(/^is too easy to guess: /);
  expect(rater.loaded).toBe(true);
  // Another new password before the time is up keeps them.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await passwordWeakness('correct horse battery', 'alice', rater)).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(rater.loaded).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 400));
  expect(rater.loaded).toBe(false);
  // The next one loads them again, and is rated the same.
  expect(await passwordWeakness('password', 'alice', rater)).toMatch(/^is too easy to guess: /);
  expect(await passwordWeakness('wellington wellington', 'wellington', rater)).toBe(
    'must not be built from the username: what is left without it is too easy to guess',
  );
  rater.unload();
});

test('letting the dictionaries go gives their memory back', { timeout: 30_000 }, async () => {
  const rater = new PasswordRater({ idleMs: 60_000 });
  const before = heapMb();
  await passwordWeakness('correct horse battery', 'bob', rater);
  const loaded = heapMb();
  // The word lists are not kept by the module cache.
  const cached = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('@zxcvbn-ts/language-'));
  expect(cached).toEqual([]);
  rater.unload();
  const after = heapMb();
  expect(loaded - before, 'the dictionaries take some memory while loaded').toBeGreaterThan(10);
  expect(after - before, 'and give it back').toBeLessThan(3);
});
