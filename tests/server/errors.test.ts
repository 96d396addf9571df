/**
 * Every refused input gets a 4xx with `{ error: { code, message } }` naming what
 * is wrong — never a 500: bad orders, orders out of phase, press the game does
 * not allow, game-master actions by others, loans the rules refuse, bad votes.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { startGame, type StartedGame } from './helpers/play.ts';
import { exportOf, randomPlayed } from './helpers/random-export.ts';
import { isDatabaseUnavailable } from '../../server/db/errors.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let game: StartedGame;
let gunboat: StartedGame;
let standardGame: { id: string; players: Browser[] };
let formingId: string;
let retreatGame: { id: string; idle: Browser; index: number };
let spectator: Browser;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  spectator = await new Browser(app).register();
  game = await startGame(app);
  // Phase 0 processed, phase 1 open.
  expect((await game.master.request('POST', `/api/games/${game.gameId}/gm/process`)).statusCode).toBe(200);
  gunboat = await startGame(app, { press: 'none' });

  const standardPlayers = await registeredBrowsers(app, 7);
  const created = (await standardPlayers[0].request('POST', '/api/games', { name: 'Standard', variant: 'standard' })).json();
  for (const player of standardPlayers.slice(1)) await player.request('POST', `/api/games/${created.id}/join`, {});
  standardGame = { id: created.id, players: standardPlayers };
  formingId = (await spectator.request('POST', '/api/games', { name: 'Forming', variant: 'diadochi-v' })).json().id;

  // A retreat phase, imported from a real game, with one of the powers that have nothing to retreat handed to a user.
  const played = randomPlayed('standard', 19, 1000);
  const index = played.findIndex((phase) => phase.state.phase.type === 'retreat');
  const imported = (await spectator.request('POST', '/api/games/import', { export: exportOf('standard', played.slice(0, index + 1)) })).json();
  const idlePower = played[index].state.units.map((unit) => unit.power).find((power) => !played[index].state.dislodged.some((d) => d.power === power))!;
  const [idle] = await registeredBrowsers(app, 1);
  expect((await spectator.request('POST', `/api/games/${imported.id}/gm/replace`, { power: idlePower, username: idle.user!.username })).statusCode).toBe(200);
  retreatGame = { id: imported.id, idle, index };
}, 120_000);
afterAll(() => testApp.close(), 60_000);

type Case = [what: string, request: () => Promise<{ statusCode: number; body: string }>, status: number, code: string, message?: string];

async function expectRefusals(cases: Case[]) {
  for (const [what, request, status, code, message] of cases) {
    const response = await request();
    expect(response.statusCode, `${what}: ${response.body}`).toBe(status);
    const body = JSON.parse(response.body);
    expect(body.error.code, what).toBe(code);
    expect(typeof body.error.message, what).toBe('string');
    expect(body.error.message.length, what).toBeGreaterThan(5);
    if (message) expect(body.error.message, what).toContain(message);
  }
}

const player = (which = 0) => game.byPower.get(game.powers[which])!;
const url = (path: string) => `/api/games/${game.gameId}${path}`;

describe('orders', () => {
  test('bad orders, orders out of phase and orders from the wrong people are refused', async () => {
    await expectRefusals([
      ['not logged in', () => new Browser(app).request('PUT', url('/phases/1/orders'), { orders: '' }), 401, 'unauthenticated'],
      ['a spectator', () => spectator.request('PUT', url('/phases/1/orders'), { orders: '' }), 403, 'forbidden', 'no power'],
      ['the game master without a power', () => game.master.request('PUT', url('/phases/1/orders'), { orders: '' }), 403, 'forbidden'],
      ['an unreadable order', () => player().request('PUT', url('/phases/1/orders'), { orders: 'make love not war' }), 422, 'orders_rejected', 'order 1'],
      ['a unit that is not there', () => player().request('PUT', url('/phases/1/orders'), { orders: 'A Rom - Nea' }), 422, 'orders_rejected'],
      [
        'a malformed structured order',
        () => player().request('PUT', url('/phases/1/orders'), { orders: [{ kind: 'fly', unit: { at: 'Car' } }] }),
        400,
        'validation_failed',
        'body.orders',
      ],
      ['no orders field', () => player().request('PUT', url('/phases/1/orders'), { ready: true }), 400, 'validation_failed', 'body.orders'],
      ['a processed phase', () => player().request('PUT', url('/phases/0/orders'), { orders: '' }), 409, 'phase_closed', 'processed'],
      ['a phase to come', () => player().request('PUT', url('/phases/7/orders'), { orders: '' }), 404, 'not_found', 'phase 7'],
      ['a phase that is not a number', () => player().request('PUT', url('/phases/next/orders'), { orders: '' }), 400, 'validation_failed', 'params.index'],
      ['ready for a processed phase', () => player().request('POST', url('/phases/0/ready'), { ready: true }), 409, 'phase_closed'],
      ['ready without a flag', () => player().request('POST', url('/phases/1/ready'), {}), 400, 'validation_failed', 'body.ready'],
      ['a game not started', () => spectator.request('PUT', `/api/games/${formingId}/phases/0/orders`, { orders: '' }), 409, 'game_not_active', 'not started'],
      [
        'a power with nothing to retreat',
        () => retreatGame.idle.request('PUT', `/api/games/${retreatGame.id}/phases/${retreatGame.index}/orders`, { orders: '' }),
        409,
        'nothing_to_order',
      ],
      [
        'a game that does not exist',
        () => player().request('PUT', '/api/games/00000000-0000-7000-8000-000000000000/phases/0/orders', { orders: '' }),
        404,
        'not_found',
      ],
    ]);
    // A refused submission reports each order and stores nothing.
    const mixed = await player().request('PUT', url('/phases/1/orders'), { orders: 'A Rom - Nea\n\nnonsense' });
    expect(mixed.json().orders).toEqual([
      { accepted: false, input: 'A Rom - Nea', reason: expect.any(String) },
      { accepted: false, input: 'nonsense', reason: expect.any(String) },
    ]);
    // One sentence naming each refused order, the reasons parted by semicolons (no ".;").
    expect(mixed.json().error.message).toMatch(/^2 of 2 orders refused, nothing stored: order 1 "A Rom - Nea": [^;]*[^.]; order 2 "nonsense": .*[^.]$/);
    expect((await player().request('GET', url('/phases/1/orders'))).json().history).toEqual([]);
  });
});

describe('press', () => {
  test('messages the game does not allow, or that are malformed, are refused', async () => {
    const [a, b] = game.powers;
    await expectRefusals([
      [
        'gunboat',
        () => gunboat.byPower.get(gunboat.powers[0])!.request('POST', `/api/games/${gunboat.gameId}/press`, { to: 'all', body: 'hi' }),
        403,
        'press_not_allowed',
      ],
      ['an empty message', () => player().request('POST', url('/press'), { to: 'all', body: '   ' }), 400, 'validation_failed', 'body.body'],
      ['too long', () => player().request('POST', url('/press'), { to: 'all', body: 'x'.repeat(4001) }), 400, 'validation_failed', 'body.body'],
      ['an unknown power', () => player().request('POST', url('/press'), { to: ['Atlantis'], body: 'hi' }), 400, 'validation_failed', 'Atlantis'],
      ['to itself', () => game.byPower.get(a)!.request('POST', url('/press'), { to: [a], body: 'hi' }), 400, 'validation_failed', 'itself'],
      ['nobody', () => player().request('POST', url('/press'), { to: [], body: 'hi' }), 400, 'validation_failed', 'body.to'],
      ['twice the same power', () => game.byPower.get(a)!.request('POST', url('/press'), { to: [b, b], body: 'hi' }), 400, 'validation_failed', 'twice'],
      ['a spectator', () => spectator.request('POST', url('/press'), { to: 'all', body: 'hi' }), 403, 'forbidden'],
      ['before the game starts', () => spectator.request('POST', `/api/games/${formingId}/press`, { to: 'all', body: 'hi' }), 409, 'game_not_active'],
      ['a bad cursor', () => player().request('GET', url('/press?cursor=nonsense')), 400, 'validation_failed', 'cursor'],
    ]);
  });
});

describe('game master', () => {
  test('only the game master acts as one, and only when the action makes sense', async () => {
    const other = await startGame(app);
    const gm = (path: string, body?: unknown) => other.master.request('POST', `/api/games/${other.gameId}/gm/${path}`, body);
    const asPlayer = (path: string, body?: unknown) => other.byPower.get(other.powers[0])!.request('POST', `/api/games/${other.gameId}/gm/${path}`, body);
    await expectRefusals([
      ['process by a player', () => asPlayer('process'), 403, 'not_game_master'],
      ['pause by a player', () => asPlayer('pause'), 403, 'not_game_master'],
      ['replace by a player', () => asPlayer('replace', { power: other.powers[1], username: spectator.user!.username }), 403, 'not_game_master'],
      ['rollback by a player', () => asPlayer('rollback', { phase: 0 }), 403, 'not_game_master'],
      [
        'orders by a player for another power',
        () => other.byPower.get(other.powers[0])!.request('PUT', `/api/games/${other.gameId}/gm/phases/0/orders/${other.powers[1]}`, { orders: '' }),
        403,
        'not_game_master',
      ],
      ['resume when not paused', () => gm('resume'), 409, 'conflict', 'not paused'],
      ['replace with nobody', () => gm('replace', { power: other.powers[1], username: 'no_such_user' }), 400, 'validation_failed', 'no user'],
      ['replace an unknown power', () => gm('replace', { power: 'Atlantis', username: spectator.user!.username }), 404, 'not_found', 'Atlantis'],
      ['rollback of the open phase', () => gm('rollback', { phase: 0 }), 409, 'conflict', 'nothing to roll back'],
      ['rollback to a negative phase', () => gm('rollback', { phase: -1 }), 400, 'validation_failed', 'body.phase'],
      ['deadline with no change', () => gm('deadline', {}), 400, 'validation_failed', 'exactly one'],
      ['a game not started', () => spectator.request('POST', `/api/games/${formingId}/gm/process`), 409, 'game_not_active'],
    ]);
    expect((await gm('pause')).statusCode).toBe(200);
    await expectRefusals([
      ['pause twice', () => gm('pause'), 409, 'game_paused', 'already paused'],
      ['process while paused', () => gm('process'), 409, 'game_paused', 'resume'],
    ]);
    expect((await gm('resume')).statusCode).toBe(200);
  });
});

describe('loans', () => {
  test("loans the rules refuse get the engine's reason", async () => {
    const supply = (await game.master.request('GET', url('/phases/current'))).json().supply as { power: string; centres: string[] }[];
    const [lender, borrower] = game.powers;
    const someoneElses = supply.find((line) => line.power === borrower)!.centres[0];
    const standardPlayer = standardGame.players[0];
    await expectRefusals([
      [
        'a centre it does not hold',
        () => game.byPower.get(lender)!.request('POST', url('/loans'), { centre: someoneElses, to: borrower }),
        422,
        'loan_refused',
        'does not hold',
      ],
      [
        'not a province',
        () => game.byPower.get(lender)!.request('POST', url('/loans'), { centre: 'Xanadu', to: borrower }),
        422,
        'loan_refused',
        'not a province',
      ],
      ['to itself', () => game.byPower.get(lender)!.request('POST', url('/loans'), { centre: someoneElses, to: lender }), 422, 'loan_refused'],
      [
        'a variant without loans',
        () => standardPlayer.request('POST', `/api/games/${standardGame.id}/loans`, { centre: 'par', to: 'England' }),
        422,
        'loan_refused',
        'no loans',
      ],
      ['a spectator', () => spectator.request('POST', url('/loans'), { centre: someoneElses, to: borrower }), 403, 'forbidden'],
      [
        'a malformed borrower',
        () => game.byPower.get(lender)!.request('POST', url('/loans'), { centre: someoneElses, to: 'nobody' }),
        400,
        'validation_failed',
        'body.to',
      ],
      [
        'ending a loan that does not exist',
        () => game.byPower.get(lender)!.request('POST', url('/loans/00000000-0000-7000-8000-000000000000/end')),
        404,
        'not_found',
      ],
    ]);

    // A loan made, then ended by a third power (refused), by the lender, and again (refused).
    let made: { id: string } | null = null;
    let pair: [string, string] = [lender, borrower];
    for (const from of game.powers) {
      const to = game.powers.find((power) => power !== from)!;
      for (const centre of supply.find((line) => line.power === from)!.centres) {
        const response = await game.byPower.get(from)!.request('POST', url('/loans'), { centre, to });
        if (response.statusCode === 201) {
          made = response.json();
          pair = [from, to];
          break;
        }
      }
      if (made) break;
    }
    expect(made).not.toBeNull();
    const third = game.powers.find((power) => !pair.includes(power))!;
    await expectRefusals([
      ['ending by a third power', () => game.byPower.get(third)!.request('POST', url(`/loans/${made!.id}/end`)), 403, 'forbidden', 'only'],
    ]);
    expect((await game.byPower.get(pair[0])!.request('POST', url(`/loans/${made!.id}/end`))).statusCode).toBe(200);
    await expectRefusals([['ending twice', () => game.byPower.get(pair[1])!.request('POST', url(`/loans/${made!.id}/end`)), 409, 'conflict', 'already ended']]);
  });
});

describe('votes and reading', () => {
  test('bad votes and bad reads are refused', async () => {
    const [a] = game.powers;
    await expectRefusals([
      ['conceding to oneself', () => game.byPower.get(a)!.request('POST', url('/votes'), { kind: 'concede', to: a }), 400, 'validation_failed', 'yourself'],
      [
        'conceding to no power',
        () => game.byPower.get(a)!.request('POST', url('/votes'), { kind: 'concede', to: 'Atlantis' }),
        400,
        'validation_failed',
        'Atlantis',
      ],
      ['an unknown kind of vote', () => game.byPower.get(a)!.request('POST', url('/votes'), { kind: 'surrender' }), 400, 'validation_failed', 'body.kind'],
      ['withdrawing an unknown kind', () => game.byPower.get(a)!.request('DELETE', url('/votes/surrender')), 400, 'validation_failed', 'params.kind'],
      ['a spectator', () => spectator.request('POST', url('/votes'), { kind: 'draw' }), 403, 'forbidden'],
      ['a phase that does not exist', () => spectator.request('GET', url('/phases/99')), 404, 'not_found', 'phase 99'],
      ['a malformed game id', () => spectator.request('GET', '/api/games/42/phases'), 400, 'validation_failed', 'params.gameId'],
      ['the history of a game not started', () => spectator.request('GET', `/api/games/${formingId}/export`), 409, 'game_not_active'],
      ['the current phase of a game not started', () => spectator.request('GET', `/api/games/${formingId}/phases/current`), 404, 'not_found', 'not started'],
    ]);
  });
});

describe('page cursors', () => {
  test('a cursor this API did not make is a 400 naming query.cursor on every list, however it is crafted', async () => {
    const admin = await new Browser(app).register();
    await app.prisma.user.update({ where: { id: admin.user!.id }, data: { isAdmin: true } });
    const cursor = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    const id = '0190a0b1-0000-7000-8000-000000000000';
    const crafted: Array<[string, string]> = [
      ['year 0000', cursor({ t: '0000-01-01T00:00:00.000Z', id })],
      ['year −271821', cursor({ t: '-271821-04-20T00:00:00.000Z', id })],
      ['year +275760', cursor({ t: '+275760-09-13T00:00:00.000Z', id })],
      ['an id of 36 dashes', cursor({ t: '2026-01-01T00:00:00.000Z', id: '-'.repeat(36) })],
      ['an id that is no UUID', cursor({ t: '2026-01-01T00:00:00.000Z', id: 'f'.repeat(36) })],
      ['a number for the time', cursor({ t: 1e20, id })],
      ['no id', cursor({ t: '2026-01-01T00:00:00.000Z' })],
      ['more fields', cursor({ t: '2026-01-01T00:00:00.000Z', id, x: 1 })],
      ['not JSON', cursor('{"t":')],
      ['an array', cursor([1, 2])],
    ];
    for (const [what, value] of crafted) {
      for (const [list, browser] of [
        ['/api/games?filter=finished', spectator],
        [url('/press'), player()],
        ['/api/admin/audit', admin],
      ] as const) {
        const response = await browser.request('GET', `${list}${list.includes('?') ? '&' : '?'}cursor=${value}`);
        expect(response.statusCode, `${what} on ${list}: ${response.body}`).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('query.cursor') });
      }
    }
    // A real cursor still pages.
    const first = (await admin.request('GET', '/api/admin/audit?limit=1')).json();
    expect(first.nextCursor).toEqual(expect.any(String));
    expect((await admin.request('GET', `/api/admin/audit?limit=1&cursor=${first.nextCursor}`)).statusCode).toBe(200);
  });
});

describe('fields refused', () => {
  test('a field the rules refuse is named in `issues` as a field the schema refuses is, for forms to show beside it', async () => {
    const other = await startGame(app);
    const cases: Array<[string, () => Promise<{ statusCode: number; json(): any }>, string]> = [
      [
        'a replacement nobody is called',
        () => other.master.request('POST', `/api/games/${other.gameId}/gm/replace`, { power: other.powers[1], username: 'no_such_user' }),
        'body.username',
      ],
      ['a roll-back to no phase', () => other.master.request('POST', `/api/games/${other.gameId}/gm/rollback`, { phase: 7 }), 'body.phase'],
      [
        'press to an unknown power',
        () => other.byPower.get(other.powers[0])!.request('POST', `/api/games/${other.gameId}/press`, { to: ['Atlantis'], body: 'hi' }),
        'body.to',
      ],
      ['a crafted cursor', () => spectator.request('GET', '/api/games?cursor=nonsense'), 'query.cursor'],
      ['a schema refusal, for comparison', () => spectator.request('POST', '/api/games', { name: '', variant: 'standard' }), 'body.name'],
    ];
    for (const [what, send, path] of cases) {
      const response = await send();
      expect(response.statusCode, what).toBe(400);
      const error = response.json().error;
      expect(error.code, what).toBe('validation_failed');
      expect(error.issues, what).toEqual([expect.objectContaining({ path, message: expect.any(String) })]);
      expect(error.message, what).toBe(`${path}: ${error.issues[0].message}`);
    }
  });
});

describe('a busy database', () => {
  test('a transaction that ran past its time is "try again" (503), not our bug; a finished transaction used again is', async () => {
    const expired = await app.prisma
      .$transaction(
        async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return tx.user.count();
        },
        { timeout: 50 },
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect((expired as { code?: string }).code).toBe('P2028');
    expect(isDatabaseUnavailable(expired)).toBe(true);

    let kept: { user: { count(): Promise<number> } } | undefined;
    await app.prisma.$transaction(async (tx) => {
      kept = tx;
    });
    const reused = await kept!.user.count().then(
      () => null,
      (error: unknown) => error,
    );
    expect((reused as { code?: string }).code).toBe('P2028');
    expect(isDatabaseUnavailable(reused)).toBe(false);
  });
});
