/**
 * A campaign game's held phase across SIGKILLs of the real server process (server/main.ts, as `npm start` runs it):
 * Rome's and Macedonia's fleets met in the Ionian Sea and phase 0 waits for the sea's battle.
 *
 * - Fought by the players: the battle is opened and partly fought on a server process, which is killed with a
 *   player's action in flight (the test holds the battle channel's event counter, bumped last before COMMIT); the
 *   next process finds the phase held, the sea `fighting` and the battle as it was (no half-written action); the
 *   fight goes on there, and that process is killed in turn with the battle's last action in flight (the test holds
 *   the game's row, which the battle's end needs to decide the sea): the finished battle rolls back with it. A third
 *   server takes the same last action again, the battle ends, its result decides the sea and the phase is processed
 *   once, with the winner's fleet in the sea.
 * - Auto-resolved: killed after the battle of two computer seats is opened and committed, while the computer's fight
 *   is being stored (the test holds phase 0's row, which the sea's decision updates): the battle stays open and
 *   unplayed until AUTO_RESOLVE_GRACE_MS has passed, then the battles' deadline loop plays it out and it decides the
 *   sea; no second battle is opened for it.
 *
 * Each kill is aimed without timing: the test waits until the server's backend is blocked on the held lock.
 * PostgreSQL only: the test and the processes share the database and its locks.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { RULESETS } from '../../shared/naval/index.ts';
import { BattleRecordSchema, verify } from '../../shared/naval/record.ts';
import { mulberry32 } from '../../shared/random.ts';
import { buildApp } from '../../server/app.ts';
import { ComputerPool } from '../../server/battles/computer-pool.ts';
import { BattleDeadlines } from '../../server/battles/deadlines.ts';
import { AUTO_RESOLVE_GRACE_MS } from '../../server/battles/from-sea.ts';
import { SeaDeadlines } from '../../server/battles/sea-deadlines.ts';
import { pause } from './faults-support/load.ts';
import { freePort } from './faults-support/postgres-cluster.ts';
import { type ServerProcess, startServer } from './faults-support/server-process.ts';
import { until } from './faults-support/until.ts';
import { type Browser, testSettings } from './helpers/app.ts';
import { createTestDatabase, type TestDatabase, usingPostgres } from './helpers/database.ts';
import { CAMPAIGN, type StartedGame, startGame } from './helpers/play.ts';

const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
}, 60_000);

type Answer = { statusCode: number; body: string; json(): any };
/** A player as seen by one server: in this process (inject) or a server process over HTTP, with the same session. */
type Client = { request(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<Answer> };

function overHttp(browser: Browser, server: ServerProcess): Client {
  return {
    async request(method, url, body) {
      const headers: Record<string, string> = { cookie: browser.cookie! };
      if (method !== 'GET') headers['x-csrf-token'] = browser.csrfToken!;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(server.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      return { statusCode: response.status, body: text, json: () => JSON.parse(text) };
    },
  };
}

const unitsAt = (state: { units: { power: string; type: string; at: string }[] }, at: string) =>
  state.units.filter((unit) => unit.at === at).map((unit) => `${unit.power} ${unit.type === 'fleet' ? 'F' : 'A'} ${unit.at}`);
const powerOfSide = (side: string | null) => (side === null ? null : side === 'rome' ? 'Rome' : side === 'macedonia' ? 'Macedonia' : side);

test.skipIf(!usingPostgres)(
  'a held campaign phase survives server kills with a battle action in flight and in the middle of an auto-resolve; each sea is decided by its battle and the phase processed once',
  { timeout: 300_000 },
  async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanup.push(() => database.drop());
    // This instance (its loops off) signs the players up and starts the games, and is the last server of each case.
    const app: FastifyInstance = await buildApp({ database: database.options, settings: testSettings });
    await app.ready();
    cleanup.push(() => app.close());

    const sql = new pg.Client({ connectionString: database.url! });
    await sql.connect();
    cleanup.push(() => sql.end());

    const port = await freePort();
    // The loops off: nothing but the requests of the test takes the locks it aims at.
    const start = () => startServer({ port, databaseUrl: database.url!, env: { SCHEDULER_ENABLED: 'false', LOG_SYNC: 'true', AUTH_RATE_LIMIT_MAX: '100000' } });
    const servers: ServerProcess[] = [];
    cleanup.push(async () => {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill('SIGKILL');
    });
    const startOne = async () => {
      const server = await start();
      servers.push(server);
      return server;
    };

    /** A lock the test holds in its own transaction, and the server backend that comes to wait for it. */
    const hold = async (statement: string, values: unknown[]) => {
      const holder = new pg.Client({ connectionString: database.url! });
      await holder.connect();
      const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await holder.query('BEGIN');
      const held = await holder.query(statement, values);
      expect(held.rowCount, statement).toBe(1);
      return {
        blocked: async () =>
          (await sql.query<{ pid: number; query: string }>('SELECT pid, query FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])).rows[0],
        /** Let go, and wait until the killed server's backend (which then finds its client gone) has rolled back and ended. */
        release: async (backend: number) => {
          await holder.query('ROLLBACK');
          await holder.end();
          await until(
            'the killed server’s backend to end',
            async () => (await sql.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [backend])).rowCount === 0,
            { everyMs: 20 },
          );
        },
      };
    };

    /** Sends the request; its answer, or the backend it left waiting on the held lock. */
    const inFlight = async (send: Promise<Answer>, blocked: () => Promise<{ pid: number; query: string } | undefined>) => {
      // Filled in when the server answers (a killed server's request fails, and is no longer awaited).
      const settled: { answer?: Answer; error?: unknown } = {};
      void send.then(
        (response) => (settled.answer = response),
        (error: unknown) => (settled.error = error),
      );
      for (;;) {
        if (settled.error !== undefined) throw settled.error;
        if (settled.answer) return { answer: settled.answer };
        const backend = await blocked();
        if (backend) return { backend };
        await pause(20);
      }
    };

    const kill = async (server: ServerProcess) => {
      expect(await server.kill('SIGKILL')).toBe('SIGKILL');
      await server.drained;
    };

    /** The battle as stored: its row, and its actions numbered 1, 2, … with none missing or doubled. */
    const battleRow = async (id: string) => {
      const row = (
        await sql.query<{ status: string; action_count: number; next_roll: number; state: unknown; deadline_at: Date | null }>(
          'SELECT status, action_count, next_roll, state, deadline_at FROM battles WHERE id = $1',
          [id],
        )
      ).rows[0];
      const actions = (await sql.query<{ index: number }>('SELECT index FROM battle_actions WHERE battle_id = $1 ORDER BY index', [id])).rows;
      expect(actions.map((action) => action.index)).toEqual(actions.map((_, i) => i + 1));
      expect(actions.length).toBe(row.action_count);
      return row;
    };

    /** What players see of the game on a server: the phase still held, its one sea fought by `battleId`. */
    const stillHeld = async (master: Client, game: StartedGame, battleId: string) => {
      const phase = (await master.request('GET', `/api/games/${game.gameId}/phases/0`)).json();
      expect(phase.status).toBe('held');
      const seas = (await master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas;
      expect(seas).toHaveLength(1);
      expect(seas[0]).toMatchObject({ sea: 'ION', status: 'fighting', battleId, outcome: null });
      expect(await sql.query('SELECT 1 FROM phases WHERE game_id = $1', [game.gameId]).then((r) => r.rowCount)).toBe(1);
    };

    /** The battle's page and its log (every page of it) agree on the actions taken, through a server. */
    const logAgrees = async (client: Client, battleId: string) => {
      const detail = (await client.request('GET', `/api/battles/${battleId}`)).json();
      const entries: { index: number }[] = [];
      for (let after: number | null = 0; after !== null; ) {
        const page = (await client.request('GET', `/api/battles/${battleId}/log?after=${after}&limit=500`)).json();
        expect(page.actionCount).toBe(detail.actionCount);
        entries.push(...page.entries);
        after = page.next;
      }
      // The start (0), then each action.
      expect(entries.map((entry) => entry.index)).toEqual(Array.from({ length: detail.actionCount + 1 }, (_, i) => i));
      return detail as { status: string; actionCount: number; outcome: { winner: string | null } | null; seats: { role: string; player: string }[] };
    };

    /** After the sea's decision the phase was processed once: the winner's fleet in the sea (nobody's on a standoff), one next phase. */
    const processedOnce = async (master: Client, game: StartedGame, winner: string | null, decidedBy: string, battleId: string) => {
      const sea = (await master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas[0];
      expect(sea).toMatchObject({ status: 'decided', decidedBy, battleId, outcome: winner === null ? { standoff: true } : { winner } });
      const phase = (await master.request('GET', `/api/games/${game.gameId}/phases/0`)).json();
      expect(phase.status).toBe('processed');
      expect(unitsAt(phase.stateAfter, 'ION')).toEqual(winner === null ? [] : [`${winner} F ION`]);
      if (winner !== null) expect(unitsAt(phase.stateAfter, winner === 'Rome' ? 'Nea' : 'Kor')).toEqual([]);
      const phases = await sql.query<{ index: number; status: string }>('SELECT index, status FROM phases WHERE game_id = $1 ORDER BY index', [game.gameId]);
      expect(phases.rows.map((row) => row.index)).toEqual([0, 1]);
      expect(phases.rows[1].status).not.toBe('processed');
      // The battle's record verifies, by the shared verifier and by the route.
      const exported = await master.request('GET', `/api/battles/${battleId}/export`);
      expect(exported.statusCode, exported.body).toBe(200);
      const record = BattleRecordSchema.parse(exported.json());
      expect(verify(RULESETS[record.ruleset], record)).toMatchObject({ ok: true, problems: [] });
    };

    /** Phase 0 held for the Ionian Sea, the orders handed in to `server`. */
    const ionianHeld = async (on: (browser: Browser) => Client): Promise<StartedGame> => {
      const game = await startGame(app, CAMPAIGN);
      const orders: Record<string, string> = { Rome: 'F Nea - ION', Macedonia: 'F Kor - ION' };
      for (const power of game.powers) {
        const player = on(game.byPower.get(power)!);
        const response = orders[power]
          ? await player.request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders: orders[power], ready: true })
          : await player.request('POST', `/api/games/${game.gameId}/phases/0/ready`, { ready: true });
        expect(response.statusCode, response.body).toBe(200);
      }
      const held = (await on(game.master).request('GET', `/api/games/${game.gameId}/phases/0`)).json();
      expect(held.status).toBe('held');
      return game;
    };

    // ────────────── a sea fought by the players ──────────────
    {
      let server = await startOne();
      const on = (browser: Browser) => overHttp(browser, server);
      const game = await ionianHeld(on);
      const [rome, macedonia] = [game.byPower.get('Rome')!, game.byPower.get('Macedonia')!];
      const opened = await on(game.master).request('POST', `/api/games/${game.gameId}/phases/0/seas/ION/battle`, {});
      expect(opened.statusCode, opened.body).toBe(200);
      const battleId = opened.json().battleId as string;

      // Each player plays its own side with the computer opponent's choice on what its seat sees.
      const random = mulberry32(20261127);
      const ruleset = RULESETS.classis;
      /** Whose turn it is and what they send, as the server they use shows it; null once the battle is over. */
      const nextMove = async (client: (browser: Browser) => Client) => {
        for (const player of [rome, macedonia]) {
          const mine = (await client(player).request('GET', `/api/battles/${battleId}`)).json();
          if (mine.status !== 'active') return null;
          if (!mine.yourTurn) continue;
          return { player, body: { action: ruleset.opponent(mine.state as never, mine.you.side, random), expected: mine.actionCount as number } };
        }
        throw new Error('nobody’s turn in an active battle');
      };
      const act = async (client: (browser: Browser) => Client, move: { player: Browser; body: unknown }) => {
        const response = await client(move.player).request('POST', `/api/battles/${battleId}/actions`, move.body);
        expect(response.statusCode, response.body).toBe(200);
      };
      for (let i = 0; i < 4; i++) await act(on, (await nextMove(on))!);

      // ── killed with an action in flight: written, waiting to publish its event before COMMIT ──
      const before = await battleRow(battleId);
      expect(before).toMatchObject({ status: 'active', action_count: 4 });
      const counter = await hold("SELECT seq FROM live_channels WHERE channel = 'battle:' || $1 FOR UPDATE", [battleId]);
      const pending = (await nextMove(on))!;
      const first = await inFlight(on(pending.player).request('POST', `/api/battles/${battleId}/actions`, pending.body), counter.blocked);
      expect(first.backend, 'the action waits for the event counter').toBeDefined();
      // pg_stat_activity may still show the statement before the one that waits: ask until it shows the waiting one.
      await until(
        'the action to wait on the event counter',
        async () =>
          (await sql.query<{ query: string }>('SELECT query FROM pg_stat_activity WHERE pid = $1', [first.backend!.pid])).rows[0]?.query.includes(
            'INSERT INTO live_channels',
          ) === true,
        { everyMs: 20 },
      );
      await kill(server);
      await counter.release(first.backend!.pid);
      const after = await battleRow(battleId);
      expect(after).toEqual(before);

      // ── the next server process: held, fighting, the battle as it was; the player sends the same action again ──
      server = await startOne();
      await stillHeld(on(game.master), game, battleId);
      expect((await logAgrees(on(rome), battleId)).actionCount).toBe(4);
      await act(on, pending);

      // ── fought on, and killed with the battle's last action in flight: finished, waiting to decide the sea ──
      const gameRow = await hold('SELECT id FROM games WHERE id = $1 FOR NO KEY UPDATE', [game.gameId]);
      let last: { move: { player: Browser; body: { expected: number } }; backend: { pid: number; query: string } } | null = null;
      for (let steps = 0; steps < 500 && !last; steps++) {
        const move = await nextMove(on);
        expect(move, 'the battle cannot end while its end cannot decide the sea').not.toBeNull();
        const sent = await inFlight(on(move!.player).request('POST', `/api/battles/${battleId}/actions`, move!.body), gameRow.blocked);
        if (sent.backend) last = { move: move!, backend: sent.backend };
        else expect(sent.answer!.statusCode, sent.answer!.body).toBe(200);
      }
      expect(last, 'the battle came to its last action').not.toBeNull();
      expect(last!.backend.query).toMatch(/FROM\s+"?games"?[\s\S]*FOR UPDATE/i);
      const beforeLast = await battleRow(battleId);
      expect(beforeLast).toMatchObject({ status: 'active', action_count: last!.move.body.expected });
      await kill(server);
      await gameRow.release(last!.backend.pid);
      expect(await battleRow(battleId)).toEqual(beforeLast);
      for (const s of servers) expect(s.logs.filter((line) => line.level >= 50)).toEqual([]);

      // ── another server (this one): still held; the same last action ends the battle and decides the sea ──
      const here = (browser: Browser): Client => browser;
      await stillHeld(game.master, game, battleId);
      expect((await logAgrees(rome, battleId)).actionCount).toBe(last!.move.body.expected);
      await act(here, last!.move);
      const finished = await logAgrees(macedonia, battleId);
      expect(finished.status).toBe('finished');
      await processedOnce(game.master, game, powerOfSide(finished.outcome!.winner), 'battle', battleId);
      console.info(`fought across two kills: ${finished.actionCount} actions, won by ${finished.outcome!.winner ?? 'nobody'}`);
    }

    // ────────────── a sea auto-resolved ──────────────
    {
      const game = await ionianHeld((browser) => browser);
      const server = await startOne();
      const battlesBefore = (await sql.query('SELECT id FROM battles')).rowCount;
      // ── killed after the battle was opened, while the computer's fight is stored: waiting to process the phase ──
      const phaseRow = await hold('SELECT id FROM phases WHERE game_id = $1 AND index = 0 FOR UPDATE', [game.gameId]);
      const sent = await inFlight(overHttp(game.master, server).request('POST', `/api/games/${game.gameId}/phases/0/seas/ION/auto-resolve`), phaseRow.blocked);
      expect(sent.backend, 'the fight waits to process the phase').toBeDefined();
      expect(sent.backend!.query).toMatch(/phases/);
      const openedAt = Date.now();
      await kill(server);
      expect(server.logs.some((line) => line.msg === 'a sea was auto-resolved')).toBe(false);
      await phaseRow.release(sent.backend!.pid);

      // The battle's opening was committed: two computer seats, not a move stored, due once the grace has passed.
      const linked = await sql.query<{ battle_id: string; status: string }>('SELECT battle_id, status FROM sea_battles WHERE game_id = $1', [game.gameId]);
      expect(linked.rows).toEqual([{ battle_id: expect.any(String), status: 'fighting' }]);
      const battleId = linked.rows[0].battle_id;
      const opened = await battleRow(battleId);
      expect(opened).toMatchObject({ status: 'active', action_count: 0 });
      expect(opened.deadline_at!.getTime()).toBeGreaterThan(openedAt + AUTO_RESOLVE_GRACE_MS - 60_000);
      await stillHeld(game.master, game, battleId);
      const seats = (await logAgrees(game.master, battleId)).seats.filter((seat) => seat.role === 'side');
      expect(seats.map((seat) => seat.player)).toEqual(['computer', 'computer']);

      // ── this server's loops: nothing before the grace has passed; then the battles' loop plays it out ──
      const computer = new ComputerPool();
      cleanup.push(() => computer.close());
      const env = { bus: app.bus, log: app.log, computer, play: app.play };
      const options = { enabled: false, intervalMs: 50, batch: 10 };
      const battleLoop = new BattleDeadlines(app.prisma, env, app.log, options);
      const seaLoop = new SeaDeadlines(app.prisma, env, app.log, options);
      expect(await battleLoop.processDue(new Date())).toBe(0);
      expect(await battleRow(battleId)).toEqual(opened);
      const later = new Date(opened.deadline_at!.getTime() + 1_000);
      // The sea is being fought: its own deadline (48 hours) opens no second battle.
      expect(await seaLoop.processDue(new Date(Date.now() + 49 * 3_600_000))).toBe(0);
      let ticks = 0;
      for (; ticks < 200 && (await battleRow(battleId)).status === 'active'; ticks++) expect(await battleLoop.processDue(later)).toBe(1);
      expect(battleLoop.stats.failed).toBe(0);
      const finished = await logAgrees(game.master, battleId);
      expect(finished.status).toBe('finished');
      expect((await sql.query('SELECT id FROM battles')).rowCount).toBe(battlesBefore! + 1);
      await processedOnce(game.master, game, powerOfSide(finished.outcome!.winner), 'computer', battleId);
      console.info(`auto-resolve after a kill: ${finished.actionCount} actions in ${ticks} ticks of the deadline loop`);
    }
  },
);
