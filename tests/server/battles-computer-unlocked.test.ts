/**
 * The computer thinks with no lock held: the battles' deadline loop works out its moves in the worker pool from the
 * battle as read, then locks the battle and applies them only if nobody acted meanwhile and the battle is still being
 * fought. While it thinks about a big table (Salamis, 306 BC) the players, a spectator and the umpire are answered,
 * even by requests that lock the battle, and another battle goes on; then its moves land once. A battle whose player
 * acted, or which was called off, while it thought gets none of them. The loop's pool holds its answers until the
 * test lets them go (the thinking itself is the real pool's), so "while it thinks" is a fact, not a timing.
 * Also: the legal actions listed for a big position are worked out in the worker pool, the same list as the rules';
 * and a battle the computer opens is started and let go before the computer thinks out its first moves.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ComputerPool, type Thought } from '../../server/battles/computer-pool.ts';
import type { PlanRequest } from '../../server/battles/computer-jobs.ts';
import type { Plan } from '../../server/battles/computer-plan.ts';
import { BattleDeadlines } from '../../server/battles/deadlines.ts';
import { createBattle } from '../../server/battles/lobby.ts';
import { lockBattle } from '../../server/battles/stored.ts';
import { CreateBattleRequestSchema } from '../../shared/api/battles.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { usingPostgres } from './helpers/database.ts';

vi.setConfig({ testTimeout: 180_000 });

/** The real pool, whose plans are handed back only once the test opens the gate. */
class GatedPool extends ComputerPool {
  asked = 0;
  private opened!: () => void;
  private gate = new Promise<void>((open) => (this.opened = open));
  override async plan(request: PlanRequest): Promise<Thought<Plan>> {
    this.asked += 1;
    const thought = await super.plan(request);
    await this.gate;
    return thought;
  }
  open(): void {
    this.opened();
  }
}

let testApp: TestApp;
let app: FastifyInstance;
let alice: Browser;
let umpire: Browser;
let carol: Browser;
const pools: ComputerPool[] = [];

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  alice = await new Browser(app).register();
  umpire = await new Browser(app).register();
  carol = await new Browser(app).register();
}, 60_000);
afterAll(async () => {
  for (const pool of pools) await pool.close();
  await testApp?.close();
}, 60_000);

function gatedLoop(): { pool: GatedPool; deadlines: BattleDeadlines } {
  const pool = new GatedPool({ workers: 1, maxWaiting: 4, jobTimeoutMs: 120_000 });
  pools.push(pool);
  const deadlines = new BattleDeadlines(app.prisma, { bus: app.bus, log: app.log, computer: pool, play: app.play }, app.log, {
    enabled: false,
    intervalMs: 50,
    batch: 10,
  });
  return { pool, deadlines };
}

type Detail = { id: string; status: string; actionCount: number; yourTurn: boolean; legalActions?: { side: string; action: unknown; text: string }[] };

