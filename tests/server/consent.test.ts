/**
 * A game master who also plays a power (the default for a game's creator) is
 * a player first: they see what a player sees, enter no orders for others,
 * and the tools that could give them information or an advantage act only
 * when every other active player agrees. And nothing about a seat tells who
 * took it first.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { getVariant } from '../../shared/index.ts';
import type { ServerMessage } from '../../shared/api/live.ts';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { listen, settled, watchGame } from './helpers/live.ts';
import { currentPhase } from './helpers/play.ts';

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;
let url: string;
const variant = getVariant('diadochi-v')!;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
}, 60_000);
afterAll(() => testApp.close(), 60_000);

type PlayingGame = { gameId: string; master: Browser; masterPower: string; byPower: Map<string, Browser>; others: string[] };

/** A Diadochi V game whose creator runs it and plays (the default), four others joining after them. */
async function playingGame(settings: Record<string, unknown> = {}): Promise<PlayingGame> {
  const [master, ...players] = await registeredBrowsers(app, 5);
  const created = await master.request('POST', '/api/games', { name: 'Consent', variant: 'diadochi-v', ...settings });
  expect(created.statusCode, created.body).toBe(201);
  const gameId = created.json().id;
  for (const player of players) expect((await player.request('POST', `/api/games/${gameId}/join`, {})).statusCode).toBe(200);
  const byPower = new Map<string, Browser>();
  for (const browser of [master, ...players]) {
    const me = (await browser.request('GET', `/api/games/${gameId}`)).json().players.find((seat: { isYou: boolean }) => seat.isYou);
    byPower.set(me.power, browser);
  }
  const masterPower = [...byPower].find(([, browser]) => browser === master)![0];
  return { gameId, master, masterPower, byPower, others: [...byPower.keys()].filter((power) => power !== masterPower).sort() };
}

const answer = (browser: Browser, gameId: string, proposalId: string, agree: boolean) =>
  browser.request('POST', `/api/games/${gameId}/gm/proposals/${proposalId}/answer`, { agree });

