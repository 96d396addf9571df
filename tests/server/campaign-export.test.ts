/**
 * A campaign game's battles in its export (server/archive/): the battle that decided a sea travels beside the sea's
 * decision, the import replays it and links it to the imported game's sea as a finished, imported battle that checks
 * out; a tampered action or outcome is refused naming the phase and the sea. A game exported while a phase waits for
 * its sea battles imports held, its seas waiting again for the importer, its game master. An anonymous game's export
 * names no other player, battles included.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { CAMPAIGN, playPhase, startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 180_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const seaPath = (game: StartedGame, what: string) => `/api/games/${game.gameId}/phases/0/seas/ION/${what}`;

/** Rome's and Macedonia's fleets meet in the Ionian Sea: phase 0 held for it. */
async function ionianHeld(settings: Record<string, unknown> = {}) {
  const game = await startGame(app, { ...CAMPAIGN, ...settings });
  await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
  return game;
}

/** The sea auto-resolved (the computer fights it out: a finished battle decides it), and the game exported by the game master. */
async function foughtAndExported(settings: Record<string, unknown> = {}) {
  const game = await ionianHeld(settings);
  const resolved = await game.master.request('POST', seaPath(game, 'auto-resolve'));
  expect(resolved.statusCode, resolved.body).toBe(200);
  expect(resolved.json()).toMatchObject({ status: 'decided', decidedBy: 'computer' });
  const exported = await game.master.request('GET', `/api/games/${game.gameId}/export`);
  expect(exported.statusCode, exported.body).toBe(200);
  return { game, sea: resolved.json(), exported: exported.json() };
}

const outcomeOf = (winner: string | null) => (winner === null ? { standoff: true } : { winner: winner === 'rome' ? 'Rome' : 'Macedonia' });

describe("a campaign game's battles in its export", () => {
  test('the battle that decided the sea is exported beside it; the import replays it and links it to the imported sea', async () => {
    const { game, sea, exported } = await foughtAndExported();
    const original = (await game.master.request('GET', `/api/battles/${sea.battleId}`)).json();
    const [decided] = exported.phases[0].decided;
    expect(decided).toMatchObject({ province: 'ION', outcome: sea.outcome, by: 'computer' });
    expect(decided.battle).toMatchObject({ format: 'naval-battle/1', ruleset: 'classis', commitment: original.commitment, seed: original.seed });
    expect(decided.battle.actions.length).toBe(original.actionCount);
    // The server's own dice may, rarely, sink a whole fleet: its loss then rides with the decision.
    const { destroyed: _lost, ...decision } = sea.outcome as { destroyed?: string[] };
    expect(decision).toEqual(outcomeOf(original.outcome.winner));

    const imported = await game.master.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body).toBe(201);
    const gameId = imported.json().id;
    const phase = (await game.master.request('GET', `/api/games/${gameId}/phases/0`)).json();
    expect(phase.status).toBe('processed');
    expect(phase.seas).toMatchObject([{ sea: 'ION', status: 'decided', outcome: sea.outcome, decidedBy: 'computer' }]);
    const battleId = phase.seas[0].battleId;
    expect(battleId).toBeTruthy();
    expect(battleId).not.toBe(sea.battleId);

    // Following the link from the imported game's results: the battle, over, as it was fought, and its dice check out.
    const stranger = game.players[0];
    const battle = await stranger.request('GET', `/api/battles/${battleId}`);
    expect(battle.statusCode, battle.body).toBe(200);
    expect(battle.json()).toMatchObject({
      status: 'finished',
      imported: true,
      outcome: original.outcome,
      actionCount: original.actionCount,
      seed: original.seed,
    });
    expect(
      battle
        .json()
        .seats.filter((seat: { role: string }) => seat.role === 'side')
        .map((seat: { player: string }) => seat.player),
    ).toEqual(['computer', 'computer']);
    const verification = await stranger.request('GET', `/api/battles/${battleId}/verification`);
    expect(verification.statusCode, verification.body).toBe(200);
    expect(verification.json()).toMatchObject({ ok: true, problems: [] });
    const battleLog = (await stranger.request('GET', `/api/battles/${battleId}/log`)).json();
    expect(battleLog.entries.length).toBe(original.actionCount + 1);

    // The import's log entry counts the battles it replayed.
    const log = (await game.master.request('GET', `/api/games/${gameId}/gm/log`)).json();
    expect(log.actions.find((a: { action: string }) => a.action === 'import').details).toMatchObject({ battles: 1 });

    // Exported again, the imported game carries the same battle.
    const again = (await game.master.request('GET', `/api/games/${gameId}/export`)).json();
    expect(again.phases[0].decided).toEqual(exported.phases[0].decided);
  });

  test('a tampered battle (an action, a die, its outcome) or a battle of other fleets is refused, naming the phase and the sea', async () => {
    const { game, exported } = await foughtAndExported();
    const refused = async (change: (copy: typeof exported) => void, ...words: string[]) => {
      const copy = structuredClone(exported);
      change(copy);
      const response = await game.master.request('POST', '/api/games/import', { export: copy });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().error.code).toBe('import_invalid');
      const message = response.json().error.message as string;
      expect(message).toContain('phases[0] (');
      expect(message).toContain('(ION)');
      for (const word of words) expect(message).toContain(word);
    };
    const battle = exported.phases[0].decided[0].battle;
    const rolled = battle.actions.findIndex((a: { log: { rolls: unknown[] }[] }) => a.log.some((line) => line.rolls.length > 0));
    expect(rolled).toBeGreaterThanOrEqual(0);

    // A die changed in the log.
    await refused((copy) => {
      const line = copy.phases[0].decided[0].battle.actions[rolled].log.find((l: { rolls: unknown[] }) => l.rolls.length > 0);
      line.rolls[0].value = (line.rolls[0].value % line.rolls[0].sides) + 1;
    }, 'does not check out');
    // The last action taken away: the battle is no longer over, or no longer the same.
    await refused((copy) => copy.phases[0].decided[0].battle.actions.pop(), 'its battle');
    // An action given to the other side.
    await refused((copy) => {
      const action = copy.phases[0].decided[0].battle.actions[0];
      action.side = action.side === 'rome' ? 'macedonia' : 'rome';
    }, 'its battle');
    // The sea decided otherwise than its battle was.
    await refused((copy) => {
      const decided = copy.phases[0].decided[0];
      decided.outcome = 'winner' in decided.outcome && decided.outcome.winner === 'Rome' ? { winner: 'Macedonia' } : { winner: 'Rome' };
    }, 'but its battle gives');
    // The sea decided with a fleet lost that its battle did not sink (or without one it did).
    await refused((copy) => {
      const decided = copy.phases[0].decided[0];
      decided.outcome = decided.outcome.destroyed ? { ...decided.outcome, destroyed: undefined } : { ...decided.outcome, destroyed: ['Nea'] };
    }, 'but its battle gives');
    // Another seed: it is not the one committed to.
    await refused((copy) => {
      copy.phases[0].decided[0].battle.seed = 'f'.repeat(64);
    }, 'commitment');
    // A ship more on one side than its fleet brought to the sea.
    await refused((copy) => {
      const squadron = copy.phases[0].decided[0].battle.setup.sides[0].squadrons[0];
      squadron.ships.push({ ...squadron.ships[1], id: 'extra', name: 'Extra' });
    }, 'set-up is not the battle of the fleets that met');
    // A battle under another ruleset than the campaign's.
    await refused((copy) => {
      copy.phases[0].decided[0].battle.ruleset = 'ship-to-ship';
    }, 'ship-to-ship');
  });
});

