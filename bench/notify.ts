/**
 * The outbox's mail delivery under a burst (`npm run bench -- notify`): the notifications of 1,000 games whose
 * deadlines fall due together, 7 recipients each (7,000 mails, each with text, HTML and unsubscribe headers, to
 * verified users), written to the outbox in one transaction, then delivered by the production build
 * (dist/server/main.mjs with `npm start`'s flags, its worker as configured by default) to a real SMTP server in this
 * process (tests/server/helpers/smtp.ts, which parses every message). Targets: all 7,000 accepted within 60 s; the
 * server's RSS under 300 MB throughout (sampled every 100 ms).
 *
 * PostgreSQL: a throw-away database on DATABASE_URL's server, else a private cluster (the PostgreSQL binaries).
 * `NOTIFY_GAMES=100` runs a smaller burst; `NOTIFY_PROFILE=<dir>` writes the server's CPU profile there; the
 * server's own variables pass through (e.g. `OUTBOX_CONCURRENCY=8`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { withDatabaseName } from '../server/db/migrate.ts';
import { freePort, postgresBinaries, startPrivateCluster } from '../tests/server/faults-support/postgres-cluster.ts';
import { startServer } from '../tests/server/faults-support/server-process.ts';
import { startSmtpServer } from '../tests/server/helpers/smtp.ts';

export type NotifyFigure = { bench: 'notify'; name: string; [key: string]: string | number | boolean | null };

export type NotifyBenchOptions = { games: number; recipients: number; limitSeconds: number; rssLimitMb: number };
export const defaultNotifyBench: NotifyBenchOptions = {
  games: Number(process.env.NOTIFY_GAMES ?? 1000),
  recipients: 7,
  limitSeconds: 60,
  rssLimitMb: 300,
};

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** CPU seconds (user + system) a process has used so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

async function benchDatabase(): Promise<{ url: string; describe: string; close(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (server) {
    const name = `bench_notify_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    return {
      url: withDatabaseName(server, name),
      describe: `DATABASE_URL's server, database ${name}`,
      async close() {
        const client = new pg.Client({ connectionString: server });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      },
    };
  }
  if (!postgresBinaries()) throw new Error('the notify benchmark needs PostgreSQL: DATABASE_URL, or its binaries under /usr/lib/postgresql');
  const cluster = await startPrivateCluster({ settings: { max_connections: '100' } });
  return { url: cluster.url, describe: 'private cluster', close: () => cluster.destroy() };
}

/** The environment settings and node flags of `npm start`, so the server runs as in production. */
function startCommand(root: string): { env: Record<string, string>; flags: string[] } {
  const words: string[] = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const env = Object.fromEntries(words.slice(0, node).map((word) => word.split('=', 2) as [string, string]));
  return { env, flags: words.slice(node + 1).filter((word) => word.startsWith('--')) };
}

