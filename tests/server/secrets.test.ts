/**
 * Secrets stay secret, over a whole game. An anonymous Diadochi V game is
 * played through the API to a draw while everyone watches it the way a
 * client would — its five players, the game master, an outsider who is logged
 * in, nobody (no credentials) and a site administrator — each polling every
 * read route after every move and holding a websocket on the game, the lobby
 * and their own channel. It is played twice: run by a game master who does
 * not play, and by one who plays a power (a player first: they must see no
 * more than the other players, and the tools they use with the players'
 * consent must not show them more either). Every response body and every websocket message each of them gets is
 * recorded, then scanned for what they must not see:
 *   - another power's orders before the phase is processed (orders are typed
 *     with a spacing and letter case unique to the power and phase, so they
 *     can be recognised anywhere);
 *   - private press not addressed to them (each message carries a marker);
 *   - in an anonymous game, until it ends, any other player's username or
 *     user id (the game master and administrator may see them; the game
 *     master's own name is public).
 * Positive controls check that the scan can see: authors see their orders,
 * recipients their messages, the game master the names, and everyone the names
 * once the game has ended.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { formatOrder, getVariant } from '../../shared/index.ts';
import { randomOrders, seeded } from '../support/random-game.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { connect, listen, settled, type LiveClient } from './helpers/live.ts';
import { currentPhase, ordersByPower, startGame, type StartedGame } from './helpers/play.ts';
import { setAdmin } from '../../server/admin/admins.ts';
import { notifySettings } from './helpers/smtp.ts';

vi.setConfig({ testTimeout: 180_000 });

const variant = getVariant('diadochi-v')!;
/** Phases played (a game-year and more); SECRETS_ROUNDS=20 plays longer. */
const ROUNDS = Number(process.env.SECRETS_ROUNDS ?? 4);

type Moment = { phase: number; beforeProcessing: boolean; over: boolean };
type Recorded = Moment & { via: 'http' | 'ws'; what: string; text: string };

class Watcher {
  readonly records: Recorded[] = [];
  socket: LiveClient | null = null;
  constructor(
    readonly name: string,
    readonly browser: Browser,
    readonly power: string | null,
    private readonly moment: () => Moment,
  ) {}

  async get(path: string) {
    const response = await this.browser.request('GET', path);
    // The seats read at once: a read turned away as busy or too many would be a body the scan never saw.
    expect([429, 503], `GET ${path} as ${this.name}`).not.toContain(response.statusCode);
    this.records.push({ ...this.moment(), via: 'http', what: `GET ${path} → ${response.statusCode}`, text: response.body });
    return response;
  }

  async watch(url: string, gameId: string) {
    if (!this.browser.cookie) return;
    this.socket = await connect(url, { cookie: this.browser.cookie });
    this.socket.socket.on('message', (data) => this.records.push({ ...this.moment(), via: 'ws', what: 'websocket message', text: data.toString() }));
    this.socket.send({ type: 'subscribe', channel: `game:${gameId}` });
    this.socket.send({ type: 'subscribe', channel: 'lobby' });
    // Private press comes on one's own channel, as the board listens to it.
    this.socket.send({ type: 'subscribe', channel: `user:${this.browser.user!.id}` });
    await this.socket.next('subscribed', (message) => message.channel === `game:${gameId}`);
    await this.socket.next('subscribed', (message) => message.channel.startsWith('user:'));
  }

  /**
   * Game mail and push payloads written to the outbox for this watcher (server/notify/), each version as it was
   * written; and, for `webhooks` (the outsider: a webhook posts to a Discord or Slack channel anyone may read), the
   * game's webhook bodies.
   */
  private readonly outboxSeen = new Map<string, string>();
  async notifications(gameId: string, webhooks = false) {
    if (!this.browser.user) return;
    const rows = await app.prisma.outboxMessage.findMany({
      where: { gameId, OR: [{ userId: this.browser.user.id }, ...(webhooks ? [{ channel: 'webhook' as const }] : [])] },
      orderBy: { createdAt: 'asc' },
    });
    for (const row of rows) {
      const text = JSON.stringify(row.payload);
      if (this.outboxSeen.get(row.id) === text) continue;
      this.outboxSeen.set(row.id, text);
      this.records.push({ ...this.moment(), via: 'http', what: `${row.channel} ${row.dedupeKey}`, text });
    }
  }

