/**
 * The server's figures (`npm run bench -- server`), against real PostgreSQL:
 * a private cluster started for the run (initdb in a temporary folder), or a
 * throw-away database on DATABASE_URL's server when the PostgreSQL binaries
 * are missing. The server is the production build (`npm run build:server`,
 * dist/server/main.mjs) in its own process with the production defaults; the
 * load comes from this process (autocannon, http-connections.ts, ws).
 *
 *   - order submissions (64 connections, legal orders, Bearer tokens, spread
 *     over the games' seats): the most the server takes per second
 *     (autocannon: each connection sends its next request as soon as it has
 *     an answer, so latency there is mostly queueing), then the latency at a
 *     steady 2,000 a second (steady-load.ts: one request due every 0.5 ms,
 *     whatever the answers, each one's latency counted from when it was due),
 *     and with units N at 1,000 and 1,500 a second too (where latency turns up).
 *     Each submission figure also gives the load generator's CPU per request
 *     and how late its own event loop ran, which its latencies include, and
 *     the database's write-ahead log a submission and the pages its
 *     checkpoints wrote meanwhile (a checkpoint's writes slow its commits);
 *   - websocket fan-out: N clients watching one game, the game master has the
 *     phase processed; time from the request to each client's phase.processed;
 *   - deadlines: N games whose deadlines fall due at the same instant; time
 *     from that instant until the last one is processed (seen by a LISTEN);
 *   - memory: the server's RSS, sampled every 100 ms throughout.
 *
 * Each figure is measured at N and 2N (games, clients, units per power) in the
 * same run, and the ratio printed. Set-up (users, games) goes through the API;
 * the one shortcut is the positions with twice the units, written into phase 0
 * of freshly started games with SQL.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import WebSocket from 'ws';
import { getVariant, initialState, type GameState } from '../shared/index.ts';
import { seededRandom } from '../server/games/power-assignment.ts';
import { call, currentPhase, legalOrders, pool, registerUser, startGames, type Game, type User } from '../tests/server/faults-support/client.ts';
import { freePort, postgresBinaries, startPrivateCluster, type PrivateCluster } from '../tests/server/faults-support/postgres-cluster.ts';
import { npmStart, startServer, type ServerProcess } from '../tests/server/faults-support/server-process.ts';
import { withDatabaseName } from '../server/db/migrate.ts';
import type { HttpConnections } from './http-connections.ts';
import { steadyConnections, steadyLoad } from './steady-load.ts';

export interface ServerFigure {
  bench: 'server';
  name: string;
  [key: string]: string | number | boolean | null;
}

export type ServerBenchOptions = {
  /** Games for the deadline figure at N (2N is twice this). */
  games: number;
  /** Websocket clients at N. */
  clients: number;
  /** Seconds of sustained submissions per measurement. */
  seconds: number;
  /**
   * Steady rates measured at units N besides the most per second, lowest first (default: half, three quarters
   * and all of the required rate, so the figures show where the latency turns up); units 2N: the required rate.
   */
  steadyRates?: number[];
  /** Only these sections (submissions, fanout, deadlines); all by default. */
  only?: string[];
  /** For profiling: extra environment and node flags for the server process. */
  serverEnv?: Record<string, string>;
  nodeFlags?: string[];
  /**
   * For diagnosis: settings for the private PostgreSQL cluster besides its defaults, e.g. `{ fsync: 'off' }` to see
   * what the disk's waits cost (never a deployment's). Refused on DATABASE_URL's server, which is not the bench's own.
   */
  postgresSettings?: Record<string, string>;
  serverLog?: (line: { msg: string; [key: string]: unknown }) => void;
  log?: (line: string) => void;
};

/** The order-submission rate the server must sustain (issue: at least 2,000 a second, p99 under 50 ms). */
const SUBMISSION_RATE = 2000;

