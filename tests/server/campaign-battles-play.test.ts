/**
 * A campaign game's contested sea fought as a naval battle (server/battles/from-sea.ts): opened by the game master
 * with the players seated, fought to its end through the API, its result deciding the sea and the phase going on
 * with it; auto-resolved by the computer into a finished battle that verifies; its odds estimated in the background;
 * a sea past its deadline auto-resolved once by two instances; an anonymous game's battle naming nobody.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { LiveEvent } from '../../shared/api/live.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { BattleRecordSchema, verify } from '../../shared/naval/record.ts';
import { mulberry32 } from '../../shared/random.ts';
import { ComputerPool } from '../../server/battles/computer-pool.ts';
import { autoResolveExpired } from '../../server/battles/from-sea.ts';
import { SeaDeadlines } from '../../server/battles/sea-deadlines.ts';
import { SeaOddsEstimates } from '../../server/battles/sea-odds.ts';
import { Browser, startSecondInstance, startTestApp, type TestApp } from './helpers/app.ts';
import { CAMPAIGN, playPhase, startGame, type StartedGame } from './helpers/play.ts';

vi.setConfig({ testTimeout: 180_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

type Seat = { side: string | null; role: string; player: string; user: { id: string; username: string } | null; isYou: boolean };
type Detail = {
  id: string;
  status: string;
  private: boolean;
  actionCount: number;
  yourTurn: boolean;
  you: { side: string | null; umpire: boolean };
  state: unknown;
  seats: Seat[];
  outcome: { winner: string | null; reason: string } | null;
};

/** A game where Rome's and Macedonia's fleets met in the Ionian Sea: phase 0 held for it. */
async function ionianHeld(settings: Record<string, unknown> = {}): Promise<StartedGame> {
  const game = await startGame(app, { ...CAMPAIGN, ...settings });
  await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'] });
  const held = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0`)).json();
  expect(held.status).toBe('held');
  expect(held.seas.map((sea: { sea: string }) => sea.sea)).toEqual(['ION']);
  return game;
}

const seaPath = (game: StartedGame, what: string) => `/api/games/${game.gameId}/phases/0/seas/ION/${what}`;

async function battlePage(browser: Browser, id: string): Promise<Detail> {
  const response = await browser.request('GET', `/api/battles/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The battle's record checks out, by the shared verifier and by the route. */
async function checksOut(browser: Browser, id: string) {
  const exported = await browser.request('GET', `/api/battles/${id}/export`);
  expect(exported.statusCode, exported.body).toBe(200);
  const record = BattleRecordSchema.parse(exported.json());
  const verification = verify(RULESETS[record.ruleset], record);
  expect(verification.problems).toEqual([]);
  expect(verification.ok).toBe(true);
  expect(verification.actions).toBeGreaterThan(0);
  const checked = await browser.request('GET', `/api/battles/${id}/verification`);
  expect(checked.statusCode, checked.body).toBe(200);
  expect(checked.json()).toMatchObject({ ok: true, problems: [], actions: record.actions.length });
}

const unitsAt = (state: { units: { power: string; type: string; at: string }[] }, at: string) =>
  state.units.filter((unit) => unit.at === at).map((unit) => `${unit.power} ${unit.type === 'fleet' ? 'F' : 'A'} ${unit.at}`);

/** After the sea's decision the phase is processed: the winner's fleet entered the sea, or (a standoff) nobody did. */
async function processedWith(game: StartedGame, winner: string | null) {
  const phase = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0`)).json();
  expect(phase.status).toBe('processed');
  expect(unitsAt(phase.stateAfter, 'ION')).toEqual(winner === null ? [] : [`${winner} F ION`]);
  const from = winner === 'Rome' ? 'Nea' : 'Kor';
  if (winner !== null) expect(unitsAt(phase.stateAfter, from)).toEqual([]);
}

/** The game master's log entries of a kind, with their details. */
async function gmLogOf(game: StartedGame, kind: string) {
  const log = (await game.master.request('GET', `/api/games/${game.gameId}/gm/log`)).json();
  return (log.actions as { action: string; details: Record<string, unknown> }[]).filter((a) => a.action === kind);
}

const powerOfSide = (side: string | null) => (side === null ? null : side === 'rome' ? 'Rome' : side === 'macedonia' ? 'Macedonia' : side);

describe('a sea fought as a battle', () => {
  test('the game master opens it, the two players fight it to the end through the API, and its winner takes the sea', async () => {
    const game = await ionianHeld();
    const rome = game.byPower.get('Rome')!;
    const macedonia = game.byPower.get('Macedonia')!;

    const byPlayer = await rome.request('POST', seaPath(game, 'battle'), {});
    expect(byPlayer.statusCode, byPlayer.body).toBe(403);
    const opened = await game.master.request('POST', seaPath(game, 'battle'), { clock: { pace: 'live', minutesPerTurn: 5 } });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ sea: 'ION', status: 'fighting', outcome: null });
    const battleId = opened.json().battleId as string;
    expect((await gmLogOf(game, 'fight-sea')).map((a) => a.details)).toEqual([expect.objectContaining({ sea: 'ION', battleId })]);
    const again = await game.master.request('POST', seaPath(game, 'battle'), {});
    expect(again.statusCode, again.body).toBe(409);
    expect((await game.master.request('POST', seaPath(game, 'auto-resolve'))).statusCode).toBe(409);

    // Seated: each side its power's player, the game master the umpire; started at once, on the clock asked for.
    const seen = await battlePage(game.master, battleId);
    expect(seen.status).toBe('active');
    const seatOf = (side: string | null) => seen.seats.find((seat) => seat.side === side)!;
    expect(seatOf('rome').user?.id).toBe(rome.user!.id);
    expect(seatOf('macedonia').user?.id).toBe(macedonia.user!.id);
    expect(seatOf(null)).toMatchObject({ role: 'umpire', isYou: true });

    // Each plays its own side, with the computer opponent's choice on what its seat sees.
    const ruleset = RULESETS.classis;
    const random = mulberry32(20261127);
    let detail = seen;
    for (let steps = 0; steps < 500 && detail.status === 'active'; steps++) {
      let acted = false;
      for (const player of [rome, macedonia]) {
        const mine = await battlePage(player, battleId);
        if (mine.status !== 'active' || !mine.yourTurn) continue;
        const action = ruleset.opponent(mine.state as never, mine.you.side!, random);
        const response = await player.request('POST', `/api/battles/${battleId}/actions`, { action, expected: mine.actionCount });
        expect(response.statusCode, response.body).toBe(200);
        acted = true;
        break;
      }
      expect(acted, 'one of the players must act while the battle is fought').toBe(true);
      detail = await battlePage(game.master, battleId);
    }
    expect(detail.status).toBe('finished');
    const winner = powerOfSide(detail.outcome!.winner);

    const sea = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas[0];
    expect(sea).toMatchObject({ status: 'decided', decidedBy: 'battle', battleId, outcome: winner === null ? { standoff: true } : { winner } });
    await processedWith(game, winner);
    await checksOut(rome, battleId);
  });

  test('auto-resolved: the computer fights it out on the committed dice, the battle verifies and decides the sea', async () => {
    const game = await ionianHeld();
    const byPlayer = await game.byPower.get('Rome')!.request('POST', seaPath(game, 'auto-resolve'));
    expect(byPlayer.statusCode, byPlayer.body).toBe(403);

    const started = performance.now();
    const resolved = await game.master.request('POST', seaPath(game, 'auto-resolve'));
    const ms = performance.now() - started;
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ sea: 'ION', status: 'decided', decidedBy: 'computer' });
    const battleId = resolved.json().battleId as string;
    expect((await gmLogOf(game, 'auto-resolve-sea')).map((a) => a.details)).toEqual([expect.objectContaining({ sea: 'ION', battleId })]);
    const battle = await battlePage(game.master, battleId);
    expect(battle.status).toBe('finished');
    expect(battle.seats.filter((seat) => seat.role === 'side').map((seat) => seat.player)).toEqual(['computer', 'computer']);
    const winner = powerOfSide(battle.outcome!.winner);
    // A battle on the server's own dice may, rarely, sink a whole fleet: its loss then rides with the decision.
    const { destroyed, ...decision } = resolved.json().outcome as { destroyed?: string[] };
    expect(decision).toEqual(winner === null ? { standoff: true } : { winner });
    for (const lost of destroyed ?? []) expect(['Nea', 'Kor']).toContain(lost);
    await checksOut(game.players[0], battleId);
    await processedWith(game, winner);
    console.info(`auto-resolve of a Classis sea (4 ships a side), the whole request: ${Math.round(ms)} ms`);

    const late = await game.master.request('POST', seaPath(game, 'auto-resolve'));
    expect(late.statusCode, late.body).toBe(409);
  });
});

describe('the odds', () => {
  test('an estimate in the background: its progress saved and published as it goes, adding up, one at a time, stopped by the decision', async () => {
    const game = await ionianHeld();
    const events: Extract<LiveEvent, { type: 'sea.changed' }>[] = [];
    const unsubscribe = app.bus.subscribe(`game:${game.gameId}`, (event) => {
      if (event.type === 'sea.changed') events.push(event);
    });
    try {
      const stranger = await new Browser(app).register();
      expect((await stranger.request('POST', seaPath(game, 'odds'))).statusCode).toBe(403);
      expect((await game.byPower.get('Egypt')!.request('POST', seaPath(game, 'odds'))).statusCode).toBe(403);

      const started = performance.now();
      const asked = await game.byPower.get('Rome')!.request('POST', seaPath(game, 'odds'));
      expect(asked.statusCode, asked.body).toBe(202);
      expect(asked.json().odds).toEqual({ battles: 0, of: 1000, won: { macedonia: 0, rome: 0 }, drawn: 0 });

      const progress = async () => (await game.master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas[0].odds;
      await vi.waitFor(async () => expect((await progress()).battles).toBeGreaterThanOrEqual(30), { timeout: 120_000, interval: 200 });
      const seconds = (performance.now() - started) / 1000;
      // A second ask answers with the progress: the same estimate goes on.
      const second = await game.master.request('POST', seaPath(game, 'odds'));
      expect(second.statusCode, second.body).toBe(202);
      expect(second.json().odds.battles).toBeGreaterThanOrEqual(30);

      const decided = await game.master.request('POST', seaPath(game, 'decide'), { winner: 'Rome' });
      expect(decided.statusCode, decided.body).toBe(200);
      const final = decided.json().odds;
      expect(final.of).toBe(1000);
      expect(final.won.macedonia + final.won.rome + final.drawn).toBe(final.battles);
      console.info(`odds of a Classis sea: ${final.battles} battles in ${seconds.toFixed(1)} s with the requests' load`);

      // Published as it went, each step adding up, never counting down; none after the decision.
      const published = events.map((event) => event.sea.odds).filter((odds) => odds !== null);
      expect(published.length).toBeGreaterThanOrEqual(3);
      for (const [i, odds] of published.entries()) {
        expect(odds.won.macedonia + odds.won.rome + odds.drawn).toBe(odds.battles);
        if (i > 0) expect(odds.battles).toBeGreaterThanOrEqual(published[i - 1].battles);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await progress()).battles).toBe(final.battles);
      expect(events.at(-1)!.sea.status).toBe('decided');
    } finally {
      unsubscribe();
    }
  });
});