  /** Waits until the socket has been sent everything published so far (a pong comes after them). */
  async settle() {
    if (this.socket) await settled(this.socket);
  }
}

/** The order as typed by `power` in phase `index`: gaps of a width that encodes the phase, random letter case. */
function signed(text: string, index: number, rnd: () => number): string {
  const gaps = [1 + (index % 4), 1 + (Math.floor(index / 4) % 4)];
  let gap = 0;
  const spaced = text.split(' ').reduce((line, word) => (line === '' ? word : `${line}${' '.repeat(gaps[gap++ % 2])}${word}`), '');
  return [...spaced].map((c) => (rnd() < 0.5 ? c.toLowerCase() : c.toUpperCase())).join('');
}

let testApp: TestApp;
let app: FastifyInstance;
let url: string;

/** A Diadochi V game whose creator runs it and plays a power (the default), four others joining after them. */
async function startPlayingGame(): Promise<StartedGame> {
  const [master, ...others] = await Promise.all(Array.from({ length: 5 }, () => new Browser(app).register()));
  const created = (await master.request('POST', '/api/games', { name: 'Secrets', variant: 'diadochi-v', anonymous: true, press: 'full' })).json();
  for (const player of others) expect((await player.request('POST', `/api/games/${created.id}/join`, {})).statusCode).toBe(200);
  const byPower = new Map<string, Browser>();
  for (const player of [master, ...others]) {
    byPower.set((await player.request('GET', `/api/games/${created.id}`)).json().players.find((seat: { isYou: boolean }) => seat.isYou).power, player);
  }
  return { gameId: created.id, master, players: [master, ...others], byPower, powers: [...byPower.keys()].sort() };
}

