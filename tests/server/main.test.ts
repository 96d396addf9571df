/**
 * The real entry point as `npm start` runs it: a separate process that reads
 * the environment, migrates, serves, and on SIGTERM shuts down cleanly (exit 0).
 * Without DATABASE_URL it creates its embedded database in DATA_DIR.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { projectRoot } from '../../server/settings.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

let database: TestDatabase | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 30_000);

test('starts, serves the API, and exits 0 on SIGTERM after closing the database', { timeout: 90_000 }, async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'diadochi-main-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  if (process.env.DATABASE_URL) {
    database = await createTestDatabase();
    env.DATABASE_URL = database.url!;
  }
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));

  const address = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    server.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const complete = buffered.split('\n');
      buffered = complete.pop()!;
      for (const line of complete) {
        lines.push(line);
        // Structured (pino) logs: one JSON object per line.
        const message = JSON.parse(line) as { msg: string };
        const listening = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)$/.exec(message.msg);
        if (listening) resolve(listening[1]);
      }
    });
    exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${lines.join('\n')}\n${stderr}`)));
  });

  const health = await fetch(`${address}/api/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
  const register = await fetch(`${address}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'started', password: 'a fine password' }),
  });
  expect(register.status).toBe(201);

  server.kill('SIGTERM');
  expect(await exited).toBe(0);
  const logged = lines.map(
    (line) => JSON.parse(line) as { msg: string; method?: string; url?: string; statusCode?: number; ms?: number; remoteAddress?: string },
  );
  const messages = logged.map((line) => line.msg);
  expect(messages).toContain('shutting down');
  // An access log: one line per request, with what an operator looks for.
  const requests = logged.filter((line) => line.msg === 'request');
  expect(requests.map(({ method, url, statusCode }) => ({ method, url, statusCode }))).toEqual([
    { method: 'GET', url: '/api/health', statusCode: 200 },
    { method: 'POST', url: '/api/auth/register', statusCode: 201 },
  ]);
  expect(requests.every((line) => typeof line.ms === 'number' && line.remoteAddress === '127.0.0.1')).toBe(true);
  expect(stderr).toBe('');
  if (!process.env.DATABASE_URL) expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
});
