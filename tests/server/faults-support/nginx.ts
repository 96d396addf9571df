/**
 * deploy/nginx.conf (the load balancer of docker-compose.yml) run for real in
 * front of local server processes: the upstream servers and the listening
 * address are rewritten, everything else is the file as shipped. Needs the
 * nginx binary (Debian: apt-get install nginx-light); `nginxBinary()` is null without.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './postgres-cluster.ts';
import { projectRoot } from './server-process.ts';

export function nginxBinary(): string | null {
  return ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate)) ?? null;
}

export type LoadBalancer = { url: string; port: number; config: string; stop(): Promise<void> };

export async function startNginx(upstreamPorts: number[]): Promise<LoadBalancer> {
  const binary = nginxBinary();
  if (!binary) throw new Error('no nginx binary');
  const shipped = await readFile(path.join(projectRoot, 'deploy/nginx.conf'), 'utf8');
  const servers = [...shipped.matchAll(/^\s*server app\d+:3000;$/gm)];
  if (servers.length !== 2) throw new Error('deploy/nginx.conf: expected the two upstream lines "server appN:3000;"');
  if (!/^\s*listen 80;$/m.test(shipped)) throw new Error('deploy/nginx.conf: expected "listen 80;"');
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'diadochi-nginx-'));
  let config = shipped.replace(/^(\s*)server app\d+:3000;\n(\s*server app\d+:3000;\n)*/m, (_match, indent: string) =>
    upstreamPorts.map((upstream) => `${indent}server 127.0.0.1:${upstream};\n`).join(''),
  );
  config = config.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`);
  config = `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n${config.replace('http {', `http {\n  access_log off;`)}`;
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, config);
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Ready when it accepts connections (or it failed).
  for (const giveUp = Date.now() + 15_000; ; ) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (child.exitCode !== null || Date.now() > giveUp)
      throw new Error(`nginx did not start: ${stderr}\n${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    config,
    async stop() {
      // Fast shutdown: a graceful one would wait for open websockets.
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