describe('the odds after a restart', () => {
  test('an estimate a stopped server left half done goes on from its saved progress when a server starts', async () => {
    const game = await ionianHeld();
    // As a server killed mid-estimate leaves it: 20 of 40 battles counted, nobody at work on it.
    const half = { battles: 20, of: 40, won: { macedonia: 12, rome: 7 }, drawn: 1 };
    const row = await app.prisma.seaBattle.findFirstOrThrow({ where: { gameId: game.gameId, sea: 'ION' } });
    await app.prisma.seaBattle.update({ where: { id: row.id }, data: { odds: half } });
    const computer = new ComputerPool();
    const estimates = new SeaOddsEstimates(app.prisma, { bus: app.bus, log: app.log, computer, play: app.play }, app.log, {
      battles: 1000,
      chunkMs: 500,
      maxChunk: 10,
      busyRetryMs: 100,
    });
    try {
      await estimates.resume();
      await vi.waitFor(() => expect(estimates.idle).toBe(true), { timeout: 120_000, interval: 100 });
      // The first chunk one battle (to measure), the rest at most ten.
      expect(estimates.stats.chunks).toBeGreaterThanOrEqual(3);
      expect(estimates.stats.finished).toBe(1);
      const odds = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas[0].odds;
      expect(odds.battles).toBe(40);
      expect(odds.of).toBe(40);
      expect(odds.won.macedonia).toBeGreaterThanOrEqual(12);
      expect(odds.won.rome).toBeGreaterThanOrEqual(7);
      expect(odds.won.macedonia + odds.won.rome + odds.drawn).toBe(40);
      // Finished: asked again, it answers with the result and fights no more.
      const again = await game.master.request('POST', seaPath(game, 'odds'));
      expect(again.statusCode, again.body).toBe(202);
      expect(again.json().odds).toEqual(odds);
      // Waived: due no more for the deadline's test below.
      expect((await game.master.request('POST', seaPath(game, 'waive'))).statusCode).toBe(200);
    } finally {
      await estimates.stop();
      await computer.close();
    }
  });
});

