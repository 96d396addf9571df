/**
 * The kill scenario: the real server in a child process (server/main.ts, on
 * PostgreSQL when an admin URL is given, else PGlite on disk) is SIGKILLed
 * again and again while clients submit orders and a game master keeps moving
 * deadlines a fraction of a second ahead, so phases fall due and are processed
 * (by the scheduler, and early when everyone is ready) all the time. A third of
 * the kills come at a random moment (once the restarted server has acknowledged
 * a couple of submissions), the others the instant the scheduler logs that
 * it has claimed a due phase (plus 0–40 ms) — inside its transaction; the report counts the
 * kills that did interrupt a processing (the phase was then processed by a
 * later server process).
 *
 * After the last restart the scenario waits, touching nothing, for the phases
 * that were due to be processed (the server resumes by itself), stops the
 * server cleanly and checks the database (verify.ts): every phase processed
 * exactly once, nothing half-written, no acknowledged submission lost.
 * `npm test` runs a few kills (tests/server/faults-kill.test.ts), `npm run soak`
 * hundreds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../../server/db/database.ts';
import { withDatabaseName } from '../../../server/db/migrate.ts';
import { seededRandom } from '../../../server/games/power-assignment.ts';
import { call, currentPhase, registerUser, startGames, type Game, type User } from './client.ts';
import { driveLoad, pause } from './load.ts';
import { freePort } from './postgres-cluster.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { verifyGames, type Verified } from './verify.ts';
import { connect } from '../helpers/live.ts';

export type KillScenarioOptions = {
  kills: number;
  games: number;
  /** Concurrent order-submitting clients. */
  submitters: number;
  seed?: number;
  /** A PostgreSQL server (a database is created and dropped there); PGlite on disk without. */
  postgresUrl?: string;
  log?: (message: string) => void;
};

export type KillReport = Verified & {
  kills: number;
  /** Kills that came the instant the scheduler claimed a due phase. */
  killsInProcessing: number;
  /** … of which the processing had not committed: the phase was processed by a later process. */
  interruptedProcessings: number;
  /** Phases the observer (a separate LISTEN connection, PostgreSQL only) saw processed; each exactly once. */
  observedProcessed: number | null;
  /** Phases that were due at the last restart and were processed with no help. */
  resumedByItself: number;
  /** Requests that got no answer (the server was down). */
  failedRequests: number;
  /** Kills aimed at a processing that came after it had finished, and were aimed again (not counted in `kills`). */
  lateKills: number;
  seconds: number;
};