async function page(browser: Browser, id: string): Promise<Detail> {
  const response = await browser.request('GET', `/api/battles/${id}?legalActions=true`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function actFirst(browser: Browser, id: string): Promise<Detail> {
  const detail = await page(browser, id);
  expect(detail.yourTurn).toBe(true);
  const response = await browser.request('POST', `/api/battles/${id}/actions`, { action: detail.legalActions![0].action, expected: detail.actionCount });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const dueNow = (id: string) => app.prisma.battle.update({ where: { id }, data: { deadlineAt: new Date(Date.now() - 1000) } });
const logOf = async (browser: Browser, id: string) =>
  (await browser.request('GET', `/api/battles/${id}/log?limit=500`)).json().entries as { index: number; by: string; side: string | null }[];

/** A ship-to-ship duel against the computer, Rhodes (the player) owing a plot whose time has run out. */
async function lateDuel(player: Browser): Promise<string> {
  const created = await player.request('POST', '/api/battles', {
    title: 'Late against the computer',
    ruleset: 'ship-to-ship',
    scenario: 'duel',
    seats: [{ side: 'macedon', player: 'computer' }],
    join: 'rhodes',
    clock: { pace: 'correspondence', hoursPerTurn: 1 },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as Detail).id;
  await dueNow(id);
  return id;
}

describe('the computer thinking for a big table', () => {
  let salamis: string;

  test('answers the players, a spectator, the umpire and another battle meanwhile; its moves then land once', async () => {
    const created = await alice.request('POST', '/api/battles', {
      title: 'Salamis against the computer',
      ruleset: 'diadochi-naval',
      scenario: 'salamis-306',
      seats: [{ side: 'ptolemy', player: 'computer' }],
      umpire: true,
      join: 'demetrius',
    });
    expect(created.statusCode, created.body).toBe(201);
    salamis = (created.json() as Detail).id;
    expect((await umpire.request('POST', `/api/battles/${salamis}/join`, { seat: 'umpire' })).statusCode).toBe(200);
    // Demetrius deploys; the computer answers with its orders as far as the request's budget goes. Whoever owes
    // next, the loop has work: the computer's own moves, or Demetrius's orders once his time has run out.
    await actFirst(alice, salamis);
    await dueNow(salamis);
    const before = (await page(alice, salamis)).actionCount;

    const { pool, deadlines } = gatedLoop();
    let landed = false;
    const expiring = deadlines.processDue(new Date()).then((count) => {
      landed = true;
      return count;
    });
    await vi.waitFor(() => expect(pool.asked).toBe(1), { timeout: 60_000, interval: 20 });

    // The computer is thinking: nobody holds the battle's row.
    if (usingPostgres) {
      const free = await app.prisma.$transaction(
        (tx) => tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM battles WHERE id = ${salamis}::uuid FOR UPDATE NOWAIT`,
      );
      expect(free).toHaveLength(1);
    }
    expect((await alice.request('GET', `/api/battles/${salamis}`)).statusCode).toBe(200);
    const spectator = await new Browser(app).request('GET', `/api/battles/${salamis}`);
    expect(spectator.statusCode).toBe(200);
    expect(spectator.json().actionCount).toBe(before);
    // The umpire's note takes the battle's lock.
    const note = await umpire.request('POST', `/api/battles/${salamis}/notes`, { text: 'Ptolemy is taking his time.' });
    expect(note.statusCode, note.body).toBe(201);
    // Another battle is played meanwhile.
    const other = await carol.request('POST', '/api/battles', {
      title: 'Meanwhile',
      ruleset: 'ship-to-ship',
      scenario: 'duel',
      seats: [{ side: 'macedon', player: 'computer' }],
      join: 'rhodes',
    });
    expect(other.statusCode, other.body).toBe(201);
    const otherAfter = await actFirst(carol, (other.json() as Detail).id);
    expect(otherAfter.actionCount).toBeGreaterThan((other.json() as Detail).actionCount);
    expect(landed).toBe(false);

    pool.open();
    expect(await expiring).toBe(1);
    const after = await page(alice, salamis);
    expect(after.actionCount).toBeGreaterThan(before);
    const log = await logOf(alice, salamis);
    expect(log.map((entry) => entry.index)).toEqual(log.map((_, i) => i));
    expect(log.filter((entry) => entry.index > before).every((entry) => entry.by === 'computer' || entry.by === 'deadline')).toBe(true);
    // Nothing else was due: the moves landed once.
    expect(await deadlines.processDue(new Date(Date.now() - 60_000))).toBe(0);
  });

  test('lists the legal actions of a big position from the worker pool: the rules’ own list, other requests answered meanwhile', async () => {
    // The loop goes on with the computer's moves until it is Demetrius's turn to give orders.
    const computer = new ComputerPool();
    pools.push(computer);
    const loop = new BattleDeadlines(app.prisma, { bus: app.bus, log: app.log, computer, play: app.play }, app.log, {
      enabled: false,
      intervalMs: 50,
      batch: 10,
    });
    // (Looked at without the list, which would be kept for the request below.)
    const yourTurn = async () => (await alice.request('GET', `/api/battles/${salamis}`)).json().yourTurn as boolean;
    for (let i = 0; i < 20 && !(await yourTurn()); i++) await loop.processDue(new Date());
    expect(await yourTurn()).toBe(true);
    let listed = false;
    const listing = alice.request('GET', `/api/battles/${salamis}?legalActions=true`).then((response) => {
      listed = true;
      return response;
    });
    // Answered while the list is being worked out (seconds on this table): the event loop is not held.
    const rulesets = await carol.request('GET', '/api/battle-rulesets');
    expect(rulesets.statusCode).toBe(200);
    expect(listed).toBe(false);
    const response = await listing;
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json() as Detail;
    const row = await app.prisma.battle.findUniqueOrThrow({ where: { id: salamis } });
    const ruleset = RULESETS['diadochi-naval'];
    const state = ruleset.stateSchema.parse(row.state);
    const expected = ruleset.legalActions(state, 'demetrius').map((action) => ({ side: 'demetrius', action, text: ruleset.describe(state, action) }));
    expect(expected.length).toBeGreaterThan(1);
    expect(detail.legalActions).toEqual(JSON.parse(JSON.stringify(expected)));
  });
});

describe('a plan the battle has outrun', () => {
  test('a player who acts while the computer thinks for her late side keeps it out: no move of the computer’s for her', async () => {
    const id = await lateDuel(alice);
    const { pool, deadlines } = gatedLoop();
    const expiring = deadlines.processDue(new Date());
    await vi.waitFor(() => expect(pool.asked).toBe(1), { timeout: 60_000, interval: 20 });
    const acted = await actFirst(alice, id);
    pool.open();
    expect(await expiring).toBe(0);
    expect(deadlines.stats.skipped).toBe(1);
    const log = await logOf(alice, id);
    expect(log.some((entry) => entry.by === 'deadline')).toBe(false);
    expect((await page(alice, id)).actionCount).toBe(acted.actionCount);
  });

  test('a battle called off while the computer thinks gets no move', async () => {
    const id = await lateDuel(carol);
    const before = await app.prisma.battle.findUniqueOrThrow({ where: { id } });
    const { pool, deadlines } = gatedLoop();
    const expiring = deadlines.processDue(new Date());
    await vi.waitFor(() => expect(pool.asked).toBe(1), { timeout: 60_000, interval: 20 });
    // Called off as a campaign's battle the computer could not fight is (from-sea.ts): under the battle's lock.
    await app.prisma.$transaction(async (tx) => {
      const battle = await lockBattle(tx, id);
      await tx.battle.update({ where: { id: battle.id }, data: { status: 'cancelled', decision: null, deadlineAt: null } });
    });
    pool.open();
    expect(await expiring).toBe(0);
    const after = await app.prisma.battle.findUniqueOrThrow({ where: { id } });
    expect({ status: after.status, actionCount: after.actionCount }).toEqual({ status: 'cancelled', actionCount: before.actionCount });
    expect(await app.prisma.battleAction.count({ where: { battleId: id } })).toBe(before.actionCount);
  });
});

describe('the computer opening a battle', () => {
  test('thinks out its first moves once the battle has started and is let go; then they land, in the answer', async () => {
    const pool = new GatedPool({ workers: 1, maxWaiting: 4, jobTimeoutMs: 120_000 });
    pools.push(pool);
    const env = { bus: app.bus, log: app.log, computer: pool, play: app.play };
    const creator = await app.prisma.user.findUniqueOrThrow({ where: { id: alice.user!.id } });
    // Both sides plot at once from the first turn: the computer owes Macedon's plot as soon as the duel starts.
    const request = CreateBattleRequestSchema.parse({
      title: 'The computer plots first',
      ruleset: 'ship-to-ship',
      scenario: 'duel',
      seats: [{ side: 'macedon', player: 'computer' }],
      join: 'rhodes',
    });
    let answered = false;
    const creating = createBattle(env, app, creator, request).then((detail) => {
      answered = true;
      return detail;
    });
    await vi.waitFor(() => expect(pool.asked).toBe(1), { timeout: 60_000, interval: 20 });
    const row = await app.prisma.battle.findFirstOrThrow({ where: { title: 'The computer plots first' } });
    // Started and committed, the computer's plot not yet made; nobody holds the battle's row.
    expect({ status: row.status, actionCount: row.actionCount }).toEqual({ status: 'active', actionCount: 0 });
    if (usingPostgres) {
      const free = await app.prisma.$transaction(
        (tx) => tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM battles WHERE id = ${row.id}::uuid FOR UPDATE NOWAIT`,
      );
      expect(free).toHaveLength(1);
    }
    expect((await alice.request('GET', `/api/battles/${row.id}`)).statusCode).toBe(200);
    expect(answered).toBe(false);

    pool.open();
    const detail = (await creating) as { id: string; actionCount: number; turn: { waiting?: string[] } };
    expect(detail.id).toBe(row.id);
    expect(detail.actionCount).toBe(1);
    expect(detail.turn.waiting).toEqual(['rhodes']);
    expect((await logOf(alice, row.id)).filter((entry) => entry.by === 'computer').map((entry) => entry.side)).toEqual(['macedon']);
  });
});
