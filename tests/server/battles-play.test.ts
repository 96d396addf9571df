/**
 * Naval battles through the HTTP API, with the real rulesets: a battle created from a shipped scenario or a set-up of
 * one's own, seats taken and left, the start when the last human seat fills, actions taken (the computer playing its
 * seats in the same request), refusals with the rules' own codes, a stale action count, bad input naming the field,
 * a private battle joined by its invitation, and a battle fought to its end with its seed revealed then.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { computerRandom } from '../../server/battles/computer-random.ts';
import { BATTLE_CREATE_LIMIT } from '../../server/battles/routes.ts';
import { commitmentOf } from '../../shared/naval/dice.ts';
import { RULESETS, SCENARIOS } from '../../shared/naval/index.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { connect, listen } from './helpers/live.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

type Detail = {
  id: string;
  status: string;
  actionCount: number;
  commitment: string;
  salt: string | null;
  seed: string | null;
  turn: { kind: string; side?: string; waiting?: string[] } | null;
  yourTurn: boolean;
  ruleset: 'classis' | 'ship-to-ship';
  state: unknown;
  seats: { side: string | null; role: string; player: string; user: { username: string } | null; isYou: boolean }[];
  outcome: { winner: string | null; reason: string } | null;
  inviteCode: string | null;
  deadlineAt: string | null;
  you: { side: string | null; umpire: boolean };
  board: { counters: unknown[] } | null;
};

/** One's legal actions as the browser has them: the engine's, from the page's state (none unless it is one's turn). */
function legalOf(detail: Detail): unknown[] {
  const side = detail.you.side;
  return detail.yourTurn && side !== null ? RULESETS[detail.ruleset].legalActions(detail.state, side) : [];
}

async function create(browser: Browser, body: Record<string, unknown>): Promise<Detail> {
  const response = await browser.request('POST', '/api/battles', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const duelSetup = () => structuredClone(SCENARIOS['ship-to-ship'].find((s) => s.id === 'duel')!.setup) as Record<string, unknown>;

describe('the rulesets and their scenarios', () => {
  test('are listed with each scenario’s title and source', async () => {
    const response = await new Browser(app).request('GET', '/api/battle-rulesets');
    expect(response.statusCode).toBe(200);
    const rulesets = response.json().rulesets as { id: string; scenarios: { id: string; title: string; source: string }[] }[];
    expect(rulesets.map((r) => r.id)).toEqual(['classis', 'ship-to-ship', 'diadochi-naval', 'oi-navarcoi']);
    const duel = rulesets.find((r) => r.id === 'classis')!.scenarios.find((s) => s.id === 'training-duel')!;
    expect(duel.title).toMatch(/Training duel/);
    expect(duel.source).toMatch(/Classis/);
  });
});

describe('creating a battle', () => {
  test('against the computer starts at once: the seed committed to, the salt fixed, the board drawn', async () => {
    const alice = await new Browser(app).register();
    const battle = await create(alice, {
      title: 'Off Rhodes',
      ruleset: 'classis',
      scenario: 'training-duel',
      seats: [{ side: 'cilicia', player: 'computer' }],
      join: 'rhodes',
      entropy: 'alice was here',
    });
    expect(battle.status).toBe('active');
    expect(battle.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(battle.salt).toBe(`${battle.id}:alice was here:`);
    expect(battle.seed).toBeNull();
    expect(battle.you).toEqual({ side: 'rhodes', umpire: false });
    expect(battle.board!.counters.length).toBe(8);
    expect(battle.deadlineAt).not.toBeNull();
    // Whoever moves first, it is now Rhodes's turn: the computer moved Cilicia's squadrons in the same request.
    expect(battle.turn).toMatchObject({ kind: 'side', side: 'rhodes' });
    expect(battle.yourTurn).toBe(true);
    // The page carries no list: the engine gives it from the state as Rhodes sees it, as the browser does; the
    // server lists the same when asked.
    expect(battle).not.toHaveProperty('legalActions');
    const listed = (await alice.request('GET', `/api/battles/${battle.id}?legalActions=true`)).json();
    expect(listed.legalActions.length).toBeGreaterThan(0);
    expect(listed.legalActions.every((legal: { side: string; text: string }) => legal.side === 'rhodes' && legal.text.length > 0)).toBe(true);
    expect(legalOf(battle)).toEqual(listed.legalActions.map((legal: { action: unknown }) => legal.action));
  });

  test('refuses bad input naming the field', async () => {
    const alice = await new Browser(app).register();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'x', ruleset: 'classis', scenario: 'atlantis' }, 'body.scenario'],
      [{ title: 'x', ruleset: 'classis' }, 'body.scenario'],
      [{ title: 'x', ruleset: 'naval-war', scenario: 'duel' }, 'body.ruleset'],
      [{ title: 'x', ruleset: 'ship-to-ship', setup: { ...duelSetup(), turnLimit: 0 } }, 'body.setup.turnLimit'],
      [{ title: 'x', ruleset: 'ship-to-ship', scenario: 'duel', seats: [{ side: 'atlantis', player: 'computer' }] }, 'body.seats.0.side'],
      [
        {
          title: 'x',
          ruleset: 'ship-to-ship',
          scenario: 'duel',
          seats: [
            { side: 'rhodes', player: 'computer' },
            { side: 'macedon', player: 'computer' },
          ],
        },
        'body.seats',
      ],
      [{ title: 'x', ruleset: 'ship-to-ship', scenario: 'duel', join: 'umpire' }, 'body.join'],
      [{ title: 'x', ruleset: 'ship-to-ship', scenario: 'duel', clock: { pace: 'correspondence', hoursPerTurn: 10_000 } }, 'body.clock.hoursPerTurn'],
    ];
    for (const [body, field] of cases) {
      const response = await alice.request('POST', '/api/battles', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.message, JSON.stringify(body)).toContain(field);
    }
    expect((await new Browser(app).request('POST', '/api/battles', { title: 'x', ruleset: 'classis', scenario: 'training-duel' })).statusCode).toBe(401);
  });
});