export async function killScenario(options: KillScenarioOptions): Promise<KillReport> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const random = seededRandom(options.seed ?? 20261122);
  const cleanup: Array<() => Promise<unknown>> = [];
  try {
    // ── the database ──
    let databaseUrl: string | undefined;
    let dataDir: string | undefined;
    if (options.postgresUrl) {
      const name = `faults_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: options.postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      databaseUrl = withDatabaseName(options.postgresUrl, name);
      cleanup.push(async () => {
        const client = new pg.Client({ connectionString: options.postgresUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      });
    } else {
      const dir = await mkdtemp(path.join(tmpdir(), 'diadochi-kill-'));
      dataDir = dir;
      cleanup.push(() => rm(dir, { recursive: true, force: true }));
    }
    const port = await freePort();
    // LOG_SYNC: the kills are aimed by the server's log lines, which must leave at once (and survive the kill).
    const env = { SCHEDULER_INTERVAL_MS: '100', AUTH_RATE_LIMIT_MAX: '100000', LOG_SYNC: 'true' };
    // Debug: the scheduler says when it claims a due phase (the moment to kill it).
    const logLevel = 'debug';
    let server: ServerProcess = await startServer({ port, databaseUrl, dataDir, env, logLevel });
    cleanup.push(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) await server.kill('SIGKILL');
    });
    const base = server.url;

    // ── an independent observer of committed processing (PostgreSQL only) ──
    const observed = new Map<string, number>();
    if (databaseUrl) {
      const observer = new pg.Client({ connectionString: databaseUrl });
      await observer.connect();
      observer.on('notification', (message) => {
        const { event } = JSON.parse(message.payload!) as { event: { type: string; gameId: string; phase: { index: number } } };
        if (event.type !== 'phase.processed') return;
        const key = `${event.gameId}/${event.phase.index}`;
        observed.set(key, (observed.get(key) ?? 0) + 1);
      });
      await observer.query('LISTEN diadochi_live');
      cleanup.push(() => observer.end());
    }

    // ── players and games ──
    const [master, ...players] = await Promise.all(Array.from({ length: 6 }, (_, i) => registerUser(base, `kill${i}_${Date.now().toString(36)}`)));
    const games = await startGames(base, master, players, options.games, 4);
    log(`${games.length} games started`);

    // ── the load: submissions and deadlines, tolerant of a server that is down ──
    const load = driveLoad({ base, games, master, submitters: options.submitters, random });
    const loadFailed = load.failed;

    // ── the kills ──
    let killsInProcessing = 0;
    const claimsKilled: Array<{ phaseId: string; at: Date }> = [];
    let lateKills = 0;
    for (let kill = 1; kill <= options.kills; kill++) {
      const inProcessing = kill % 3 !== 0; // two kills in three aimed at a processing
      for (let attempt = 1; ; attempt++) {
        const from = server.logs.length;
        const trigger = inProcessing
          ? server.waitForLog((line) => server.logs.indexOf(line) >= from && line.msg === 'claimed a due phase', 60_000)
          : // At a random moment after the restarted server has taken a couple of submissions.
            load.acknowledgedCount(load.acknowledged.length + 2).then(() => pause(Math.floor(random() * 800)));
        const claim = await Promise.race([trigger, loadFailed]);
        // Somewhere in the transaction: before, during or after its writes (at once when aiming again).
        if (claim) await pause(attempt === 1 ? Math.floor(random() * 40) : 0);
        await server.kill('SIGKILL');
        const killedAt = new Date();
        await server.drained;
        // A fast processing (PGlite's, in the server's own process) can finish before the kill arrives: its log
        // then says so, and the kill is aimed again at the next claim (a few times), so that the scenario does
        // interrupt processings rather than hope to.
        const late = claim && server.logs.slice(from).some((line) => line.msg === 'phase processed at its deadline' && line.gameId === claim.gameId);
        server = await startServer({ port, databaseUrl, dataDir, env, logLevel });
        if (claim && late && attempt < 5) {
          lateKills += 1;
          continue;
        }
        if (claim) {
          killsInProcessing += 1;
          claimsKilled.push({ phaseId: claim.phaseId as string, at: killedAt });
        }
        break;
      }
      if (kill % 10 === 0 || kill === options.kills)
        log(
          `${kill} kills (${killsInProcessing} in processing, ${lateKills} more that came after the commit), ${load.acknowledged.length} submissions acknowledged`,
        );
    }
    await load.stop();
    const acknowledged = load.acknowledged;
    // A killed server answers nothing; a live one never fails (no 5xx).
    const serverErrors = [...load.statuses].filter(([status]) => typeof status === 'number' && status >= 500);
    if (serverErrors.length > 0) throw new Error(`server errors under the kills: ${JSON.stringify(serverErrors)}`);

    // ── the last kill: every game's deadline falls due while no server runs ──
    let latest = 0;
    const due: Array<{ game: Game; index: number }> = [];
    for (const game of games) {
      const phase = await currentPhase(base, master.token, game.id);
      if (phase.status !== 'open') continue;
      // A deadline the load set a moment ago (at most 550 ms ahead) falls due as it is: moving it by less than a
      // second would be refused as no change.
      const set = phase.deadlineAt ? Date.parse(phase.deadlineAt) : null;
      const at = set !== null && set < Date.now() + 2000 ? set : Date.now() + 300;
      if (at !== set) await call(base, 'POST', `/api/games/${game.id}/gm/deadline`, { token: master.token, body: { deadlineAt: new Date(at).toISOString() } });
      due.push({ game, index: phase.index });
      latest = Math.max(latest, at);
    }
    await server.kill('SIGKILL');
    await pause(Math.max(0, latest - Date.now() + 100)); // the clock passes the deadlines
    server = await startServer({ port, databaseUrl, dataDir, env, logLevel });
    // Nobody does anything: the restarted server processes what fell due.
    const watch = await connect(`${base.replace('http', 'ws')}/api/live`, { authorization: `Bearer ${master.token}` });
    const notResumed: string[] = [];
    for (const { game, index } of due) {
      watch.send({ type: 'subscribe', channel: `game:${game.id}` });
      await watch.next('subscribed', (message) => message.channel === `game:${game.id}`);
      // Processed before we subscribed, or we hear of it.
      if ((await currentPhase(base, master.token, game.id)).index > index) continue;
      const heard = await watch
        .next('event', (message) => message.event.type === 'phase.processed' && message.event.gameId === game.id && message.event.phase.index === index, 30_000)
        .catch(() => null);
      if (!heard) notResumed.push(`game ${game.id} phase ${index}`);
    }
    watch.socket.close();
    log(`${due.length} phases due at the last restart were processed by the restarted server`);
    server.kill('SIGTERM');
    const code = await server.exited;
    if (code !== 0) throw new Error(`the server did not shut down cleanly (${code}): ${server.stderr()}`);

    // ── the database ──
    const database: Database = await openDatabase(
      databaseUrl ? { kind: 'postgres', url: databaseUrl, poolSize: 2 } : { kind: 'pglite', dataDir: path.join(dataDir!, 'pglite') },
    );
    let verified: Verified;
    let interruptedProcessings = 0;
    try {
      verified = await verifyGames(
        database.prisma,
        games.map((game) => game.id),
        acknowledged,
      );
      if (databaseUrl) {
        const phases = await database.prisma.phase.findMany({ where: { status: 'processed' }, select: { gameId: true, index: true } });
        const expected = new Map(phases.map((phase) => [`${phase.gameId}/${phase.index}`, 1]));
        if (JSON.stringify([...observed].sort()) !== JSON.stringify([...expected].sort())) {
          const twice = [...observed].filter(([, count]) => count !== 1);
          throw new Error(
            `the observer saw ${observed.size} phases processed (${twice.length} more than once: ${JSON.stringify(twice)}); the database has ${expected.size}`,
          );
        }
      }
      // A claim killed before its commit leaves the phase to a later process (processed_at is its tick's time).
      const claimed = await database.prisma.phase.findMany({
        where: { id: { in: claimsKilled.map((claim) => claim.phaseId) } },
        select: { id: true, processedAt: true },
      });
      interruptedProcessings = claimsKilled.filter((claim) => {
        const processedAt = claimed.find((phase) => phase.id === claim.phaseId)?.processedAt;
        return processedAt && processedAt > claim.at;
      }).length;
    } finally {
      await database.close();
    }
    if (notResumed.length > 0) throw new Error(`due phases not processed after the last restart: ${notResumed.join(', ')}`);
    return {
      ...verified,
      kills: options.kills,
      killsInProcessing,
      interruptedProcessings,
      observedProcessed: databaseUrl ? observed.size : null,
      resumedByItself: due.length,
      failedRequests: load.statuses.get('network') ?? 0,
      lateKills,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  }
}

export type { Game, User };
