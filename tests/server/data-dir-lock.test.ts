/**
 * The embedded database's directory is one server's at a time. A second `npm start` beside a running one (on
 * another port, or on the same busy port) is refused before it touches the directory, with a message naming the
 * running process; the running server and its data are unharmed; a server killed outright leaves a lock the next
 * start takes over. Before the lock, a second start on a busy port could leave ./data/pglite unopenable.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DataDirInUseError, lockDataDir, lockFileOf } from '../../server/db/data-dir-lock.ts';
import { call, registerUser } from './faults-support/client.ts';
import { freePort } from './faults-support/postgres-cluster.ts';
import { startServer, type ServerProcess } from './faults-support/server-process.ts';

const folders: string[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.kill('SIGKILL');
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
}, 30_000);

async function folder(): Promise<string> {
  const made = await mkdtemp(path.join(tmpdir(), 'diadochi-lock-'));
  folders.push(made);
  return made;
}

async function serve(dataDir: string, port: number): Promise<ServerProcess> {
  const server = await startServer({ port, dataDir });
  servers.push(server);
  return server;
}

/** The start is refused: its error (the server's last log lines) as text. */
async function refusedStart(dataDir: string, port: number): Promise<string> {
  const outcome = await serve(dataDir, port).then(
    () => 'it started',
    (error: unknown) => String(error),
  );
  expect(outcome).not.toBe('it started');
  return outcome;
}

describe('one server on an embedded database directory', () => {
  test('a second start is refused naming the running server; killed outright, its lock is taken over', { timeout: 300_000 }, async () => {
    const dataDir = await folder();
    const port = await freePort();
    const first = await serve(dataDir, port);
    const user = await registerUser(first.url);
    const lockFile = lockFileOf(path.join(dataDir, 'pglite'));
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(first.pid);

    // On the first one's busy port (the case that ruined the directory): refused before the database is opened.
    const refused = await refusedStart(dataDir, port);
    expect(refused).toContain('could not start');
    expect(refused).toContain(`in use by another process (pid ${first.pid}`);

    // The first server still serves, and its data is there.
    const me = await call<{ user: { username: string } }>(first.url, 'GET', '/api/auth/me', { token: user.token });
    expect(me.user.username).toBe(user.username);

    // Killed outright, it leaves its lock; the next start takes it over and finds the account.
    await first.kill('SIGKILL');
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(first.pid);
    const next = await serve(dataDir, port);
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(next.pid);
    const again = await call<{ user: { username: string } }>(next.url, 'GET', '/api/auth/me', { token: user.token });
    expect(again.user.username).toBe(user.username);
    // A clean stop lets go of it.
    expect(await next.kill('SIGTERM')).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  });
});

describe('the lock file', () => {
  test('a second opening in the same process is refused; the release lets the next one in', async () => {
    const dataDir = path.join(await folder(), 'pglite');
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir)).toThrow(/already open in this process/);
    release();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
    lockDataDir(dataDir)();
  });

  test('a garbled lock file, or one naming a process that is gone, is taken over', async () => {
    const dataDir = path.join(await folder(), 'pglite');
    const lockFile = lockFileOf(dataDir);
    writeFileSync(lockFile, '{"pid": ');
    const release = lockDataDir(dataDir);
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
    release();
    // Process ids are at most 2^22 on Linux: this one cannot be running.
    writeFileSync(lockFile, JSON.stringify({ pid: 2 ** 22 + 1, host: 'x', since: 'yesterday' }));
    lockDataDir(dataDir)();
  });

  test("a lock this process's id names but does not hold (an earlier life of a container's pid 1) is taken over", async () => {
    const dataDir = path.join(await folder(), 'pglite');
    writeFileSync(lockFileOf(dataDir), JSON.stringify({ pid: process.pid, host: 'x', since: 'before the restart' }));
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(/already open in this process/);
    release();
  });

  test("the release leaves another process's lock alone", async () => {
    const dataDir = path.join(await folder(), 'pglite');
    const lockFile = lockFileOf(dataDir);
    const release = lockDataDir(dataDir);
    // Someone deleted our file and another process took the directory meanwhile.
    writeFileSync(lockFile, JSON.stringify({ pid: 1, host: 'x', since: 'now' }));
    release();
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(1);
  });
});
