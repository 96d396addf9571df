/**
 * The real server process (server/main.ts, as `npm start` runs it) SIGKILLed while its deadline loop is expiring
 * battles: the computer has moved for the late side inside the expiry's transaction when the process dies. Each kill
 * is aimed without timing: the test holds a row lock the expiry needs at a known step — the battle channel's event
 * counter (`live_channels`), which the expiry bumps last, just before COMMIT, with every action written; or the
 * unrevealed plot of the other side (`battle_actions`), which the expiry reveals right after writing the late side's
 * plot — waits until the server's backend is blocked on exactly that lock, and kills the process there. The killed
 * transaction rolls back (the battle is as it was, still due), the next server process expires it by itself, and
 * every deadline was acted on exactly once: one move of the computer for the late side, no duplicate or missing
 * action number, one live event; then the battle goes on. PostgreSQL only: the test and the process share the
 * database and its locks.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { pause } from './faults-support/load.ts';
import { freePort } from './faults-support/postgres-cluster.ts';
import { type ServerProcess, startServer } from './faults-support/server-process.ts';
import { until } from './faults-support/until.ts';
import { Browser, testSettings } from './helpers/app.ts';
import { openUnfinished } from './helpers/battles.ts';
import { createTestDatabase, type TestDatabase, usingPostgres } from './helpers/database.ts';

const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
}, 60_000);

type Hold = 'before its commit (the live event)' | 'after the late side’s move (revealing the turn’s plots)';

test.skipIf(!usingPostgres)(
  'a server killed while it expires battle deadlines leaves each battle as it was; the next one expires it, and every deadline is acted on exactly once',
  { timeout: 240_000 },
  async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanup.push(() => database.drop());
    // This instance (its loops off) creates the battles and plays the human side afterwards.
    const writer: FastifyInstance = await buildApp({ database: database.options, settings: testSettings });
    await writer.ready();
    cleanup.push(() => writer.close());
    const player = await new Browser(writer).register();

    /** A battle against the computer whose human side (Rhodes) never acts: its deadline will pass. */
    const create = async (ruleset: 'ship-to-ship' | 'classis') => {
      const open = async () => {
        const response = await player.request('POST', '/api/battles', {
          title: `Left to the clock (${ruleset})`,
          ruleset,
          scenario: ruleset === 'classis' ? 'training-duel' : 'duel',
          seats: [{ side: ruleset === 'classis' ? 'cilicia' : 'macedon', player: 'computer' }],
          join: 'rhodes',
          clock: { pace: 'correspondence', hoursPerTurn: 1 },
        });
        expect(response.statusCode, response.body).toBe(201);
        return response.json() as { id: string; status: string; actionCount: number; turn: { kind: string } };
      };
      const battle = await openUnfinished(open);
      // Rhodes owes the decision: a plot beside the computer's secret one, or the first activation.
      expect(battle.turn.kind).toBe(ruleset === 'classis' ? 'side' : 'simultaneous');
      return battle.id;
    };
    const battles: Array<{ id: string; ruleset: 'ship-to-ship' | 'classis'; hold: Hold }> = [
      { id: await create('ship-to-ship'), ruleset: 'ship-to-ship', hold: 'before its commit (the live event)' },
      { id: await create('ship-to-ship'), ruleset: 'ship-to-ship', hold: 'after the late side’s move (revealing the turn’s plots)' },
      { id: await create('classis'), ruleset: 'classis', hold: 'before its commit (the live event)' },
    ];

    // An observer of committed events: a NOTIFY of a transaction that rolled back is never delivered.
    const acted = new Map<string, number>();
    const observer = new pg.Client({ connectionString: database.url! });
    await observer.connect();
    cleanup.push(() => observer.end());
    observer.on('notification', (message) => {
      const { event } = JSON.parse(message.payload!) as { event: { type: string; battleId?: string; what?: string } };
      if (event.type === 'battle.changed' && event.battleId && (event.what === 'acted' || event.what === 'finished'))
        acted.set(event.battleId, (acted.get(event.battleId) ?? 0) + 1);
    });
    await observer.query('LISTEN diadochi_live');

    const sql = new pg.Client({ connectionString: database.url! });
    await sql.connect();
    cleanup.push(() => sql.end());
    const rowOf = async (id: string) =>
      (
        await sql.query<{ action_count: number; deadline_at: Date; state: unknown; next_roll: number }>(
          'SELECT action_count, deadline_at, state, next_roll FROM battles WHERE id = $1',
          [id],
        )
      ).rows[0];
    const actionsOf = async (id: string) =>
      (await sql.query<{ index: number; side: string; by: string }>('SELECT index, side, by FROM battle_actions WHERE battle_id = $1 ORDER BY index', [id]))
        .rows;

    const port = await freePort();
    const env = { SCHEDULER_INTERVAL_MS: '100', LOG_SYNC: 'true', AUTH_RATE_LIMIT_MAX: '100000' };
    const start = () => startServer({ port, databaseUrl: database.url!, env });
    const servers: ServerProcess[] = [];
    let server = await start();
    servers.push(server);
    cleanup.push(async () => {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill('SIGKILL');
    });

    for (const battle of battles) {
      const before = await rowOf(battle.id);
      const actionsBefore = await actionsOf(battle.id);
      // ── the lock the expiry will wait for, held by the test ──
      const holder = new pg.Client({ connectionString: database.url! });
      await holder.connect();
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await holder.query('BEGIN');
      if (battle.hold === 'before its commit (the live event)') {
        const held = await holder.query("SELECT seq FROM live_channels WHERE channel = 'battle:' || $1 FOR UPDATE", [battle.id]);
        expect(held.rowCount, 'the battle has a channel counter').toBe(1);
      } else {
        // The computer's plot for Macedon, handed in at the start and secret until Rhodes's plot resolves the turn.
        const held = await holder.query('SELECT index FROM battle_actions WHERE battle_id = $1 AND revealed = false FOR SHARE', [battle.id]);
        expect(held.rowCount, 'an unrevealed plot waits for the turn').toBe(1);
      }
      // ── the deadline passes; the running server claims the battle and gets as far as the held lock ──
      await sql.query("UPDATE battles SET deadline_at = now() - interval '1 second' WHERE id = $1", [battle.id]);
      const blocked = await until(`the server to block on the held lock (${battle.hold})`, async () => {
        const rows = await sql.query<{ pid: number; query: string }>('SELECT pid, query FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [
          holderPid,
        ]);
        return rows.rows[0];
      });
      // The publication comes after every action and the new deadline are written; the reveal right after Rhodes's
      // plot is (play.ts takeAction).
      if (battle.hold === 'before its commit (the live event)') expect(blocked.query).toContain('INSERT INTO live_channels');
      else expect(blocked.query).toMatch(/UPDATE\s+"?(public"?\."?)?battle_actions/i);
      expect(await server.kill('SIGKILL')).toBe('SIGKILL');
      await server.drained;
      expect(server.logs.some((line) => line.msg === 'battle deadline passed: the computer acted' && line.battleId === battle.id)).toBe(false);
      // Released: the killed process's backend finishes its statement, finds its client gone and rolls back.
      await holder.query('ROLLBACK');
      await holder.end();
      await until('the killed server’s backend to end', async () => {
        const rows = await sql.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [blocked.pid]);
        return rows.rowCount === 0;
      });

      // ── nothing of the killed expiry is left: the battle as it was, still due ──
      const after = await rowOf(battle.id);
      expect({ count: after.action_count, roll: after.next_roll, state: after.state, deadline: after.deadline_at <= new Date() }).toEqual({
        count: before.action_count,
        roll: before.next_roll,
        state: before.state,
        deadline: true,
      });
      expect(await actionsOf(battle.id)).toEqual(actionsBefore);
      expect(acted.get(battle.id) ?? 0).toBe(0);

      // ── the next server process expires it by itself, once ──
      server = await start();
      servers.push(server);
      await until('the restarted server to expire the battle', async () => (await rowOf(battle.id)).action_count > before.action_count);
      await server.waitForLog((line) => line.msg === 'battle deadline passed: the computer acted' && line.battleId === battle.id, 10_000);
      // At least one heard here (a loaded machine may deliver it seconds later); exactly one is asserted below, so a
      // second expiry shows there as the count it was, not as a time-out here.
      await until(`the live event of ${battle.ruleset} battle ${battle.id}`, async () => (acted.get(battle.id) ?? 0) >= 1, { timeoutMs: 30_000 });
    }

    // Long enough for a second expiry of any of them to show, had one been due.
    await pause(1_000);
    for (const battle of battles) {
      const actions = await actionsOf(battle.id);
      // No duplicate and no gap: 1, 2, …, action_count.
      expect(actions.map((action) => action.index)).toEqual(actions.map((_, i) => i + 1));
      expect(actions.length).toBe((await rowOf(battle.id)).action_count);
      // The computer acted for Rhodes in one run of moves (one, a plot, in the ship-to-ship duels; the rest of an
      // activation in Classis), and no other time.
      const late = actions.filter((action) => action.by === 'deadline');
      expect(late.length, battle.id).toBeGreaterThanOrEqual(1);
      if (battle.ruleset === 'ship-to-ship') expect(late).toHaveLength(1);
      expect(late.every((action) => action.side === 'rhodes')).toBe(true);
      expect(late.map((action) => action.index)).toEqual(late.map((_, i) => late[0].index + i));
      // One committed expiry each, heard once; logged once across every process, the killed ones included.
      expect(acted.get(battle.id), `live events of ${battle.ruleset} battle ${battle.id}`).toBe(1);
      const logged = servers.flatMap((s) => s.logs).filter((line) => line.msg === 'battle deadline passed: the computer acted' && line.battleId === battle.id);
      expect(logged).toHaveLength(1);
    }

    // ── the battles go on: a new hour for Rhodes, who can act again ──
    for (const battle of battles) {
      const detail = (await player.request('GET', `/api/battles/${battle.id}?legalActions=true`)).json();
      if (detail.status === 'finished') continue;
      expect(new Date(detail.deadlineAt).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
      expect(detail.you.side).toBe('rhodes');
      expect(detail.yourTurn).toBe(true);
      const response = await player.request('POST', `/api/battles/${battle.id}/actions`, {
        action: detail.legalActions[0].action,
        expected: detail.actionCount,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().actionCount).toBeGreaterThan(detail.actionCount);
    }

    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  },
);
