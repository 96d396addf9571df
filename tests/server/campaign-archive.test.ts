/**
 * A campaign game in the archive: its export carries the campaign and each phase's decided seas, and imports
 * again with them (the phase re-adjudicated with the decisions, its seas shown); a tampered decision is refused; a
 * held phase imports held.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { CAMPAIGN, playPhase, startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 120_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

/** A campaign game whose first phase was held for the Ionian Sea, decided for Rome (ordinarily the fleets bounce). */
async function decidedGame() {
  const game = await startGame(app, CAMPAIGN);
  await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
  const decided = await game.master.request('POST', `/api/games/${game.gameId}/phases/0/seas/ION/decide`, { winner: 'Rome' });
  expect(decided.statusCode, decided.body).toBe(200);
  const exported = await game.master.request('GET', `/api/games/${game.gameId}/export`);
  expect(exported.statusCode, exported.body).toBe(200);
  return { game, exported: exported.json() };
}

describe('a campaign game exported and imported', () => {
  test('the export carries the campaign and the decided sea; the import re-adjudicates with it and shows the sea', async () => {
    const { game, exported } = await decidedGame();
    expect(exported.game.campaign).toMatchObject({ ruleset: 'classis', battleHours: 48 });
    expect(exported.phases[0].decided).toEqual([{ province: 'ION', outcome: { winner: 'Rome' }, by: 'game-master' }]);
    expect(exported.phases[1].decided).toBeUndefined();

    const imported = await game.master.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body).toBe(201);
    const gameId = imported.json().id;
    expect(imported.json().campaign).toEqual(exported.game.campaign);
    const phase = (await game.master.request('GET', `/api/games/${gameId}/phases/0`)).json();
    expect(phase.status).toBe('processed');
    expect(phase.seas).toMatchObject([{ sea: 'ION', status: 'decided', outcome: { winner: 'Rome' }, decidedBy: 'game-master', powers: ['Macedonia', 'Rome'] }]);
    expect(phase.results.find((r: { order: string }) => r.order === 'F Nea - ION').success).toBe(true);
    // Exported again, the imported game says the same.
    const again = (await game.master.request('GET', `/api/games/${gameId}/export`)).json();
    expect(again.phases[0].decided).toEqual(exported.phases[0].decided);
    expect(again.game.campaign).toEqual(exported.game.campaign);
  });

  test('a tampered decision is refused naming the phase; without its decisions the phase does not reproduce', async () => {
    const { game, exported } = await decidedGame();
    const tampered = structuredClone(exported);
    tampered.phases[0].decided = [{ province: 'ION', outcome: { winner: 'Macedonia' } }];
    const refused = await game.master.request('POST', '/api/games/import', { export: tampered });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.code).toBe('import_invalid');
    expect(refused.json().error.message).toContain('phases[0] (');
    expect(refused.json().error.message).toContain('ION won by Macedonia');

    const nowhere = structuredClone(exported);
    nowhere.phases[0].decided = [{ province: 'AEG', outcome: { standoff: true } }];
    const refusedSea = await game.master.request('POST', '/api/games/import', { export: nowhere });
    expect(refusedSea.statusCode, refusedSea.body).toBe(422);
    expect(refusedSea.json().error.message).toContain('phases[0] (');
    expect(refusedSea.json().error.message).toContain('decided');

    const ordinary = structuredClone(exported);
    delete ordinary.game.campaign;
    const notCampaign = await game.master.request('POST', '/api/games/import', { export: ordinary });
    expect(notCampaign.statusCode, notCampaign.body).toBe(422);
    expect(notCampaign.json().error.message).toContain('game.campaign is absent');

    const withoutDecisions = structuredClone(exported);
    delete withoutDecisions.phases[0].decided;
    const bare = await game.master.request('POST', '/api/games/import', { export: withoutDecisions });
    expect(bare.statusCode, bare.body).toBe(422);
    expect(bare.json().error.message).toContain('does not reproduce');
  });

  test('a game exported while a phase awaits its sea battles imports held, its sea waiting again (campaign-export.test.ts: more)', async () => {
    const game = await startGame(app, CAMPAIGN);
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
    const exported = (await game.master.request('GET', `/api/games/${game.gameId}/export`)).json();
    expect(exported.phases[0]).toMatchObject({ status: 'held', awaiting: [{ province: 'ION' }] });
    const imported = await game.master.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body).toBe(201);
    const phase = (await game.master.request('GET', `/api/games/${imported.json().id}/phases/0`)).json();
    expect(phase.status).toBe('held');
    expect(phase.seas).toMatchObject([{ sea: 'ION', status: 'undecided' }]);
  });

  test('an export without the new fields (an ordinary game played here, or made before them) imports as before', async () => {
    const game = await startGame(app);
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
    const exported = (await game.master.request('GET', `/api/games/${game.gameId}/export`)).json();
    expect(exported.game.campaign).toBeUndefined();
    expect(exported.phases[0].decided).toBeUndefined();
    const imported = await game.master.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().campaign).toBeNull();
    expect((await game.master.request('GET', `/api/games/${imported.json().id}/phases/0`)).json().seas).toEqual([]);
  });
});

