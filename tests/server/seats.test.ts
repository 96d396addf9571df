/**
 * Seats that find new players, through the API: the game master offers a seat (civil disorder offers it by
 * itself), the lobby lists it with the power's position, names hidden where the game hides them and private
 * games only with their code; users who do not meet the game's rules (deadlines kept, finished games) are refused
 * naming the rule, when taking a seat and when joining; a request is approved, declined or withdrawn, or with no
 * approval needed the seat changes hands at once, and the new player orders for the power, the old one no longer.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { currentPhase, startGame } from './helpers/play.ts';
import { connect, listen, settled, watchGame } from './helpers/live.ts';
import type { LiveEvent } from '../../shared/api/live.ts';

vi.setConfig({ testTimeout: 90_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

type OpenSeat = {
  gameId: string;
  power: string;
  heldBy: { id: string; username: string } | null;
  approvalNeeded: boolean;
  position: { phase: string; year: string; centres: number; supply: number; units: number } | null;
  deadlineAt: string | null;
  yourRequest: { id: string; status: string } | null;
  rules: { minDeadlinesKept: number; minFinishedGames: number };
};

/** Every page of the lobby's open seats as this browser sees them (`query` added to each request). */
async function openSeats(browser: Browser, query = ''): Promise<OpenSeat[]> {
  const seats: OpenSeat[] = [];
  let cursor: string | null = null;
  do {
    const response = await browser.request('GET', `/api/seats/open?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as { seats: OpenSeat[]; nextCursor: string | null };
    seats.push(...page.seats);
    cursor = page.nextCursor;
  } while (cursor);
  return seats;
}
const seatIn = (seats: OpenSeat[], gameId: string, power: string) => seats.find((seat) => seat.gameId === gameId && seat.power === power);

/** The current phase's deadline passes (moved into the past), and the scheduler processes it. */
async function passDeadline(master: Browser, gameId: string) {
  const { index } = await currentPhase(master, gameId);
  await app.prisma.phase.updateMany({ where: { gameId, index }, data: { deadlineAt: new Date(Date.now() - 1000) } });
  expect(await app.scheduler.processDue()).toBe(1);
}

/** A started Diadochi V game of these five players (the game master does not play). */
async function gameOf(players: Browser[], settings: Record<string, unknown> = {}) {
  const master = await new Browser(app).register();
  const created = await master.request('POST', '/api/games', { name: 'Seat test', variant: 'diadochi-v', joinAsPlayer: false, ...settings });
  expect(created.statusCode, created.body).toBe(201);
  const gameId = created.json().id as string;
  for (const player of players) expect((await player.request('POST', `/api/games/${gameId}/join`, {})).statusCode).toBe(200);
  const byPower = new Map<string, Browser>();
  for (const player of players) {
    const me = (await player.request('GET', `/api/games/${gameId}`)).json().players.find((seat: { isYou: boolean }) => seat.isYou);
    byPower.set(me.power, player);
  }
  return { gameId, master, byPower };
}

/** No grace: a deadline missed is missed at once (the grace for missed orders is on by default). */
const noGrace = { grace: { seconds: 0, perPlayer: 0 } };

const ready = (browser: Browser, gameId: string, index: number) => browser.request('POST', `/api/games/${gameId}/phases/${index}/ready`, { ready: true });

describe('offering a seat, and who sees it', () => {
  test('the game master offers a seat: the lobby lists it with its centres, units and year; others may not offer; bad input is 400', async () => {
    const { gameId, master, byPower, powers } = await startGame(app);
    const power = powers[0];
    const holder = byPower.get(power)!;
    const [outsider] = await registeredBrowsers(app, 1);

    expect((await holder.request('POST', `/api/games/${gameId}/seats/${power}/offer`)).json().error.code).toBe('not_game_master');
    expect((await outsider.request('POST', `/api/games/${gameId}/seats/${power}/offer`)).statusCode).toBe(403);
    expect((await new Browser(app).request('POST', `/api/games/${gameId}/seats/${power}/offer`)).statusCode).toBe(401);
    expect(seatIn(await openSeats(outsider), gameId, power)).toBeUndefined();

    const offered = await master.request('POST', `/api/games/${gameId}/seats/${power}/offer`);
    expect(offered.statusCode, offered.body).toBe(200);
    expect(offered.json().offers).toEqual([expect.objectContaining({ power })]);
    expect((await master.request('POST', `/api/games/${gameId}/seats/${power}/offer`)).statusCode).toBe(409);

    // The position is the engine's, as the game's own supply table has it.
    const phase = await currentPhase(master, gameId);
    const standing = phase.supply.find((line) => line.power === power)!;
    const listed = seatIn(await openSeats(new Browser(app)), gameId, power)!;
    expect(listed).toMatchObject({
      approvalNeeded: true,
      heldBy: holder.user,
      deadlineAt: phase.deadlineAt,
      yourRequest: null,
      position: { phase: 'Spring 240 BC Movement', year: '240 BC', centres: standing.centres.length, supply: standing.supply, units: standing.units },
    });
    expect(listed.position!.centres).toBeGreaterThan(0);
    expect(listed.position!.units).toBeGreaterThan(0);

    // Bad input, each named.
    const badPower = await master.request('POST', `/api/games/${gameId}/seats/rome/offer`);
    expect(badPower.statusCode).toBe(400);
    expect(badPower.json().error.message).toContain('power');
    expect((await master.request('POST', `/api/games/${gameId}/seats/Atlantis/offer`)).statusCode).toBe(404);
    expect((await master.request('POST', `/api/games/not-a-game/seats/${power}/offer`)).statusCode).toBe(400);
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'cursor=not-a-cursor']) {
      const refused = await outsider.request('GET', `/api/seats/open?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().error.message).toMatch(/limit|cursor/);
    }
    expect((await outsider.request('POST', `/api/games/${gameId}/seats/${power}/requests`, { inviteCode: 'x'.repeat(65) })).statusCode).toBe(400);

    // Withdrawn: gone from the lobby.
    expect((await holder.request('DELETE', `/api/games/${gameId}/seats/${power}/offer`)).statusCode).toBe(403);
    expect((await master.request('DELETE', `/api/games/${gameId}/seats/${power}/offer`)).statusCode).toBe(200);
    expect(seatIn(await openSeats(outsider), gameId, power)).toBeUndefined();
    expect((await master.request('DELETE', `/api/games/${gameId}/seats/${power}/offer`)).json().error.code).toBe('seat_not_offered');
  });

  test('a seat falling into civil disorder is offered by itself', async () => {
    const { gameId, master, byPower, powers } = await startGame(app, { maxMissedDeadlines: 1, correspondence: noGrace });
    const [silent, ...others] = powers;
    for (const power of others) expect((await ready(byPower.get(power)!, gameId, 0)).statusCode).toBe(200);
    await passDeadline(master, gameId);
    const seats = await openSeats(new Browser(app));
    expect(seatIn(seats, gameId, silent)).toMatchObject({ power: silent, position: { phase: 'Fall 240 BC Movement', year: '240 BC' } });
    for (const power of others) expect(seatIn(seats, gameId, power)).toBeUndefined();
    const offers = (await master.request('GET', `/api/games/${gameId}/seats`)).json();
    expect(offers.offers.map((offer: { power: string }) => offer.power)).toEqual([silent]);
  });

  test('an anonymous game names nobody; a private game is listed only with its code (or to its members)', async () => {
    const anonymous = await startGame(app, { anonymous: true });
    const power = anonymous.powers[1];
    const holder = anonymous.byPower.get(power)!;
    expect((await anonymous.master.request('POST', `/api/games/${anonymous.gameId}/seats/${power}/offer`)).statusCode).toBe(200);
    const [stranger] = await registeredBrowsers(app, 1);
    const response = await stranger.request('GET', '/api/seats/open?limit=100');
    expect(seatIn(response.json().seats, anonymous.gameId, power)).toMatchObject({ heldBy: null, anonymous: true });
    expect(response.body).not.toContain(holder.user!.username);
    expect(response.body).not.toContain(holder.user!.id);
    // A request's requester is not named to the other players either.
    expect((await stranger.request('POST', `/api/games/${anonymous.gameId}/seats/${power}/requests`, {})).statusCode).toBe(201);
    const seen = await anonymous.byPower.get(anonymous.powers[2])!.request('GET', `/api/games/${anonymous.gameId}/seats`);
    expect(seen.json().requests).toEqual([]);
    expect(seen.body).not.toContain(stranger.user!.username);

    const hidden = await startGame(app, { private: true });
    const code = (await hidden.master.request('GET', `/api/games/${hidden.gameId}`)).json().inviteCode as string;
    const seat = hidden.powers[0];
    expect((await hidden.master.request('POST', `/api/games/${hidden.gameId}/seats/${seat}/offer`)).statusCode).toBe(200);
    expect(seatIn(await openSeats(stranger), hidden.gameId, seat)).toBeUndefined();
    expect(seatIn(await openSeats(new Browser(app)), hidden.gameId, seat)).toBeUndefined();
    expect(seatIn(await openSeats(stranger, '&inviteCode=wrong-code'), hidden.gameId, seat)).toBeUndefined();
    expect(seatIn(await openSeats(stranger, `&inviteCode=${code}`), hidden.gameId, seat)).toBeDefined();
    expect(seatIn(await openSeats(hidden.byPower.get(hidden.powers[1])!), hidden.gameId, seat)).toBeDefined();
    expect((await stranger.request('GET', `/api/games/${hidden.gameId}/seats`)).statusCode).toBe(404);
    // Asking without the code: the game does not exist; with a wrong one: told so.
    expect((await stranger.request('POST', `/api/games/${hidden.gameId}/seats/${seat}/requests`, {})).statusCode).toBe(404);
    expect((await stranger.request('POST', `/api/games/${hidden.gameId}/seats/${seat}/requests`, { inviteCode: 'wrong' })).json().error.code).toBe(
      'invalid_invite_code',
    );
    expect((await stranger.request('POST', `/api/games/${hidden.gameId}/seats/${seat}/requests`, { inviteCode: code })).statusCode).toBe(201);
  });

  test('the list pages by cursor without repeating a seat', async () => {
    const { gameId, master, powers } = await startGame(app);
    for (const power of powers.slice(0, 3)) expect((await master.request('POST', `/api/games/${gameId}/seats/${power}/offer`)).statusCode).toBe(200);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { seats: OpenSeat[]; nextCursor: string | null } = (
        await master.request('GET', `/api/seats/open?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      expect(page.seats.length).toBeLessThanOrEqual(2);
      seen.push(...page.seats.map((seat: OpenSeat) => `${seat.gameId}/${seat.power}`));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((key) => key.startsWith(gameId)).sort()).toEqual(powers.slice(0, 3).map((power) => `${gameId}/${power}`));
  });
});

describe('taking a seat', () => {
  test('with approval: requests wait; the game master approves one, which hands the seat over and declines the others; the new player orders, the old one no longer', async () => {
    const { gameId, master, byPower, powers } = await startGame(app, { correspondence: { seatApproval: true } });
    const power = powers[2];
    const former = byPower.get(power)!;
    const [alice, bob, carol] = await registeredBrowsers(app, 3);
    const requests = `/api/games/${gameId}/seats/${power}/requests`;

    // Not offered yet.
    expect((await alice.request('POST', requests, {})).json().error.code).toBe('seat_not_offered');
    expect((await master.request('POST', `/api/games/${gameId}/seats/${power}/offer`)).statusCode).toBe(200);

    const asked = await alice.request('POST', requests, {});
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({ handedOver: false, request: { power, status: 'pending', user: alice.user } });
    const aliceRequest = asked.json().request.id as string;
    expect((await alice.request('POST', requests, {})).statusCode).toBe(409);
    const bobRequest = (await bob.request('POST', requests, {})).json().request.id as string;
    const carolRequest = (await carol.request('POST', requests, {})).json().request.id as string;
    expect(seatIn(await openSeats(alice), gameId, power)!.yourRequest).toMatchObject({ id: aliceRequest, status: 'pending' });

    // Carol withdraws; only she may.
    expect((await bob.request('DELETE', `${requests}/${carolRequest}`)).statusCode).toBe(404);
    expect((await carol.request('DELETE', `${requests}/${carolRequest}`)).json().request.status).toBe('withdrawn');
    expect((await carol.request('DELETE', `${requests}/${carolRequest}`)).json().error.code).toBe('request_closed');

    // The game master sees every request, by name; a requester only their own.
    const forMaster = (await master.request('GET', `/api/games/${gameId}/seats`)).json();
    expect(forMaster.requests.map((r: { user: { username: string } }) => r.user.username).sort()).toEqual(
      [alice, bob, carol].map((b) => b.user!.username).sort(),
    );
    expect((await bob.request('GET', `/api/games/${gameId}/seats`)).json().requests.map((r: { id: string }) => r.id)).toEqual([bobRequest]);

    // Only the game master decides.
    expect((await former.request('POST', `${requests}/${aliceRequest}/approve`)).json().error.code).toBe('not_game_master');
    expect((await alice.request('POST', `${requests}/${aliceRequest}/approve`)).statusCode).toBe(403);
    expect((await master.request('POST', `${requests}/not-an-id/approve`)).statusCode).toBe(400);

    // Alice reads mail: she is told by mail once the seat is hers.
    const address = `${alice.user!.username.toLowerCase()}@mail.test`;
    await app.prisma.user.update({ where: { id: alice.user!.id }, data: { email: address, emailKey: address, emailVerifiedAt: new Date() } });
    const approved = await master.request('POST', `${requests}/${aliceRequest}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    const told = await app.prisma.outboxMessage.findMany({ where: { gameId, userId: alice.user!.id, channel: 'mail' } });
    expect(told.map((row) => (row.payload as { subject: string }).subject)).toContain(
      `${(await alice.request('GET', `/api/games/${gameId}`)).json().name}: you now play ${power}`,
    );
    expect(approved.json()).toMatchObject({ handedOver: true, request: { id: aliceRequest, status: 'approved' } });
    expect((await master.request('POST', `${requests}/${bobRequest}/approve`)).json().error.code).toBe('request_closed');
    expect((await bob.request('GET', `/api/games/${gameId}/seats`)).json().requests).toEqual([expect.objectContaining({ id: bobRequest, status: 'declined' })]);
    expect(seatIn(await openSeats(bob), gameId, power)).toBeUndefined();

    // Alice holds the seat now; she orders for the power, the former player no longer can.
    const detail = (await alice.request('GET', `/api/games/${gameId}`)).json();
    expect(detail.players.find((seat: { isYou: boolean }) => seat.isYou)).toMatchObject({ power, status: 'active', missedDeadlines: 0 });
    const orders = { orders: [], ready: true };
    expect((await alice.request('PUT', `/api/games/${gameId}/phases/0/orders`, orders)).statusCode).toBe(200);
    expect((await former.request('PUT', `/api/games/${gameId}/phases/0/orders`, orders)).statusCode).toBe(403);

    // The game master's log records the hand-over, with the approving game master as its actor.
    const log = (await byPower.get(powers[0])!.request('GET', `/api/games/${gameId}/gm/log`)).json().actions;
    expect(log.at(-1)).toMatchObject({
      action: 'replace-player',
      actor: master.user,
      details: { power, users: { from: former.user!.username, to: alice.user!.username }, approved: true },
    });
    // The former player's public page keeps the game, as a seat handed on.
    const page = (await alice.request('GET', `/api/users/${former.user!.username}`)).json();
    expect(page.games.find((entry: { game: { id: string } }) => entry.game.id === gameId)).toMatchObject({ replaced: true });
  });

  test('live: the lobby hears of an offer made and ended; the game hears the seat change hands; the game master and the requester hear of the request', async () => {
    const url = await listen(app);
    const { gameId, master, byPower, powers } = await startGame(app);
    const power = powers[1];
    const [newcomer] = await registeredBrowsers(app, 1);
    const lobby = await connect(url, { cookie: newcomer.cookie! });
    lobby.send({ type: 'subscribe', channel: 'lobby' });
    await lobby.next('subscribed');
    const mine = await connect(url, { cookie: newcomer.cookie! });
    mine.send({ type: 'subscribe', channel: `user:${newcomer.user!.id}` });
    await mine.next('subscribed');
    const board = await watchGame(url, byPower.get(powers[0])!.cookie!, gameId);
    const chair = await watchGame(url, master.cookie!, gameId, master.user!.id);
    type EventMessage = { event: LiveEvent };
    const offerHeard =
      (offered: boolean) =>
      ({ event }: EventMessage) =>
        event.type === 'seat.offer' && event.gameId === gameId && event.offered === offered;

    await master.request('POST', `/api/games/${gameId}/seats/${power}/offer`);
    expect((await lobby.next('event', offerHeard(true))).event).toEqual({ type: 'seat.offer', gameId, power, offered: true });
    await board.next('event', offerHeard(true));

    const requestId = (await newcomer.request('POST', `/api/games/${gameId}/seats/${power}/requests`, {})).json().request.id;
    const heard = ({ event }: EventMessage) => event.type === 'seat.request';
    expect((await chair.next('event', heard)).event).toEqual({ type: 'seat.request', gameId, power, requestId, status: 'pending' });
    await mine.next('event', heard);

    await master.request('POST', `/api/games/${gameId}/seats/${power}/requests/${requestId}/approve`);
    await lobby.next('event', offerHeard(false));
    const changed = await board.next('event', (m) => m.event.type === 'player.status' && m.event.power === power);
    expect(changed.event).toMatchObject({ status: 'active', missedDeadlines: 0, replaced: true });
    await mine.next('event', (m) => m.event.type === 'seat.request' && m.event.status === 'approved');
    // Events name nobody.
    for (const socket of [lobby, board])
      expect(JSON.stringify((await settled(socket)).filter((m) => m.type === 'event'))).not.toContain(newcomer.user!.username);
    for (const socket of [lobby, mine, board, chair]) socket.socket.close();
  });

  test('declining a request only closes it; withdrawing the offer declines those waiting', async () => {
    const { gameId, master, powers } = await startGame(app);
    const power = powers[3];
    const [dora, emil] = await registeredBrowsers(app, 2);
    const requests = `/api/games/${gameId}/seats/${power}/requests`;
    await master.request('POST', `/api/games/${gameId}/seats/${power}/offer`);
    const doraRequest = (await dora.request('POST', requests, {})).json().request.id;
    const emilRequest = (await emil.request('POST', requests, {})).json().request.id;
    expect((await emil.request('POST', `${requests}/${doraRequest}/decline`)).statusCode).toBe(403);
    expect((await master.request('POST', `${requests}/${doraRequest}/decline`)).json()).toMatchObject({ handedOver: false, request: { status: 'declined' } });
    expect(seatIn(await openSeats(dora), gameId, power)!.yourRequest).toMatchObject({ status: 'declined' });
    expect((await master.request('DELETE', `/api/games/${gameId}/seats/${power}/offer`)).statusCode).toBe(200);
    expect((await emil.request('GET', `/api/games/${gameId}/seats`)).json().requests).toEqual([
      expect.objectContaining({ id: emilRequest, status: 'declined' }),
    ]);
    expect((await master.request('POST', `${requests}/${emilRequest}/approve`)).json().error.code).toBe('request_closed');
  });

  test("the game's rules: too few finished games or deadlines kept are refused naming the rule, when taking a seat and when joining; without approval the seat changes hands at once", async () => {
    // Veterans: five players who played a game to its end, keeping their one deadline (everyone ready).
    const veterans = await registeredBrowsers(app, 5);
    const first = await gameOf(veterans);
    for (const player of veterans) expect((await ready(player, first.gameId, 0)).statusCode).toBe(200);
    expect((await first.master.request('POST', `/api/games/${first.gameId}/gm/end`, { outcome: 'draw' })).statusCode).toBe(200);
    // One of them then misses a deadline in another game: 1 of 2 kept.
    const [slacker, veteran] = veterans;
    const others = await registeredBrowsers(app, 4);
    const second = await gameOf([slacker, ...others], { correspondence: noGrace });
    for (const player of others) expect((await ready(player, second.gameId, 0)).statusCode).toBe(200);
    await passDeadline(second.master, second.gameId);

    const rules = { seatApproval: false, minDeadlinesKept: 60, minFinishedGames: 1 };
    // Its own players would not meet its rules: they are set once it has started (no route changes them later).
    const target = await startGame(app, { correspondence: { seatApproval: false } });
    await app.prisma.game.update({ where: { id: target.gameId }, data: { minDeadlinesKept: 60, minFinishedGames: 1 } });
    const power = target.powers[4];
    const holder = target.byPower.get(power)!;
    await target.master.request('POST', `/api/games/${target.gameId}/seats/${power}/offer`);
    expect(seatIn(await openSeats(veteran), target.gameId, power)).toMatchObject({
      approvalNeeded: false,
      rules: { minDeadlinesKept: 60, minFinishedGames: 1 },
    });
    const requests = `/api/games/${target.gameId}/seats/${power}/requests`;

    const [newcomer] = await registeredBrowsers(app, 1);
    const tooNew = await newcomer.request('POST', requests, {});
    expect(tooNew.statusCode).toBe(403);
    expect(tooNew.json().error).toMatchObject({ code: 'seat_rule_unmet', message: expect.stringContaining('finished game') });
    expect(tooNew.json().error.message).toContain('you have finished 0');
    const unreliable = await slacker.request('POST', requests, {});
    expect(unreliable.statusCode).toBe(403);
    expect(unreliable.json().error).toMatchObject({ code: 'seat_rule_unmet', message: expect.stringContaining('deadlines kept') });
    expect(unreliable.json().error.message).toContain('you kept 1 of 2 (50 %)');
    // Its game master and its players cannot take a seat in it either.
    expect((await target.master.request('POST', requests, {})).statusCode).toBe(403);
    const player = await target.byPower.get(target.powers[0])!.request('POST', requests, {});
    expect(player.statusCode).toBe(403);
    expect(player.json().error.message).toContain(`you already play ${target.powers[0]}`);

    // No approval needed: the veteran has the seat at once.
    const taken = await veteran.request('POST', requests, {});
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json()).toMatchObject({ handedOver: true, request: { status: 'approved' } });
    expect(seatIn(await openSeats(veteran), target.gameId, power)).toBeUndefined();
    expect((await veteran.request('PUT', `/api/games/${target.gameId}/phases/0/orders`, { orders: [] })).statusCode).toBe(200);
    expect((await holder.request('PUT', `/api/games/${target.gameId}/phases/0/orders`, { orders: [] })).statusCode).toBe(403);
    const log = (await target.master.request('GET', `/api/games/${target.gameId}/gm/log`)).json().actions;
    expect(log.at(-1)).toMatchObject({ action: 'replace-player', actor: null, details: { power, users: { to: veteran.user!.username }, approved: false } });

    // Joining a forming game: the same rules.
    const forming = await new Browser(app).register();
    const created = await forming.request('POST', '/api/games', { name: 'Ruled', variant: 'diadochi-v', joinAsPlayer: false, correspondence: rules });
    const join = `/api/games/${created.json().id}/join`;
    expect((await newcomer.request('POST', join, {})).json().error).toMatchObject({
      code: 'seat_rule_unmet',
      message: expect.stringContaining('to join this game'),
    });
    expect((await slacker.request('POST', join, {})).json().error).toMatchObject({
      code: 'seat_rule_unmet',
      message: expect.stringContaining('deadlines kept'),
    });
    expect((await veterans[2].request('POST', join, {})).statusCode).toBe(200);
  });
});
