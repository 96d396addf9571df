/**
 * Global setup of the end-to-end tests: build the web client once, into its
 * own folder (dist/e2e-web), so the suite always drives the current code and
 * never touches the web/dist a developer is serving.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const E2E_WEB_DIST = path.join(root, 'dist', 'e2e-web');

export default async function setup(): Promise<void> {
  if (!existsSync('/usr/bin/chromium')) return; // the suite skips itself and says why
  const { build } = await import('vite');
  // The build players get: vitest sets NODE_ENV=test, under which Vite and Svelte would build for development.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.join(root, 'web', 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
      build: { outDir: E2E_WEB_DIST, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
