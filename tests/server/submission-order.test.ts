/**
 * The submission acknowledged last is the one that counts. A batch of
 * submissions locks its games in id order; one that waits for another game's
 * lock began its transaction before a submission that another instance stored
 * meanwhile, yet is acknowledged after it. "Latest" must follow the order of
 * acknowledgement (commit order, `seq` taken under the game's lock), not the
 * time the storing transaction began. PostgreSQL only: it takes two instances
 * and a lock held from outside.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { Browser, startSiblingApp, startTestApp, type TestApp } from './helpers/app.ts';
import { usingPostgres } from './helpers/database.ts';
import { currentPhase, startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

describe.skipIf(!usingPostgres)('order of acknowledgement', () => {
  let testApp: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    testApp = await startTestApp();
    a = testApp.app;
    b = await startSiblingApp(a);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await testApp?.close();
  }, 60_000);

  test('a submission whose batch waited on another game counts over one acknowledged before it', async () => {
    // Games are locked in id order: `other` (created first, so its id sorts first) is locked before `game`.
    const other: StartedGame = await startGame(a);
    const game: StartedGame = await startGame(a);
    expect(other.gameId < game.gameId).toBe(true);
    const [power] = game.powers;
    const player = game.byPower.get(power)!;
    const phase = await currentPhase(player, game.gameId);
    const units = phase.state.units.filter((unit) => unit.power === power);
    const holdAll = units.map((unit) => `${unit.type} ${unit.at} H`).join('\n');
    const otherPower = other.powers[0];
    const otherPlayer = other.byPower.get(otherPower)!;
    const userOf = async (browser: Browser) =>
      a.prisma.user.findUniqueOrThrow({ where: { id: browser.user!.id }, select: { id: true, username: true, createdAt: true, isAdmin: true } });

    // Someone holds the other game's lock (as processing that game would).
    const holder = new pg.Client({ connectionString: testApp.database.url! });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM games WHERE id = $1 FOR UPDATE', [other.gameId]);

      // S1: one batch on instance A with a submission for each game; it begins, then waits for the other game's lock.
      // (Submitted in one turn of the event loop, so they go in one batch.)
      const users = [await userOf(otherPlayer), await userOf(player)];
      const s1 = Promise.all([
        a.submissions.submit({ user: users[0], gameId: other.gameId, phaseIndex: 0, body: { orders: '', ready: false } }),
        a.submissions.submit({ user: users[1], gameId: game.gameId, phaseIndex: phase.index, body: { orders: '', ready: false } }),
      ]);
      await vi.waitFor(
        async () => {
          // (Asked outside the holder's transaction, which would see the statistics as they were when it began.)
          const waiting = await a.database.sql(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          expect(waiting[0].n).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 20 },
      );

      // S2: the same power's other orders (every unit told to hold), stored and acknowledged by instance B meanwhile.
      const onB = new Browser(b);
      expect((await onB.login(player.user!.username)).statusCode).toBe(200);
      const sent2 = await onB.request('PUT', `/api/games/${game.gameId}/phases/${phase.index}/orders`, { orders: holdAll, ready: false });
      expect(sent2.statusCode, sent2.body).toBe(200);
      let s1Done = false;
      void s1.then(() => (s1Done = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(s1Done).toBe(false);

      await holder.query('COMMIT');
      const [, first] = await s1;
      // The situation the outside test found: S1's transaction began before S2 was stored, but S1 was acknowledged after it.
      const rows = await a.prisma.orderSubmission.findMany({
        where: { id: { in: [first.submission.id, sent2.json().submission.id] } },
        select: { id: true, createdAt: true },
      });
      const began = new Map(rows.map((row) => [row.id, row.createdAt.getTime()]));
      expect(began.get(first.submission.id)!).toBeLessThanOrEqual(began.get(sent2.json().submission.id)!);

      // What counts is S1 (no orders), the last acknowledged: the player's current orders, and what is adjudicated.
      const mine = (await player.request('GET', `/api/games/${game.gameId}/phases/${phase.index}/orders`)).json();
      expect(mine.current.id).toBe(first.submission.id);
      expect(mine.history.map((entry: { id: string }) => entry.id)).toEqual([first.submission.id, sent2.json().submission.id]);
      expect((await game.master.request('POST', `/api/games/${game.gameId}/gm/process`)).statusCode).toBe(200);
      const processed = (await player.request('GET', `/api/games/${game.gameId}/phases/${phase.index}`)).json();
      const adjudicated = processed.orders.filter((order: { power: string }) => order.power === power);
      expect(units.length).toBeGreaterThan(0);
      expect(adjudicated).toEqual([]);

      // The export lists them in that order too, the one that counts last, as an import stores them again.
      const exported = await game.master.request('GET', `/api/games/${game.gameId}/export`);
      expect(exported.statusCode).toBe(200);
      const submitted = exported.json().phases[phase.index].submissions.filter((entry: { power: string }) => entry.power === power);
      expect(submitted.map((entry: { text: string }) => entry.text)).toEqual([holdAll, '']);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  });
});
