/**
 * JSON read back from the database is parsed with its schema (server/db/tables/): a value this server never writes
 * — a corrupt database — is answered 500 `stored_data_invalid`, naming the table, the column and the row, and is
 * never shown or counted as if it were right.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let game: StartedGame;
let phaseId: string;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  game = await startGame(app);
  const player = game.byPower.get(game.powers[0])!;
  const response = await player.request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders: '' });
  expect(response.statusCode, response.body).toBe(200);
  phaseId = (await app.prisma.phase.findFirstOrThrow({ where: { gameId: game.gameId, index: 0 } })).id;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

/** Stores `value` in a column by hand (as a broken migration or a hand edit would), runs `check`, and puts the column back. */
async function corrupted(table: string, column: string, rowId: string, value: unknown, check: () => Promise<void>) {
  const [{ before }] = await app.prisma.$queryRawUnsafe<{ before: string | null }[]>(
    `SELECT ${column}::text AS before FROM ${table} WHERE id = $1::uuid`,
    rowId,
  );
  await app.prisma.$executeRawUnsafe(`UPDATE ${table} SET ${column} = $1::jsonb WHERE id = $2::uuid`, JSON.stringify(value), rowId);
  try {
    await check();
  } finally {
    await app.prisma.$executeRawUnsafe(`UPDATE ${table} SET ${column} = $1::jsonb WHERE id = $2::uuid`, before, rowId);
  }
}

function expectNamed(response: { statusCode: number; body: string; json(): any }, table: string, column: string, rowId: string) {
  expect(response.statusCode, response.body).toBe(500);
  expect(response.json().error.code).toBe('stored_data_invalid');
  expect(response.json().error.message).toContain(`${table}.${column} of row ${rowId}`);
}

describe('a stored value its schema refuses', () => {
  test('a position: the phase is not shown', async () => {
    await corrupted('phases', 'state_before', phaseId, { variant: 'diadochi-v', units: 'none' }, async () => {
      expectNamed(await game.master.request('GET', `/api/games/${game.gameId}/phases/current`), 'phases', 'state_before', phaseId);
    });
    expect((await game.master.request('GET', `/api/games/${game.gameId}/phases/current`)).statusCode).toBe(200);
  });

  test("a submission's orders: the player is not shown them", async () => {
    const player = game.byPower.get(game.powers[0])!;
    const submission = await app.prisma.orderSubmission.findFirstOrThrow({ where: { phaseId, power: game.powers[0] } });
    await corrupted('order_submissions', 'orders', submission.id, [{ input: 'A Gad H' }], async () => {
      expectNamed(await player.request('GET', `/api/games/${game.gameId}/phases/0/orders`), 'order_submissions', 'orders', submission.id);
    });
  });

  test("a game's outcome: the game is not listed with it", async () => {
    await corrupted('games', 'outcome', game.gameId, { kind: 'surrender' }, async () => {
      expectNamed(await game.master.request('GET', `/api/games/${game.gameId}`), 'games', 'outcome', game.gameId);
    });
  });

  test("a processed phase's deadlines kept: a player's page does not count them wrong", async () => {
    const processed = await game.master.request('POST', `/api/games/${game.gameId}/gm/process`);
    expect(processed.statusCode, processed.body).toBe(200);
    const username = game.byPower.get(game.powers[0])!.user!.username;
    const before = (await game.master.request('GET', `/api/users/${username}`)).json().reliability;
    // A string where a list belongs: read unchecked, `due.includes(power)` would still answer (a substring match).
    await corrupted('phases', 'attendance', phaseId, { due: game.powers.join(','), missed: game.powers.join(',') }, async () => {
      expectNamed(await game.master.request('GET', `/api/users/${username}`), 'phases', 'attendance', phaseId);
    });
    expect((await game.master.request('GET', `/api/users/${username}`)).json().reliability).toEqual(before);
  });

  test("a log entry's details: the log is not shown", async () => {
    const entry = await app.prisma.gameMasterAction.findFirstOrThrow({ where: { gameId: game.gameId } });
    await corrupted('game_master_actions', 'details', entry.id, ['not', 'an', 'object'], async () => {
      expectNamed(await game.master.request('GET', `/api/games/${game.gameId}/gm/log`), 'game_master_actions', 'details', entry.id);
    });
  });
});
