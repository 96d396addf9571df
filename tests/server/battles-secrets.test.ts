/**
 * A naval battle's secrets stay secret. A ship-to-ship duel between two players, with an umpire, is fought to its
 * end while everyone watches it as a client would — the two players, the umpire, an onlooker who is logged in,
 * nobody, and a site administrator — each reading every route of the battle after every plot and holding a websocket
 * on its channel. Every response and message is recorded, then scanned for:
 *   - a side's plot before its turn is resolved (by value, wherever it appears, and in words): only its side and the
 *     umpire may see it; once resolved, everyone;
 *   - the seed of the dice before the battle is over (then everyone sees it, and it matches the commitment);
 *   - the umpire's notes before the battle is over (the umpire's alone; then everyone's).
 * And no seat of a battle of its own reads as hidden (that is an anonymous campaign game's, campaign-battle-sides).
 * Positive controls show the scan can see: the plotting side and the umpire find the plot where it is.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { setAdmin } from '../../server/admin/admins.ts';
import { SCENARIOS } from '../../shared/naval/index.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { connect, listen, type LiveClient } from './helpers/live.ts';

vi.setConfig({ testTimeout: 60_000 });

type Moment = { turn: number; secret: 'rhodes' | 'macedon' | null; over: boolean };
type Recorded = Moment & { what: string; text: string };

/** The same JSON value whatever the order of its keys (PostgreSQL's jsonb orders them its own way). */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/** Whether `target` appears anywhere in the JSON text, as a value. */
function holds(text: string, target: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  const walk = (value: unknown): boolean => {
    if (canonical(value) === target) return true;
    if (value && typeof value === 'object') return Object.values(value as object).some(walk);
    return false;
  };
  return walk(json);
}

class Watcher {
  readonly records: Recorded[] = [];
  socket: LiveClient | null = null;
  constructor(
    readonly name: string,
    readonly browser: Browser,
    private readonly moment: () => Moment,
  ) {}

  async get(path: string) {
    const response = await this.browser.request('GET', path);
    this.records.push({ ...this.moment(), what: `GET ${path} → ${response.statusCode}`, text: response.body });
  }

  async watch(url: string, battleId: string) {
    if (!this.browser.cookie) return;
    this.socket = await connect(url, { cookie: this.browser.cookie });
    this.socket.socket.on('message', (data) => this.records.push({ ...this.moment(), what: 'websocket', text: data.toString() }));
    this.socket.send({ type: 'subscribe', channel: `battle:${battleId}` });
    await this.socket.next('subscribed');
  }

  async settle() {
    if (!this.socket) return;
    const pongs = this.socket.messages.filter((m) => m.type === 'pong').length;
    this.socket.send({ type: 'ping' });
    await vi.waitFor(() => expect(this.socket!.messages.filter((m) => m.type === 'pong').length).toBe(pongs + 1));
  }
}

let testApp: TestApp;
let app: FastifyInstance;
const watchers: Watcher[] = [];
const moment: Moment = { turn: 1, secret: null, over: false };
/** Each plot handed in: its side, the turn, each ship's plot (canonical JSON) and the plot in words. */
const plots: { side: 'rhodes' | 'macedon'; turn: number; values: string[]; words: string }[] = [];
let seed: string;
let commitment: string;
/** The umpire's notes, one a turn. */
const notes: string[] = [];

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  const url = await listen(app);
  const [rhodes, macedon, umpire, onlooker, admin] = await Promise.all([1, 2, 3, 4, 5].map(() => new Browser(app).register()));
  await setAdmin(app.prisma, admin.user!.username, true);
  const now = () => ({ ...moment });
  const duel = structuredClone(SCENARIOS['ship-to-ship'].find((scenario) => scenario.id === 'duel')!.setup) as object;
  const created = (
    await rhodes.request('POST', '/api/battles', {
      title: 'Secrets at sea',
      ruleset: 'ship-to-ship',
      setup: { ...duel, turnLimit: 3 },
      umpire: true,
      join: 'rhodes',
    })
  ).json();
  const battleId = created.id as string;
  commitment = created.commitment;
  await umpire.request('POST', `/api/battles/${battleId}/join`, { seat: 'umpire' });
  for (const [name, browser] of [
    ['rhodes', rhodes],
    ['macedon', macedon],
    ['umpire', umpire],
    ['onlooker', onlooker],
    ['nobody', new Browser(app)],
    ['administrator', admin],
  ] as const)
    watchers.push(new Watcher(name, browser, now));
  for (const watcher of watchers) await watcher.watch(url, battleId);
  expect((await macedon.request('POST', `/api/battles/${battleId}/join`, { seat: 'macedon' })).json().status).toBe('active');
  seed = (await app.prisma.battleSeed.findUniqueOrThrow({ where: { battleId } })).seed;

  const poll = async () => {
    for (const watcher of watchers) {
      await watcher.settle();
      for (const path of ['', '?legalActions=true', '/log', '/export', '/verification', '/notes']) await watcher.get(`/api/battles/${battleId}${path}`);
      await watcher.get('/api/battles?filter=active&limit=100');
    }
  };
  const plot = async (side: 'rhodes' | 'macedon', browser: Browser) => {
    const detail = (await browser.request('GET', `/api/battles/${battleId}?legalActions=true`)).json();
    // A plot not handed in before, in value and in words: an earlier one, revealed, would look like a leak.
    const used = new Set(plots.flatMap((p) => [...p.values, p.words]));
    const fresh = (detail.legalActions as { action: { plots: unknown[] }; text: string }[]).filter(
      (legal) => !used.has(legal.text) && !legal.action.plots.some((one) => used.has(canonical(one))),
    );
    const chosen = fresh[Math.floor(fresh.length / 2)];
    const response = await browser.request('POST', `/api/battles/${battleId}/actions`, { action: chosen.action, expected: detail.actionCount });
    expect(response.statusCode, response.body).toBe(200);
    plots.push({ side, turn: moment.turn, values: (chosen.action as { plots: unknown[] }).plots.map(canonical), words: chosen.text });
    return response.json();
  };

  for (let turn = 1; ; turn++) {
    moment.turn = turn;
    const note = `umpire-note-${turn}-${Math.random().toString(36).slice(2)}`;
    expect((await umpire.request('POST', `/api/battles/${battleId}/notes`, { text: note })).statusCode).toBe(201);
    notes.push(note);
    // Each side plots first in turn: the one plotting second must not learn the first one's plot.
    const [first, second] = turn % 2 === 1 ? (['rhodes', 'macedon'] as const) : (['macedon', 'rhodes'] as const);
    await plot(first, first === 'rhodes' ? rhodes : macedon);
    moment.secret = first;
    await poll();
    const after = await plot(second, second === 'rhodes' ? rhodes : macedon);
    moment.secret = null;
    if (after.status === 'finished') break;
    await poll();
  }
  moment.over = true;
  await poll();
  for (const watcher of watchers) watcher.socket?.socket.close();
}, 60_000);
afterAll(() => testApp.close(), 60_000);

