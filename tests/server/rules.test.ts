/**
 * A game's rule set (RULEBOOKS in shared/variant/options.ts): chosen at
 * creation, shown with the game, recorded in its export, and used wherever
 * the game is adjudicated — when an export is checked on import and when a
 * phase is processed.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { adjudicate, getVariant, RULEBOOKS } from '../../shared/index.ts';
import { runDatcText } from '../../shared/datc/suite.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { exportOf, normalise, randomPlayed } from './helpers/random-export.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const datc = getVariant('diadochi-v')!;
const classic = getVariant('diadochi-v', RULEBOOKS['1971'])!;
// The engine's random Diadochi V game with this seed, played under the 1971 rulebook: its second phase
// (Fall 240 BC) comes out differently under the DATC's answers (found by trying seeds).
const played = randomPlayed('diadochi-v', 5, 3, '1971');
const differing = played[1];
const differingOrders = differing.orders.map((o) => ({ power: o.power, order: normalise(o.order) }));

describe('rules', () => {
  test('a game is created under the rules chosen (the DATC answers unless asked), and says so', async () => {
    const creator = await new Browser(app).register();
    const classical = await creator.request('POST', '/api/games', { name: 'Old school', variant: 'diadochi-v', rules: '1971' });
    expect(classical.statusCode, classical.body).toBe(201);
    expect(classical.json().rules).toBe('1971');
    const modern = await creator.request('POST', '/api/games', { name: 'New school', variant: 'diadochi-v' });
    expect(modern.json().rules).toBe('datc');
    const listed = (await creator.request('GET', '/api/games?mine=true')).json().games;
    expect(Object.fromEntries(listed.map((game: { name: string; rules: string }) => [game.name, game.rules]))).toMatchObject({
      'Old school': '1971',
      'New school': 'datc',
    });
    const unknown = await creator.request('POST', '/api/games', { name: 'Which?', variant: 'diadochi-v', rules: '1982' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.issues).toEqual([{ path: 'body.rules', message: 'must be one of: datc, 1971' }]);
  });

  test('an export is checked under its own rules, and the imported game processes its phases under them', async () => {
    const under1971 = adjudicate(classic, differing.state, differingOrders);
    const underDatc = adjudicate(datc, differing.state, differingOrders);
    expect(under1971.ok && underDatc.ok).toBe(true);
    if (!under1971.ok || !underDatc.ok) return;
    // The premise: the two rule sets disagree on this phase.
    expect(under1971.value.results).not.toEqual(underDatc.value.results);

    const master = await new Browser(app).register();
    const exported = exportOf('diadochi-v', played, 'Played in 1971', '1971');
    // Claimed to be a modern game, its record does not reproduce.
    const claimed = await master.request('POST', '/api/games/import', { export: { ...exported, game: { ...exported.game, rules: 'datc' } } });
    expect(claimed.statusCode).toBe(422);
    expect(claimed.json().error).toMatchObject({ code: 'import_invalid', message: expect.stringContaining('phases[1]') });

    const imported = await master.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body.slice(0, 300)).toBe(201);
    const gameId = imported.json().id;
    expect(imported.json().rules).toBe('1971');
    expect((await master.request('GET', `/api/games/${gameId}/export`)).json().game.rules).toBe('1971');
    // Its DATC cases say so, and re-check under the 1971 rulebook.
    const datcText = (await master.request('GET', `/api/games/${gameId}/export/datc`)).body;
    expect(datcText).toMatch(/^RULES 1971$/m);
    expect(runDatcText(datcText).reports.map((report) => report.passed)).toEqual([true, true]);

    // Re-opened and processed again by the server with the same orders: the 1971 results, not the DATC's.
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 1 })).statusCode).toBe(200);
    for (const power of classic.powers) {
      const lines = exported.phases[1]
        .orders!.filter((o) => o.power === power)
        .map((o) => o.text)
        .join('\n');
      const entered = await master.request('PUT', `/api/games/${gameId}/gm/phases/1/orders/${power}`, { orders: lines });
      expect(entered.statusCode, entered.body).toBe(200);
    }
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`)).statusCode).toBe(200);
    const processed = (await master.request('GET', `/api/games/${gameId}/phases/1`)).json();
    expect(processed.results).toEqual(JSON.parse(JSON.stringify(under1971.value.results)));
  });
});
