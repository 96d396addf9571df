/**
 * Two hands on a campaign game's contested sea beside the game master's decide, waive, fight and auto-resolve: the
 * game master abandons the battle being fought (server/battles/sea-abandon.ts), and the sides agree to auto-resolve
 * the sea (server/battles/sea-agreement.ts), their agreements stored across a server's restart.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { LiveEvent } from '../../shared/api/live.ts';
import { Browser, startSecondInstance, startTestApp, type TestApp } from './helpers/app.ts';
import { CAMPAIGN, playPhase, startGame, type StartedGame, masterFightsIonian } from './helpers/play.ts';

vi.setConfig({ testTimeout: 180_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

/** A game where Rome's and Macedonia's fleets met in the Ionian Sea: phase 0 held for it. */
async function ionianHeld(on: FastifyInstance = app): Promise<StartedGame> {
  const game = await startGame(on, CAMPAIGN);
  await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
  const held = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0`)).json();
  expect(held.status).toBe('held');
  return game;
}

const seaPath = (gameId: string, what: string, sea = 'ION') => `/api/games/${gameId}/phases/0/seas/${sea}/${what}`;

async function seaOf(browser: Browser, gameId: string, sea = 'ION') {
  const seas = (await browser.request('GET', `/api/games/${gameId}/phases/0/seas`)).json().seas as { sea: string }[];
  return seas.find((s) => s.sea === sea) as unknown as {
    status: string;
    battleId: string | null;
    agreed: string[];
    decidedBy: string | null;
    outcome: unknown;
  };
}

async function gmLogOf(master: Browser, gameId: string, kind: string) {
  const log = (await master.request('GET', `/api/games/${gameId}/gm/log`)).json();
  return (log.actions as { action: string; details: Record<string, unknown> }[]).filter((a) => a.action === kind);
}

/** Live events of a channel while `work` runs. */
async function heard(channel: string, work: () => Promise<void>): Promise<LiveEvent[]> {
  const events: LiveEvent[] = [];
  const unsubscribe = app.bus.subscribe(channel as never, (event) => events.push(event));
  try {
    await work();
    // The bus delivers after the commit, through PostgreSQL's notifications.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    unsubscribe();
  }
  return events;
}

describe('the game master abandons a sea battle under way', () => {
  test('the battle ends with nobody winning, stays in the archive marked abandoned; the sea is undecided again and fought anew', async () => {
    const game = await ionianHeld();
    const rome = game.byPower.get('Rome')!;
    // Rome had agreed to auto-resolve before the game master chose to fight it: the sea reopened asks again.
    expect((await rome.request('POST', seaPath(game.gameId, 'agreement'))).json().agreed).toEqual(['Rome']);
    const opened = await game.master.request('POST', seaPath(game.gameId, 'battle'), {});
    expect(opened.statusCode, opened.body).toBe(200);
    const battleId = opened.json().battleId as string;

    // A player may not; the game master may, and both the battle's watchers and the game's are told.
    const byPlayer = await rome.request('POST', seaPath(game.gameId, 'abandon'));
    expect(byPlayer.statusCode, byPlayer.body).toBe(403);
    let answer: Awaited<ReturnType<Browser['request']>> | null = null;
    const battleEvents: LiveEvent[] = [];
    const gameEvents = await heard(`game:${game.gameId}`, async () => {
      battleEvents.push(
        ...(await heard(`battle:${battleId}`, async () => {
          answer = await game.master.request('POST', seaPath(game.gameId, 'abandon'));
        })),
      );
    });
    expect(answer!.statusCode, answer!.body).toBe(200);
    expect(answer!.json()).toMatchObject({ sea: 'ION', status: 'undecided', battleId: null, outcome: null, decidedBy: null, agreed: [] });
    expect(battleEvents).toContainEqual(expect.objectContaining({ type: 'battle.changed', battleId, what: 'finished', status: 'finished' }));
    expect(gameEvents).toContainEqual(
      expect.objectContaining({ type: 'sea.changed', sea: expect.objectContaining({ sea: 'ION', status: 'undecided', battleId: null }) }),
    );

    // The battle: over, nobody won, its page and the archive say it was abandoned.
    const page = (await rome.request('GET', `/api/battles/${battleId}`)).json();
    expect(page.status).toBe('finished');
    expect(page.outcome).toEqual({ winner: null, reason: expect.stringContaining('abandoned by the game master') });
    const archive = (await rome.request('GET', '/api/battles?filter=finished&limit=100')).json();
    expect(archive.battles.find((b: { id: string }) => b.id === battleId)?.outcome?.reason).toContain('abandoned');
    // Its players can act no more.
    expect((await rome.request('POST', `/api/battles/${battleId}/actions`, { expected: page.actionCount, action: {} })).statusCode).toBeGreaterThanOrEqual(400);

    // The game master's log says so.
    expect((await gmLogOf(game.master, game.gameId, 'abandon-sea')).map((a) => a.details)).toEqual([
      expect.objectContaining({ phase: 0, sea: 'ION', seaName: 'Ionian Sea', battleId, actions: 0 }),
    ]);
    // Nothing left to abandon; the phase still waits; the sea is fought again with a new battle.
    const again = await game.master.request('POST', seaPath(game.gameId, 'abandon'));
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().error.message).toContain('no battle is being fought for Ionian Sea');
    expect((await game.master.request('GET', `/api/games/${game.gameId}/phases/0`)).json().status).toBe('held');
    const second = await game.master.request('POST', seaPath(game.gameId, 'battle'), {});
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().battleId).not.toBe(battleId);

    // A battle over already is not abandoned (as one whose end could not decide the sea leaves it).
    await app.prisma.battle.update({ where: { id: second.json().battleId }, data: { status: 'finished' } });
    const over = await game.master.request('POST', seaPath(game.gameId, 'abandon'));
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json().error.message).toContain('is over already');

    // Once the sea is decided and the phase processed, there is nothing held to abandon.
    await app.prisma.battle.update({ where: { id: second.json().battleId }, data: { status: 'active' } });
    expect((await game.master.request('POST', seaPath(game.gameId, 'abandon'))).statusCode).toBe(200);
    expect((await game.master.request('POST', seaPath(game.gameId, 'decide'), { winner: 'Rome' })).statusCode).toBe(200);
    const closed = await game.master.request('POST', seaPath(game.gameId, 'abandon'));
    expect(closed.statusCode, closed.body).toBe(409);
    expect(closed.json().error.code).toBe('phase_closed');
  });

  test('refused in a game that is no campaign, and to a game master who plays a power fighting in that sea', async () => {
    const plain = await startGame(app);
    const notCampaign = await plain.master.request('POST', seaPath(plain.gameId, 'abandon'));
    expect(notCampaign.statusCode, notCampaign.body).toBe(409);
    expect(notCampaign.json().error.message).toContain('not a campaign');

    const { gameId, master } = await masterFightsIonian(app);
    for (const sea of ['ION', 'LEV']) expect((await master.request('POST', seaPath(gameId, 'battle', sea), {})).statusCode).toBe(200);

    const own = await master.request('POST', seaPath(gameId, 'abandon', 'ION'));
    expect(own.statusCode, own.body).toBe(403);
    expect(own.json().error).toMatchObject({ code: 'game_master_plays', message: expect.stringContaining('Ionian Sea') });
    expect((await seaOf(master, gameId, 'ION')).status).toBe('fighting');
    const others2 = await master.request('POST', seaPath(gameId, 'abandon', 'LEV'));
    expect(others2.statusCode, others2.body).toBe(200);
    expect(others2.json().status).toBe('undecided');
  });
});

describe('the sides agree to auto-resolve a sea', () => {
  test('each fighting power agrees or withdraws; when both have, the computer fights it out and decides the sea', async () => {
    const game = await ionianHeld();
    const rome = game.byPower.get('Rome')!;
    const macedonia = game.byPower.get('Macedonia')!;

    // Only the players of the powers fighting there.
    const egypt = await game.byPower.get('Egypt')!.request('POST', seaPath(game.gameId, 'agreement'));
    expect(egypt.statusCode, egypt.body).toBe(403);
    expect(egypt.json().error.message).toContain('Egypt does not fight in Ionian Sea');
    const stranger = await new Browser(app).register();
    expect((await stranger.request('POST', seaPath(game.gameId, 'agreement'))).statusCode).toBe(403);
    expect((await game.master.request('POST', seaPath(game.gameId, 'agreement'))).statusCode).toBe(403);

    // Rome agrees: shown to everyone who sees the game, published live; then withdraws, and agrees again.
    const events = await heard(`game:${game.gameId}`, async () => {
      const agreed = await rome.request('POST', seaPath(game.gameId, 'agreement'));
      expect(agreed.statusCode, agreed.body).toBe(200);
      expect(agreed.json()).toMatchObject({ status: 'undecided', agreed: ['Rome'] });
    });
    expect(events).toContainEqual(expect.objectContaining({ type: 'sea.changed', sea: expect.objectContaining({ sea: 'ION', agreed: ['Rome'] }) }));
    expect((await seaOf(game.byPower.get('Syria')!, game.gameId)).agreed).toEqual(['Rome']);
    const twice = await rome.request('POST', seaPath(game.gameId, 'agreement'));
    expect(twice.json().agreed).toEqual(['Rome']);
    const withdrawn = await rome.request('DELETE', seaPath(game.gameId, 'agreement'));
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({ status: 'undecided', agreed: [] });
    // Macedonia alone does not auto-resolve it.
    const alone = await macedonia.request('POST', seaPath(game.gameId, 'agreement'));
    expect(alone.json()).toMatchObject({ status: 'undecided', agreed: ['Macedonia'] });

    const both = await rome.request('POST', seaPath(game.gameId, 'agreement'));
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json()).toMatchObject({ sea: 'ION', status: 'decided', decidedBy: 'computer' });
    expect(both.json().agreed.sort()).toEqual(['Macedonia', 'Rome']);
    const battleId = both.json().battleId as string;
    const battle = (await rome.request('GET', `/api/battles/${battleId}`)).json();
    expect(battle.status).toBe('finished');
    expect(battle.seats.filter((seat: { role: string }) => seat.role === 'side').map((seat: { player: string }) => seat.player)).toEqual([
      'computer',
      'computer',
    ]);
    expect((await rome.request('GET', `/api/battles/${battleId}/verification`)).json()).toMatchObject({ ok: true, problems: [] });
    expect((await gmLogOf(game.master, game.gameId, 'auto-resolve-sea')).map((a) => a.details)).toEqual([
      expect.objectContaining({ sea: 'ION', battleId, agreedBy: expect.arrayContaining(['Rome', 'Macedonia']) }),
    ]);
    expect((await game.master.request('GET', `/api/games/${game.gameId}/phases/0`)).json().status).toBe('processed');
    // Decided: no agreement to withdraw any more.
    const late = await rome.request('DELETE', seaPath(game.gameId, 'agreement'));
    expect(late.statusCode, late.body).toBe(409);
  });

  test("the game master's new sides ask the sides again; a game that is no campaign has nothing to agree to", async () => {
    const plain = await startGame(app);
    const refused = await plain.byPower.get('Rome')!.request('POST', seaPath(plain.gameId, 'agreement'));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.message).toContain('not a campaign');

    // Rome, Carthage and Macedonia meet in the South Tyrrhenian Sea: the game master sets the sides before anyone may agree.
    const game = await startGame(app, CAMPAIGN);
    await playPhase(game, 0, { Carthage: ['F Car - AFR'], Macedonia: ['F Kor - ION'] });
    await playPhase(game, 1, { Carthage: ['F AFR - STY'], Macedonia: ['F ION - STY'], Rome: ['F Rom - STY'] });
    const sty = (what: string) => `/api/games/${game.gameId}/phases/1/seas/STY/${what}`;
    const rome = game.byPower.get('Rome')!;
    const early = await rome.request('POST', sty('agreement'));
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().error.message).toContain('sets the two sides first');
    const sides = await game.master.request('PUT', sty('sides'), { sides: [['Rome'], ['Carthage', 'Macedonia']] });
    expect(sides.statusCode, sides.body).toBe(200);
    expect((await rome.request('POST', sty('agreement'))).json().agreed).toEqual(['Rome']);
    expect((await game.byPower.get('Carthage')!.request('POST', sty('agreement'))).json()).toMatchObject({ status: 'undecided', agreed: ['Rome', 'Carthage'] });
    const regrouped = await game.master.request('PUT', sty('sides'), { sides: [['Rome', 'Macedonia'], ['Carthage']] });
    expect(regrouped.statusCode, regrouped.body).toBe(200);
    expect(regrouped.json().agreed).toEqual([]);
  });
});

describe('agreements across a restart', () => {
  test('an agreement stored before the server stops counts on the next one, where the other side agrees and the sea is auto-resolved', async () => {
    const first = await startTestApp();
    let next: FastifyInstance | null = null;
    try {
      const game = await ionianHeld(first.app);
      const rome = game.byPower.get('Rome')!;
      expect((await rome.request('POST', seaPath(game.gameId, 'agreement'))).json().agreed).toEqual(['Rome']);
      next = await startSecondInstance(first);
      await first.app.close();
      // The same players' sessions, on the next server.
      const on = (browser: Browser) => Object.assign(new Browser(next!), { cookie: browser.cookie, csrfToken: browser.csrfToken, user: browser.user });
      expect((await seaOf(on(game.master), game.gameId)).agreed).toEqual(['Rome']);
      const both = await on(game.byPower.get('Macedonia')!).request('POST', seaPath(game.gameId, 'agreement'));
      expect(both.statusCode, both.body).toBe(200);
      expect(both.json()).toMatchObject({ status: 'decided', decidedBy: 'computer' });
      expect((await on(game.master).request('GET', `/api/games/${game.gameId}/phases/0`)).json().status).toBe('processed');
    } finally {
      await next?.close();
      await first.database.drop();
    }
  });
});
