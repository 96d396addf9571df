/**
 * The measured-table rulesets (the Diadochi Naval Rules, Oi Navarcoi!) through the API, as the hex ones are: a battle
 * created from a shipped scenario cut to two turns, played to its end by API clients that take the legal actions the
 * page lists (`legalActions=true`), two players or one against the computer (whose thinking runs in the worker
 * threads, server/battles/computer-pool.ts); the outcome, the record's verification (shared/naval/record.ts verify,
 * and the route's), the archive listing; and a private battle, which a stranger cannot see. PostgreSQL or PGlite.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { mulberry32 } from '../../shared/random.ts';
import { BattleRecordSchema, verify } from '../../shared/naval/record.ts';
import { RULESETS, SCENARIOS } from '../../shared/naval/index.ts';
import { BattleDeadlines } from '../../server/battles/deadlines.ts';
import { ComputerPool } from '../../server/battles/computer-pool.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';

vi.setConfig({ testTimeout: 120_000 });

let testApp: TestApp;
let app: FastifyInstance;
let alice: Browser;
let bob: Browser;
/** The deadline loop's work, driven by the test: it goes on with computer moves a request left (the thinking budget). */
const computer = new ComputerPool();
let deadlines: BattleDeadlines;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  alice = await new Browser(app).register();
  bob = await new Browser(app).register();
  deadlines = new BattleDeadlines(app.prisma, { bus: app.bus, log: app.log, computer, play: app.play }, app.log, { enabled: false, intervalMs: 50, batch: 10 });
}, 60_000);
afterAll(async () => {
  await computer.close();
  await testApp?.close();
}, 60_000);

type Detail = {
  id: string;
  ruleset: 'diadochi-naval' | 'oi-navarcoi';
  status: string;
  actionCount: number;
  yourTurn: boolean;
  you: { side: string | null };
  state: unknown;
  inviteCode: string | null;
  outcome: { winner: string | null; reason: string } | null;
  legalActions?: { side: string; action: unknown; text: string }[];
};

/** A shipped scenario cut to `turns` turns, as a set-up of one's own. */
const shortSetup = (ruleset: Detail['ruleset'], scenario: string, turns: number) => ({
  ...(structuredClone(SCENARIOS[ruleset].find((s) => s.id === scenario)!.setup) as object),
  turnLimit: turns,
});