describe('a ship-to-ship duel recorded from every seat', () => {
  test('was fought over several turns, and every seat saw it', () => {
    // Three turns of two plots each, unless a ship was lost before.
    expect(plots.length).toBeGreaterThanOrEqual(4);
    for (const watcher of watchers) {
      expect(watcher.records.length, watcher.name).toBeGreaterThan(20);
      if (watcher.name !== 'nobody')
        expect(
          watcher.records.some((r) => r.what === 'websocket' && r.text.includes('battle.changed')),
          watcher.name,
        ).toBe(true);
    }
  });

  test('nobody but its side and the umpire sees a plot before its turn is resolved; they do', () => {
    const leaks: string[] = [];
    const sightings = new Map<string, number>();
    for (const watcher of watchers) {
      for (const record of watcher.records.filter((r) => r.secret !== null && !r.over)) {
        for (const hidden of plots.filter((p) => p.side === record.secret && p.turn === record.turn)) {
          const seen = hidden.values.some((value) => holds(record.text, value)) || record.text.includes(hidden.words);
          if (!seen) continue;
          if (watcher.name === hidden.side || watcher.name === 'umpire') sightings.set(watcher.name, (sightings.get(watcher.name) ?? 0) + 1);
          else leaks.push(`${watcher.name} saw ${hidden.side}'s plot of turn ${hidden.turn} (${record.what})`);
        }
      }
    }
    expect(leaks).toEqual([]);
    for (const who of ['rhodes', 'macedon', 'umpire']) expect(sightings.get(who) ?? 0, who).toBeGreaterThan(0);
  });

  test('once resolved, every plot is in everyone’s log', () => {
    for (const watcher of watchers) {
      const finalLog = watcher.records.filter((r) => r.over && r.what.includes('/log →')).at(-1)!;
      for (const done of plots) expect(finalLog.text, `${watcher.name}: ${done.words}`).toContain(done.words);
    }
  });

  test('the seed reaches nobody before the end; everyone after, matching the commitment', async () => {
    const { commitmentOf } = await import('../../shared/naval/dice.ts');
    expect(commitmentOf(seed)).toBe(commitment);
    for (const watcher of watchers) {
      expect(
        watcher.records.filter((r) => !r.over && r.text.includes(seed)).map((r) => r.what),
        watcher.name,
      ).toEqual([]);
      expect(
        watcher.records.some((r) => r.over && r.text.includes(seed)),
        watcher.name,
      ).toBe(true);
    }
  });

  test('a battle of its own names both players to every watcher: no seat reads as hidden, no side carries a power', () => {
    for (const watcher of watchers) {
      const pages = watcher.records.filter((r) => /^GET \/api\/battles\/[^/?]+(\?legalActions=true)? → 200$/.test(r.what));
      expect(pages.length, watcher.name).toBeGreaterThan(0);
      for (const page of pages) {
        const detail = JSON.parse(page.text) as { sides: object[]; seats: { side: string | null; user: unknown; hidden?: boolean }[] };
        expect(
          detail.seats.map((seat) => [seat.side, seat.user !== null, seat.hidden ?? false]),
          watcher.name,
        ).toEqual([
          ['rhodes', true, false],
          ['macedon', true, false],
          [null, true, false],
        ]);
        for (const side of detail.sides) expect(Object.keys(side).sort(), watcher.name).toEqual(['id', 'name']);
      }
    }
  });

  test("the umpire's notes reach nobody else before the end; everyone after", () => {
    for (const watcher of watchers) {
      const before = watcher.records.filter((r) => !r.over).map((r) => r.text);
      const after = watcher.records.filter((r) => r.over).map((r) => r.text);
      for (const note of notes) {
        expect(
          before.some((text) => text.includes(note)),
          `${watcher.name}: ${note}`,
        ).toBe(watcher.name === 'umpire');
        expect(
          after.some((text) => text.includes(note)),
          `${watcher.name}: ${note}`,
        ).toBe(true);
      }
    }
  });
});
