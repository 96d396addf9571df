/**
 * The real app (server/app.ts) listening on a free loopback port, on a fresh
 * test database (in-memory PGlite, or a throw-away PostgreSQL database when
 * DATABASE_URL is set, as tests/server do), serving the built client.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { projectRoot, type AppSettings } from '../../server/settings.ts';
import { createTestDatabase } from '../server/helpers/database.ts';
import { testSettings } from '../server/helpers/app.ts';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function startServer(webDistDir = path.join(projectRoot, 'dist', 'e2e-web'), settings: Partial<AppSettings> = {}): Promise<RunningServer> {
  if (!existsSync(path.join(webDistDir, 'index.html'))) throw new Error(`${webDistDir} is missing: the e2e global setup (tests/e2e/build.ts) builds it.`);
  const database = await createTestDatabase({ migrated: true });
  const app = await buildApp({ database: database.options, settings: { ...testSettings, ...settings, webDistDir } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server did not report its port');
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
