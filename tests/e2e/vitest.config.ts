import { defineConfig } from 'vitest/config';
import { e2eProject } from '../../vitest.config.ts';

/** The end-to-end suite alone (`npm run test:e2e`); `npm test` runs it too, as a project of the root config. */
export default defineConfig({ test: { ...e2eProject.test, name: undefined } });
