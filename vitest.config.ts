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
    // After the other projects, not beside them: a browser with five players would slow their timing-sensitive tests.
    sequence: { groupOrder: 1 },
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
};

/**
 * Three projects, so that every test runs and each kind in the environment it
 * needs: the engine, map and server suites in Node; the web client's suites
 * (tests/web) in a DOM (happy-dom) with Svelte compiled for the browser; and
 * the end-to-end suite in a real browser.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/web/**'],
          environment: 'node',
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
        },
      },
      e2eProject,
    ],
  },
});
