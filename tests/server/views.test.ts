/**
 * Every API route answers with what a view made (server/views/: the access policy applied), or declares at the route
 * that its body carries no game data. In test apps (testSettings.checkViews) a route that answers 2xx with a body no
 * view made fails loudly: 500 `unviewed_response`, and a log line naming it. Here: that check itself, on throwaway
 * routes; then a game played through every route of the OpenAPI document, each to a 2xx answer, which shows that
 * each one answered with a view's body (or none at all), or is one of the routes written down below as needing none.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { routeViews } from '../../server/views/route-views.ts';
import { viewed } from '../../server/views/viewed.ts';
import { Browser, startTestApp, testSettings, uniqueName, type TestApp } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';
import { exportOf, randomPlayed } from './helpers/random-export.ts';
import { startGame } from './helpers/play.ts';
import { buildWorld, documentedRoutes } from './fuzz-support/world.ts';

vi.setConfig({ testTimeout: 120_000 });

describe('a route whose body no view made', () => {
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  const logged: string[] = [];

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    app = await buildApp({
      database: database.options,
      settings: testSettings,
      logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } },
    });
    app.get('/api/by-hand', async () => ({ secret: 'shaped by hand' }));
    app.get('/api/by-hand-stream', async (_request, reply) => reply.type('text/plain').send(Readable.from(['shaped by hand'])));
    app.get('/api/by-a-view', async () => viewed({ made: 'by a view' }));
    app.get('/api/by-a-view-stream', async (_request, reply) => reply.type('text/plain').send(viewed(Readable.from(['made by a view']))));
    // Declared at the route: no game data.
    app.get('/api/declared', { config: { view: 'none' } }, async () => ({ nothing: 'of a game' }));
    app.get('/api/refused', async () => {
      throw Object.assign(new Error('no'), { statusCode: 404 });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  test('fails with 500 unviewed_response, and a log line naming the route', async () => {
    for (const url of ['/api/by-hand', '/api/by-hand-stream']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(500);
      expect(response.json().error.code, url).toBe('unviewed_response');
      expect(response.body, url).not.toContain('shaped by hand');
      expect(
        logged.some((line) => JSON.parse(line).route === `GET ${url}`),
        url,
      ).toBe(true);
    }
  });

  test("a view's body, a declared route's and an error pass", async () => {
    expect((await app.inject({ method: 'GET', url: '/api/by-a-view' })).json()).toEqual({ made: 'by a view' });
    expect((await app.inject({ method: 'GET', url: '/api/by-a-view-stream' })).body).toBe('made by a view');
    expect((await app.inject({ method: 'GET', url: '/api/declared' })).json()).toEqual({ nothing: 'of a game' });
    expect((await app.inject({ method: 'GET', url: '/api/refused' })).statusCode).toBe(404);
  });
});

/** The routes whose bodies carry no game data, as their configs declare (`view: 'none'`): a new one is a decision to write down here. */
const DECLARED_NONE = [
  'DELETE /api/auth/tokens/{tokenId}',
  // One's own calendar feed address; a game's webhooks (addresses and events, for its game master): they name nobody.
  'DELETE /api/calendar/token',
  'DELETE /api/games/{gameId}/webhooks/{webhookId}',
  // Account mail: one's own address and what a link did; a reset's answer, the same for all.
  'GET /api/auth/email',
  'GET /api/auth/me',
  'GET /api/auth/tokens',
  // The naval rulesets and their shipped scenarios: the project's own data.
  'GET /api/battle-rulesets',
  'GET /api/calendar/token',
  // The feed: the owner's own games and seat, naming no other player (access/policy.ts's mayView on each game).
  'GET /api/calendar/{token}.ics',
  'GET /api/games/{gameId}/webhooks',
  'GET /api/health',
  'GET /api/variants',
  'POST /api/auth/email/verification',
  'POST /api/auth/email/verify',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/password',
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  'POST /api/auth/register',
  'POST /api/auth/tokens',
  'POST /api/calendar/token',
  'POST /api/games/{gameId}/webhooks',
  'POST /api/games/{gameId}/webhooks/{webhookId}/enable',
  'POST /api/games/{gameId}/webhooks/{webhookId}/test',
  'PUT /api/auth/email',
  'PUT /api/auth/preferences',
  // One's own notification choices (for all games, or one game's, naming nobody) and the one-click unsubscribe's answer.
  'GET /api/games/{gameId}/notifications',
  'PUT /api/games/{gameId}/notifications',
  'GET /api/notifications/settings',
  'PUT /api/notifications/settings',
  'GET /api/notifications/unsubscribe',
  'POST /api/notifications/unsubscribe',
  // Push: the server's public key and one's own browsers' subscriptions.
  'GET /api/push/key',
  'GET /api/push/subscriptions',
  'POST /api/push/subscriptions',
  'DELETE /api/push/subscriptions',
  'DELETE /api/push/subscriptions/{subscriptionId}',
];