/** A phase-processed mail of about the size the game mail has (2 KB of text, 4 KB of HTML). */
function payload(game: number, seat: number): string {
  const lines = Array.from({ length: 30 }, (_, i) => `A Unit${i} - Province${(i * 7) % 60}: succeeded (game ${game}, seat ${seat}).`);
  return JSON.stringify({
    kind: 'phase-processed',
    subject: `Game ${game}: Spring 240 BC adjudicated, next deadline in 48 hours`,
    text: `${lines.join('\n')}\n\nWhy you get this: you play seat ${seat} in game ${game}.`,
    html: `<h1>Spring 240 BC</h1><ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul><p>Why you get this: you play seat ${seat}.</p>`,
    headers: {
      'List-Unsubscribe': `<http://localhost:3000/api/unsubscribe/${game}-${seat}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
}

export async function notifyBenchmarks(root: string, options: NotifyBenchOptions = defaultNotifyBench): Promise<NotifyFigure[]> {
  const mails = options.games * options.recipients;
  execFileSync('npm', ['run', '-s', 'build:server'], { cwd: root, stdio: 'inherit' });
  const database = await benchDatabase();
  // Headers only: the SMTP side's parsing shares this machine's cores with the server.
  const smtp = await startSmtpServer({ headersOnly: true });
  const start = startCommand(root);
  const server = await startServer({
    port: await freePort(),
    databaseUrl: database.url,
    entry: path.join(root, 'dist/server/main.mjs'),
    env: { ...start.env, SMTP_URL: smtp.url, MAIL_FROM: 'Diadochi <noreply@diadochi.test>' },
    nodeFlags: [...start.flags, ...(process.env.NOTIFY_PROFILE ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.NOTIFY_PROFILE}`] : [])],
    keepLogs: 1000,
  });
  let peakRss = 0;
  const sample = () => {
    try {
      peakRss = Math.max(peakRss, server.rss());
    } catch {
      // gone
    }
  };
  const sampler = setInterval(sample, 100);
  const client = new pg.Client({ connectionString: database.url });
  const loadBefore = loadavg()[0];
  try {
    await client.connect();
    // The recipients: verified users, one per seat of each game.
    await client.query(
      `INSERT INTO users (id, username, username_key, password_hash, email, email_key, email_verified_at)
       SELECT gen_random_uuid(), 'b' || n, 'b' || n, 'x', 'player' || n || '@example.test', 'player' || n || '@example.test', now()
       FROM generate_series(0, $1::int - 1) AS n`,
      [mails],
    );
    const users = (await client.query<{ id: string; n: number }>(`SELECT id::text, substr(username, 2)::int AS n FROM users ORDER BY 2`)).rows;
    const rows = users.map((user) => {
      const game = Math.floor(user.n / options.recipients);
      const seat = user.n % options.recipients;
      return { key: `bench:phase:${game}:user:${user.id}`, user: user.id, target: `player${user.n}@example.test`, payload: payload(game, seat) };
    });
    // All of them written in one transaction, as the deadlines falling together would (committed at t0).
    await client.query('BEGIN');
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      await client.query(
        `INSERT INTO outbox (id, channel, dedupe_key, user_id, target, payload)
         SELECT gen_random_uuid(), 'mail', k, u::uuid, t, p::jsonb FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(k, u, t, p)`,
        [chunk.map((row) => row.key), chunk.map((row) => row.user), chunk.map((row) => row.target), chunk.map((row) => row.payload)],
      );
    }
    await client.query('COMMIT');
    const t0 = performance.now();
    const cpu0 = [cpuSeconds(server.pid), cpuSeconds(process.pid)];
    let timedOut = false;
    // Waits past the target (up to five times it), so that a slow run still says how long it took.
    await smtp.waitFor(mails, options.limitSeconds * 5 * 1000).catch(() => (timedOut = true));
    const seconds = (performance.now() - t0) / 1000;
    const [serverCpu, benchCpu] = [cpuSeconds(server.pid) - cpu0[0], cpuSeconds(process.pid) - cpu0[1]];
    sample();
    // The last rows' commits may follow the SMTP server's 250 by a moment.
    for (const until = Date.now() + 5_000; Date.now() < until; ) {
      const { rows: pending } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE status = 'pending'`);
      if (pending[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const counts = (await client.query<{ status: string; n: number }>(`SELECT status::text, count(*)::int AS n FROM outbox GROUP BY 1`)).rows;
    const unique = new Set(smtp.messages.map((mail) => mail.messageId)).size;
    return [
      {
        bench: 'notify',
        name: `${options.games} games × ${options.recipients} recipients: mails handed to the SMTP server`,
        mails,
        accepted: smtp.messages.length,
        unique_message_ids: unique,
        seconds: round(seconds, 2),
        mails_per_second: round(smtp.messages.length / seconds),
        within_limit: !timedOut && seconds <= options.limitSeconds,
        server_cpu_ms_per_mail: round((serverCpu * 1000) / Math.max(1, smtp.messages.length), 2),
        smtp_server_cpu_ms_per_mail: round((benchCpu * 1000) / Math.max(1, smtp.messages.length), 2),
        outbox: counts.map((row) => `${row.status} ${row.n}`).join(', '),
      },
      {
        bench: 'notify',
        name: 'server memory',
        peak_rss_mb: round(peakRss / 1024 / 1024),
        under_limit: peakRss / 1024 / 1024 < options.rssLimitMb,
      },
      {
        bench: 'notify',
        name: 'machine',
        cores: cpus().length,
        load_before: round(loadBefore, 2),
        load_after: round(loadavg()[0], 2),
        database: database.describe,
      },
    ];
  } finally {
    clearInterval(sampler);
    await client.end().catch(() => {});
    await server.kill('SIGTERM');
    await smtp.close();
    await database.close();
  }
}

export function printNotifyFigures(figures: NotifyFigure[]): void {
  for (const figure of figures) {
    const { bench: _bench, name, ...rest } = figure;
    console.log(
      `${name}: ${Object.entries(rest)
        .map(([key, value]) => `${key} ${value}`)
        .join(', ')}`,
    );
  }
  for (const figure of figures) console.log(JSON.stringify(figure));
}
