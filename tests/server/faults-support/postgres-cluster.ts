/**
 * A private PostgreSQL cluster in a temporary folder, on a free port, that a
 * test or benchmark may stop and start at will (a real outage) without
 * disturbing the machine's cluster that other test files use. It needs the
 * PostgreSQL server binaries (/usr/lib/postgresql/<version>/bin); when they
 * are missing, `postgresBinaries()` is null and callers skip.
 *
 * PostgreSQL refuses to run as root, so when we are root the commands run as
 * the `postgres` user (runuser), which then owns the folder.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The newest installed PostgreSQL's bin folder, or null. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((entry) => existsSync(path.join(root, entry, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) return null;
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) return null;
  return path.join(root, versions[0], 'bin');
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type PrivateCluster = {
  /** postgresql://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dir: string;
  /** `fast` closes connections cleanly; `immediate` is a crash (recovery from the WAL at the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops it (if running) and deletes its folder. */
  destroy(): Promise<void>;
  log(): Promise<string>;
};

export type ClusterOptions = {
  /** Extra `postgres -c` settings, e.g. { max_connections: '300' }. */
  settings?: Record<string, string>;
};

export async function startPrivateCluster(options: ClusterOptions = {}): Promise<PrivateCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const asRoot = process.getuid?.() === 0;
  const exec = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]) : run(path.join(bin, command), args);

  const dir = await mkdtemp(path.join(tmpdir(), 'diadochi-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  await exec('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const settings = { listen_addresses: '127.0.0.1', port: String(port), unix_socket_directories: dir, ...options.settings };
  const serverOptions = Object.entries(settings)
    .map(([key, value]) => `-c ${key}=${value}`)
    .join(' ');
  let running = false;
  const cluster: PrivateCluster = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    async start() {
      try {
        await exec('pg_ctl', ['-D', dataDir, '-o', serverOptions, '-l', logFile, '-w', '-t', '60', 'start']);
      } catch (error) {
        throw new Error(`private PostgreSQL did not start: ${String(error)}\n${await cluster.log()}`);
      }
      running = true;
    },
    async stop(mode = 'fast') {
      await exec('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async destroy() {
      if (running) await cluster.stop('immediate').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
  };
  // Never outlive the process that started it, however that ends (a crashed test must not leave a server behind).
  const reap = () => {
    const command = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', 'stop']]
      : [path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']];
    if (running) spawnSync(command[0] as string, command[1] as string[], { stdio: 'ignore' });
    spawnSync('rm', ['-rf', dir]);
  };
  process.once('exit', reap);
  const destroy = cluster.destroy;
  cluster.destroy = async () => {
    process.removeListener('exit', reap);
    await destroy();
  };
  await cluster.start();
  return cluster;
}
