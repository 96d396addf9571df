/**
 * What the database itself guarantees of stored submissions: each names its
 * phase's own game (one key over both, prisma/schema.prisma OrderSubmission),
 * and a deleted game takes its submissions with it (through its phases).
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { holdAll, startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

describe("stored submissions and their phase's game", () => {
  // One server for both tests; each starts games of its own.
  let started: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = started = await startTestApp());
  }, 60_000);
  afterAll(() => started?.close(), 60_000);

  test("a submission naming another game than its phase's is refused, and nothing is stored", async () => {
    const [game, other] = [await startGame(app), await startGame(app)];
    const phase = await app.prisma.phase.findFirstOrThrow({ where: { gameId: game.gameId, index: 0 } });
    const count = () => app.prisma.orderSubmission.count({ where: { phaseId: phase.id } });
    const insert = (gameId: string) =>
      app.prisma.$executeRaw`
        INSERT INTO order_submissions (id, game_id, phase_id, power, text, orders)
        VALUES (gen_random_uuid(), ${gameId}::uuid, ${phase.id}::uuid, ${game.powers[0]}, '', '[]'::jsonb)`;
    await expect(insert(other.gameId)).rejects.toThrow(/order_submissions_phase_id_game_id_fkey/);
    expect(await count()).toBe(0);
    // The same row with its own game is stored.
    await insert(game.gameId);
    expect(await count()).toBe(1);
  });

  test("deleting a game deletes its submissions, and leaves another game's", async () => {
    const [game, other] = [await startGame(app), await startGame(app)];
    for (const each of [game, other]) {
      const power = each.powers[0];
      const player = each.byPower.get(power)!;
      const stored = await player.request('PUT', `/api/games/${each.gameId}/phases/0/orders`, {
        orders: await holdAll(player, each.gameId, power),
        ready: false,
      });
      expect(stored.statusCode, stored.body).toBe(200);
    }
    const submissionsOf = (gameId: string) => app.prisma.orderSubmission.count({ where: { gameId } });
    expect([await submissionsOf(game.gameId), await submissionsOf(other.gameId)]).toEqual([1, 1]);
    await app.prisma.game.delete({ where: { id: game.gameId } });
    expect([await submissionsOf(game.gameId), await submissionsOf(other.gameId)]).toEqual([0, 1]);
  });
});