describe('the deadline', () => {
  test('a sea nobody fought is auto-resolved once its deadline passes, exactly once across two instances', async () => {
    const game = await ionianHeld();
    const other = await startSecondInstance(testApp);
    const computer = new ComputerPool();
    try {
      const loopOf = (server: FastifyInstance) =>
        new SeaDeadlines(server.prisma, { bus: server.bus, log: server.log, computer, play: server.play }, server.log, {
          enabled: false,
          intervalMs: 50,
          batch: 10,
        });
      const [first, second] = [loopOf(app), loopOf(other)];
      expect(await first.processDue(new Date()), 'not before the deadline').toBe(0);
      const later = new Date(Date.now() + 49 * 3_600_000);
      const counts = await Promise.all([first.processDue(later), second.processDue(later), first.processDue(later), second.processDue(later)]);
      // The other tests' seas are decided by now (or being fought): this game's is the one due.
      const battles = await app.prisma.battle.findMany({ where: { seaBattle: { gameId: game.gameId } } });
      expect(battles).toHaveLength(1);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      const sea = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas[0];
      expect(sea).toMatchObject({ status: 'decided', decidedBy: 'computer', battleId: battles[0].id });
      // Logged once, as the deadline's doing.
      const logged = await gmLogOf(game, 'auto-resolve-sea');
      expect(logged.map((a) => a.details)).toEqual([expect.objectContaining({ sea: 'ION', battleId: battles[0].id, expired: true })]);
      await checksOut(game.master, battles[0].id);
    } finally {
      await computer.close();
      await other.close();
    }
  });
});