describe('seats', () => {
  test('are taken and left before the start; the battle starts when the last human seat fills', async () => {
    const [host, guest, umpire, late] = await Promise.all([1, 2, 3, 4].map(() => new Browser(app).register()));
    const battle = await create(host, { title: 'Duel', ruleset: 'ship-to-ship', scenario: 'duel', umpire: true, join: 'rhodes' });
    expect(battle.status).toBe('forming');
    expect(battle.seats.map((seat) => [seat.role, seat.side, seat.player, seat.user?.username ?? null])).toEqual([
      ['side', 'rhodes', 'human', host.user!.username],
      ['side', 'macedon', 'human', null],
      ['umpire', null, 'human', null],
    ]);
    const url = `/api/battles/${battle.id}`;
    expect((await guest.request('POST', `${url}/join`, { seat: 'rhodes' })).statusCode).toBe(409);
    expect((await guest.request('POST', `${url}/join`, { seat: 'carthage' })).json().error.message).toContain('body.seat');
    expect((await guest.request('POST', `${url}/join`, { seat: 'macedon' })).statusCode).toBe(200);
    expect((await guest.request('POST', `${url}/join`, { seat: 'umpire' })).json().error.code).toBe('already_joined');
    expect((await guest.request('POST', `${url}/leave`)).json().seats[1].user).toBeNull();
    expect((await guest.request('POST', `${url}/join`, { seat: 'macedon', entropy: 'g' })).statusCode).toBe(200);
    const started = (await umpire.request('POST', `${url}/join`, { seat: 'umpire', entropy: 'u' })).json() as Detail;
    expect(started.status).toBe('active');
    expect(started.salt).toBe(`${battle.id}::g:u`);
    expect(started.turn).toMatchObject({ kind: 'simultaneous', waiting: ['rhodes', 'macedon'] });
    expect(started.you).toEqual({ side: null, umpire: true });
    expect(started.yourTurn).toBe(false);
    expect(legalOf(started)).toEqual([]);
    expect((await late.request('POST', `${url}/join`, { seat: 'umpire' })).json().error.code).toBe('not_joinable');
    expect((await guest.request('POST', `${url}/leave`)).statusCode).toBe(409);
  });

  test('of a private battle: the invitation opens it, nothing else does', async () => {
    const [host, friend, stranger] = await Promise.all([1, 2, 3].map(() => new Browser(app).register()));
    const battle = await create(host, { title: 'Secret duel', ruleset: 'ship-to-ship', scenario: 'duel', private: true, join: 'rhodes' });
    expect(battle.inviteCode).toEqual(expect.any(String));
    const url = `/api/battles/${battle.id}`;
    expect((await stranger.request('GET', url)).statusCode).toBe(404);
    expect((await stranger.request('POST', `${url}/join`, { seat: 'macedon' })).statusCode).toBe(404);
    expect((await stranger.request('POST', `${url}/join`, { seat: 'macedon', inviteCode: 'wrong' })).statusCode).toBe(403);
    const listed = (await stranger.request('GET', '/api/battles?filter=open&limit=100')).json().battles as { id: string }[];
    expect(listed.some((b) => b.id === battle.id)).toBe(false);
    const seen = (await friend.request('GET', `${url}?inviteCode=${battle.inviteCode}`)).json() as Detail;
    expect(seen.inviteCode).toBeNull();
    const joined = await friend.request('POST', `${url}/join`, { seat: 'macedon', inviteCode: battle.inviteCode });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().status).toBe('active');
    expect(joined.json().inviteCode).toBe(battle.inviteCode);
    const mine = (await friend.request('GET', '/api/battles?filter=mine')).json().battles as { id: string }[];
    expect(mine.map((b) => b.id)).toContain(battle.id);
  });

  test('a battle waiting for players is called off by its creator only, and then leaves the open list and takes no one', async () => {
    const [host, guest] = await Promise.all([1, 2].map(() => new Browser(app).register()));
    const battle = await create(host, { title: 'Called off', ruleset: 'ship-to-ship', scenario: 'duel', join: 'rhodes' });
    const url = `/api/battles/${battle.id}`;
    const open = async () => ((await guest.request('GET', '/api/battles?filter=open&limit=100')).json().battles as { id: string }[]).map((b) => b.id);
    expect(await open()).toContain(battle.id);
    const refused = await guest.request('POST', `${url}/cancel`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain('creator');
    const cancelled = await host.request('POST', `${url}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');
    expect(await open()).not.toContain(battle.id);
    expect((await guest.request('POST', `${url}/join`, { seat: 'macedon' })).json().error.code).toBe('not_joinable');
    expect((await host.request('POST', `${url}/cancel`)).statusCode).toBe(409);
  });

  test('a started battle cannot be called off', async () => {
    const host = await new Browser(app).register();
    // Sides plot together in this duel, so the computer cannot end it before the host has acted (in a Classis duel
    // the chit cup may leave the host undrawn for turns while the computer sinks two ships: about 1 opening in 800).
    const battle = await create(host, {
      title: 'Begun',
      ruleset: 'ship-to-ship',
      scenario: 'duel',
      seats: [{ side: 'macedon', player: 'computer' }],
      join: 'rhodes',
    });
    expect(battle.status).toBe('active');
    const response = await host.request('POST', `/api/battles/${battle.id}/cancel`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toContain('waiting for players');
  });

  test('a user creating battles by the dozen is stopped at the hourly limit with a 429', async () => {
    const host = await new Browser(app).register();
    const body = { title: 'Spam', ruleset: 'ship-to-ship', scenario: 'duel' };
    const codes: number[] = [];
    for (let i = 0; i < 21; i += 1) codes.push((await host.request('POST', '/api/battles', body)).statusCode);
    expect(codes.slice(0, 20).every((code) => code === 201)).toBe(true);
    expect(codes[20]).toBe(429);
    // Counted per user: someone else may still create one.
    expect((await new Browser(app).register().then((other) => other.request('POST', '/api/battles', body))).statusCode).toBe(201);
  });
});

describe('a Classis battle', () => {
  test('is fought to its end against the computer, activation by activation, and checks out', async () => {
    const alice = await new Browser(app).register();
    const training = structuredClone(SCENARIOS.classis.find((s) => s.id === 'training-duel')!.setup) as Record<string, unknown>;
    // The seed is the server's, so the chits may end the one turn before Rhodes is drawn, or before the computer's
    // Cilicia is: fight one-turn battles until one has both sides acting (each try is a fresh battle and seed).
    const oneTurn = () =>
      create(alice, {
        title: 'One Classis turn',
        ruleset: 'classis',
        setup: { ...training, turnLimit: 1 },
        seats: [{ side: 'cilicia', player: 'computer' }],
        join: 'rhodes',
      });
    // At most 20 battles a user and hour: the same limit bounds the tries.
    let detail = await oneTurn();
    let actors = new Set<string>();
    for (let tries = 1; tries <= BATTLE_CREATE_LIMIT.max; tries++) {
      if (tries > 1) detail = await oneTurn();
      // One that ended in its set-up (the first chit End of Turn) is finished at once, not left with nobody to act.
      if (detail.status !== 'active') expect(detail).toMatchObject({ status: 'finished', turn: { kind: 'over' } });
      if (detail.status === 'active') {
        for (let moves = 0; detail.status === 'active' && moves < 200; moves++) {
          expect(detail.turn).toMatchObject({ kind: 'side', side: 'rhodes' });
          // The last choice offered: ending the activation early, where the rules allow it, keeps the battle short.
          const choice = legalOf(detail).at(-1);
          const response = await alice.request('POST', `/api/battles/${detail.id}/actions`, { action: choice, expected: detail.actionCount });
          expect(response.statusCode, response.body).toBe(200);
          detail = response.json();
        }
        expect(detail.status).toBe('finished');
        expect(detail.outcome!.reason.length).toBeGreaterThan(0);
        const log = (await alice.request('GET', `/api/battles/${detail.id}/log?limit=500`)).json();
        actors = new Set(log.entries.map((entry: { by: string }) => entry.by));
        expect(actors.has('start') && actors.has('player')).toBe(true);
        if (actors.has('computer')) break;
      }
    }
    expect(actors).toEqual(new Set(['start', 'player', 'computer']));
    expect((await alice.request('GET', `/api/battles/${detail.id}/verification`)).json()).toMatchObject({ ok: true, problems: [] });
  });
});

describe('the computer’s own random numbers', () => {
  test('come from the battle and the number of actions taken, the same every time, never from the dice', () => {
    const draw = (battle: string, count: number) => Array.from({ length: 5 }, computerRandom(battle, count));
    const id = '01a2a000-0000-7000-8000-000000000001';
    expect(draw(id, 3)).toEqual(draw(id, 3));
    expect(draw(id, 3)).not.toEqual(draw(id, 4));
    expect(draw(id, 3)).not.toEqual(draw('01a2a000-0000-7000-8000-000000000002', 3));
    const many = Array.from({ length: 2000 }, computerRandom(id, 0));
    expect(Math.min(...many)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...many)).toBeLessThan(1);
    // Spread over [0, 1): each tenth holds about a tenth of them.
    for (let tenth = 0; tenth < 10; tenth++) expect(many.filter((x) => Math.floor(x * 10) === tenth).length).toBeGreaterThan(140);
  });
});

describe('the battle’s live channel', () => {
  test('is for those who may see the battle: one who leaves a private battle stops hearing it', async () => {
    const [host, guest, stranger] = await Promise.all([1, 2, 3].map(() => new Browser(app).register()));
    const battle = await create(host, { title: 'Private channel', ruleset: 'ship-to-ship', scenario: 'duel', private: true, umpire: true, join: 'rhodes' });
    await guest.request('POST', `/api/battles/${battle.id}/join`, { seat: 'macedon', inviteCode: battle.inviteCode });
    const url = await listen(app);
    const channel = `battle:${battle.id}`;
    const outside = await connect(url, { cookie: stranger.cookie! });
    outside.send({ type: 'subscribe', channel });
    expect((await outside.next('error')).error.code).toBe('not_found');
    const watcher = await connect(url, { cookie: guest.cookie! });
    watcher.send({ type: 'subscribe', channel });
    await watcher.next('subscribed');
    expect((await guest.request('POST', `/api/battles/${battle.id}/leave`)).statusCode).toBe(200);
    const left = await watcher.next('event');
    expect(left.event).toMatchObject({ type: 'battle.changed', battleId: battle.id, what: 'left', status: 'forming' });
    expect(await watcher.next('unsubscribed')).toMatchObject({ channel, reason: expect.any(String) });
    outside.socket.close();
    watcher.socket.close();
  });

  test('a visitor holding the invitation watches a private battle without a seat; a wrong code opens nothing', async () => {
    const [host, visitor] = await Promise.all([1, 2].map(() => new Browser(app).register()));
    const battle = await create(host, { title: 'Invited to watch', ruleset: 'ship-to-ship', scenario: 'duel', private: true, umpire: true, join: 'rhodes' });
    const url = await listen(app);
    const channel = `battle:${battle.id}`;
    const wrong = await connect(url, { cookie: visitor.cookie! });
    wrong.send({ type: 'subscribe', channel, inviteCode: 'not-the-code' });
    expect((await wrong.next('error')).error.code).toBe('not_found');
    const watcher = await connect(url, { cookie: visitor.cookie! });
    watcher.send({ type: 'subscribe', channel, inviteCode: battle.inviteCode });
    await watcher.next('subscribed');
    const guest = await new Browser(app).register();
    await guest.request('POST', `/api/battles/${battle.id}/join`, { seat: 'macedon', inviteCode: battle.inviteCode });
    const heard = (what: string) => watcher.next('event', (message) => message.event.type === 'battle.changed' && message.event.what === what);
    await heard('joined');
    // Checked again when a seat is left, with the code it was opened with: the visitor goes on watching.
    await guest.request('POST', `/api/battles/${battle.id}/leave`);
    await heard('left');
    await guest.request('POST', `/api/battles/${battle.id}/join`, { seat: 'macedon', inviteCode: battle.inviteCode });
    await watcher.next('event', (message) => message.event.type === 'battle.changed' && watcher.messages.filter((m) => m.type === 'event').length === 3);
    expect(watcher.messages.some((message) => message.type === 'unsubscribed')).toBe(false);
    wrong.socket.close();
    watcher.socket.close();
  });
});

describe('the lobby', () => {
  test('hears a listed battle appear, fill, start and be called off, and never a private one', async () => {
    const [host, guest, umpire, watcherUser] = await Promise.all([1, 2, 3, 4].map(() => new Browser(app).register()));
    const url = await listen(app);
    const watcher = await connect(url, { cookie: watcherUser.cookie! });
    watcher.send({ type: 'subscribe', channel: 'lobby' });
    await watcher.next('subscribed');
    const heard = (battleId: string, what: string) =>
      watcher.next('event', (message) => message.event.type === 'battle.changed' && message.event.battleId === battleId && message.event.what === what);

    const secret = await create(host, { title: 'Behind closed doors', ruleset: 'ship-to-ship', scenario: 'duel', private: true, umpire: true, join: 'rhodes' });
    const open = await create(host, { title: 'Open water', ruleset: 'ship-to-ship', scenario: 'duel', umpire: true, join: 'rhodes' });
    expect((await heard(open.id, 'created')).event).toMatchObject({ status: 'forming' });
    await guest.request('POST', `/api/battles/${secret.id}/join`, { seat: 'macedon', inviteCode: secret.inviteCode });
    await guest.request('POST', `/api/battles/${open.id}/join`, { seat: 'macedon' });
    await heard(open.id, 'joined');
    await umpire.request('POST', `/api/battles/${open.id}/join`, { seat: 'umpire' });
    expect((await heard(open.id, 'started')).event).toMatchObject({ status: 'active' });
    const called = await create(host, { title: 'Called off', ruleset: 'ship-to-ship', scenario: 'duel', umpire: true, join: 'rhodes' });
    await heard(called.id, 'created');
    expect((await host.request('POST', `/api/battles/${called.id}/cancel`)).statusCode).toBe(200);
    await heard(called.id, 'cancelled');

    const battleIds = watcher.messages.flatMap((m) => (m.type === 'event' && m.event.type === 'battle.changed' ? [m.event.battleId] : []));
    expect(battleIds).toContain(open.id);
    expect(battleIds).not.toContain(secret.id);
    watcher.socket.close();
  });
});

describe('acting', () => {
  test('refusals carry the rules’ code; a stale count is 409; bad actions name the field; only one’s own side', async () => {
    const [host, guest, onlooker] = await Promise.all([1, 2, 3].map(() => new Browser(app).register()));
    const battle = await create(host, { title: 'Duel', ruleset: 'ship-to-ship', scenario: 'duel', join: 'rhodes' });
    await guest.request('POST', `/api/battles/${battle.id}/join`, { seat: 'macedon' });
    const url = `/api/battles/${battle.id}/actions`;
    const detail = (await host.request('GET', `/api/battles/${battle.id}`)).json() as Detail;
    const plot = legalOf(detail)[0];
    // Macedon's ship in Rhodes's plot: the ruleset's refusal.
    const wrongShip = { kind: 'plot', plots: [{ ...(plot as { plots: object[] }).plots[0], ship: 'leon' }] };
    const refused = await host.request('POST', url, { action: wrongShip, expected: 0 });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.code).toBe('action_refused');
    expect(refused.json().refusal.code).toBe('not_your_ship');
    const bad = await host.request('POST', url, { action: { kind: 'sail' }, expected: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('body.action');
    const stale = await host.request('POST', url, { action: plot, expected: 3 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: { code: 'conflict' }, actionCount: 0 });
    expect((await onlooker.request('POST', url, { action: plot, expected: 0 })).statusCode).toBe(403);
    expect((await new Browser(app).request('POST', url, { action: plot, expected: 0 })).statusCode).toBe(401);
    const taken = await host.request('POST', url, { action: plot, expected: 0 });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ actionCount: 1, turn: { kind: 'simultaneous', waiting: ['macedon'] }, yourTurn: false });
    // The same plot again: Rhodes has plotted this turn.
    const again = await host.request('POST', url, { action: plot, expected: 1 });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('action_refused');
    expect(again.json().refusal.code).toBe('already_plotted');
  });

  test('a battle against the computer is fought to its end; then the seed is revealed and matches the commitment', async () => {
    const alice = await new Browser(app).register();
    const battle = await create(alice, {
      title: 'Short duel',
      ruleset: 'ship-to-ship',
      setup: { ...duelSetup(), turnLimit: 3 },
      seats: [{ side: 'macedon', player: 'computer' }],
      join: 'rhodes',
    });
    let detail = battle;
    for (let moves = 0; detail.status === 'active' && moves < 20; moves++) {
      const response = await alice.request('POST', `/api/battles/${battle.id}/actions`, {
        action: legalOf(detail)[0],
        expected: detail.actionCount,
      });
      expect(response.statusCode, response.body).toBe(200);
      detail = response.json();
    }
    expect(detail.status).toBe('finished');
    // Three turns at most: the turn limit ends it (whoever kept more hull wins, or nobody), unless a side's ship is
    // sunk or taken before (the computer rams and boards when it can; the dice are the battle's own).
    expect(detail.outcome!.reason).toMatch(/^turn limit 3 reached|sunk|taken/);
    expect(detail.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(commitmentOf(detail.seed!)).toBe(detail.commitment);
    expect(detail.deadlineAt).toBeNull();
    // The computer played Macedon in the same requests (however soon the battle ended): nothing was left to a deadline.
    const log = (await alice.request('GET', `/api/battles/${battle.id}/log`)).json();
    expect(log.entries[0].by).toBe('start');
    const by = (who: string) => log.entries.filter((entry: { by: string }) => entry.by === who).length;
    expect(by('computer')).toBeGreaterThanOrEqual(1);
    expect(by('player')).toBeGreaterThanOrEqual(1);
    expect(by('deadline')).toBe(0);
    expect(log.entries.every((entry: { hidden: boolean }) => !entry.hidden)).toBe(true);
    const archive = (await new Browser(app).request('GET', '/api/battles?filter=finished')).json().battles as { id: string }[];
    expect(archive.map((b) => b.id)).toContain(battle.id);
  });
});
