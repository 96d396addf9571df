import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../../server/settings.ts';
import { Browser, registeredBrowsers, startTestApp, type TestApp } from './helpers/app.ts';
import { VARIANT_IDS } from '../../shared/api/games.ts';
import { getVariant, initialState, variantIds } from '../../shared/index.ts';

// Generous: these go through a real database on a machine that may be busy.
vi.setConfig({ testTimeout: 30_000 });

let testApp: TestApp;
let app: FastifyInstance;

/** The lobby reads the number and names of powers from the variant's map data. */
const standardPowers: string[] = JSON.parse(await readFile(path.join(projectRoot, 'maps/standard/variant.json'), 'utf8')).powers.map(
  (power: { id: string }) => power.id,
);
const SEATS = standardPowers.length;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

async function createGame(master: Browser, settings: Record<string, unknown> = {}) {
  const response = await master.request('POST', '/api/games', { name: 'Lobby test', variant: 'standard', ...settings });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** Fills the remaining seats with new users; returns them. */
async function fill(game: { id: string; playerCount: number; seats: number }, extra: Record<string, unknown> = {}) {
  const joiners = await registeredBrowsers(app, game.seats - game.playerCount);
  const responses = [];
  for (const joiner of joiners) responses.push(await joiner.request('POST', `/api/games/${game.id}/join`, extra));
  return { joiners, responses };
}

describe('creating a game', () => {
  test('uses the settings given, the variant map for seats and the creator as player and game master', async () => {
    const creator = await new Browser(app).register();
    const game = await createGame(creator, {
      deadlines: { movement: 3600, retreat: 600, adjustment: 900 },
      press: 'public',
      maxMissedDeadlines: 3,
      powerPreferences: ['France', 'England'],
    });
    expect(game).toMatchObject({
      variant: 'standard',
      status: 'forming',
      seats: SEATS,
      playerCount: 1,
      press: 'public',
      anonymous: false,
      private: false,
      maxMissedDeadlines: 3,
      deadlines: { movement: 3600, retreat: 600, adjustment: 900 },
      gameMaster: creator.user,
      joined: true,
      inviteCode: null,
      yourPowerPreferences: ['France', 'England'],
      currentPhase: null,
    });
    expect(game.powers.map((power: { id: string }) => power.id)).toEqual(standardPowers);
    expect(game.players).toEqual([expect.objectContaining({ user: creator.user, power: null, status: 'active', isYou: true })]);
  });

  test('can ask another user to be game master, who becomes it only by accepting; the creator need not join', async () => {
    const [creator, master, stranger] = await registeredBrowsers(app, 3);
    const game = await createGame(creator, { gameMaster: master.user!.username.toUpperCase(), joinAsPlayer: false, private: true });
    // Asked, not named: the creator runs the game until the one asked says yes.
    expect(game.gameMaster).toEqual(creator.user);
    expect(game.invitedGameMaster).toEqual(master.user);
    expect(game.playerCount).toBe(0);
    // The one asked sees the private game and the invitation (and finds it among their games); nobody else is told who.
    const seen = (await master.request('GET', `/api/games/${game.id}`)).json();
    expect(seen).toMatchObject({ gameMaster: creator.user, invitedGameMaster: master.user });
    const mine = (await master.request('GET', '/api/games?filter=mine')).json().games;
    expect(mine.find((g: { id: string }) => g.id === game.id)).toMatchObject({ invitedYou: true, joined: false });
    expect((await creator.request('GET', '/api/games?filter=mine')).json().games.find((g: { id: string }) => g.id === game.id).invitedYou).toBe(false);
    expect((await stranger.request('GET', `/api/games/${game.id}`)).statusCode).toBe(404);
    // Someone else cannot accept for them.
    const impostor = await stranger.request('POST', `/api/games/${game.id}/gm/invitation/accept`);
    expect(impostor.statusCode).toBe(404);
    const accepted = await master.request('POST', `/api/games/${game.id}/gm/invitation/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().action).toMatchObject({
      action: 'take-over',
      actor: master.user,
      details: { users: { from: creator.user!.username, to: master.user!.username } },
    });
    expect((await master.request('GET', `/api/games/${game.id}`)).json()).toMatchObject({ gameMaster: master.user, invitedGameMaster: null });
    expect((await master.request('POST', `/api/games/${game.id}/gm/invitation/accept`)).json().error.code).toBe('not_invited');
    // The new game master asks someone in turn, and sees whom they asked after a reload, as does the one asked.
    expect((await master.request('POST', `/api/games/${game.id}/gm/invite`, { username: stranger.user!.username })).statusCode).toBe(200);
    expect((await master.request('GET', `/api/games/${game.id}`)).json().invitedGameMaster).toEqual(stranger.user);
    expect((await stranger.request('GET', `/api/games/${game.id}`)).json().invitedGameMaster).toEqual(stranger.user);
    // The creator, who neither plays nor runs this private game any more, no longer sees it.
    expect((await creator.request('GET', `/api/games/${game.id}`)).statusCode).toBe(404);
    expect((await master.request('DELETE', `/api/games/${game.id}/gm/invitation`)).statusCode).toBe(204);

    // Declined: the creator goes on running it.
    const other = await createGame(creator, { gameMaster: master.user!.username, joinAsPlayer: false });
    expect((await master.request('DELETE', `/api/games/${other.id}/gm/invitation`)).statusCode).toBe(204);
    expect((await creator.request('GET', `/api/games/${other.id}`)).json()).toMatchObject({ gameMaster: creator.user, invitedGameMaster: null });
  });

  test.each([
    [{ variant: 'chess' }, 'body.variant: must be one of: standard, diadochi-v'],
    [{ deadlines: { movement: 10, retreat: 600, adjustment: 600 } }, 'body.deadlines.movement: must be at least 60 seconds'],
    [{ press: 'loud' }, 'body.press'],
    [{ name: '' }, 'body.name: is required'],
    [{ powerPreferences: ['Atlantis'] }, 'body.powerPreferences: "Atlantis" not a power of standard'],
    [{ powerPreferences: ['France', 'France'] }, 'body.powerPreferences: must not name a power twice'],
    [{ gameMaster: 'nobody_by_that_name' }, 'body.gameMaster: there is no user named'],
  ])('rejects %j with a 400 naming the field', async (change, expected) => {
    const creator = await new Browser(app).register();
    const response = await creator.request('POST', '/api/games', { name: 'x', variant: 'standard', ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('validation_failed');
    expect(response.json().error.message).toContain(expected);
  });

  test('needs a logged-in user', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/games', payload: { name: 'x', variant: 'standard' } });
    expect(response.statusCode).toBe(401);
  });
});

describe('listing games', () => {
  test('filters open, active and mine, hides private games from others, and pages with a cursor', async () => {
    const [owner, other] = await registeredBrowsers(app, 2);
    const publicIds: string[] = [];
    for (let i = 0; i < 5; i++) publicIds.push((await createGame(owner)).id);
    const privateGame = await createGame(owner, { private: true });
    const active = await createGame(owner);
    await fill(active);

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/games?filter=open&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await other.request('GET', query)).json();
      pages.push(page.games.map((game: { id: string }) => game.id));
      cursor = page.nextCursor;
    } while (cursor && pages.length < 50);
    const open = pages.flat();
    expect(new Set(open).size).toBe(open.length); // no game twice
    // Newest first: our five public games, in reverse order of creation, without the private or started one.
    expect(open.filter((id) => publicIds.includes(id))).toEqual([...publicIds].reverse());
    expect(open).not.toContain(privateGame.id);
    expect(open).not.toContain(active.id);
    expect(pages.every((page) => page.length <= 2)).toBe(true);

    const activeList = (await app.inject({ method: 'GET', url: '/api/games?filter=active' })).json();
    expect(activeList.games.map((game: { id: string }) => game.id)).toContain(active.id);
    expect(activeList.games.find((game: { id: string }) => game.id === active.id)).toMatchObject({ status: 'active', playerCount: SEATS });

    const mine = (await owner.request('GET', '/api/games?filter=mine&limit=100')).json();
    expect(mine.games.map((game: { id: string }) => game.id)).toEqual(expect.arrayContaining([...publicIds, privateGame.id, active.id]));
    expect((await other.request('GET', '/api/games?filter=mine')).json().games).toEqual([]);

    const finished = (await app.inject({ method: 'GET', url: '/api/games?filter=finished&variant=standard' })).json();
    expect(finished.games).toEqual([]);
  });

  test('the archive lists finished games by when they finished, the latest first, page after page', async () => {
    const [owner] = await registeredBrowsers(app, 1);
    const created = [await createGame(owner), await createGame(owner), await createGame(owner)];
    // Finished in another order than created: the second, then the third, then the first (a shortcut in SQL:
    // how games end is tested elsewhere).
    const base = Date.now() + 60_000;
    for (const [game, minutes] of [
      [created[1], 1],
      [created[2], 2],
      [created[0], 3],
    ] as const) {
      await app.prisma.game.update({ where: { id: game.id }, data: { status: 'finished', finishedAt: new Date(base + minutes * 60_000) } });
    }
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { games: { id: string }[]; nextCursor: string | null } = (
        await app.inject({ method: 'GET', url: `/api/games?filter=finished&limit=2${cursor ? `&cursor=${cursor}` : ''}` })
      ).json();
      ids.push(...page.games.map((game) => game.id));
      cursor = page.nextCursor;
    } while (cursor);
    const ours = ids.filter((id) => created.some((game) => game.id === id));
    expect(ours).toEqual([created[0].id, created[2].id, created[1].id]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('mine needs a logged-in user; bad filters and cursors are 400', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/games?filter=mine' })).statusCode).toBe(401);
    const badFilter = await app.inject({ method: 'GET', url: '/api/games?filter=everything' });
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().error.message).toContain('query.filter: must be one of: open, active, finished, mine');
    const badCursor = await app.inject({ method: 'GET', url: '/api/games?cursor=nonsense' });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().error.message).toContain('query.cursor');
    const badLimit = await app.inject({ method: 'GET', url: '/api/games?limit=1000' });
    expect(badLimit.json().error.message).toContain('query.limit: must be at most 100');
  });
});

describe('viewing a game', () => {
  test('unknown ids are 404 and malformed ids 400', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/api/games/01a201e4-b315-76ad-a62e-0e672fc5e564' });
    expect(unknown.statusCode).toBe(404);
    const malformed = await app.inject({ method: 'GET', url: '/api/games/42' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toContain('params.gameId: must be an id');
  });

  test('anonymous games hide the other players from players (a game master who plays is one), not from a game master who does not play', async () => {
    const [master, player, runner] = await registeredBrowsers(app, 3);
    const shown = (detail: { players: Array<{ user: unknown; isYou: boolean }> }) =>
      detail.players.map((seat) => [seat.user, seat.isYou]).sort((a, b) => Number(b[1]) - Number(a[1]));
    // The creator plays (the default): a player first, who sees only themselves.
    const game = await createGame(master, { anonymous: true });
    await player.request('POST', `/api/games/${game.id}/join`, {});
    expect(shown((await player.request('GET', `/api/games/${game.id}`)).json())).toEqual([
      [player.user, true],
      [null, false],
    ]);
    const seenByMaster = (await master.request('GET', `/api/games/${game.id}`)).json();
    expect(shown(seenByMaster)).toEqual([
      [master.user, true],
      [null, false],
    ]);
    expect(seenByMaster.gameMasterPlays).toBe(true);
    // A game master who does not play sees everyone.
    const run = await createGame(runner, { anonymous: true, joinAsPlayer: false });
    for (const browser of [master, player]) await browser.request('POST', `/api/games/${run.id}/join`, {});
    const seenByRunner = (await runner.request('GET', `/api/games/${run.id}`)).json();
    expect(seenByRunner.players.map((seat: { user: { id: string } }) => seat.user.id).sort()).toEqual([master.user!.id, player.user!.id].sort());
    expect(seenByRunner.gameMasterPlays).toBe(false);
  });
});

describe('joining and leaving', () => {
  test('join, refuse a second join, leave, refuse leaving twice', async () => {
    const [master, player] = await registeredBrowsers(app, 2);
    const game = await createGame(master);
    const joined = await player.request('POST', `/api/games/${game.id}/join`, { powerPreferences: ['Turkey'] });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ playerCount: 2, joined: true, yourPowerPreferences: ['Turkey'] });

    const again = await player.request('POST', `/api/games/${game.id}/join`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_joined');

    const left = await player.request('POST', `/api/games/${game.id}/leave`);
    expect(left.statusCode).toBe(200);
    expect(left.json()).toMatchObject({ playerCount: 1, joined: false });

    const leaveAgain = await player.request('POST', `/api/games/${game.id}/leave`);
    expect(leaveAgain.statusCode).toBe(409);
    expect(leaveAgain.json().error.code).toBe('not_a_player');
  });

  test('a join without a body is fine; an unknown power preference is 400', async () => {
    const [master, player] = await registeredBrowsers(app, 2);
    const game = await createGame(master);
    const bad = await player.request('POST', `/api/games/${game.id}/join`, { powerPreferences: ['Prussia'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('"Prussia" not a power of standard');
    expect((await player.request('POST', `/api/games/${game.id}/join`)).statusCode).toBe(200);
  });

  test('private games need the invite code, which only members see', async () => {
    const [master, friend, stranger] = await registeredBrowsers(app, 3);
    const game = await createGame(master, { private: true });
    expect(game.inviteCode).toMatch(/^[\w-]{16}$/);

    expect((await stranger.request('GET', `/api/games/${game.id}`)).statusCode).toBe(404);
    expect((await stranger.request('POST', `/api/games/${game.id}/join`, {})).statusCode).toBe(404);
    const wrongCode = await stranger.request('POST', `/api/games/${game.id}/join`, { inviteCode: 'guessing' });
    expect(wrongCode.statusCode).toBe(403);
    expect(wrongCode.json().error.code).toBe('invalid_invite_code');

    const preview = await friend.request('GET', `/api/games/${game.id}?inviteCode=${game.inviteCode}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().inviteCode).toBeNull(); // not a member yet
    const joined = await friend.request('POST', `/api/games/${game.id}/join`, { inviteCode: game.inviteCode });
    expect(joined.statusCode).toBe(200);
    expect(joined.json().inviteCode).toBe(game.inviteCode);
    expect((await friend.request('GET', `/api/games/${game.id}`)).statusCode).toBe(200);
  });
});

describe('starting', () => {
  test('a full game starts by itself, each power assigned once; later joins and leaves are refused', async () => {
    const master = await new Browser(app).register();
    const game = await createGame(master);
    const { joiners, responses } = await fill(game);
    expect(responses.slice(0, -1).every((response) => response.json().status === 'forming')).toBe(true);
    const started = responses.at(-1)!.json();
    expect(started.status).toBe('active');
    expect(started.startedAt).not.toBeNull();
    expect(started.players.map((player: { power: string }) => player.power).sort()).toEqual([...standardPowers].sort());

    // The first phase comes from the rules engine, open until the movement deadline.
    expect(started.currentPhase).toMatchObject({ index: 0, name: 'Spring 1901 Movement', kind: 'movement' });
    const deadline = Date.parse(started.currentPhase.deadlineAt) - Date.parse(started.startedAt);
    expect(Math.abs(deadline - game.deadlines.movement * 1000)).toBeLessThan(5000);
    const phase = await app.prisma.phase.findUniqueOrThrow({ where: { gameId_index: { gameId: game.id, index: 0 } } });
    expect(phase).toMatchObject({ status: 'open', stateAfter: null, processedAt: null });
    expect(phase.stateBefore).toEqual(JSON.parse(JSON.stringify(initialState(getVariant('standard')!))));

    const late = await new Browser(app).register();
    const lateJoin = await late.request('POST', `/api/games/${game.id}/join`, {});
    expect(lateJoin.statusCode).toBe(409);
    expect(lateJoin.json().error.code).toBe('not_joinable');
    const leave = await joiners[0].request('POST', `/api/games/${game.id}/leave`);
    expect(leave.statusCode).toBe(409);
  });

  test('with preference lists that do not clash, everyone gets their first choice', async () => {
    const master = await new Browser(app).register();
    const wishes = [...standardPowers].reverse();
    const game = await createGame(master, { powerAssignment: 'preferences', powerPreferences: [wishes[0]] });
    const joiners = await registeredBrowsers(app, SEATS - 1);
    for (const [i, joiner] of joiners.entries()) {
      await joiner.request('POST', `/api/games/${game.id}/join`, { powerPreferences: [wishes[i + 1], wishes[0]] });
    }
    const started = (await master.request('GET', `/api/games/${game.id}`)).json();
    expect(started.status).toBe('active');
    const powerOf = new Map(started.players.map((player: { user: { id: string }; power: string }) => [player.user.id, player.power]));
    expect(powerOf.get(master.user!.id)).toBe(wishes[0]);
    joiners.forEach((joiner, i) => expect(powerOf.get(joiner.user!.id)).toBe(wishes[i + 1]));
  });

  test('without autoStart only the game master starts it, and only when full', async () => {
    const [master, player] = await registeredBrowsers(app, 2);
    const game = await createGame(master, { autoStart: false });
    const early = await master.request('POST', `/api/games/${game.id}/start`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('game_not_full');
    await fill(game);
    expect((await master.request('GET', `/api/games/${game.id}`)).json().status).toBe('forming');
    const notMaster = await player.request('POST', `/api/games/${game.id}/start`);
    expect(notMaster.statusCode).toBe(403);
    const start = await master.request('POST', `/api/games/${game.id}/start`);
    expect(start.statusCode).toBe(200);
    expect(start.json().status).toBe('active');
    expect((await master.request('POST', `/api/games/${game.id}/start`)).statusCode).toBe(409);
  });

  test('concurrent joins never overfill a game', async () => {
    const master = await new Browser(app).register();
    const game = await createGame(master);
    const crowd = await registeredBrowsers(app, SEATS + 2);
    const responses = await Promise.all(crowd.map((joiner) => joiner.request('POST', `/api/games/${game.id}/join`, {})));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(SEATS - 1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(3);
    const final = (await master.request('GET', `/api/games/${game.id}`)).json();
    expect(final).toMatchObject({ status: 'active', playerCount: SEATS });
    expect(await app.prisma.player.count({ where: { gameId: game.id } })).toBe(SEATS);
  });
});

describe('variants', () => {
  test('games can be created in the variants the rules engine ships, with its powers; the others are 422', async () => {
    const creator = await new Browser(app).register();
    const { variants } = (await app.inject({ method: 'GET', url: '/api/variants' })).json();
    expect(variants.map((variant: { id: string }) => variant.id)).toEqual([...VARIANT_IDS]);
    // Every variant registered with the engine is offered: no second list to forget.
    expect([...VARIANT_IDS].sort()).toEqual([...variantIds()].sort());
    expect(VARIANT_IDS).toContain('ancient-mediterranean');
    for (const variant of variants as { id: string; available: boolean; powers: { id: string }[] }[]) {
      expect(variant.available).toBe(variantIds().includes(variant.id));
      const response = await creator.request('POST', '/api/games', { name: variant.id, variant: variant.id });
      if (variant.available) {
        expect(response.statusCode).toBe(201);
        const mapPowers = JSON.parse(await readFile(path.join(projectRoot, 'maps', variant.id, 'variant.json'), 'utf8')).powers;
        expect(variant.powers.map((power) => power.id)).toEqual(mapPowers.map((power: { id: string }) => power.id));
        expect(response.json().seats).toBe(mapPowers.length);
      } else {
        expect(response.statusCode).toBe(422);
        expect(response.json().error).toEqual({ code: 'variant_unavailable', message: `the rules engine cannot play variant "${variant.id}" yet` });
      }
    }
  });
});
