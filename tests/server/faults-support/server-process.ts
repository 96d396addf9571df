/**
 * The real server (`server/main.ts`, as `npm start` runs it) in a child
 * process, for tests that kill it, run several of it, or load it from
 * outside. Its pino log (JSON lines on stdout) is parsed, so tests await
 * what it says ("Server listening at …") instead of sleeping.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The environment settings and node flags of package.json's `start` script (malloc threshold, heap limit, wasm
 * compiler), so that benchmarks and memory tests run the production build exactly as `npm start` does.
 */
export function npmStart(root = projectRoot): { env: Record<string, string>; flags: string[] } {
  const words: string[] = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const env = Object.fromEntries(words.slice(0, node).map((word) => word.split('=', 2) as [string, string]));
  return { env, flags: words.slice(node + 1).filter((word) => word.startsWith('--')) };
}

export type LogLine = { level: number; msg: string; [key: string]: unknown };

export type ServerOptions = {
  /** Listen here (a restart on the same port lets clients come back to the same address). */
  port: number;
  /** postgresql://… ; without it the server uses PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir?: string;
  env?: Record<string, string>;
  /** Node flags, e.g. ['--max-old-space-size=256']. */
  nodeFlags?: string[];
  /** Run this bundled entry point with plain node instead of server/main.ts through tsx. */
  entry?: string;
  /** Log level (default info: the scheduler's "phase processed" lines are info). */
  logLevel?: string;
  /** Receives every log line as it comes. */
  onLog?: (line: LogLine) => void;
  /**
   * Keep only about the latest this many lines in `logs` (trimmed back to it when twice as many; all by
   * default). A benchmark's server logs a line per request, and keeping them all would grow the load
   * generator's heap and its pauses for the collector.
   */
  keepLogs?: number;
};

export type ServerProcess = {
  child: ChildProcess;
  pid: number;
  url: string;
  logs: LogLine[];
  stderr: () => string;
  /** Resolves with the exit code, or the signal that ended it. */
  exited: Promise<number | string>;
  /** Resolves once everything it wrote to stdout is read (and in `logs`). */
  drained: Promise<void>;
  /** Resolves with the first log line (already logged or coming) that matches. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
  /** Resident set size now, in bytes (Linux /proc). */
  rss(): number;
};

export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    LOG_LEVEL: options.logLevel ?? 'info',
    WEB_DIST_DIR: path.join(projectRoot, 'nonexistent-web-dist'),
    ...options.env,
  };
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  const entry = options.entry ? [options.entry] : ['--import', 'tsx', 'server/main.ts'];
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...entry], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const waiters: Array<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const complete = buffered.split('\n');
    buffered = complete.pop()!;
    for (const text of complete) {
      if (!text.trim()) continue;
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { level: 50, msg: text };
      }
      logs.push(line);
      if (options.keepLogs !== undefined && logs.length > 2 * options.keepLogs) logs.splice(0, logs.length - options.keepLogs);
      options.onLog?.(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const drained = new Promise<void>((resolve) => child.stdout!.once('close', () => resolve()));
  // Never outlive the test or benchmark that started it, however that ends.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  void exited.then(() => process.removeListener('exit', reap));

  const server: ServerProcess = {
    child,
    pid: child.pid!,
    url: `http://127.0.0.1:${options.port}`,
    logs,
    stderr: () => stderr,
    exited,
    drained,
    waitForLog(match, timeoutMs = 60_000) {
      const seen = logs.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such log line within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        const waiter = { match, resolve: (line: LogLine) => (clearTimeout(timer), resolve(line)) };
        waiters.push(waiter);
        void exited.then((code) => {
          if (!waiters.includes(waiter)) return;
          waiters.splice(waiters.indexOf(waiter), 1);
          clearTimeout(timer);
          reject(
            new Error(
              `server exited (${code}) first:\n${logs
                .slice(-20)
                .map((l) => JSON.stringify(l))
                .join('\n')}\n${stderr}`,
            ),
          );
        });
      });
    },
    async kill(signal = 'SIGKILL') {
      child.kill(signal);
      return exited;
    },
    rss() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      return kb ? Number(kb) * 1024 : 0;
    },
  };
  const level = options.logLevel ?? 'info';
  if (['trace', 'debug', 'info'].includes(level)) {
    await server.waitForLog((line) => line.msg.startsWith('Server listening at'), 120_000);
  } else {
    // Quieter logs do not say when it listens: ask until it answers (or exits).
    let exitedFirst = false;
    void exited.then(() => (exitedFirst = true));
    for (const giveUp = Date.now() + 120_000; ; ) {
      if (exitedFirst) throw new Error(`server exited before listening: ${stderr}`);
      const ok = await fetch(`${server.url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > giveUp) throw new Error(`server did not answer within 120 s: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return server;
}
