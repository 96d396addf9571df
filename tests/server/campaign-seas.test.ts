/**
 * Campaign play through the API: a Diadochi V game whose sea fights are fought out. A movement phase where fleets of
 * two or more powers met at sea is held (orders final and shown, results waiting, submissions refused), until the game
 * master decides or waives each contested sea; then the phase is adjudicated with the outcomes and the next one opens.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { type Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { listen, settled, watchGame } from './helpers/live.ts';
import { heldSeasPastDeadline } from '../../server/play/sea-battles.ts';
import { runDatcText } from '../../shared/index.ts';
import { currentPhase, CAMPAIGN, playPhase, startGame, masterFightsIonian } from './helpers/play.ts';

vi.setConfig({ testTimeout: 120_000 });

let testApp: TestApp;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

async function phase(browser: Browser, gameId: string, index: number) {
  const response = await browser.request('GET', `/api/games/${gameId}/phases/${index}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const unitsOf = (state: { units: { power: string; type: string; at: string }[] }, power: string) =>
  state.units
    .filter((unit) => unit.power === power)
    .map((unit) => `${unit.type === 'fleet' ? 'F' : 'A'} ${unit.at}`)
    .sort();

describe('creating a campaign game', () => {
  test('the fleet lists default to the period and show in the game; the game master edits them before the start', async () => {
    const game = await startGame(app, CAMPAIGN);
    const detail = (await game.master.request('GET', `/api/games/${game.gameId}`)).json();
    expect(detail.campaign.ruleset).toBe('classis');
    expect(detail.campaign.battleHours).toBe(48);
    expect(Object.keys(detail.campaign.fleets).sort()).toEqual(['Carthage', 'Egypt', 'Macedonia', 'Rome', 'Syria']);
    expect(detail.campaign.fleets.Rome).toEqual([
      { class: 'trieres', count: 2 },
      { class: 'penteres', count: 6 },
    ]);
    // Started: too late to change.
    const late = await game.master.request('PUT', `/api/games/${game.gameId}/campaign`, { ruleset: 'oi-navarcoi' });
    expect(late.statusCode, late.body).toBe(409);
  });

  test('an unknown power in the fleet lists is a 400 naming it; the game master alone sets the campaign while forming', async () => {
    const { master } = await startGame(app, CAMPAIGN).then((g) => g);
    const bad = await master.request('POST', '/api/games', {
      name: 'Bad fleets',
      variant: 'diadochi-v',
      campaign: { ruleset: 'classis', fleets: { Atlantis: [{ class: 'trieres', count: 4 }] } },
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().error.message).toContain('Atlantis is not a power of this game');

    const created = await master.request('POST', '/api/games', { name: 'Ordinary first', variant: 'diadochi-v', joinAsPlayer: false });
    expect(created.statusCode, created.body).toBe(201);
    const gameId = created.json().id;
    expect(created.json().campaign).toBeNull();
    const set = await master.request('PUT', `/api/games/${gameId}/campaign`, {
      ruleset: 'ship-to-ship',
      fleets: { Rome: [{ class: 'penteres', count: 5 }] },
      battleHours: 24,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().campaign.ruleset).toBe('ship-to-ship');
    expect(set.json().campaign.fleets.Rome).toEqual([{ class: 'penteres', count: 5 }]);
    expect(set.json().campaign.fleets.Egypt.length).toBeGreaterThan(0);

    const { players } = await startGame(app);
    const other = await players[0].request('PUT', `/api/games/${gameId}/campaign`, { ruleset: 'classis' });
    expect(other.statusCode, other.body).toBe(403);
  });
});

describe('a held phase', () => {
  test('two fleets meet in the Ionian Sea: the phase is held until the game master decides it for Rome', async () => {
    const game = await startGame(app, CAMPAIGN);
    const { gameId, master } = game;
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });

    const held = await phase(master, gameId, 0);
    expect(held.status).toBe('held');
    expect(held.results).toBeNull();
    expect(held.stateAfter).toBeNull();
    expect(held.orders.map((o: { text: string }) => o.text)).toEqual(expect.arrayContaining(['F Nea - ION', 'F Kor - ION']));
    expect(held.seas).toHaveLength(1);
    const [ionian] = held.seas;
    expect(ionian).toMatchObject({ sea: 'ION', status: 'undecided', powers: ['Macedonia', 'Rome'], battleId: null, outcome: null });
    expect(ionian.sides.map((side: { powers: string[] }) => side.powers)).toEqual([['Macedonia'], ['Rome']]);
    expect(Date.parse(ionian.deadlineAt)).toBeGreaterThan(Date.now() + 47 * 3_600_000);
    // Nothing opened after it; the list of phases says held; a player sees the same seas.
    const list = (await master.request('GET', `/api/games/${gameId}/phases`)).json();
    expect(list.phases.map((p: { status: string }) => p.status)).toEqual(['held']);
    const seen = await game.players[0].request('GET', `/api/games/${gameId}/phases/0/seas`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().seas).toEqual(held.seas);

    // Orders are final: no submission, no ready, no "process now", and the scheduler leaves it alone.
    const late = await game.byPower.get('Rome')!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: 'F Nea H', ready: true });
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().error.message).toContain('awaits its sea battles');
    expect((await game.byPower.get('Rome')!.request('POST', `/api/games/${gameId}/phases/0/ready`, { ready: false })).statusCode).toBe(409);
    expect((await master.request('POST', `/api/games/${gameId}/gm/process`, {})).statusCode).toBe(409);
    // (Other tests' games sharing the app may be due then; this one's held phase is not.)
    await app.scheduler.processDue(new Date(Date.now() + 30 * 24 * 3_600_000));
    expect((await phase(master, gameId, 0)).status).toBe('held');
    expect((await master.request('GET', `/api/games/${gameId}/phases`)).json().phases).toHaveLength(1);

    // Only the game master decides.
    const byPlayer = await game.byPower.get('Rome')!.request('POST', `/api/games/${gameId}/phases/0/seas/ION/decide`, { winner: 'Rome' });
    expect(byPlayer.statusCode, byPlayer.body).toBe(403);
    const unknown = await master.request('POST', `/api/games/${gameId}/phases/0/seas/AEG/decide`, { winner: 'Rome' });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json().error.message).toContain('ION');
    const notThere = await master.request('POST', `/api/games/${gameId}/phases/0/seas/ION/decide`, { winner: 'Egypt' });
    expect(notThere.statusCode, notThere.body).toBe(409);

    const decided = await master.request('POST', `/api/games/${gameId}/phases/0/seas/ION/decide`, { winner: 'Rome' });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({ sea: 'ION', status: 'decided', outcome: { winner: 'Rome' }, decidedBy: 'game-master' });

    const processed = await phase(master, gameId, 0);
    expect(processed.status).toBe('processed');
    expect(unitsOf(processed.stateAfter, 'Rome')).toEqual(['A Bru', 'A Rav', 'F ION', 'F Rom']);
    expect(unitsOf(processed.stateAfter, 'Macedonia')).toContain('F Kor');
    const result = (order: string) => processed.results.find((r: { order: string }) => r.order === order);
    expect(result('F Nea - ION').success).toBe(true);
    expect(result('F Kor - ION').success).toBe(false);
    expect(processed.seas[0].status).toBe('decided');
    const next = await currentPhase(master, gameId);
    expect(next.index).toBe(1);
    expect(next.status).toBe('open');

    // The game master's log names the sea and the outcome.
    const log = (await master.request('GET', `/api/games/${gameId}/gm/log`)).json();
    const entry = log.actions.find((a: { action: string }) => a.action === 'decide-sea');
    expect(entry.details).toMatchObject({ sea: 'ION', outcome: { winner: 'Rome' } });
    // The DATC export's case is adjudicated with the decided sea, and says so.
    const datc = await master.request('GET', `/api/games/${gameId}/export/datc`);
    expect(datc.statusCode, datc.body).toBe(200);
    expect(datc.body).toMatch(/DECIDED\s+ION Rome/);
    const suite = runDatcText(datc.body);
    expect(suite.fileProblems).toEqual([]);
    expect(suite.reports.map((report) => [report.id, report.passed, [...report.problems, ...report.differences]])).toEqual([['G0', true, []]]);
    // Decided: no second decision.
    expect((await master.request('POST', `/api/games/${gameId}/phases/0/seas/ION/waive`)).statusCode).toBe(409);
  });

  test('a waived sea follows the ordinary rules: the fleets bounce; watchers hear phase.held, sea.changed, phase.processed', async () => {
    const game = await startGame(app, CAMPAIGN);
    const { gameId, master } = game;
    const watcher = await watchGame(url, game.players[0].cookie!, gameId);
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
    expect((await phase(master, gameId, 0)).status).toBe('held');
    const held = await watcher.next('event', (message) => message.event.type === 'phase.held');
    expect(held.event).toMatchObject({ type: 'phase.held', gameId, phase: { index: 0 }, seas: ['ION'] });
    // The battles' deadline loop finds the sea once its 48 hours have passed, not before.
    const mine = async (at: Date) => (await heldSeasPastDeadline(app.prisma, at, 100)).filter((row) => row.gameId === gameId);
    expect(await mine(new Date(Date.now() + 47 * 3_600_000))).toEqual([]);
    expect((await mine(new Date(Date.now() + 49 * 3_600_000))).map((row) => [row.sea, row.phaseIndex, row.status])).toEqual([['ION', 0, 'undecided']]);
    const waived = await master.request('POST', `/api/games/${gameId}/phases/0/seas/ION/waive`);
    expect(waived.statusCode, waived.body).toBe(200);
    expect(waived.json().status).toBe('waived');
    const changed = await watcher.next('event', (message) => message.event.type === 'sea.changed');
    expect(changed.event).toMatchObject({ type: 'sea.changed', phaseIndex: 0, sea: { sea: 'ION', status: 'waived' } });
    await watcher.next('event', (message) => message.event.type === 'phase.processed');
    expect(await mine(new Date(Date.now() + 49 * 3_600_000))).toEqual([]);
    // Powers only, never who plays them.
    const heard = JSON.stringify((await settled(watcher)).filter((message) => message.type === 'event'));
    for (const player of [...game.players, master]) expect(heard).not.toContain(player.user!.username);
    watcher.socket.close();
    const processed = await phase(master, gameId, 0);
    expect(processed.status).toBe('processed');
    expect(unitsOf(processed.stateAfter, 'Rome')).toContain('F Nea');
    expect(unitsOf(processed.stateAfter, 'Macedonia')).toContain('F Kor');
    expect((await master.request('GET', `/api/games/${gameId}/gm/log`)).json().actions.map((a: { action: string }) => a.action)).toContain('waive-sea');
  });

  test('a held phase rolled back is open again without seas; held again, its seas are fought afresh', async () => {
    const game = await startGame(app, CAMPAIGN);
    const { gameId, master } = game;
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
    expect((await master.request('POST', `/api/games/${gameId}/phases/0/seas/ION/decide`, { winner: 'Rome' })).statusCode).toBe(200);
    const rolledBack = await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 });
    expect(rolledBack.statusCode, rolledBack.body).toBe(200);
    const reopened = await phase(master, gameId, 0);
    expect(reopened).toMatchObject({ status: 'open', seas: [], orders: null });
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
    const again = await phase(master, gameId, 0);
    expect(again.status).toBe('held');
    expect(again.seas).toMatchObject([{ sea: 'ION', status: 'undecided', outcome: null }]);
  });

  test('an ordinary game meeting at sea is processed at once', async () => {
    const game = await startGame(app);
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
    const processed = await phase(game.master, game.gameId, 0);
    expect(processed.status).toBe('processed');
    expect(processed.seas).toEqual([]);
    expect((await game.master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas).toEqual([]);
  });

  test('a campaign phase where no fleets meet is processed at once', async () => {
    const game = await startGame(app, CAMPAIGN);
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - AEG'] });
    expect((await phase(game.master, game.gameId, 0)).status).toBe('processed');
  });
});

describe('seas the game master cannot simply decide', () => {
  test('three powers meet: the game master sets the sides, then decides', async () => {
    const game = await startGame(app, CAMPAIGN);
    const { gameId, master } = game;
    await playPhase(game, 0, { Carthage: ['F Car - AFR'], Macedonia: ['F Kor - ION'] });
    const fall = await currentPhase(master, gameId);
    expect(fall).toMatchObject({ index: 1, kind: 'movement', status: 'open' });
    await playPhase(game, 1, { Carthage: ['F AFR - STY'], Macedonia: ['F ION - STY'], Rome: ['F Rom - STY'] });

    const held = await phase(master, gameId, 1);
    expect(held.status).toBe('held');
    expect(held.seas).toHaveLength(1);
    expect(held.seas[0]).toMatchObject({ sea: 'STY', powers: ['Carthage', 'Macedonia', 'Rome'], sides: null });

    const early = await master.request('POST', `/api/games/${gameId}/phases/1/seas/STY/decide`, { winner: 'Rome' });
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().error.message).toContain('sides');
    const half = await master.request('PUT', `/api/games/${gameId}/phases/1/seas/STY/sides`, { sides: [['Rome'], ['Carthage']] });
    expect(half.statusCode, half.body).toBe(400);
    expect(half.json().error.message).toContain('Macedonia met in');
    const twice = await master.request('PUT', `/api/games/${gameId}/phases/1/seas/STY/sides`, {
      sides: [
        ['Rome', 'Carthage'],
        ['Carthage', 'Macedonia'],
      ],
    });
    expect(twice.statusCode, twice.body).toBe(400);
    const byPlayer = await game.byPower.get('Rome')!.request('PUT', `/api/games/${gameId}/phases/1/seas/STY/sides`, {
      sides: [['Rome'], ['Carthage', 'Macedonia']],
    });
    expect(byPlayer.statusCode, byPlayer.body).toBe(403);

    const sides = await master.request('PUT', `/api/games/${gameId}/phases/1/seas/STY/sides`, { sides: [['Rome'], ['Carthage', 'Macedonia']] });
    expect(sides.statusCode, sides.body).toBe(200);
    expect(sides.json().sides.map((side: { powers: string[] }) => side.powers)).toEqual([['Rome'], ['Carthage', 'Macedonia']]);
    expect(sides.json().status).toBe('undecided');

    const decided = await master.request('POST', `/api/games/${gameId}/phases/1/seas/STY/decide`, { winner: 'Rome' });
    expect(decided.statusCode, decided.body).toBe(200);
    const processed = await phase(master, gameId, 1);
    expect(processed.status).toBe('processed');
    expect(unitsOf(processed.stateAfter, 'Rome')).toContain('F STY');
    expect(unitsOf(processed.stateAfter, 'Carthage')).toContain('F AFR');
    expect(unitsOf(processed.stateAfter, 'Macedonia')).toContain('F ION');
  });

  test('a decision that makes fleets meet in another sea keeps the phase held for that sea', async () => {
    const game = await startGame(app, CAMPAIGN);
    const { gameId, master } = game;
    await playPhase(game, 0, { Rome: ['F Rom - STY'], Macedonia: ['F Kor - ION'], Carthage: ['F Car - AFR'] });
    // Ordinarily Rome's supported attack dislodges Macedonia and Carthage follows into the Sea of Sicily unopposed.
    await playPhase(game, 1, { Rome: ['F STY - ION', 'F Nea S F STY - ION'], Macedonia: ['F ION H'], Carthage: ['F AFR - STY'] });
    const held = await phase(master, gameId, 1);
    expect(held.seas.map((sea: { sea: string }) => sea.sea)).toEqual(['ION']);

    // Macedonia holds the Ionian Sea: Rome's fleet stays in the Sea of Sicily, where Carthage's comes.
    expect((await master.request('POST', `/api/games/${gameId}/phases/1/seas/ION/decide`, { winner: 'Macedonia' })).statusCode).toBe(200);
    const still = await phase(master, gameId, 1);
    expect(still.status).toBe('held');
    expect(still.seas.map((sea: { sea: string; status: string }) => [sea.sea, sea.status])).toEqual([
      ['ION', 'decided'],
      ['STY', 'undecided'],
    ]);
    expect(still.seas[1].powers).toEqual(['Carthage', 'Rome']);

    expect((await master.request('POST', `/api/games/${gameId}/phases/1/seas/STY/decide`, { winner: 'Carthage' })).statusCode).toBe(200);
    const processed = await phase(master, gameId, 1);
    expect(processed.status).toBe('processed');
    expect(unitsOf(processed.stateAfter, 'Macedonia')).toContain('F ION');
    expect(unitsOf(processed.stateAfter, 'Carthage')).toContain('F STY');
    expect(processed.stateAfter.dislodged.map((d: { power: string; at: string }) => `${d.power} ${d.at}`)).toEqual(['Rome STY']);
    expect((await currentPhase(master, gameId)).kind).toBe('retreat');
  });

  test('a game master who plays a power fighting in a sea may not decide or waive it; another sea, yes', async () => {
    const { gameId, master } = await masterFightsIonian(app);
    expect((await phase(master, gameId, 0)).seas.map((sea: { sea: string }) => sea.sea).sort()).toEqual(['ION', 'LEV']);

    const decide = await master.request('POST', `/api/games/${gameId}/phases/0/seas/ION/decide`, { winner: 'Rome' });
    expect(decide.statusCode, decide.body).toBe(403);
    expect(decide.json().error).toMatchObject({ code: 'game_master_plays' });
    expect(decide.json().error.message).toContain('you play Rome');
    expect((await master.request('POST', `/api/games/${gameId}/phases/0/seas/ION/waive`)).statusCode).toBe(403);
    const other = await master.request('POST', `/api/games/${gameId}/phases/0/seas/LEV/decide`, { winner: null });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toMatchObject({ status: 'decided', outcome: { standoff: true } });
    expect((await phase(master, gameId, 0)).status).toBe('held');
  });
});