async function page(browser: Browser, id: string, inviteCode?: string): Promise<Detail> {
  const query = inviteCode ? `&inviteCode=${inviteCode}` : '';
  const response = await browser.request('GET', `/api/battles/${id}?legalActions=true${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * Plays the battle to its end: whoever of `players` must act takes one of the legal actions the page lists (at random,
 * seeded); when no player must act, the computer owes moves a request left to the deadline loop, which makes them.
 */
async function playToTheEnd(id: string, players: Browser[], inviteCode?: string): Promise<Detail> {
  const random = mulberry32(20261127);
  for (let steps = 0; steps < 400; steps++) {
    let acted = false;
    for (const player of players) {
      const detail = await page(player, id, inviteCode);
      if (detail.status !== 'active') return detail;
      if (!detail.yourTurn) continue;
      const legal = detail.legalActions!;
      expect(legal.length, 'a side to act has legal actions').toBeGreaterThan(0);
      expect(legal.every((l) => l.side === detail.you.side && l.text.length > 0)).toBe(true);
      const { action } = legal[Math.floor(random() * legal.length)];
      const response = await player.request('POST', `/api/battles/${id}/actions`, { action, expected: detail.actionCount });
      expect(response.statusCode, response.body).toBe(200);
      acted = true;
      break;
    }
    if (!acted) expect(await deadlines.processDue(new Date(), 1), 'nobody to act, and the computer owes no move').toBe(1);
  }
  throw new Error('the battle did not end in 400 steps');
}

/** The battle's record checks out, by the shared verifier and by the route; it is in the archive. */
async function checksOut(id: string, ruleset: Detail['ruleset'], inviteCode?: string) {
  const exported = await alice.request('GET', `/api/battles/${id}/export${inviteCode ? `?inviteCode=${inviteCode}` : ''}`);
  expect(exported.statusCode, exported.body).toBe(200);
  const record = BattleRecordSchema.parse(exported.json());
  expect(record.ruleset).toBe(ruleset);
  expect(record.seed).toBeDefined();
  const verification = verify(RULESETS[ruleset], record);
  expect(verification.problems).toEqual([]);
  expect(verification.ok).toBe(true);
  expect(verification.actions).toBeGreaterThan(0);
  const checked = await alice.request('GET', `/api/battles/${id}/verification`);
  expect(checked.statusCode, checked.body).toBe(200);
  expect(checked.json()).toMatchObject({ ok: true, problems: [], actions: record.actions.length });
  const archive = await alice.request('GET', `/api/battles?filter=finished&ruleset=${ruleset}`);
  expect((archive.json().battles as { id: string }[]).map((b) => b.id)).toContain(id);
}

describe.each([
  { ruleset: 'diadochi-naval' as const, scenario: 'squadron-clash', sides: ['antigonids', 'ptolemies'] },
  { ruleset: 'oi-navarcoi' as const, scenario: 'clash', sides: ['athens', 'corinth'] },
])('$ruleset, $scenario', ({ ruleset, scenario, sides }) => {
  test('is offered: listed with its scenarios', async () => {
    const listed = (await alice.request('GET', '/api/battle-rulesets')).json().rulesets as { id: string; scenarios: { id: string }[] }[];
    const offered = listed.find((r) => r.id === ruleset);
    expect(offered?.scenarios.map((s) => s.id)).toEqual(SCENARIOS[ruleset].map((s) => s.id));
  });

  test('two players fight a private battle to its end through the API; it checks out; a stranger sees nothing of it', async () => {
    const created = await alice.request('POST', '/api/battles', {
      title: `Two players, ${scenario}`,
      ruleset,
      setup: shortSetup(ruleset, scenario, 2),
      join: sides[0],
      private: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const battle = created.json() as Detail;
    expect(battle.status).toBe('forming');
    const inviteCode = battle.inviteCode!;
    expect(inviteCode).toBeTruthy();

    const stranger = await new Browser(app).register();
    for (const path of ['', '/log', '/export']) expect((await stranger.request('GET', `/api/battles/${battle.id}${path}`)).statusCode, path).toBe(404);
    expect((await stranger.request('POST', `/api/battles/${battle.id}/join`, { seat: sides[1] })).statusCode).toBe(404);

    const joined = await bob.request('POST', `/api/battles/${battle.id}/join`, { seat: sides[1], inviteCode });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().status).toBe('active');
    // Started, it is still the players' alone.
    for (const path of ['', '/log', '/export']) expect((await stranger.request('GET', `/api/battles/${battle.id}${path}`)).statusCode, path).toBe(404);

    const finished = await playToTheEnd(battle.id, [alice, bob], inviteCode);
    expect(finished.status).toBe('finished');
    expect(finished.outcome?.reason).toBeTruthy();
    await checksOut(battle.id, ruleset, inviteCode);
    // Over, it joins the archive (server/access/battle-policy.ts): the stranger reads it now, the seed revealed.
    const archived = await stranger.request('GET', `/api/battles/${battle.id}`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ status: 'finished', inviteCode: null });
  });

  test('a player fights the computer to the end; the computer’s moves are logged as its own', async () => {
    const created = await alice.request('POST', '/api/battles', {
      title: `Against the computer, ${scenario}`,
      ruleset,
      setup: shortSetup(ruleset, scenario, 2),
      seats: [{ side: sides[1], player: 'computer' }],
      join: sides[0],
    });
    expect(created.statusCode, created.body).toBe(201);
    const battle = created.json() as Detail;
    expect(battle.status).toBe('active');
    const finished = await playToTheEnd(battle.id, [alice]);
    expect(finished.status).toBe('finished');
    await checksOut(battle.id, ruleset);
    const log = (await alice.request('GET', `/api/battles/${battle.id}/log?limit=500`)).json();
    const by = (who: string) => log.entries.filter((entry: { by: string; side: string }) => entry.by === who);
    expect(by('computer').length).toBeGreaterThan(0);
    expect(by('computer').every((entry: { side: string }) => entry.side === sides[1])).toBe(true);
    expect(by('player').every((entry: { side: string }) => entry.side === sides[0])).toBe(true);
  });
});