beforeAll(async () => {
  // The outbox is left as written (no delivery): the game's mail and push are scanned where they wait.
  testApp = await startTestApp({ settings: { notify: notifySettings() } });
  app = testApp.app;
  url = await listen(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

describe.each([
  { label: 'run by a game master who does not play', masterPlays: false, campaign: false },
  { label: 'run by a game master who plays a power', masterPlays: true, campaign: false },
  // Its first phase held for a sea battle (Rome and Macedonia meet in the Ionian Sea), decided by the game master.
  { label: 'a campaign whose phases are held for their seas', masterPlays: false, campaign: true },
])('a whole anonymous game, $label, recorded from every seat', ({ masterPlays, campaign }) => {
  let game: StartedGame;
  const moment: Moment = { phase: 0, beforeProcessing: true, over: false };
  const now = () => ({ ...moment });
  const watchers: Watcher[] = [];
  /** Orders as typed, by phase and power. */
  const typed = new Map<number, Map<string, string[]>>();
  /** Private messages: marker, and who may read it: the powers (sender and recipients), "gm" and "administrator". */
  const privateMessages: { marker: string; readers: Set<string> }[] = [];
  let names: Map<string, { id: string; username: string }>;

  /** The power the game master plays, if they play one. */
  let masterPower: string | null = null;
  /** Times a phase was found held for its seas (campaign). */
  let heldPhases = 0;

  beforeAll(async () => {
    game = masterPlays
      ? await startPlayingGame()
      : await startGame(app, { anonymous: true, press: 'full', ...(campaign ? { campaign: { ruleset: 'classis' } } : {}) });
    const { gameId, master, byPower, powers } = game;
    masterPower = powers.find((power) => byPower.get(power) === master) ?? null;
    names = new Map(powers.map((power) => [power, byPower.get(power)!.user!]));
    // Every member has a verified address and a subscribed browser: the game's mail and push are scanned too.
    for (const member of new Set([master, ...byPower.values()])) {
      const email = `${member.user!.username.toLowerCase()}@mail.test`;
      await app.prisma.user.update({ where: { id: member.user!.id }, data: { email, emailKey: email, emailVerifiedAt: new Date() } });
      await app.prisma.pushSubscription.create({
        data: { userId: member.user!.id, endpoint: `https://push.example/${member.user!.id}`, p256dh: 'key', auth: 'auth' },
      });
    }
    // A webhook on every event it may be called on: its bodies are scanned as what an outsider reads.
    await app.prisma.gameWebhook.create({
      data: {
        gameId,
        url: 'https://hooks.example.org/secrets',
        secret: 's'.repeat(32),
        events: ['phase-processed', 'deadline-reminder', 'game-ended'],
        createdById: master.user!.id,
      },
    });
    const admin = await new Browser(app).register();
    await setAdmin(app.prisma, admin.user!.username, true);
    for (const power of powers) watchers.push(new Watcher(power === masterPower ? `game master (${power})` : power, byPower.get(power)!, power, now));
    if (!masterPower) watchers.push(new Watcher('game master', master, null, now));
    watchers.push(new Watcher('outsider', await new Browser(app).register(), null, now));
    watchers.push(new Watcher('nobody', new Browser(app), null, now));
    watchers.push(new Watcher('administrator', admin, null, now));
    for (const watcher of watchers) await watcher.watch(url, gameId);

    // Every seat reads at once, each its routes one after another, as the seats' browsers would: nothing is written
    // while they read, so each records the same moment it would one seat after another (and the file waits less).
    const poll = () =>
      Promise.all(
        watchers.map(async (watcher) => {
          await watcher.settle();
          for (const path of [
            '',
            '/phases',
            '/phases/current',
            `/phases/${moment.phase}`,
            `/phases/${moment.phase}/orders`,
            '/press',
            '/loans',
            '/votes',
            '/gm/log',
            '/gm/proposals',
            '/export',
            '/export/datc',
            // The map pictures' SVG (the PNG draws the same): orders and names would be its text.
            '/map.svg',
            `/phases/${moment.phase}/map.svg`,
          ]) {
            await watcher.get(`/api/games/${gameId}${path}`);
          }
          await watcher.get('/api/games?filter=active');
          await watcher.notifications(gameId, watcher.name === 'outsider');
          if (watcher.name === 'administrator') await watcher.get('/api/admin/audit');
        }),
      );

    const rnd = seeded(4242);
    for (let round = 0; round < ROUNDS; round++) {
      const phase = await currentPhase(master, gameId);
      Object.assign(moment, { phase: phase.index, beforeProcessing: true });
      // Press: every power writes privately to the next one; the game master privately to one power.
      for (const [i, power] of powers.entries()) {
        const to = powers[(i + 1) % powers.length];
        const marker = `secret-${round}-${power}-to-${to}-${Math.floor(rnd() * 1e9)}`;
        const sent = await byPower.get(power)!.request('POST', `/api/games/${gameId}/press`, { to: [to], body: `Between us: ${marker}` });
        expect(sent.statusCode, sent.body).toBe(201);
        privateMessages.push({ marker, readers: new Set([power, to]) });
      }
      const gmMarker = `gm-secret-${round}-${Math.floor(rnd() * 1e9)}`;
      const gmTo = powers.filter((power) => power !== masterPower)[round % (powers.length - (masterPower ? 1 : 0))];
      expect((await master.request('POST', `/api/games/${gameId}/press`, { to: [gmTo], body: gmMarker, asGameMaster: true })).statusCode).toBe(201);
      // The game master's messages are the game master's business: the administrator acts as game master too.
      privateMessages.push({ marker: gmMarker, readers: new Set([gmTo, masterPower ?? 'gm', 'administrator']) });
      await byPower.get(powers[round % powers.length])!.request('POST', `/api/games/${gameId}/press`, { to: 'all', body: `Public word ${round}` });

      // Orders, typed with the power's signature for this phase; refused ones dropped (random orders may clash).
      const byPowerOrders = ordersByPower(randomOrders(variant, phase.state, rnd));
      const typedNow = new Map<string, string[]>();
      for (const power of phase.powers.filter((line) => line.mustOrder).map((line) => line.power)) {
        let plain = (byPowerOrders.get(power) ?? []).map((order) => formatOrder(order));
        const meeting = campaign && round === 0 ? { Rome: 'F Nea - ION', Macedonia: 'F Kor - ION' }[power] : undefined;
        if (meeting) plain = [...plain.filter((line) => !line.startsWith(meeting.slice(0, 6))), meeting];
        const lines = plain.map((line) => signed(line, phase.index, rnd));
        let response = await byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/${phase.index}/orders`, { orders: lines.join('\n') });
        let kept = lines;
        if (response.statusCode === 422) {
          const verdicts = response.json().orders as { accepted: boolean }[];
          kept = lines.filter((_, k) => verdicts[k].accepted);
          response = await byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/${phase.index}/orders`, { orders: kept.join('\n') });
        }
        expect(response.statusCode, response.body).toBe(200);
        typedNow.set(power, kept);
      }
      typed.set(phase.index, typedNow);
      await poll();

      // Processed by the ready flags (every power), or by the game master every other round: at once, or, by a
      // game master who plays, once the other players agree (the request and its answers are recorded too).
      moment.beforeProcessing = false;
      if (round % 2 === 0) {
        const asked = await master.request('POST', `/api/games/${gameId}/gm/process`);
        expect(asked.statusCode, asked.body).toBe(masterPower ? 202 : 200);
        if (masterPower) {
          await poll();
          for (const power of asked.json().proposal.needed as string[]) {
            expect(
              (await byPower.get(power)!.request('POST', `/api/games/${gameId}/gm/proposals/${asked.json().proposal.id}/answer`, { agree: true })).statusCode,
            ).toBe(200);
          }
        }
      } else {
        for (const power of phase.powers.filter((line) => line.mustOrder).map((line) => line.power)) {
          expect((await byPower.get(power)!.request('POST', `/api/games/${gameId}/phases/${phase.index}/ready`, { ready: true })).statusCode).toBe(200);
        }
      }
      // A campaign phase held for its seas: its orders are public (after processing, for the scan) while the game
      // master decides each sea (a sea of two powers for the first of them) or waives it, until the phase goes on.
      for (let tries = 0; campaign && tries < 5; tries++) {
        const seen = (await master.request('GET', `/api/games/${gameId}/phases/${phase.index}`)).json();
        if (seen.status !== 'held') break;
        heldPhases += 1;
        await poll();
        for (const sea of seen.seas as { sea: string; status: string; powers: string[] }[]) {
          if (sea.status !== 'undecided') continue;
          const path = `/api/games/${gameId}/phases/${phase.index}/seas/${sea.sea}`;
          if (sea.powers.length === 2) {
            // One side agrees to auto-resolve first (who agreed is a power, never a name); then the game master decides.
            const agreed = await byPower.get(sea.powers[0])!.request('POST', `${path}/agreement`);
            expect(agreed.statusCode, agreed.body).toBe(200);
            await poll();
          }
          const done =
            sea.powers.length === 2 ? await master.request('POST', `${path}/decide`, { winner: sea.powers[0] }) : await master.request('POST', `${path}/waive`);
          expect(done.statusCode, done.body).toBe(200);
        }
      }
      Object.assign(moment, { phase: (await currentPhase(master, gameId)).index, beforeProcessing: true });
      expect(moment.phase).toBe(phase.index + 1);
    }

    // The game ends in a draw of all survivors.
    const survivors = (await master.request('GET', `/api/games/${gameId}/votes`)).json().survivors as string[];
    for (const power of survivors) expect((await byPower.get(power)!.request('POST', `/api/games/${gameId}/votes`, { kind: 'draw' })).statusCode).toBe(200);
    moment.over = true;
    expect((await master.request('GET', `/api/games/${gameId}`)).json().status).toBe('finished');
    await poll();
    for (const watcher of watchers) watcher.socket?.socket.close();
  }, 180_000);

  test('every seat saw the game: responses and websocket messages were recorded', () => {
    for (const watcher of watchers) {
      expect(watcher.records.filter((record) => record.via === 'http').length, watcher.name).toBeGreaterThan(ROUNDS * 10);
      if (watcher.name !== 'nobody') expect(watcher.records.filter((record) => record.via === 'ws').length, watcher.name).toBeGreaterThan(ROUNDS * 5);
    }
  });

  test("nobody sees another power's orders before the phase is processed; authors see their own", () => {
    const leaks: string[] = [];
    let ownSightings = 0;
    for (const watcher of watchers) {
      for (const record of watcher.records.filter((r) => r.beforeProcessing && !r.over)) {
        for (const [power, lines] of typed.get(record.phase) ?? []) {
          // Lines of two words or fewer ("waive") are too short to be recognised.
          for (const line of lines.filter((l) => l.trim().split(/\s+/).length >= 3)) {
            if (!record.text.includes(line)) continue;
            if (power === watcher.power) ownSightings += 1;
            else leaks.push(`${watcher.name} saw ${power}'s "${line}" in phase ${record.phase} (${record.what})`);
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(ownSightings).toBeGreaterThan(ROUNDS);
  });

  test.runIf(campaign)('the campaign game was held for its seas, and the scan saw them: their views, their events, the export', () => {
    expect(heldPhases).toBeGreaterThan(0);
    const outsider = watchers.find((w) => w.name === 'outsider')!.records.filter((r) => !r.over);
    const text = outsider.map((r) => r.text).join('\n');
    expect(text).toContain('"type":"phase.held"');
    expect(text).toContain('"type":"sea.changed"');
    expect(outsider.some((r) => r.what.startsWith(`GET /api/games/${game.gameId}/export →`) && r.text.includes('"decided":[{"province":"ION"'))).toBe(true);
    expect(outsider.some((r) => r.text.includes('"seas":[{"sea":"ION"'))).toBe(true);
    // A side's agreement to auto-resolve, seen by everyone as its power.
    expect(text).toMatch(/"agreed":\["(Rome|Macedonia)"\]/);
  });

  test('private press reaches only its sender and recipients, until the game ends', () => {
    const leaks: string[] = [];
    const seenBy = new Map<string, Set<string>>();
    for (const watcher of watchers) {
      const reader = watcher.power ?? (watcher.name === 'game master' ? 'gm' : watcher.name);
      for (const record of watcher.records.filter((r) => !r.over)) {
        for (const message of privateMessages) {
          if (!record.text.includes(message.marker)) continue;
          if (message.readers.has(reader)) seenBy.set(message.marker, (seenBy.get(message.marker) ?? new Set()).add(reader));
          else leaks.push(`${watcher.name} saw "${message.marker}" (${record.what})`);
        }
      }
    }
    expect(leaks).toEqual([]);
    // Every reader of every message saw it.
    for (const message of privateMessages) expect([...(seenBy.get(message.marker) ?? [])].sort(), message.marker).toEqual([...message.readers].sort());
  });

  test("in the anonymous game, nobody but a game master who does not play and the administrator sees another player's username or id before it ends", () => {
    const leaks: string[] = [];
    for (const watcher of watchers.filter((w) => w.name !== 'game master' && w.name !== 'administrator')) {
      for (const record of watcher.records.filter((r) => !r.over)) {
        for (const [power, user] of names) {
          // The game master's name is on the game for all to see; which power they play is what must not show (below).
          if (power === watcher.power || power === masterPower) continue;
          if (record.text.includes(user.username)) leaks.push(`${watcher.name} saw ${power}'s username (${record.what})`);
          if (record.text.includes(user.id)) leaks.push(`${watcher.name} saw ${power}'s user id (${record.what})`);
        }
      }
    }
    expect(leaks).toEqual([]);
    // A game master who plays is not linked to their power: no seat shows them to anyone else, though they are named as game master.
    if (masterPower) {
      for (const watcher of watchers.filter((w) => w.power !== masterPower && w.name !== 'administrator')) {
        for (const record of watcher.records.filter((r) => !r.over && r.what.startsWith(`GET /api/games/${game.gameId} →`) && r.what.endsWith('200'))) {
          const seat = (JSON.parse(record.text) as { players: Array<{ power: string; user: unknown }> }).players.find(
            (candidate) => candidate.power === masterPower,
          )!;
          if (seat.user !== null) leaks.push(`${watcher.name} saw who plays ${masterPower} (${record.what})`);
        }
      }
    }
    expect(leaks).toEqual([]);
    // Controls: a game master who does not play, and the administrator, see every name while the game goes on; everyone once it has ended.
    for (const who of masterPower ? ['administrator'] : ['game master', 'administrator']) {
      const text = watchers
        .find((w) => w.name === who)!
        .records.filter((r) => !r.over)
        .map((r) => r.text)
        .join('\n');
      for (const user of names.values()) expect(text, who).toContain(user.username);
    }
    for (const watcher of watchers) {
      const after = watcher.records
        .filter((r) => r.over)
        .map((r) => r.text)
        .join('\n');
      for (const user of names.values()) expect(after, watcher.name).toContain(user.username);
    }
  });

  test('game mail and push were written for every player and scanned with the rest', () => {
    for (const watcher of watchers.filter((w) => w.power !== null)) {
      const kinds = new Set(watcher.records.filter((r) => /^(mail|push) /.test(r.what)).map((r) => `${r.what.split(' ')[0]} ${JSON.parse(r.text).kind}`));
      for (const kind of ['mail phase-processed', 'push phase-processed', 'mail press', 'push press', 'mail game-ended'])
        expect([...kinds], watcher.name).toContain(kind);
    }
    // The webhook's bodies, scanned as the outsider's: one per processed phase, and the end.
    const hooks = watchers.find((w) => w.name === 'outsider')!.records.filter((r) => r.what.startsWith('webhook '));
    expect(hooks.filter((r) => r.what.includes('phase-processed')).length).toBeGreaterThanOrEqual(ROUNDS);
    expect(hooks.some((r) => r.what.includes('game-ended'))).toBe(true);
  });

  test("nothing about the seats tells who took one first (the creator's): every seat sees them in the variant's order, with random ids", () => {
    for (const watcher of watchers) {
      for (const record of watcher.records.filter((r) => r.what.startsWith(`GET /api/games/${game.gameId} →`) && r.what.endsWith('200'))) {
        const seats = (JSON.parse(record.text) as { players: Array<{ id: string; power: string }> }).players;
        expect(
          seats.map((seat) => seat.power),
          watcher.name,
        ).toEqual(variant.powers);
        for (const seat of seats) expect(seat.id[14], `${watcher.name}: seat id ${seat.id}`).toBe('4');
      }
    }
  });

  test('once the game has ended, its private press is public: the scan would see it', () => {
    const outsider = watchers.find((w) => w.name === 'outsider')!;
    const after = outsider.records
      .filter((r) => r.over)
      .map((r) => r.text)
      .join('\n');
    expect(privateMessages.filter((message) => after.includes(message.marker)).length).toBeGreaterThan(0);
  });
});

/**
 * A naval battle (tests/server/battles-secrets.test.ts scans a longer one from more seats): the first side's plot of
 * each turn, before the second side has plotted, and the seed of the dice before the end, in everything the other
 * side, an onlooker, nobody and an administrator get — every read route of the battle and the battle's channel.
 */
describe('a naval battle, recorded from the other side and from onlookers', () => {
  type Seen = { secret: string | null; over: boolean; what: string; text: string };
  const seen = new Map<string, Seen[]>();
  const firstPlots: { turn: number; words: string }[] = [];
  let seed = '';

  beforeAll(async () => {
    const { SCENARIOS } = await import('../../shared/naval/index.ts');
    const [rhodes, macedon, onlooker, admin] = await Promise.all([1, 2, 3, 4].map(() => new Browser(app).register()));
    await setAdmin(app.prisma, admin.user!.username, true);
    const setup = { ...(SCENARIOS['ship-to-ship'].find((scenario) => scenario.id === 'duel')!.setup as object), turnLimit: 3 };
    const battle = (await rhodes.request('POST', '/api/battles', { title: 'Secret plots', ruleset: 'ship-to-ship', setup, join: 'rhodes' })).json();
    const state = { secret: null as string | null, over: false };
    const readers = { macedon, onlooker, nobody: new Browser(app), administrator: admin } as const;
    const sockets: LiveClient[] = [];
    for (const [name, browser] of Object.entries(readers)) {
      seen.set(name, []);
      if (!browser.cookie) continue;
      const socket = await connect(url, { cookie: browser.cookie });
      socket.socket.on('message', (data) => seen.get(name)!.push({ ...state, what: 'websocket', text: data.toString() }));
      socket.send({ type: 'subscribe', channel: `battle:${battle.id}` });
      await socket.next('subscribed');
      sockets.push(socket);
    }
    expect((await macedon.request('POST', `/api/battles/${battle.id}/join`, { seat: 'macedon' })).json().status).toBe('active');
    seed = (await app.prisma.battleSeed.findUniqueOrThrow({ where: { battleId: battle.id } })).seed;
    // The readers read at once, each its routes one after another (nothing is written meanwhile).
    const poll = () =>
      Promise.all(
        Object.entries(readers).map(async ([name, browser]) => {
          for (const path of ['', '/log', '/export', '/verification']) {
            const response = await browser.request('GET', `/api/battles/${battle.id}${path}`);
            expect([429, 503], `GET ${path} as ${name}`).not.toContain(response.statusCode);
            seen.get(name)!.push({ ...state, what: `GET ${path} → ${response.statusCode}`, text: response.body });
          }
        }),
      );
    for (let turn = 1; ; turn++) {
      const mine = (await rhodes.request('GET', `/api/battles/${battle.id}?legalActions=true`)).json();
      // Each turn a plot of its own (a different move), so that an earlier one, revealed, cannot pass for it.
      const fresh = (mine.legalActions as { action: unknown; text: string }[]).filter((legal) => !firstPlots.some((done) => done.words === legal.text));
      const plot = fresh[(turn * 7) % fresh.length];
      expect((await rhodes.request('POST', `/api/battles/${battle.id}/actions`, { action: plot.action, expected: mine.actionCount })).statusCode).toBe(200);
      firstPlots.push({ turn, words: plot.text });
      state.secret = plot.text;
      await poll();
      const theirs = (await macedon.request('GET', `/api/battles/${battle.id}?legalActions=true`)).json();
      const after = await macedon.request('POST', `/api/battles/${battle.id}/actions`, { action: theirs.legalActions[0].action, expected: theirs.actionCount });
      state.secret = null;
      if (after.json().status === 'finished') break;
    }
    state.over = true;
    await poll();
    for (const socket of sockets) await settled(socket);
    for (const socket of sockets) socket.socket.close();
  }, 60_000);

  test("no reader sees Rhodes's plot before Macedon's is in, nor the seed before the end; after it, the seed", () => {
    const leaks: string[] = [];
    for (const [name, records] of seen) {
      for (const record of records) {
        if (record.secret !== null && record.text.includes(record.secret)) leaks.push(`${name} saw "${record.secret}" (${record.what})`);
        if (!record.over && record.text.includes(seed)) leaks.push(`${name} saw the seed (${record.what})`);
      }
      expect(
        records.some((record) => record.over && record.text.includes(seed)),
        name,
      ).toBe(true);
    }
    expect(leaks).toEqual([]);
    // The scan can see: once resolved, the plots are in everyone's log.
    const finalLog = seen
      .get('onlooker')!
      .filter((record) => record.over && record.what.startsWith('GET /log'))
      .at(-1)!;
    for (const plot of firstPlots) expect(finalLog.text).toContain(plot.words);
  });
});

/**
 * A campaign game's sea battle (server/battles/from-sea.ts) in an anonymous private game: fought by Rome's and
 * Macedonia's players, umpired by the game master, watched by the game's other players; recorded from every seat, an
 * outsider and nobody — every read route of the battle, the battle lists, and the battle's and the game's channels —
 * while it is fought and once it is over (the game goes on: its names stay hidden), and scanned for the players'
 * usernames and ids.
 */
describe("an anonymous campaign game's sea battle, recorded from every seat", () => {
  type Seen = { what: string; text: string };
  const seen = new Map<string, Seen[]>();
  let game: StartedGame;
  let battleId = '';

  beforeAll(async () => {
    const { RULESETS } = await import('../../shared/naval/index.ts');
    game = await startGame(app, { anonymous: true, private: true, campaign: { ruleset: 'classis' } });
    const meeting: Record<string, string> = { Rome: 'F Nea - ION', Macedonia: 'F Kor - ION' };
    for (const power of game.powers) {
      const response = await game.byPower
        .get(power)!
        .request('PUT', `/api/games/${game.gameId}/phases/0/orders`, { orders: meeting[power] ?? '', ready: true });
      expect(response.statusCode, response.body).toBe(200);
    }
    const opened = await game.master.request('POST', `/api/games/${game.gameId}/phases/0/seas/ION/battle`, {});
    expect(opened.statusCode, opened.body).toBe(200);
    battleId = opened.json().battleId;
    const readers: Record<string, Browser> = { 'game master': game.master, outsider: await new Browser(app).register(), nobody: new Browser(app) };
    for (const power of game.powers) readers[power] = game.byPower.get(power)!;
    const sockets: LiveClient[] = [];
    for (const [name, browser] of Object.entries(readers)) {
      seen.set(name, []);
      if (!browser.cookie) continue;
      const socket = await connect(url, { cookie: browser.cookie });
      socket.socket.on('message', (data) => seen.get(name)!.push({ what: 'websocket', text: data.toString() }));
      for (const channel of [`battle:${battleId}`, `game:${game.gameId}`]) socket.send({ type: 'subscribe', channel });
      sockets.push(socket);
    }
    // The readers read at once, each its routes one after another (nothing is written meanwhile).
    const poll = () =>
      Promise.all(
        Object.entries(readers).map(async ([name, browser]) => {
          const paths = ['', '/log', '/export', '/verification', '/notes'].map((path) => `/api/battles/${battleId}${path}`);
          paths.push('/api/battles?filter=active', '/api/battles?filter=finished', '/api/battles?filter=mine', `/api/games/${game.gameId}/phases/0/seas`);
          for (const path of paths) {
            const response = await browser.request('GET', path);
            expect([429, 503], `GET ${path} as ${name}`).not.toContain(response.statusCode);
            seen.get(name)!.push({ what: `GET ${path} → ${response.statusCode}`, text: response.body });
          }
        }),
      );
    await poll();
    const fighters = [game.byPower.get('Rome')!, game.byPower.get('Macedonia')!];
    const { mulberry32 } = await import('../../shared/random.ts');
    const random = mulberry32(20261127);
    for (let steps = 0; steps < 500; steps++) {
      const pages = await Promise.all(fighters.map(async (player) => (await player.request('GET', `/api/battles/${battleId}`)).json()));
      if (pages[0].status !== 'active') break;
      const i = pages.findIndex((page) => page.yourTurn);
      expect(i, 'a fighter must act').toBeGreaterThanOrEqual(0);
      const action = RULESETS.classis.opponent(pages[i].state, pages[i].you.side, random);
      const acted = await fighters[i].request('POST', `/api/battles/${battleId}/actions`, { action, expected: pages[i].actionCount });
      expect(acted.statusCode, acted.body).toBe(200);
      if (steps === 2) await poll();
    }
    await poll();
    for (const socket of sockets) await settled(socket);
    for (const socket of sockets) socket.socket.close();
  }, 120_000);

  test("nobody but the game master sees another player's username or id, in the battle or its events, though it is over", async () => {
    const battle = await app.prisma.battle.findUniqueOrThrow({ where: { id: battleId } });
    expect(battle.status).toBe('finished');
    const players = await app.prisma.player.findMany({ where: { gameId: game.gameId }, include: { user: true } });
    const leaks: string[] = [];
    for (const [name, records] of seen) {
      if (name === 'game master') continue;
      for (const record of records)
        for (const player of players) {
          if (player.power === name || !player.user) continue;
          if (record.text.includes(player.user.username)) leaks.push(`${name} saw ${player.power}'s username (${record.what})`);
          if (record.text.includes(player.user.id)) leaks.push(`${name} saw ${player.power}'s user id (${record.what})`);
        }
    }
    expect(leaks).toEqual([]);
    // The scan can see: the game's players read the battle (private, theirs to watch), the fighters see their own
    // names, and the game master every fighter's.
    expect(
      seen
        .get('Egypt')!
        .filter((record) => record.what.startsWith(`GET /api/battles/${battleId} →`))
        .map((r) => r.what.endsWith('200')),
    ).not.toContain(false);
    expect(
      seen
        .get('outsider')!
        .filter((record) => record.what.startsWith(`GET /api/battles/${battleId} →`))
        .map((r) => r.what.endsWith('404'))[0],
    ).toBe(true);
    for (const power of ['Rome', 'Macedonia']) {
      const username = game.byPower.get(power)!.user!.username;
      expect(seen.get(power)!.some((record) => record.text.includes(username))).toBe(true);
      expect(seen.get('game master')!.some((record) => record.text.includes(username))).toBe(true);
    }
    // Egypt's player, who does not fight, was let onto the private battle's channel.
    const subscribed = seen
      .get('Egypt')!
      .filter((record) => record.what === 'websocket')
      .map((record) => JSON.parse(record.text) as { type: string; channel?: string });
    expect(subscribed.some((message) => message.type === 'subscribed' && message.channel === `battle:${battleId}`)).toBe(true);
  });
});
