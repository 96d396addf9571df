/**
 * The archive: importing a game checks every phase against the engine; an
 * imported position is played on to a victory by the game master; finished
 * games (private ones too) are public, games going on are not.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { adjudicate, getVariant, type Order } from '../../shared/index.ts';
import type { ExportedGame } from '../../shared/api/archive.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { startGame } from './helpers/play.ts';
import { expectReproducible } from './helpers/reproduce.ts';
import { exportOf, normalise, randomPlayed } from './helpers/random-export.ts';

vi.setConfig({ testTimeout: 120_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const standard = getVariant('standard')!;
// The engine's random game with this seed ends in a victory after 106 phases (tests/support/random-game.ts).
const played = randomPlayed('standard', 19, 1000);
const exportOfRandomGame = () => exportOf('standard', played, 'Random standard game');

describe('import', () => {
  test('an imported position is played on by the game master to a victory', async () => {
    expect(played.length).toBe(106);
    const master = await new Browser(app).register();
    const imported = await master.request('POST', '/api/games/import', { export: exportOfRandomGame() });
    expect(imported.statusCode, imported.body.slice(0, 400)).toBe(201);
    const game = imported.json();
    expect(game).toMatchObject({ status: 'active', imported: true, gameMaster: master.user, currentPhase: { index: 105 } });
    // Seats are vacant until handed over; the original names are in the import's log entry.
    expect(game.players.every((seat: { user: unknown }) => seat.user === null)).toBe(true);
    const log = (await master.request('GET', `/api/games/${game.id}/gm/log`)).json().actions;
    expect(log.at(-1)).toMatchObject({ action: 'import', actor: master.user, details: { phases: 106, users: { gameMaster: 'someone-elsewhere' } } });
    expect(await expectReproducible(app, game.id)).toBe(105);

    // The last phase's orders, entered by the game master for each power.
    const last = played.at(-1)!;
    const byPower = new Map<string, Order[]>();
    for (const o of last.orders) byPower.set(o.power, [...(byPower.get(o.power) ?? []), normalise(o.order)]);
    for (const [power, orders] of byPower) {
      const entered = await master.request('PUT', `/api/games/${game.id}/gm/phases/105/orders/${power}`, { orders });
      expect(entered.statusCode, entered.body).toBe(200);
    }
    const processed = await master.request('POST', `/api/games/${game.id}/gm/process`);
    expect(processed.statusCode, processed.body).toBe(200);
    const expected = adjudicate(standard, last.state, last.orders);
    if (!expected.ok) throw new Error('unreachable');
    const winners = expected.value.next.winners!;
    expect(winners.length).toBeGreaterThan(0);
    const finished = (await new Browser(app).request('GET', `/api/games/${game.id}`)).json();
    expect(finished).toMatchObject({ status: 'finished', outcome: { kind: 'victory', powers: winners } });
    expect((await master.request('GET', `/api/games/${game.id}/phases/105`)).json().events).toContainEqual({ kind: 'victory', powers: winners });
    expect(await expectReproducible(app, game.id)).toBe(106);

    // The finished game exports and imports again: 106 processed phases, the last one won.
    const again = (await new Browser(app).request('GET', `/api/games/${game.id}/export`)).json();
    expect(again.phases).toHaveLength(106);
    const copy = await master.request('POST', '/api/games/import', { export: again });
    expect(copy.statusCode, copy.body.slice(0, 400)).toBe(201);
    expect(copy.json()).toMatchObject({ status: 'finished', outcome: { kind: 'victory', powers: winners } });
  });

  test('refuses an export that does not reproduce, naming the problem', async () => {
    const importer = await new Browser(app).register();
    const tamper = (change: (data: ExportedGame) => void) => {
      const data = structuredClone(exportOfRandomGame());
      change(data);
      return importer.request('POST', '/api/games/import', { export: data });
    };
    const cases: [string, (data: ExportedGame) => void, string][] = [
      ['a result', (data) => void (data.phases[3].results![0].reason = 'Because I said so.'), 'phases[3] (Spring 1902 Movement).results[0]'],
      ['a state after', (data) => void data.phases[10].stateAfter!.units.pop(), 'phases[10]'],
      ['the chain of positions', (data) => void data.phases[20].stateBefore.units.pop(), 'phases[20]'],
      ['a phase name', (data) => void (data.phases[2].name = 'Summer 1901'), 'the engine calls this phase'],
      ['the powers', (data) => void data.players.pop(), 'players: must give each power'],
      ['an order left out', (data) => void data.phases[5].orders!.pop(), 'phases[5]'],
      ['the outcome', (data) => void (data.game.outcome = { kind: 'draw', powers: ['France'] }), 'game.outcome'],
    ];
    for (const [what, change, message] of cases) {
      const response = await tamper(change);
      expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBe(422);
      expect(response.json().error.code).toBe('import_invalid');
      expect(response.json().error.message, what).toContain(message);
    }
    const malformed = await importer.request('POST', '/api/games/import', { export: { format: 'something else' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('validation_failed');
    expect((await new Browser(app).request('POST', '/api/games/import', { export: exportOfRandomGame() })).statusCode).toBe(401);
  });
});

describe('the archive', () => {
  test('a private game is hidden while it goes on and public once it has ended', async () => {
    const { gameId, master, byPower, powers } = await startGame(app, { private: true });
    await byPower.get(powers[0])!.request('POST', `/api/games/${gameId}/press`, { to: [powers[1]], body: 'private words' });
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    const stranger = await new Browser(app).register();
    for (const path of ['', '/phases', '/phases/0', '/press', '/export', '/export/datc', '/gm/log', '/votes', '/loans']) {
      expect((await stranger.request('GET', `/api/games/${gameId}${path}`)).statusCode, path).toBe(404);
    }
    for (const power of powers) await byPower.get(power)!.request('POST', `/api/games/${gameId}/votes`, { kind: 'draw' });
    for (const path of ['', '/phases', '/phases/0', '/press', '/export', '/export/datc', '/gm/log', '/votes', '/loans']) {
      expect((await stranger.request('GET', `/api/games/${gameId}${path}`)).statusCode, path).toBe(200);
    }
    expect((await stranger.request('GET', `/api/games/${gameId}/press`)).json().messages[0].body).toBe('private words');
    expect((await stranger.request('GET', `/api/games/${gameId}`)).json().inviteCode).toBeNull();
  });
});