export const defaultServerBench: ServerBenchOptions = { games: 1000, clients: 1000, seconds: 20 };

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))];
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Latencies (ms) → n, median, p99, max. */
function latencyFigure(name: string, samples: number[], extra: Record<string, string | number | boolean | null> = {}): ServerFigure {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    bench: 'server',
    name,
    n: sorted.length,
    median_ms: round(percentile(sorted, 0.5)),
    p99_ms: round(percentile(sorted, 0.99)),
    max_ms: round(sorted.at(-1) ?? 0),
    ...extra,
  };
}

/** Where the database's writes stand (the whole cluster's): its write-ahead log's position, and the pages its checkpoints have written. */
type DatabaseWrites = { lsn: string; checkpointPages: number };

/**
 * Reads the database's writes, one statement a reading. Checkpoint pages are in pg_stat_checkpointer from
 * PostgreSQL 17 and pg_stat_bgwriter before it (looked up once), counted as a checkpoint writes them, not only when
 * it ends (seen on PostgreSQL 15).
 */
async function databaseWritesMeter(client: pg.Client) {
  const { rows: found } = await client.query<{ checkpointer: boolean }>(`SELECT to_regclass('pg_catalog.pg_stat_checkpointer') IS NOT NULL AS checkpointer`);
  const pages = found[0].checkpointer ? 'SELECT buffers_written FROM pg_stat_checkpointer' : 'SELECT buffers_checkpoint FROM pg_stat_bgwriter';
  const read = async (from: string) => {
    const { rows } = await client.query<{ lsn: string; bytes: string; pages: string }>(
      `SELECT w.lsn::text AS lsn, pg_wal_lsn_diff(w.lsn, $1::pg_lsn)::text AS bytes, (${pages})::text AS pages FROM (SELECT pg_current_wal_lsn() AS lsn) w`,
      [from],
    );
    return rows[0];
  };
  return {
    async now(): Promise<DatabaseWrites> {
      const { lsn, pages: written } = await read('0/0');
      return { lsn, checkpointPages: Number(written) };
    },
    /** Since `before`: bytes of write-ahead log, and pages written by checkpoints. */
    async since(before: DatabaseWrites): Promise<{ walBytes: number; checkpointPages: number }> {
      const { bytes, pages: written } = await read(before.lsn);
      return { walBytes: Number(bytes), checkpointPages: Number(written) - before.checkpointPages };
    },
  };
}

type Database = { url: string; describe: string; close(): Promise<void>; postgresCpuSeconds(): number };

/** /proc/<pid>/stat's fields after the command name. */
function statFields(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null; // gone
  }
}

/** CPU seconds (user + system) used so far by these processes (Linux /proc). */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

/**
 * CPU seconds used so far by the private cluster: the postmaster, its live
 * children (a connection's backend), and the children that have exited (the
 * database connection pool closes idle connections), which the kernel adds
 * to the postmaster's account of its waited-for children.
 */
function clusterCpuSeconds(dir: string): number {
  const postmaster = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const own = statFields(postmaster);
  let ticks = own ? Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]) : 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