describe('a game master who plays', () => {
  test("sees no other player's name in an anonymous game, and nothing about the seats tells which power they play", async () => {
    const { gameId, master, masterPower, byPower, others } = await playingGame({ anonymous: true });
    const seenByMaster = (await master.request('GET', `/api/games/${gameId}`)).json();
    expect(seenByMaster.gameMasterPlays).toBe(true);
    expect(seenByMaster.players.filter((seat: { user: unknown }) => seat.user !== null)).toEqual([
      expect.objectContaining({ power: masterPower, isYou: true }),
    ]);
    // Seats come in the variant's order of powers, whoever joined first; their ids are random, not time-ordered.
    const seenByPlayer = (await byPower.get(others[0])!.request('GET', `/api/games/${gameId}`)).json();
    expect(seenByPlayer.players.map((seat: { power: string }) => seat.power)).toEqual(variant.powers);
    for (const seat of seenByPlayer.players) expect(seat.id[14], `seat id ${seat.id}`).toBe('4');
    // Nor the GM log, the press or the export: no other user's name anywhere the game master reads.
    await master.request('POST', `/api/games/${gameId}/gm/pause`);
    for (const path of ['', '/gm/log', '/phases/current', '/export', '/gm/proposals']) {
      const body = (await master.request('GET', `/api/games/${gameId}${path}`)).body;
      for (const power of others) expect(body, `${path} names ${power}'s player`).not.toContain(byPower.get(power)!.user!.username);
    }
  });

  test('processes now, rolls back and ends the game only when every other active player agrees; one refusal stops it', async () => {
    const { gameId, master, byPower, others } = await playingGame();
    const socket = await watchGame(url, byPower.get(others[0])!.cookie!, gameId);

    // Asked, not done: 202 with the request; the phase stays open.
    const asked = await master.request('POST', `/api/games/${gameId}/gm/process`);
    expect(asked.statusCode, asked.body).toBe(202);
    const proposal = asked.json().proposal;
    expect(proposal).toMatchObject({ action: 'process-now', needed: others, agreed: [], status: 'open', phaseIndex: 0 });
    expect((await currentPhase(master, gameId)).index).toBe(0);
    const told = (await settled(socket)).filter((message: ServerMessage) => message.type === 'event' && message.event.type === 'gm.proposal');
    expect(told).toHaveLength(1);
    // One request at a time.
    expect((await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 })).statusCode).toBe(409);
    // Only the powers asked answer (not the game master, not a spectator).
    expect((await answer(master, gameId, proposal.id, true)).statusCode).toBe(403);
    expect((await answer(await new Browser(app).register(), gameId, proposal.id, true)).statusCode).toBe(403);

    for (const power of others.slice(0, 3)) expect((await answer(byPower.get(power)!, gameId, proposal.id, true)).json().proposal.status).toBe('open');
    const refused = await answer(byPower.get(others[3])!, gameId, proposal.id, false);
    expect(refused.json().proposal).toMatchObject({ status: 'refused', refusedBy: others[3] });
    expect((await currentPhase(master, gameId)).index).toBe(0);
    expect((await answer(byPower.get(others[0])!, gameId, proposal.id, true)).json().error.code).toBe('proposal_closed');

    // Asked again: the last agreement carries it out, as the game master, logged with who agreed.
    const again = (await master.request('POST', `/api/games/${gameId}/gm/process`)).json().proposal;
    let last;
    for (const power of others) last = await answer(byPower.get(power)!, gameId, again.id, true);
    expect(last!.statusCode, last!.body).toBe(200);
    expect(last!.json().action).toMatchObject({ action: 'process-now', actor: master.user, details: { phase: 0, consent: { agreed: others } } });
    expect((await currentPhase(master, gameId)).index).toBe(1);

    // The same for a roll-back, and for ending the game.
    const rollback = await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 });
    expect(rollback.statusCode, rollback.body).toBe(202);
    for (const power of others) await answer(byPower.get(power)!, gameId, rollback.json().proposal.id, true);
    expect((await currentPhase(master, gameId)).index).toBe(0);
    const end = await master.request('POST', `/api/games/${gameId}/gm/end`, { outcome: 'draw' });
    expect(end.statusCode).toBe(202);
    expect((await master.request('GET', `/api/games/${gameId}`)).json().status).toBe('active');
    for (const power of others) await answer(byPower.get(power)!, gameId, end.json().proposal.id, true);
    expect((await master.request('GET', `/api/games/${gameId}`)).json().status).toBe('finished');
    socket.socket.close();
  });

  test('is never asked to agree to what cannot be done; enters no orders for others; moves the clock at once', async () => {
    const { gameId, master, masterPower, byPower, others } = await playingGame();
    // Tried first: a roll-back of the open phase is refused to the game master at once, nobody is asked.
    const nothing = await master.request('POST', `/api/games/${gameId}/gm/rollback`, { phase: 0 });
    expect(nothing.statusCode).toBe(409);
    expect((await master.request('GET', `/api/games/${gameId}/gm/proposals`)).json().proposals).toEqual([]);
    // Orders for a rival (or for itself, by the game master's route) are not theirs to give.
    for (const power of [others[0], masterPower]) {
      const typed = await master.request('PUT', `/api/games/${gameId}/gm/phases/0/orders/${power}`, { orders: '' });
      expect(typed.statusCode).toBe(403);
      expect(typed.json().error.code).toBe('game_master_plays');
    }
    // The clock: at once, logged for all to see.
    expect((await master.request('POST', `/api/games/${gameId}/gm/deadline`, { extendBySeconds: 3600 })).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/pause`)).statusCode).toBe(200);
    expect((await master.request('POST', `/api/games/${gameId}/gm/resume`)).statusCode).toBe(200);

    // A request lapses when the game moves on before everyone answered.
    const disorder = (await master.request('POST', `/api/games/${gameId}/gm/civil-disorder`, { power: others[0] })).json().proposal;
    for (const power of [masterPower, ...others]) {
      expect((await byPower.get(power)!.request('PUT', `/api/games/${gameId}/phases/0/orders`, { orders: '', ready: true })).statusCode).toBe(200);
    }
    expect((await currentPhase(master, gameId)).index).toBe(1);
    const late = await answer(byPower.get(others[1])!, gameId, disorder.id, true);
    expect(late.json().error.code).toBe('proposal_closed');
    expect((await master.request('GET', `/api/games/${gameId}/gm/proposals`)).json().proposals.at(-1)).toMatchObject({ id: disorder.id, status: 'lapsed' });

    // Withdrawn by the game master.
    const replace = await master.request('POST', `/api/games/${gameId}/gm/replace`, {
      power: others[1],
      username: (await new Browser(app).register()).user!.username,
    });
    expect(replace.statusCode, replace.body).toBe(202);
    const withdrawn = await master.request('DELETE', `/api/games/${gameId}/gm/proposals/${replace.json().proposal.id}`);
    expect(withdrawn.json().proposal.status).toBe('withdrawn');
    expect((await answer(byPower.get(others[0])!, gameId, replace.json().proposal.id, true)).json().error.code).toBe('proposal_closed');
  });

  test('a request lapses, saying why, when it can no longer be carried out at the last answer', async () => {
    const { gameId, master, byPower, others } = await playingGame();
    const [successor, friend] = await registeredBrowsers(app, 2);
    // The game master who plays asks to hand the game to a friend; meanwhile an administrator hands it to someone else.
    const asked = (await master.request('POST', `/api/games/${gameId}/gm/invite`, { username: friend.user!.username })).json().proposal;
    const admin = await new Browser(app).register();
    await app.prisma.user.update({ where: { id: admin.user!.id }, data: { isAdmin: true } });
    expect((await admin.request('POST', `/api/games/${gameId}/gm/invite`, { username: successor.user!.username })).statusCode).toBe(200);
    // Whom the game master asked is theirs and the one asked's to know, not the players'.
    expect((await byPower.get(others[0])!.request('GET', `/api/games/${gameId}`)).json().invitedGameMaster).toBeNull();
    expect((await master.request('GET', `/api/games/${gameId}`)).json().invitedGameMaster).toEqual(successor.user);
    expect((await successor.request('POST', `/api/games/${gameId}/gm/invitation/accept`)).statusCode).toBe(200);
    for (const power of others.slice(0, 3)) await answer(byPower.get(power)!, gameId, asked.id, true);
    const last = await answer(byPower.get(others[3])!, gameId, asked.id, true);
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toMatchObject({ code: 'proposal_closed', message: expect.stringContaining('no longer runs the game') });
    expect((await successor.request('GET', `/api/games/${gameId}`)).json()).toMatchObject({ gameMaster: successor.user, invitedGameMaster: null });
  });
});

describe('an administrator who plays', () => {
  test('reads the site-wide audit log without the names of the anonymous game they play in; one who does not play reads them', async () => {
    const [master, ...players] = await registeredBrowsers(app, 6);
    const created = (await master.request('POST', '/api/games', { name: 'Audit', variant: 'diadochi-v', anonymous: true, joinAsPlayer: false })).json();
    for (const player of players.slice(0, 5)) expect((await player.request('POST', `/api/games/${created.id}/join`, {})).statusCode).toBe(200);
    const [playingAdmin, replaced] = players;
    const [newcomer, outsideAdmin] = await registeredBrowsers(app, 2);
    // Made administrators as the operator does (which sessions already open take in at once).
    const { adminCommand } = await import('../../server/admin/admins.ts');
    for (const admin of [playingAdmin, outsideAdmin]) expect((await adminCommand(app.prisma, ['grant', admin.user!.username], false)).exitCode).toBe(0);
    const power = (await replaced.request('GET', `/api/games/${created.id}`)).json().players.find((seat: { isYou: boolean }) => seat.isYou).power;
    expect((await master.request('POST', `/api/games/${created.id}/gm/replace`, { power, username: newcomer.user!.username })).statusCode).toBe(200);

    const entry = async (admin: Browser) =>
      (await admin.request('GET', '/api/admin/audit?limit=50'))
        .json()
        .actions.find((a: { gameId: string; action: string }) => a.gameId === created.id && a.action === 'replace-player');
    expect((await entry(outsideAdmin)).details.users).toEqual({ from: replaced.user!.username, to: newcomer.user!.username });
    const asPlayer = await entry(playingAdmin);
    expect(asPlayer).toMatchObject({ gameName: 'Audit', details: { power } });
    expect(asPlayer.details.users).toBeUndefined();
    expect(JSON.stringify(asPlayer)).not.toContain(replaced.user!.username);
  });
});

describe('results become final', () => {
  test('until then an ended game keeps its secrets and may be re-opened; then everything is public and it may not', async () => {
    const windowed = await startTestApp({ settings: { finalAfterMs: 3600_000 } });
    try {
      const master = await new Browser(windowed.app).register();
      const players = await registeredBrowsers(windowed.app, 5);
      const created = (await master.request('POST', '/api/games', { name: 'Final', variant: 'diadochi-v', anonymous: true, joinAsPlayer: false })).json();
      for (const player of players) await player.request('POST', `/api/games/${created.id}/join`, {});
      const byPower = new Map<string, Browser>();
      for (const player of players)
        byPower.set((await player.request('GET', `/api/games/${created.id}`)).json().players.find((s: { isYou: boolean }) => s.isYou).power, player);
      const [a, b, c] = [...byPower.keys()];
      expect((await byPower.get(a)!.request('POST', `/api/games/${created.id}/press`, { to: [b], body: 'A secret pact.' })).statusCode).toBe(201);

      const ended = await master.request('POST', `/api/games/${created.id}/gm/end`, { outcome: 'draw' });
      expect(ended.statusCode, ended.body).toBe(200);
      const detail = (await byPower.get(c)!.request('GET', `/api/games/${created.id}`)).json();
      expect(detail.status).toBe('finished');
      expect(Date.parse(detail.finalAt) - Date.now()).toBeGreaterThan(3500_000);
      // Ended, not final: the third power reads no private press and no names; the export says it is not complete.
      const readBy = async (browser: Browser) =>
        (await browser.request('GET', `/api/games/${created.id}/press`)).json().messages.map((m: { body: string }) => m.body);
      expect(await readBy(byPower.get(c)!)).toEqual([]);
      expect(detail.players.filter((seat: { user: unknown }) => seat.user !== null)).toHaveLength(1);
      expect(await readBy(new Browser(windowed.app))).toEqual([]);
      const exportedBy = async (browser: Browser) => (await browser.request('GET', `/api/games/${created.id}/export`)).json();
      const early = await exportedBy(byPower.get(c)!);
      expect([early.complete, early.press, early.players.filter((p: { username: unknown }) => p.username !== null).length]).toEqual([false, [], 1]);

      // The game master may still re-open it …
      expect((await master.request('POST', `/api/games/${created.id}/gm/rollback`, { phase: 0 })).statusCode).toBe(200);
      expect((await master.request('POST', `/api/games/${created.id}/gm/end`, { outcome: 'draw' })).statusCode).toBe(200);
      // … until it is made final (or the time runs out): then all is public, and nothing re-opens it.
      const finalized = await master.request('POST', `/api/games/${created.id}/gm/finalize`);
      expect(finalized.statusCode, finalized.body).toBe(200);
      expect(await readBy(new Browser(windowed.app))).toEqual(['A secret pact.']);
      const public_ = (await new Browser(windowed.app).request('GET', `/api/games/${created.id}`)).json();
      expect(public_.players.every((seat: { user: unknown }) => seat.user !== null)).toBe(true);
      const late = await exportedBy(new Browser(windowed.app));
      expect([late.complete, late.press.map((m: { body: string }) => m.body)]).toEqual([true, ['A secret pact.']]);
      const again = await master.request('POST', `/api/games/${created.id}/gm/rollback`, { phase: 0 });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('result_final');
    } finally {
      await windowed.close();
    }
  });
});