describe('every route', () => {
  let testApp: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    // The game is ended and made final by its game master near the end: its result is not final at once.
    testApp = await startTestApp({ settings: { finalAfterMs: 3600_000 } });
    app = testApp.app;
  }, 120_000);
  afterAll(() => testApp.close(), 60_000);

  /** Sends, and checks the 2xx answer expected. */
  async function ok(browser: Browser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, status = 200) {
    const response = await browser.request(method, url, body);
    expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBe(status);
    return response;
  }

  test('answers with a view’s body (or none), or declares that it needs none', async () => {
    const world = await buildWorld(app);
    const { id, powers, byPower, master } = world.game;
    const game = `/api/games/${id}`;
    const player = byPower.get(powers[0])!;

    // The lobby, the phases, a player's orders.
    await ok(player, 'GET', '/api/games?filter=active');
    await ok(player, 'GET', game);
    await ok(player, 'GET', `${game}/phases`);
    await ok(player, 'GET', `${game}/phases/0`);
    await ok(player, 'PUT', `${game}/phases/0/orders`, { orders: world.hints.orders[0] });
    await ok(player, 'GET', `${game}/phases/0/orders`);
    await ok(player, 'POST', `${game}/phases/0/ready`, { ready: false });
    // Press, loans, votes.
    const sent = (await ok(player, 'POST', `${game}/press`, { to: 'all', body: 'Hello.' }, 201)).json() as { sentAt: string };
    await ok(player, 'GET', `${game}/press`);
    await ok(player, 'PUT', `${game}/press/read`, { conversation: 'public', until: sent.sentAt });
    await ok(player, 'GET', `${game}/press/read`);
    const loans = (await ok(player, 'GET', `${game}/loans`)).json().loans as { id: string; lender: string }[];
    await ok(byPower.get(loans[0].lender)!, 'POST', `${game}/loans/${loans[0].id}/end`);
    await ok(player, 'POST', `${game}/votes`, { kind: 'draw' });
    await ok(player, 'DELETE', `${game}/votes/draw`);
    await ok(player, 'GET', `${game}/votes`);
    // Votes on the clock, and absences with a sitter.
    const proposed = (await ok(player, 'POST', `${game}/clock-votes`, { kind: 'extend', extendSeconds: 3600 }, 201)).json();
    await ok(byPower.get(powers[1])!, 'POST', `${game}/clock-votes/${proposed.open.id}/ballot`, { agree: true });
    await ok(player, 'DELETE', `${game}/clock-votes/${proposed.open.id}`);
    await ok(player, 'GET', `${game}/clock-votes`);
    const away = Date.now() + 100 * 86400_000;
    const declared = await ok(
      player,
      'POST',
      '/api/vacations',
      { startsAt: new Date(away).toISOString(), endsAt: new Date(away + 86400_000).toISOString() },
      201,
    );
    await ok(player, 'GET', '/api/vacations');
    await ok(player, 'DELETE', `/api/vacations/${declared.json().vacations[0].id}`);
    await ok(player, 'PUT', '/api/auth/preferences', { timeZone: 'Asia/Tokyo' });
    // The game master's tools.
    await ok(master, 'POST', `${game}/gm/deadline`, { extendBySeconds: 3600 });
    await ok(master, 'POST', `${game}/gm/pause`);
    await ok(master, 'POST', `${game}/gm/resume`);
    await ok(master, 'POST', `${game}/gm/replace`, { power: powers[4], username: (await new Browser(app).register()).user!.username });
    await ok(master, 'POST', `${game}/gm/civil-disorder`, { power: powers[3] });
    await ok(master, 'PUT', `${game}/gm/phases/0/orders/${powers[1]}`, { orders: '' });
    await ok(master, 'POST', `${game}/gm/process`);
    await ok(master, 'POST', `${game}/gm/rollback`, { phase: 0 });
    await ok(master, 'GET', `${game}/gm/log`);
    await ok(master, 'GET', `${game}/gm/proposals`);
    // A seat offered to new players: listed, asked for twice, one request withdrawn, one declined, then one approved.
    const seat = `${game}/seats/${powers[2]}`;
    await ok(master, 'POST', `${seat}/offer`);
    await ok(player, 'GET', `${game}/seats`);
    await ok(player, 'GET', '/api/seats/open');
    const [first, second, third] = await Promise.all([1, 2, 3].map(() => new Browser(app).register()));
    const askFor = async (browser: Browser) => (await ok(browser, 'POST', `${seat}/requests`, {}, 201)).json().request.id as string;
    await ok(first, 'DELETE', `${seat}/requests/${await askFor(first)}`);
    await ok(master, 'POST', `${seat}/requests/${await askFor(second)}/decline`);
    await ok(master, 'POST', `${seat}/requests/${await askFor(third)}/approve`);
    await ok(master, 'POST', `${seat}/offer`);
    await ok(master, 'DELETE', `${seat}/offer`);
    // Webhooks (their test call's receiver is unreachable here: answered all the same) and the calendar feed.
    const hook = (await ok(master, 'POST', `${game}/webhooks`, { url: 'https://hooks.example.org/views', events: ['game-ended'] }, 201)).json();
    await ok(master, 'GET', `${game}/webhooks`);
    await ok(master, 'POST', `${game}/webhooks/${hook.webhook.id}/enable`);
    await ok(master, 'POST', `${game}/webhooks/${hook.webhook.id}/test`);
    await ok(master, 'DELETE', `${game}/webhooks/${hook.webhook.id}`, undefined, 204);
    const feed = (await ok(player, 'POST', '/api/calendar/token')).json().url as string;
    await ok(player, 'GET', '/api/calendar/token');
    await ok(player, 'GET', feed.slice(feed.indexOf('/api/')));
    await ok(player, 'DELETE', '/api/calendar/token', undefined, 204);
    await ok(master, 'POST', `${game}/gm/invite`, { username: (await new Browser(app).register()).user!.username });
    await ok(master, 'DELETE', `${game}/gm/invitation`, undefined, 204);
    const successor = await new Browser(app).register();
    await ok(master, 'POST', `${game}/gm/invite`, { username: successor.user!.username });
    await ok(successor, 'POST', `${game}/gm/invitation/accept`);
    // The archive, the audit log, a player's page.
    await ok(player, 'GET', `${game}/export`);
    await ok(player, 'GET', `${game}/export/datc`);
    // The map as pictures (a view of what every viewer of the game may see: server/views/map-image.ts).
    for (const picture of ['/map.svg', '/map.png', '/phases/0/map.svg', '/phases/0/map.png']) await ok(player, 'GET', `${game}${picture}`);
    await ok(player, 'POST', '/api/games/import', { export: exportOf('standard', randomPlayed('standard', 7, 2), 'Imported') }, 201);
    await ok(world.admin, 'GET', '/api/admin/audit');
    await ok(world.outsider, 'GET', `/api/users/${player.user!.username}`);
    await ok(successor, 'POST', `${game}/gm/end`, { outcome: 'draw' });
    await ok(successor, 'POST', `${game}/gm/finalize`);

    // A game master who plays: a seat left and taken again, the game started by hand, a request put to the players.
    const host = await new Browser(app).register(uniqueName('host'));
    const hosted = (await ok(host, 'POST', '/api/games', { name: 'Hosted', variant: 'diadochi-v', autoStart: false }, 201)).json();
    const guests = await Promise.all(Array.from({ length: hosted.seats - 1 }, () => new Browser(app).register()));
    for (const guest of guests) await ok(guest, 'POST', `/api/games/${hosted.id}/join`, {});
    await ok(guests[0], 'POST', `/api/games/${hosted.id}/leave`);
    await ok(guests[0], 'POST', `/api/games/${hosted.id}/join`, {});
    await ok(host, 'POST', `/api/games/${hosted.id}/start`);
    const asked = (await ok(host, 'POST', `/api/games/${hosted.id}/gm/process`, undefined, 202)).json().proposal;
    await ok(guests[1], 'POST', `/api/games/${hosted.id}/gm/proposals/${asked.id}/answer`, { agree: true });
    await ok(host, 'DELETE', `/api/games/${hosted.id}/gm/proposals/${asked.id}`);

    // Campaign play: the settings before the start; a held phase's seas, sides set, one waived, one decided.
    const settingUp = (await ok(master, 'POST', '/api/games', { name: 'Campaign', variant: 'diadochi-v', joinAsPlayer: false }, 201)).json();
    await ok(master, 'PUT', `/api/games/${settingUp.id}/campaign`, { ruleset: 'classis' });
    const campaign = await startGame(app, { campaign: { ruleset: 'classis' } });
    const seas = `/api/games/${campaign.gameId}/phases/1/seas`;
    const everyoneReady = async (index: number, orders: Record<string, string>) => {
      for (const power of campaign.powers) {
        await ok(campaign.byPower.get(power)!, 'PUT', `/api/games/${campaign.gameId}/phases/${index}/orders`, { orders: orders[power] ?? '', ready: true });
      }
    };
    await everyoneReady(0, { Carthage: 'F Car - AFR', Macedonia: 'F Kor - ION' });
    await everyoneReady(1, { Carthage: 'F AFR - STY', Macedonia: 'F ION - STY', Rome: 'F Rom - STY', Egypt: 'F Alx - LEV', Syria: 'F Ant - LEV' });
    await ok(campaign.players[0], 'GET', seas);
    await ok(campaign.master, 'PUT', `${seas}/STY/sides`, { sides: [['Rome'], ['Carthage', 'Macedonia']] });
    await ok(campaign.master, 'POST', `${seas}/LEV/waive`);
    await ok(campaign.master, 'POST', `${seas}/STY/decide`, { winner: 'Rome' });
    // Seas fought as battles: the odds asked for, one auto-resolved, one opened for its players.
    const seaGame = await startGame(app, { campaign: { ruleset: 'classis' } });
    const meeting: Record<string, string> = { Rome: 'F Nea - ION', Macedonia: 'F Kor - ION', Egypt: 'F Alx - LEV', Syria: 'F Ant - LEV' };
    for (const power of seaGame.powers) {
      await ok(seaGame.byPower.get(power)!, 'PUT', `/api/games/${seaGame.gameId}/phases/0/orders`, { orders: meeting[power] ?? '', ready: true });
    }
    const foughtSeas = `/api/games/${seaGame.gameId}/phases/0/seas`;
    await ok(seaGame.master, 'POST', `${foughtSeas}/LEV/odds`, undefined, 202);
    // Egypt agrees to auto-resolve the Levantine Sea and thinks better of it; the game master auto-resolves it.
    await ok(seaGame.byPower.get('Egypt')!, 'POST', `${foughtSeas}/LEV/agreement`);
    await ok(seaGame.byPower.get('Egypt')!, 'DELETE', `${foughtSeas}/LEV/agreement`);
    await ok(seaGame.master, 'POST', `${foughtSeas}/LEV/auto-resolve`);
    // The Ionian Sea's battle opened, abandoned, and opened again for its players.
    await ok(seaGame.master, 'POST', `${foughtSeas}/ION/battle`, {});
    await ok(seaGame.master, 'POST', `${foughtSeas}/ION/abandon`);
    await ok(seaGame.master, 'POST', `${foughtSeas}/ION/battle`, {});

    // Naval battles: one fought to its end against the computer (a turn), one joined and left, the archive.
    const admiral = await new Browser(app).register(uniqueName('admiral'));
    await ok(admiral, 'GET', '/api/battle-rulesets');
    const duel = (await ok(admiral, 'GET', '/api/battle-rulesets')).json().rulesets[1].scenarios[0].id as string;
    const forming = (
      await ok(admiral, 'POST', '/api/battles', { title: 'Open', ruleset: 'ship-to-ship', scenario: duel, join: 'rhodes', umpire: true }, 201)
    ).json();
    await ok(guests[2], 'POST', `/api/battles/${forming.id}/join`, { seat: 'macedon' });
    await ok(guests[2], 'POST', `/api/battles/${forming.id}/leave`);
    await ok(guests[3], 'POST', `/api/battles/${forming.id}/join`, { seat: 'umpire' });
    await ok(guests[3], 'POST', `/api/battles/${forming.id}/notes`, { text: 'A calm sea.' }, 201);
    await ok(guests[3], 'GET', `/api/battles/${forming.id}/notes`);
    const { SCENARIOS } = await import('../../shared/naval/index.ts');
    const setup = { ...(SCENARIOS['ship-to-ship'].find((scenario) => scenario.id === duel)!.setup as object), turnLimit: 1 };
    const fought = (
      await ok(
        admiral,
        'POST',
        '/api/battles',
        { title: 'One turn', ruleset: 'ship-to-ship', setup, seats: [{ side: 'macedon', player: 'computer' }], join: 'rhodes' },
        201,
      )
    ).json();
    const ended = (
      await ok(admiral, 'POST', `/api/battles/${fought.id}/actions`, {
        action: (await ok(admiral, 'GET', `/api/battles/${fought.id}?legalActions=true`)).json().legalActions[0].action,
        expected: fought.actionCount,
      })
    ).json();
    expect(ended.status).toBe('finished');
    await ok(admiral, 'GET', '/api/battles?filter=finished');
    await ok(admiral, 'GET', `/api/battles/${fought.id}`);
    await ok(admiral, 'GET', `/api/battles/${fought.id}/log`);
    await ok(admiral, 'GET', `/api/battles/${fought.id}/verification`);
    const record = (await ok(admiral, 'GET', `/api/battles/${fought.id}/export`)).json();
    await ok(admiral, 'POST', '/api/battles/import', { record }, 201);
    const waiting = (await ok(admiral, 'POST', '/api/battles', { title: 'Called off', ruleset: 'ship-to-ship', scenario: 'duel' }, 201)).json();
    await ok(admiral, 'POST', `/api/battles/${waiting.id}/cancel`);

    const documented = documentedRoutes((await app.inject({ method: 'GET', url: '/api/docs/json' })).json());
    const { routes, answered } = routeViews(app);
    const openApi = (key: string) => key.replace(/:(\w+)/g, '{$1}');
    const kinds = new Map([...routes].map(([key, kind]) => [openApi(key), kind]));
    const answers = new Map([...answered].map(([key, how]) => [openApi(key), how]));
    expect([...kinds.keys()].sort()).toEqual(documented);
    expect(
      documented.filter((route) => kinds.get(route) === 'none'),
      'routes declaring that their bodies carry no game data',
    ).toEqual([...DECLARED_NONE].sort());
    // The live websocket answers over its socket; its events are made by the views where they are published.
    expect(documented.filter((route) => kinds.get(route) === 'websocket')).toEqual(['GET /api/live']);
    const unproven = documented.filter((route) => kinds.get(route) === 'view' && !answers.get(route)?.has('viewed') && !answers.get(route)?.has('empty'));
    expect(unproven, 'routes never seen answering 2xx with a view’s body (or none)').toEqual([]);
  });
});