/** A campaign game held for the Ionian Sea; its sea as the game master sees it. */
async function heldGame() {
  const game = await startGame(app, CAMPAIGN);
  await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
  return game;
}
async function ionian(game: StartedGame) {
  const seas = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas;
  return seas.find((sea: { sea: string }) => sea.sea === 'ION');
}

describe("the game master's clock and a held phase", () => {
  test('a pause takes none of the battles’ time: on resume the seas still waiting move by the time paused', async () => {
    const game = await heldGame();
    const before = Date.parse((await ionian(game)).deadlineAt);
    const paused = await game.master.request('POST', `/api/games/${game.gameId}/gm/pause`, {});
    expect(paused.statusCode, paused.body).toBe(200);
    // Paused for an hour (the pause's start set back rather than waited for).
    await app.prisma.game.update({ where: { id: game.gameId }, data: { pausedAt: new Date(Date.now() - 3_600_000) } });
    const resumed = await game.master.request('POST', `/api/games/${game.gameId}/gm/resume`, {});
    expect(resumed.statusCode, resumed.body).toBe(200);
    const moved = Date.parse((await ionian(game)).deadlineAt) - before;
    expect(moved).toBeGreaterThanOrEqual(3_600_000);
    expect(moved).toBeLessThan(3_600_000 + 60_000);
  });

  test('the change-deadline tool on a held phase moves its waiting seas’ deadline, and the log says so', async () => {
    const game = await heldGame();
    const before = Date.parse((await ionian(game)).deadlineAt);
    const changed = await game.master.request('POST', `/api/games/${game.gameId}/gm/deadline`, { extendBySeconds: 24 * 3600 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(Date.parse((await ionian(game)).deadlineAt) - before).toBe(24 * 3_600_000);
    const log = (await game.master.request('GET', `/api/games/${game.gameId}/gm/log`)).json();
    const entry = log.actions.find((a: { action: string }) => a.action === 'change-deadline');
    expect(entry.details.seas).toEqual([{ sea: 'ION', from: new Date(before).toISOString(), to: new Date(before + 24 * 3_600_000).toISOString() }]);
    const past = await game.master.request('POST', `/api/games/${game.gameId}/gm/deadline`, { deadlineAt: new Date(Date.now() - 3_600_000).toISOString() });
    expect(past.statusCode, past.body).toBe(422);
    expect(past.json().error.message).toContain('decide the sea');
    // Decided: the phase goes on, and the tool moves the next phase's deadline as ever.
    expect((await game.master.request('POST', `/api/games/${game.gameId}/phases/0/seas/ION/waive`)).statusCode).toBe(200);
    const next = await game.master.request('POST', `/api/games/${game.gameId}/gm/deadline`, { extendBySeconds: 3600 });
    expect(next.statusCode, next.body).toBe(200);
  });
});
