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
    // Seats are vacant until handed over; the original names are in the import's log entry, as the exported game's.
    expect(game.players.every((seat: { user: unknown }) => seat.user === null)).toBe(true);
    const log = (await master.request('GET', `/api/games/${game.id}/gm/log`)).json().actions;
    expect(log.at(-1)).toMatchObject({
      action: 'import',
      actor: master.user,
      details: { phases: 106, exported: { users: { gameMaster: 'someone-elsewhere' } } },
    });
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

describe('an import cannot forge the archive', () => {
  const base = () => structuredClone(exportOf('standard', randomPlayed('standard', 3, 3), 'Forged'));
  const day = 86_400_000;
  const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

  test('every date is checked: none in the future, the game created, started, finished and exported in order, everything within its span', async () => {
    const importer = await new Browser(app).register();
    const cases: [string, (data: ExportedGame) => void, string][] = [
      [
        'a finish in 9999',
        (data) => {
          data.game.status = 'finished';
          data.game.outcome = { kind: 'draw', powers: data.players.map((p) => p.power) };
          data.game.finishedAt = '9999-12-31T00:00:00.000Z';
        },
        'game.finishedAt: 9999-12-31T00:00:00.000Z is in the future',
      ],
      ['an export from the future', (data) => void (data.exportedAt = '2100-01-01T00:00:00.000Z'), 'exportedAt: 2100-01-01T00:00:00.000Z is in the future'],
      ['a game before 1970', (data) => void (data.game.createdAt = '1960-01-01T00:00:00.000Z'), 'game.createdAt: 1960-01-01T00:00:00.000Z is before 1970'],
      [
        'started before it was created',
        (data) => void (data.game.startedAt = shift(data.game.createdAt, -day)),
        'game.startedAt: 2025-12-31T00:00:00.000Z is before game.createdAt',
      ],
      ['a game going on that finished', (data) => void (data.game.finishedAt = data.exportedAt), 'game.finishedAt: a game going on has not finished'],
      [
        'a phase processed before the game started',
        (data) => void (data.phases[1].processedAt = shift(data.game.startedAt!, -day)),
        'phases[1].processedAt: 2025-12-31T00:00:00.000Z is before game.startedAt',
      ],
      [
        'a phase processed after the game finished',
        (data) => {
          data.game.status = 'finished';
          data.game.outcome = { kind: 'draw', powers: data.players.map((p) => p.power) };
          data.game.finishedAt = shift(data.exportedAt, -day);
          data.game.createdAt = data.game.startedAt = shift(data.exportedAt, -2 * day);
        },
        'phases[0].processedAt: 2026-01-01T00:00:00.000Z is after game.finishedAt',
      ],
      ['an open phase processed', (data) => void (data.phases[2].processedAt = data.exportedAt), 'phases[2].processedAt: an open phase has not been processed'],
      [
        'a deadline years away',
        (data) => void (data.phases[2].deadlineAt = '2031-01-01T00:00:00.000Z'),
        'phases[2].deadlineAt: 2031-01-01T00:00:00.000Z is more than a year away',
      ],
      [
        'orders submitted after the phase was processed',
        (data) => {
          data.game.createdAt = data.game.startedAt = shift(data.exportedAt, -2 * day);
          data.phases[0].processedAt = shift(data.exportedAt, -day);
          data.phases[0].submissions.push({ power: 'France', text: '', orders: [], ready: true, byGameMaster: false, submittedAt: data.exportedAt });
        },
        'phases[0].submissions[0].submittedAt: 2026-01-01T00:00:00.000Z is after phases[0].processedAt',
      ],
      [
        'press from the future',
        (data) => void (data.press[0].sentAt = '2100-01-01T00:00:00.000Z'),
        'press[0].sentAt: 2100-01-01T00:00:00.000Z is in the future',
      ],
      [
        'press after the export',
        (data) => {
          data.exportedAt = shift(data.exportedAt, day);
          data.press[0].sentAt = shift(data.exportedAt, day);
        },
        'press[0].sentAt: 2026-01-03T00:00:00.000Z is after exportedAt',
      ],
      [
        'a log entry before the game',
        (data) => void data.gmLog.push({ action: 'pause', actor: null, details: {}, at: '2025-01-01T00:00:00.000Z' }),
        'gmLog[0].at: 2025-01-01T00:00:00.000Z is before game.createdAt',
      ],
      [
        'a loan from the future',
        (data) =>
          void data.loans.push({
            centre: 'Par',
            lender: 'France',
            borrower: 'England',
            status: 'returned',
            startedInPhase: 0,
            endedInPhase: 1,
            endReason: null,
            createdAt: '2100-01-01T00:00:00.000Z',
          }),
        'loans[0].createdAt',
      ],
    ];
    const gamesBefore = await app.prisma.game.count();
    for (const [what, change, message] of cases) {
      const data = base();
      change(data);
      const response = await importer.request('POST', '/api/games/import', { export: data });
      expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBe(422);
      expect(response.json().error, what).toMatchObject({ code: 'import_invalid' });
      expect(response.json().error.message, what).toContain(message);
    }
    expect(await app.prisma.game.count()).toBe(gamesBefore);
    // Within a few minutes of this server's clock is skew, not the future.
    const skewed = base();
    skewed.exportedAt = skewed.press[0].sentAt = new Date(Date.now() + 60_000).toISOString();
    expect((await importer.request('POST', '/api/games/import', { export: skewed })).statusCode).toBe(201);
  });

  test("imported games are marked imported in the lists and on the game master's page; games played here are not", async () => {
    const importer = await new Browser(app).register();
    const data = base();
    data.game.status = 'finished';
    data.game.outcome = { kind: 'draw', powers: data.players.map((p) => p.power) };
    data.game.finishedAt = data.exportedAt;
    const imported = (await importer.request('POST', '/api/games/import', { export: data })).json();
    expect(imported.imported).toBe(true);
    const created = (await importer.request('POST', '/api/games', { name: 'Played here', variant: 'standard' })).json();
    const mine = (await importer.request('GET', '/api/games?filter=mine')).json().games;
    expect(mine.map((game: { name: string; imported: boolean }) => [game.name, game.imported]).sort()).toEqual([
      ['Forged', true],
      ['Played here', false],
    ]);
    const finished = (await new Browser(app).request('GET', '/api/games?filter=finished&limit=100')).json().games;
    expect(finished.find((game: { id: string }) => game.id === imported.id)).toMatchObject({ imported: true });
    const page = (await new Browser(app).request('GET', `/api/users/${importer.user!.username}`)).json();
    expect(page.games.map((entry: { game: { id: string; imported: boolean } }) => [entry.game.id, entry.game.imported]).sort()).toEqual(
      [
        [imported.id, true],
        [created.id, false],
      ].sort(),
    );
  });

  test("the log keeps the export's names and actors apart from this server's users, hidden where the game hides names", async () => {
    const importer = await new Browser(app).register();
    const stranger = await new Browser(app).register();
    const forged = (anonymous: boolean) => {
      const data = base();
      data.game.anonymous = anonymous;
      data.players[0].username = 'alice-elsewhere';
      // An entry claiming to be this server's, by a user of this server, with names of this server's users.
      data.gmLog.push({
        action: 'replace-player',
        actor: stranger.user!.username,
        details: { power: 'France', users: { from: importer.user!.username, to: stranger.user!.username }, importedActor: 'someone', imported: false },
        at: data.exportedAt,
      });
      return data;
    };
    const open = (await importer.request('POST', '/api/games/import', { export: forged(false) })).json();
    const log = (await stranger.request('GET', `/api/games/${open.id}/gm/log`)).json().actions;
    expect(log).toHaveLength(2);
    // Copied: no actor here, marked imported, the exported game's actor and names under `exported`.
    expect(log[0]).toMatchObject({ action: 'replace-player', actor: null });
    expect(log[0].details).toEqual({
      power: 'France',
      imported: true,
      exported: { actor: stranger.user!.username, users: { from: importer.user!.username, to: stranger.user!.username } },
    });
    // The import itself: by the importer, the exported game's names under `exported`, none under `users`.
    expect(log[1]).toMatchObject({ action: 'import', actor: importer.user });
    expect(log[1].details.users).toBeUndefined();
    expect(log[1].details.exported).toMatchObject({ actor: null, users: { gameMaster: 'someone-elsewhere', players: { Austria: 'alice-elsewhere' } } });

    // Exported and imported again: each entry keeps where it came from.
    const again = (
      await importer.request('POST', '/api/games/import', { export: (await importer.request('GET', `/api/games/${open.id}/export`)).json() })
    ).json();
    const copied = (await importer.request('GET', `/api/games/${again.id}/gm/log`)).json().actions;
    expect(copied[0].details.exported).toEqual({ actor: stranger.user!.username, users: { from: importer.user!.username, to: stranger.user!.username } });
    expect(copied[1]).toMatchObject({
      action: 'import',
      actor: null,
      details: { imported: true, exported: { actor: importer.user!.username, users: { gameMaster: 'someone-elsewhere' } } },
    });

    // An anonymous game going on: no names from the export for those it hides names from, in the log or the export.
    const anonymous = (await importer.request('POST', '/api/games/import', { export: forged(true) })).json();
    const hidden = (await stranger.request('GET', `/api/games/${anonymous.id}/gm/log`)).json().actions;
    expect(hidden[0].details).toEqual({ power: 'France', imported: true });
    expect(hidden[1].details.exported).toBeUndefined();
    const exported = (await stranger.request('GET', `/api/games/${anonymous.id}/export`)).json();
    expect(JSON.stringify(exported.gmLog)).not.toMatch(/alice-elsewhere|someone|"exported"/);
    // The game master sees them.
    expect((await importer.request('GET', `/api/games/${anonymous.id}/gm/log`)).json().actions[0].details.exported.actor).toBe(stranger.user!.username);
  });
});