async function benchDatabase(extra: Record<string, string> = {}): Promise<Database> {
  if (postgresBinaries()) {
    const cluster: PrivateCluster = await startPrivateCluster({ settings: { max_connections: '200', ...extra } });
    const version = execFileSync(path.join(postgresBinaries()!, 'postgres'), ['--version']).toString().trim();
    const changed = Object.entries(extra).map(([key, value]) => `, ${key} ${value}`);
    return {
      url: cluster.url,
      describe: `${version}, private cluster (default settings, max_connections 200${changed.join('')})`,
      close: () => cluster.destroy(),
      postgresCpuSeconds: () => clusterCpuSeconds(cluster.dir),
    };
  }
  if (Object.keys(extra).length > 0) throw new Error('PostgreSQL settings are for the private cluster; DATABASE_URL names a server of its own');
  const server = process.env.DATABASE_URL;
  if (!server) throw new Error('the server benchmarks need PostgreSQL: its binaries under /usr/lib/postgresql, or DATABASE_URL');
  const name = `bench_server_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    url: withDatabaseName(server, name),
    describe: `DATABASE_URL's server, database ${name}`,
    postgresCpuSeconds: () => NaN,
    async close() {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The server's RSS every 100 ms: the peak overall and per section. */
class MemoryWatch {
  private timer: NodeJS.Timeout;
  peak = 0;
  sectionPeak = 0;
  /** What the benchmark is doing (`step`), and what it was doing when the peak was sampled. */
  private current = 'start-up';
  peakDuring = '';
  constructor(private readonly server: ServerProcess) {
    this.timer = setInterval(() => this.sample(), 100);
  }
  sample(): void {
    try {
      const rss = this.server.rss();
      if (rss > this.peak) this.peakDuring = this.current;
      this.peak = Math.max(this.peak, rss);
      this.sectionPeak = Math.max(this.sectionPeak, rss);
    } catch {
      // the process has gone
    }
  }
  step(what: string): void {
    this.sample();
    this.current = what;
  }
  section(): number {
    this.sample();
    const peak = this.sectionPeak;
    this.sectionPeak = 0;
    return round(peak / 1024 / 1024);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

/** The Diadochi V opening with every power's units doubled: each gets as many more armies, on free land. */
export function doubledUnits(): GameState {
  const variant = getVariant('diadochi-v')!;
  const state = initialState(variant) as GameState;
  const occupied = new Set(state.units.map((unit) => unit.at.split('/')[0]));
  const free = variant.data.provinces.filter((province) => (province.kind === 'land' || province.kind === 'coastal') && !occupied.has(province.id));
  const units = [...state.units];
  for (const power of variant.powers) {
    const own = state.units.filter((unit) => unit.power === power).length;
    for (let i = 0; i < own; i++) {
      const province = free.shift();
      if (!province) throw new Error('not enough free provinces to double the units');
      units.push({ power, type: 'army', at: province.id });
    }
  }
  return { ...state, units };
}

type Submission = { path: string; token: string; body: string };

/** Bodies for PUT …/orders: one per seat and game, legal orders for the open phase. */
async function submissionsFor(base: string, games: Game[], master: User, random: () => number): Promise<Submission[]> {
  const bodies = await pool(games, 16, async (game) => {
    const phase = await currentPhase(base, master.token, game.id);
    return game.seats.map((seat) => ({
      path: `/api/games/${game.id}/phases/${phase.index}/orders`,
      token: seat.user.token,
      body: JSON.stringify({ orders: legalOrders(phase.state, seat.power, random), ready: false }),
    }));
  });
  const flat = bodies.flat();
  // Shuffled, so consecutive requests go to different games.
  for (let i = flat.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [flat[i], flat[j]] = [flat[j], flat[i]];
  }
  return flat;
}

type RunResult = { total: number; ratePerSecond: number; medianMs: number; p99Ms: number; maxMs: number; errors: number };

/**
 * Submissions for `seconds`: as fast as the server answers (autocannon, closed loop), or due at a
 * steady `rate` a second whatever the answers (steady-load.ts, open loop, latency from each due time).
 */
async function submissionRun(base: string, bodies: Submission[], seconds: number, rate?: number, connections?: HttpConnections): Promise<RunResult> {
  let next = 0;
  const request = () => {
    const submission = bodies[next++ % bodies.length];
    return {
      method: 'PUT' as const,
      path: submission.path,
      headers: { authorization: `Bearer ${submission.token}`, 'content-type': 'application/json' },
      body: submission.body,
    };
  };
  if (rate) {
    const result = await steadyLoad(base, { rate, seconds, connections: connections ?? 64, next: request });
    return {
      total: result.ok + result.non2xx,
      ratePerSecond: result.ratePerSecond,
      medianMs: round(percentile(result.latencies, 0.5)),
      p99Ms: round(percentile(result.latencies, 0.99)),
      maxMs: round(result.latencies.at(-1) ?? 0),
      errors: result.non2xx + result.errors,
    };
  }
  const result = await autocannon({
    url: base,
    connections: 64,
    duration: seconds,
    requests: [{ method: 'PUT', setupRequest: (defaults: Record<string, unknown>) => ({ ...defaults, ...request() }) }],
  });
  return {
    total: result.requests.total,
    ratePerSecond: result.requests.average,
    medianMs: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/** `count` websocket clients (20 per user, the per-user limit) subscribed to one game. */
async function watchers(base: string, users: User[], count: number, gameId: string): Promise<WebSocket[]> {
  const url = `${base.replace('http', 'ws')}/api/live`;
  return pool(
    Array.from({ length: count }, (_, i) => users[Math.floor(i / 20)]),
    50,
    (user) =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(url, { headers: { authorization: `Bearer ${user.token}` } });
        socket.once('error', reject);
        socket.on('message', function first(data) {
          const message = JSON.parse(data.toString()) as { type: string };
          if (message.type === 'welcome') socket.send(JSON.stringify({ type: 'subscribe', channel: `game:${gameId}` }));
          if (message.type === 'subscribed') {
            socket.off('message', first);
            resolve(socket);
          }
        });
      }),
  );
}

/** Rounds of: the game master has the phase processed; each client's time to hear phase.processed. */
/**
 * Where a round's time goes, each from the moment the game master asked: the answer to "process now" (the
 * phase adjudicated and committed), the first watcher told, the last one told.
 */
type FanOutRound = { answeredMs: number; firstMs: number; lastMs: number };

async function fanOut(
  base: string,
  master: User,
  gameId: string,
  sockets: WebSocket[],
  rounds: number,
): Promise<{ samples: number[]; missing: number; rounds: FanOutRound[] }> {
  const samples: number[] = [];
  const timings: FanOutRound[] = [];
  let missing = 0;
  for (let round = 0; round < rounds; round++) {
    const { index } = await currentPhase(base, master.token, gameId);
    let heard = 0;
    let first = NaN;
    let last = NaN;
    let done!: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    const started = performance.now();
    const listeners = sockets.map((socket) => {
      const listener = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { type: string; event?: { type: string; phase: { index: number } } };
        if (message.type !== 'event' || message.event!.type !== 'phase.processed' || message.event!.phase.index !== index) return;
        last = performance.now() - started;
        if (heard === 0) first = last;
        samples.push(last);
        socket.off('message', listener);
        if (++heard === sockets.length) done();
      };
      socket.on('message', listener);
      return listener;
    });
    await call(base, 'POST', `/api/games/${gameId}/gm/process`, { token: master.token });
    const answeredMs = performance.now() - started;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 15_000).unref());
    await Promise.race([all, timeout]);
    missing += sockets.length - heard;
    timings.push({ answeredMs, firstMs: first, lastMs: last });
    sockets.forEach((socket, i) => socket.off('message', listeners[i]));
  }
  return { samples, missing, rounds: timings };
}

/** The median of each part of the rounds' time (fan-out figures). */
function roundParts(rounds: FanOutRound[]): Record<string, number> {
  const median = (values: number[]) =>
    round(
      percentile(
        [...values].sort((a, b) => a - b),
        0.5,
      ),
    );
  return {
    answered_ms_median: median(rounds.map((r) => r.answeredMs)),
    first_told_ms_median: median(rounds.map((r) => r.firstMs)),
    last_told_ms_median: median(rounds.map((r) => r.lastMs)),
    last_told_ms_max: round(Math.max(...rounds.map((r) => r.lastMs))),
  };
}

/** All the games' open phases fall due at one instant; seconds until the last is processed. */
async function deadlines(observer: pg.Client, seen: Map<string, number>, gameIds: string[]): Promise<{ seconds: number; processed: number }> {
  const due = Date.now() + 1500;
  const phases = await observer.query<{ game_id: string; index: number }>(
    `UPDATE phases SET deadline_at = to_timestamp($2::double precision / 1000) WHERE status = 'open' AND game_id = ANY($1::uuid[]) RETURNING game_id::text, index`,
    [gameIds, due],
  );
  const keys = phases.rows.map((row) => `${row.game_id}/${row.index}`);
  const giveUp = due + 120_000;
  while (keys.some((key) => !seen.has(key)) && Date.now() < giveUp) await new Promise((resolve) => setTimeout(resolve, 20));
  const times = keys.map((key) => seen.get(key)).filter((time): time is number => time !== undefined);
  return { seconds: round((Math.max(...times) - due) / 1000, 2), processed: times.length };
}

export async function serverBenchmarks(root: string, options: ServerBenchOptions = defaultServerBench): Promise<ServerFigure[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const figures: ServerFigure[] = [];
  // The production build, as `npm start` and the Docker image run it.
  execFileSync('npm', ['run', '-s', 'build:server'], { cwd: root, stdio: 'inherit' });
  const entry = path.join(root, 'dist/server/main.mjs');
  const database = await benchDatabase(options.postgresSettings);
  const start = npmStart(root);
  const server = await startServer({
    port: await freePort(),
    databaseUrl: database.url,
    entry,
    env: { ...start.env, AUTH_RATE_LIMIT_MAX: '1000000', ...options.serverEnv },
    nodeFlags: options.nodeFlags ?? start.flags,
    onLog: options.serverLog,
    logLevel: options.serverEnv?.LOG_LEVEL,
    keepLogs: 1000,
  });
  const memory = new MemoryWatch(server);
  const observer = new pg.Client({ connectionString: database.url });
  const machine = { cores: (await import('node:os')).cpus().length, load_before: round(loadavg()[0], 2), database: database.describe };
  try {
    await observer.connect();
    const writes = await databaseWritesMeter(observer);
    const seen = new Map<string, number>();
    observer.on('notification', (message) => {
      const { event } = JSON.parse(message.payload!) as { event: { type: string; gameId: string; phase: { index: number } } };
      if (event.type === 'phase.processed') seen.set(`${event.gameId}/${event.phase.index}`, Date.now());
    });
    const base = server.url;
    const random = seededRandom(20261122);

    // ── set-up ──
    memory.step('set-up: users and games through the API');
    let t = performance.now();
    const [master, ...players] = await pool(
      Array.from({ length: 6 }, (_, i) => i),
      6,
      (i) => registerUser(base, `bench${i}_${Date.now().toString(36)}`),
    );
    const games = await startGames(base, master, players, 2 * options.games, 16);
    const doubled = await startGames(base, master, players, options.games, 16);
    await observer.query(`UPDATE phases SET state_before = $2::jsonb WHERE index = 0 AND game_id = ANY($1::uuid[])`, [
      doubled.map((game) => game.id),
      JSON.stringify(doubledUnits()),
    ]);
    log(
      `# set-up: ${games.length + doubled.length} games started through the API in ${round((performance.now() - t) / 1000)} s; server RSS ${memory.section()} MB`,
    );

    const wanted = (section: string) => !options.only || options.only.includes(section);
    // ── order submissions: N and 2N units per power ──
    if (wanted('submissions'))
      for (const [label, set, steady] of [
        ['units N (Diadochi V opening)', games, options.steadyRates ?? [SUBMISSION_RATE / 2, (3 * SUBMISSION_RATE) / 4, SUBMISSION_RATE]],
        ['units 2N (each power doubled)', doubled, [SUBMISSION_RATE]],
      ] as const) {
        memory.step(`submissions, ${label}: reading the phases, warm-up`);
        const bodies = await submissionsFor(base, set, master, random);
        const orders = JSON.parse(bodies[0].body).orders.length;
        await submissionRun(base, bodies, 3); // warm-up
        for (const rate of [undefined, ...steady]) {
          memory.step(`submissions, ${label}, ${rate ? `${rate}/s` : 'most per second'}`);
          // At a steady rate, a warm-up of its own first, on the connections measured: the first seconds of
          // a new generator (its code compiled, its connections opened) would otherwise count as the server's latency.
          const connections = rate ? steadyConnections(base, 64) : undefined;
          if (rate) await submissionRun(base, bodies, 2, rate, connections);
          memory.section();
          const cpu = [cpuSeconds([server.pid]), database.postgresCpuSeconds(), cpuSeconds([process.pid])];
          const writesBefore = await writes.now();
          // How late the load generator's own event loop ran: every request due meanwhile went out late, and
          // that is counted in its latency (on two shared cores, mostly the generator waiting for a core).
          const generatorDelay = monitorEventLoopDelay({ resolution: 5 });
          generatorDelay.enable();
          const result = await submissionRun(base, bodies, options.seconds, rate, connections);
          generatorDelay.disable();
          const used = [cpuSeconds([server.pid]), database.postgresCpuSeconds(), cpuSeconds([process.pid])].map((after, i) => after - cpu[i]);
          const written = await writes.since(writesBefore);
          await connections?.destroy();
          // Whatever was measured over the section, a submission's share of it (CPU in µs, log in bytes).
          const perRequest = (amount: number) => round(amount / Math.max(1, result.total), 0);
          const { errors } = result;
          const achieved = round(result.ratePerSecond, 0);
          figures.push({
            bench: 'server',
            name: rate ? `order submissions at ${rate}/s, ${label}` : `order submissions, most per second, ${label}`,
            n: result.total,
            rate_per_s: achieved,
            median_ms: result.medianMs,
            p99_ms: result.p99Ms,
            max_ms: result.maxMs,
            orders_per_submission: orders,
            errors,
            server_cpu_us_per_request: perRequest(used[0] * 1e6),
            postgres_cpu_us_per_request: perRequest(used[1] * 1e6),
            loader_cpu_us_per_request: perRequest(used[2] * 1e6),
            // What each submission costs the database's disk: its log (WAL), which every commit waits to flush
            // and whose volume sets off the checkpoints; and whether a checkpoint was writing pages meanwhile
            // (its writes share the disk with those flushes). On DATABASE_URL's server, others' writes count too.
            postgres_wal_bytes_per_request: perRequest(written.walBytes),
            postgres_checkpoint_pages: written.checkpointPages,
            loader_loop_delay_p99_ms: round(generatorDelay.percentile(99) / 1e6),
            loader_loop_delay_max_ms: round(generatorDelay.max / 1e6),
            rss_peak_mb: memory.section(),
            target: !rate
              ? `rate >= ${SUBMISSION_RATE}/s`
              : rate === SUBMISSION_RATE
                ? `sustains ${rate}/s with p99 < 50 ms`
                : `sustains ${rate}/s with p99 < 50 ms (a point below the required ${SUBMISSION_RATE}/s)`,
            // Sustained: within 1 % of the rate offered (the last answers come after the last request is due).
            ok: (rate ? achieved >= 0.99 * rate && result.p99Ms < 50 : achieved >= SUBMISSION_RATE) && errors === 0,
          });
          log(JSON.stringify(figures.at(-1)));
        }
      }

    // ── websocket fan-out: N and 2N clients watching one game ──
    memory.step('fan-out: signing up the watchers');
    const watcherUsers = wanted('fanout')
      ? await pool(
          Array.from({ length: Math.ceil((2 * options.clients) / 20) }, (_, i) => i),
          8,
          (i) => registerUser(base, `watch${i}_${Date.now().toString(36)}`),
        )
      : [];
    if (wanted('fanout'))
      for (const count of [options.clients, 2 * options.clients]) {
        const [game] = await startGames(base, master, players, 1, 1);
        memory.step(`fan-out: connecting ${count} clients`);
        t = performance.now();
        const sockets = await watchers(base, watcherUsers, count, game.id);
        const connectSeconds = round((performance.now() - t) / 1000);
        memory.step(`fan-out: ${count} clients`);
        memory.section();
        await fanOut(base, master, game.id, sockets, 2); // warm-up
        const { samples, missing, rounds } = await fanOut(base, master, game.id, sockets, 10);
        figures.push(
          latencyFigure(`phase result to ${count} websocket clients`, samples, {
            clients: count,
            missing,
            ...roundParts(rounds),
            connect_s: connectSeconds,
            rss_peak_mb: memory.section(),
            target: 'p99 < 200 ms',
            ok:
              percentile(
                [...samples].sort((a, b) => a - b),
                0.99,
              ) < 200 && missing === 0,
          }),
        );
        log(JSON.stringify(figures.at(-1)));
        await Promise.all(sockets.map((socket) => new Promise((resolve) => (socket.once('close', resolve), socket.close()))));
      }

    // ── deadlines: N and 2N games falling due together, and N games with twice the units ──
    // Listening only from here: every event of the sections before would otherwise cost this process (and
    // PostgreSQL, which sends each to every listener) CPU that the submissions' latency pays for.
    if (wanted('deadlines')) await observer.query('LISTEN diadochi_live');
    if (wanted('deadlines'))
      for (const [label, set] of [
        [`${options.games} games`, games.slice(0, options.games)],
        [`${2 * options.games} games`, games],
        [`${options.games} games, units 2N`, doubled],
      ] as const) {
        memory.step(`deadlines: ${label}`);
        memory.section();
        const { seconds, processed } = await deadlines(
          observer,
          seen,
          set.map((game) => game.id),
        );
        figures.push({
          bench: 'server',
          name: `deadlines falling due together: ${label}`,
          games: set.length,
          processed,
          seconds,
          per_s: round(processed / seconds, 0),
          rss_peak_mb: memory.section(),
          target: set.length <= options.games ? 'all processed within 30 s' : null,
          ok: processed === set.length && (set.length > options.games || seconds <= 30),
        });
        log(JSON.stringify(figures.at(-1)));
      }

    memory.stop();
    figures.push({
      bench: 'server',
      name: 'server RSS, peak over the whole run',
      rss_peak_mb: round(memory.peak / 1024 / 1024),
      during: memory.peakDuring,
      target: '< 300 MB',
      ok: memory.peak < 300 * 1024 * 1024,
    });
    figures.push({ bench: 'server', name: 'machine', ...machine, load_after: round(loadavg()[0], 2) });
    return figures;
  } finally {
    memory.stop();
    await observer.end().catch(() => {});
    server.kill('SIGTERM');
    await server.exited;
    await database.close();
  }
}

/** The growth when the work doubles: the 2N figure over the N figure. */
export function ratios(figures: ServerFigure[]): ServerFigure[] {
  const find = (prefix: string) => figures.find((figure) => figure.name.startsWith(prefix));
  const pairs: Array<[string, string, string, string]> = [
    [
      'order submissions, units 2N / N: most per second',
      'order submissions, most per second, units N',
      'order submissions, most per second, units 2N',
      'rate_per_s',
    ],
    [
      `order submissions at ${SUBMISSION_RATE}/s, units 2N / N: p99`,
      `order submissions at ${SUBMISSION_RATE}/s, units N`,
      `order submissions at ${SUBMISSION_RATE}/s, units 2N`,
      'p99_ms',
    ],
  ];
  const out: ServerFigure[] = [];
  for (const [name, n, twice, field] of pairs) {
    const a = find(n)?.[field];
    const b = find(twice)?.[field];
    if (typeof a === 'number' && typeof b === 'number') out.push({ bench: 'server', name, ratio: round(b / a, 2) });
  }
  const fanOuts = figures.filter((figure) => figure.name.startsWith('phase result to'));
  if (fanOuts.length === 2) {
    out.push({
      bench: 'server',
      name: 'websocket clients 2N / N: median',
      ratio: round((fanOuts[1].median_ms as number) / (fanOuts[0].median_ms as number), 2),
    });
    out.push({ bench: 'server', name: 'websocket clients 2N / N: p99', ratio: round((fanOuts[1].p99_ms as number) / (fanOuts[0].p99_ms as number), 2) });
  }
  const due = figures.filter((figure) => figure.name.startsWith('deadlines falling due'));
  if (due.length === 3) {
    out.push({ bench: 'server', name: 'deadlines, games 2N / N: time', ratio: round((due[1].seconds as number) / (due[0].seconds as number), 2) });
    out.push({ bench: 'server', name: 'deadlines, units 2N / N: time', ratio: round((due[2].seconds as number) / (due[0].seconds as number), 2) });
  }
  return out;
}

export function printServerFigures(figures: ServerFigure[]): void {
  for (const figure of figures) {
    const { bench: _bench, name, ...rest } = figure;
    console.log(
      `${name.padEnd(58)} ${Object.entries(rest)
        .map(([key, value]) => `${key} ${value}`)
        .join('  ')}`,
    );
  }
  for (const figure of figures) console.log(JSON.stringify(figure));
}