describe('the limits of a battle in an import', () => {
  test('a battle of more actions than an import takes is refused with 400 naming it', async () => {
    const { game, exported } = await foughtAndExported();
    const copy = structuredClone(exported);
    const battle = copy.phases[0].decided[0].battle;
    // Small actions: the body's own bounds (values, bytes) are not what refuses it.
    battle.actions = Array.from({ length: 5001 }, () => ({ side: 'rome', action: 0, log: [] }));
    const response = await game.master.request('POST', '/api/games/import', { export: copy });
    expect(response.statusCode, response.body.slice(0, 400)).toBe(400);
    expect(response.body).toContain('battle');
    expect(response.body).toContain('at most 5000 entries');
  });
});

describe('a game exported while a phase awaits its sea battles', () => {
  test('imports held: its orders final, the sea waiting again with its whole time, for the importer to fight or decide', async () => {
    const game = await ionianHeld();
    // Being fought when exported: the battle is not over, so it is not exported; the sea waits again.
    const opened = await game.master.request('POST', seaPath(game, 'battle'), {});
    expect(opened.statusCode, opened.body).toBe(200);
    const exported = (await game.master.request('GET', `/api/games/${game.gameId}/export`)).json();
    expect(exported.phases[0]).toMatchObject({ status: 'held', results: null, awaiting: [{ province: 'ION' }], waived: [] });
    expect(exported.phases[0].heldAt).toBeTruthy();
    expect(exported.phases[0].decided).toBeUndefined();
    expect(exported.phases[0].orders.map((o: { text: string }) => o.text)).toEqual(expect.arrayContaining(['F Nea - ION', 'F Kor - ION']));

    const importer = game.players[1];
    const before = Date.now();
    const imported = await importer.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body).toBe(201);
    const gameId = imported.json().id;
    const phase = (await importer.request('GET', `/api/games/${gameId}/phases/0`)).json();
    expect(phase.status).toBe('held');
    expect(phase.orders.map((o: { text: string }) => o.text)).toEqual(exported.phases[0].orders.map((o: { text: string }) => o.text));
    expect(phase.seas).toMatchObject([{ sea: 'ION', status: 'undecided', battleId: null, outcome: null, powers: ['Macedonia', 'Rome'] }]);
    const deadline = Date.parse(phase.seas[0].deadlineAt);
    expect(deadline).toBeGreaterThanOrEqual(before + 48 * 3_600_000);
    expect(deadline).toBeLessThan(Date.now() + 48 * 3_600_000 + 60_000);

    // The importer, its game master, decides the sea: the phase goes on with it.
    const decided = await importer.request('POST', `/api/games/${gameId}/phases/0/seas/ION/decide`, { winner: 'Macedonia' });
    expect(decided.statusCode, decided.body).toBe(200);
    const after = (await importer.request('GET', `/api/games/${gameId}/phases/0`)).json();
    expect(after.status).toBe('processed');
    expect(after.results.find((r: { order: string }) => r.order === 'F Kor - ION').success).toBe(true);
    expect((await importer.request('GET', `/api/games/${gameId}/phases/1`)).json().status).toBe('open');
  });

  test('a held phase with one sea fought and one awaited: the fought one comes with its battle, the other waits', async () => {
    const game = await startGame(app, CAMPAIGN);
    await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'], Egypt: ['F Cyp - ISS'], Syria: ['F Ant - ISS'] });
    const resolved = await game.master.request('POST', seaPath(game, 'auto-resolve'));
    expect(resolved.statusCode, resolved.body).toBe(200);
    const exported = (await game.master.request('GET', `/api/games/${game.gameId}/export`)).json();
    expect(exported.phases[0]).toMatchObject({ status: 'held', awaiting: [{ province: 'ISS' }], waived: [] });
    expect(exported.phases[0].decided).toMatchObject([{ province: 'ION', outcome: resolved.json().outcome, by: 'computer' }]);
    expect(exported.phases[0].decided[0].battle.seed).toBeTruthy();

    const imported = await game.master.request('POST', '/api/games/import', { export: exported });
    expect(imported.statusCode, imported.body).toBe(201);
    const gameId = imported.json().id;
    const seas = (await game.master.request('GET', `/api/games/${gameId}/phases/0/seas`)).json().seas;
    const bySea = new Map(seas.map((sea: { sea: string }) => [sea.sea, sea]));
    expect(bySea.get('ION')).toMatchObject({ status: 'decided', decidedBy: 'computer', outcome: resolved.json().outcome });
    expect(bySea.get('ISS')).toMatchObject({ status: 'undecided', battleId: null });
    const battle = (await game.master.request('GET', `/api/battles/${(bySea.get('ION') as { battleId: string }).battleId}`)).json();
    expect(battle).toMatchObject({ status: 'finished', imported: true });

    // The other sea waived, the phase is adjudicated with the Ionian Sea's decision.
    const waived = await game.master.request('POST', `/api/games/${gameId}/phases/0/seas/ISS/waive`);
    expect(waived.statusCode, waived.body).toBe(200);
    const phase = (await game.master.request('GET', `/api/games/${gameId}/phases/0`)).json();
    expect(phase.status).toBe('processed');
    const winner = resolved.json().outcome.winner as string | undefined;
    const entered = (order: string) => phase.results.find((r: { order: string }) => r.order === order).success;
    expect(entered('F Nea - ION')).toBe(winner === 'Rome');
    expect(entered('F Kor - ION')).toBe(winner === 'Macedonia');
    expect(entered('F Cyp - ISS')).toBe(false);
  });

  test('a held phase that awaits nothing, or awaits a sea where no fleets met, is refused naming it', async () => {
    const game = await ionianHeld();
    const exported = (await game.master.request('GET', `/api/games/${game.gameId}/export`)).json();
    const nothing = structuredClone(exported);
    nothing.phases[0].awaiting = [];
    const refused = await game.master.request('POST', '/api/games/import', { export: nothing });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.message).toContain('phases[0] (');
    expect(refused.json().error.message).toContain('awaits at least one sea');
    const elsewhere = structuredClone(exported);
    elsewhere.phases[0].awaiting = [{ province: 'AEG' }];
    const nowhere = await game.master.request('POST', '/api/games/import', { export: elsewhere });
    expect(nowhere.statusCode, nowhere.body).toBe(422);
    expect(nowhere.json().error.message).toContain('no fleets of two powers met in AEG');
  });
});

describe('an anonymous campaign game', () => {
  test("a player's export carries the fought battle and names no other player", async () => {
    const game = await ionianHeld({ anonymous: true });
    const resolved = await game.master.request('POST', seaPath(game, 'auto-resolve'));
    expect(resolved.statusCode, resolved.body).toBe(200);
    const rome = game.byPower.get('Rome')!;
    const response = await rome.request('GET', `/api/games/${game.gameId}/export`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().phases[0].decided[0].battle.actions.length).toBeGreaterThan(0);
    for (const player of game.players) {
      if (player === rome) continue;
      expect(response.body).not.toContain(player.user!.username);
    }
  });
});
