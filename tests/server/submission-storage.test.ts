/**
 * How submitted orders are stored (db/tables/submissions.ts): an order's words as the player typed them are kept
 * only where they differ from the engine's canonical text, and every order reads back as it was given, whether
 * stored so or, as before, with its typed words repeated.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

type Accepted = { input: string; text: string; unit?: string };

describe('stored orders', () => {
  let started: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = started = await startTestApp());
  }, 60_000);
  afterAll(() => started?.close(), 60_000);

  /** A game, a power with at least two units, and its orders: the first typed loosely, the others as the engine writes them. */
  async function submitted() {
    const game = await startGame(app);
    const phase = await currentPhase(game.byPower.get(game.powers[0])!, game.gameId);
    const power = game.powers.find((each) => phase.state.units.filter((unit) => unit.power === each).length >= 2)!;
    const player = game.byPower.get(power)!;
    const units = phase.state.units.filter((unit) => unit.power === power);
    const canonical = (unit: (typeof units)[number]) => `${unit.type === 'army' ? 'A' : 'F'} ${unit.at} H`;
    const typed = [`${units[0].type}   ${units[0].at.toLowerCase()} hold`, ...units.slice(1).map(canonical)];
    const put = await player.request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders: typed.join('\n'), ready: false });
    expect(put.statusCode, put.body).toBe(200);
    const answered = put.json().submission as { id: string; orders: Accepted[] };
    return { game, player, typed, canonical: units.map(canonical), answered };
  }

  test('a player reads back each order as typed, while the words typed are stored once', async () => {
    const { game, player, typed, canonical, answered } = await submitted();
    expect(answered.orders.map((order) => [order.input, order.text])).toEqual(typed.map((input, i) => [input, canonical[i]]));

    const mine = await player.request('GET', `/api/games/${game.gameId}/phases/0/orders`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().current.orders).toEqual(answered.orders);

    // In the database: the loosely typed order keeps its words; the canonical ones are their text alone.
    const [row] = await app.prisma.$queryRaw<{ orders: string }[]>`SELECT orders::text AS orders FROM order_submissions WHERE id = ${answered.id}::uuid`;
    const stored = JSON.parse(row.orders) as Array<Partial<Accepted>>;
    expect(stored.map((order) => order.input)).toEqual([typed[0], ...canonical.slice(1).map(() => undefined)]);
    expect(stored.map((order) => order.text)).toEqual(canonical);
  });

  test('orders stored with their typed words repeated, as before, read back the same', async () => {
    const { game, player, answered } = await submitted();
    await app.prisma.$executeRaw`
      UPDATE order_submissions SET orders = ${JSON.stringify(answered.orders)}::json WHERE id = ${answered.id}::uuid`;
    const mine = await player.request('GET', `/api/games/${game.gameId}/phases/0/orders`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().current.orders).toEqual(answered.orders);
  });
});
