import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { mapDrawing } from './web/build/map-drawing.ts';

/**
 * The end-to-end suite: the real server on a free port with a throw-away
 * database, the client built by its global setup, Debian's Chromium driven by
 * playwright-core. It skips itself (and says so) where /usr/bin/chromium is missing.
 */
export const e2eProject = {
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node' as const,
    globalSetup: ['tests/e2e/build.ts'],
    // After the other projects, not beside them, one file at a time with the suites that kill and measure servers
    // (ALONE): a browser with five players would slow their timing-sensitive tests.
    sequence: { groupOrder: 1 },
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
};

/**
 * Suites that start, kill, load or measure real server processes (kill and outage tests, memory and scale tests that
 * build the production server, heartbeats, the data directory's lock): they run one at a time after the others,
 * so that no neighbouring file's work decides their outcome, and two never build dist/server at once.
 */
const ALONE = [
  'tests/server/battles-kill.test.ts',
  'tests/server/campaign-kill.test.ts',
  'tests/server/notify-kill.test.ts',
  'tests/server/faults-kill.test.ts',
  'tests/server/faults-database.test.ts',
  'tests/server/faults-live.test.ts',
  'tests/server/database-outage.test.ts',
  'tests/server/import-memory.test.ts',
  'tests/server/scale.test.ts',
  'tests/server/scale-deadlines.test.ts',
  'tests/server/scale-submissions.test.ts',
  'tests/server/listen-heartbeat.test.ts',
  'tests/server/data-dir-lock.test.ts',
  'tests/server/main.test.ts',
  'tests/tools/steady-load.test.ts',
];

/**
 * Suites that replace a module for their own tests (security.test.ts spies on node:crypto's exports), or that measure
 * the heap (password-rater.test.ts: another suite's loaded modules would be counted): they need modules of their own.
 * Every other Node suite shares its worker's loaded modules with the files run before it (`isolate: false`): loading
 * the server's and the engine's modules afresh for each file was about a third of the Node suites' time (16 server
 * files: 250 → 160 s, their imports 98 → 26 s, in one run on the loaded machine).
 */
const OWN_MODULES = ['tests/server/security.test.ts', 'tests/server/password-rater.test.ts'];

/**
 * Most suites wait on PostgreSQL, a server or a socket much of the time, so two files at once keep both cores
 * busy (each server file has its own database): on the 2-core machine this took a third off their time.
 */
const BESIDE_EACH_OTHER = Math.max(2, availableParallelism() - 1);

/**
 * Five projects, so that every test runs and each kind in the environment it
 * needs: the engine, map and server suites in Node, two files at a time (those
 * that replace a module, apart with modules of their own); the
 * web client's suites (tests/web) in a DOM (happy-dom) with Svelte compiled for
 * the browser, beside them; then, one file at a time, the suites that kill and
 * measure servers (ALONE) and the end-to-end suite in a real browser.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/web/**', ...ALONE, ...OWN_MODULES],
          environment: 'node',
          maxWorkers: BESIDE_EACH_OTHER,
          isolate: false,
        },
      },
      {
        test: {
          name: 'node-own-modules',
          include: OWN_MODULES,
          environment: 'node',
          maxWorkers: 1,
        },
      },
      {
        test: {
          name: 'node-alone',
          include: ALONE,
          environment: 'node',
          sequence: { groupOrder: 1 },
          maxWorkers: 1,
        },
      },
      {
        plugins: [svelte({ configFile: 'web/svelte.config.js' }), mapDrawing()],
        // Svelte's package exports a server build under Node's conditions; tests mount components, so they need the browser one.
        resolve: { conditions: ['browser'] },
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.ts'],
          environment: 'happy-dom',
          maxWorkers: BESIDE_EACH_OTHER,
        },
      },
      e2eProject,
    ],
  },
});