describe('a battle called off', () => {
  test('when the computer cannot fight a sea out, its battle is called off and the sea is undecided again, to fight or decide', async () => {
    const game = await ionianHeld();
    // A computer that is stopped before it can think: the fight fails after the battle was opened.
    const computer = new ComputerPool({ workers: 1, maxWaiting: 4, jobTimeoutMs: 1 });
    try {
      const env = { bus: app.bus, log: app.log, computer, play: app.play };
      await expect(
        autoResolveExpired(env, app.prisma, { gameId: game.gameId, phaseIndex: 0, sea: 'ION' }, new Date(Date.now() + 49 * 3_600_000)),
      ).rejects.toThrow(/thought for more than|stopped/);
    } finally {
      await computer.close();
    }
    const sea = (await game.master.request('GET', `/api/games/${game.gameId}/phases/0/seas`)).json().seas[0];
    expect(sea).toMatchObject({ status: 'undecided', battleId: null, outcome: null });
    const battles = await app.prisma.battle.findMany({ where: { title: { contains: 'Ionian Sea' }, createdAt: { gte: new Date(Date.now() - 60_000) } } });
    expect(battles.filter((battle) => battle.status === 'cancelled').length).toBeGreaterThanOrEqual(1);
    // Fought again, as any undecided sea.
    const decided = await game.master.request('POST', seaPath(game, 'auto-resolve'));
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({ status: 'decided', decidedBy: 'computer' });
  });
});

describe('an anonymous private game', () => {
  test('its battle is private, watched by the game, and names nobody but oneself until the result is final', async () => {
    const game = await ionianHeld({ anonymous: true, private: true });
    const rome = game.byPower.get('Rome')!;
    const macedonia = game.byPower.get('Macedonia')!;
    const egypt = game.byPower.get('Egypt')!;
    const opened = await game.master.request('POST', seaPath(game, 'battle'), {});
    expect(opened.statusCode, opened.body).toBe(200);
    const battleId = opened.json().battleId as string;

    const stranger = await new Browser(app).register();
    expect((await stranger.request('GET', `/api/battles/${battleId}`)).statusCode).toBe(404);
    const listed = (await stranger.request('GET', '/api/battles?filter=active')).json().battles as { id: string }[];
    expect(listed.map((battle) => battle.id)).not.toContain(battleId);

    const names = (detail: Detail) => Object.fromEntries(detail.seats.map((seat) => [seat.side ?? 'umpire', seat.user?.username ?? null]));
    const asRome = await battlePage(rome, battleId);
    expect(asRome.private).toBe(true);
    expect(names(asRome)).toEqual({ rome: rome.user!.username, macedonia: null, umpire: game.master.user!.username });
    expect(names(await battlePage(macedonia, battleId))).toEqual({ rome: null, macedonia: macedonia.user!.username, umpire: game.master.user!.username });
    // A player of the game who does not fight watches it, and sees no player's name either.
    const asEgypt = await battlePage(egypt, battleId);
    expect(names(asEgypt)).toEqual({ rome: null, macedonia: null, umpire: game.master.user!.username });
    const body = JSON.stringify(asEgypt) + (await egypt.request('GET', `/api/battles/${battleId}/log`)).body;
    expect(body).not.toContain(rome.user!.username);
    expect(body).not.toContain(macedonia.user!.username);
    // The game master, who does not play, sees who plays.
    expect(names(await battlePage(game.master, battleId))).toEqual({
      rome: rome.user!.username,
      macedonia: macedonia.user!.username,
      umpire: game.master.user!.username,
    });
  });
});
