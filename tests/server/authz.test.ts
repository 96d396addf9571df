/**
 * The authorization matrix: every route of the API and every websocket message
 * type, tried by six people against a private game that is being played —
 *   nobody (no credentials), an outsider (logged in, not in the game), the
 *   player of another power, the player of the power concerned, the game
 *   master (who plays no power), and a site administrator —
 * with the status each must get written down below as data. A route of the
 * OpenAPI document (or a message type of the protocol) without an entry fails
 * the test: a new route must say who may use it.
 *
 * Statuses are exact: 2xx where the person may act, 401/403/404 where not (404
 * where the game must not even be known to exist), and the rules' own answer
 * (409, 422) where the person may ask but the game's state says no. Denials run
 * before the allowed requests of the same route, so a denial never depends on
 * someone else's success; requests that change the game run in a fixed order
 * with `before` steps that set the stage for each allowed actor.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createECDH, randomBytes } from 'node:crypto';
import { ClientMessageSchema } from '../../shared/api/live.ts';
import { Browser, startTestApp, uniqueName, type TestApp } from './helpers/app.ts';
import { connect, listen } from './helpers/live.ts';
import { exportOf, randomPlayed } from './helpers/random-export.ts';
import { unsubscribeToken } from '../../server/notify/unsubscribe.ts';
import { actorFor, buildWorld, documentedRoutes, freshCredentials, servedRoutes, type World } from './fuzz-support/world.ts';

vi.setConfig({ testTimeout: 120_000 });

const ACTORS = ['anonymous', 'outsider', 'otherPower', 'ownPower', 'gm', 'admin'] as const;
type ActorName = (typeof ACTORS)[number];
/** An exact status per actor. */
type Expected = Record<ActorName, number>;

type Context = {
  app: FastifyInstance;
  world: World;
  gameId: string;
  /** The power concerned (ownPower plays it), another (otherPower plays it) and three more. */
  own: string;
  other: string;
  bystanders: [string, string, string];
  /** The open phase's index, read when a request is made. */
  openPhase(): Promise<number>;
  stash: Record<string, string>;
  gm: Browser;
};

type Entry = {
  /** "METHOD /api/path" as in the OpenAPI document. */
  route: string;
  /** Several entries may test one route in different ways (e.g. press as a power, and as the game master). */
  label?: string;
  request(context: Context, actor: ActorName): Promise<{ url: string; body?: unknown }>;
  expect: Expected;
  /** Runs before each allowed actor's request (to set the stage it needs). */
  before?(context: Context, actor: ActorName): Promise<void>;
  /** Runs after an allowed actor's request. */
  after?(context: Context, actor: ActorName, response: { statusCode: number; json(): any }): Promise<void>;
};

const all = (status: number): Expected => ({ anonymous: status, outsider: status, otherPower: status, ownPower: status, gm: status, admin: status });
/** Readable by those who may see the private game: the others do not learn it exists. */
const gameRead = (status = 200): Expected => ({ anonymous: 404, outsider: 404, otherPower: status, ownPower: status, gm: status, admin: status });
/** A power's own business: its players; not the game master nor the administrator, who play no power. */
const powerWrite = (status = 200): Expected => ({ anonymous: 401, outsider: 404, otherPower: status, ownPower: status, gm: 403, admin: 403 });
/** The game master's tools: the game master and the administrator. */
const gmWrite = (status = 200): Expected => ({ anonymous: 401, outsider: 404, otherPower: 403, ownPower: 403, gm: status, admin: status });
const loggedIn = (status: number, anonymous = 401): Expected => ({ ...all(status), anonymous });

const game =
  (path = '') =>
  async (context: Context) => ({ url: `/api/games/${context.gameId}${path}` });
const battle =
  (path = '') =>
  async (context: Context) => ({ url: `/api/battles/${context.stash.battleId}${path}` });
const asGm = (context: Context, path: string, body?: unknown) => context.gm.request('POST', `/api/games/${context.gameId}${path}`, body);

/** The own power's player's unsubscribe token for press mail in the game, as a mail would carry it. */
const unsubscribeLink = (context: Context) =>
  encodeURIComponent(
    unsubscribeToken(context.app.gameMail.env.secret, { userId: context.world.game.byPower.get(context.own)!.user!.id, scope: context.gameId, event: 'press' }),
  );

/** An open clock vote proposed by a bystander (made when none is open). */
async function bystanderVote(context: Context): Promise<string> {
  const open = await context.app.prisma.clockVote.findFirst({ where: { gameId: context.gameId, status: 'open', proposedByPower: context.bystanders[0] } });
  if (open) return open.id;
  await context.app.prisma.clockVote.deleteMany({ where: { gameId: context.gameId } });
  const proposed = await context.world.game.byPower
    .get(context.bystanders[0])!
    .request('POST', `/api/games/${context.gameId}/clock-votes`, { kind: 'extend', extendSeconds: 3600 });
  expect(proposed.statusCode, proposed.body).toBe(201);
  return proposed.json().open.id;
}
/** An open clock vote proposed by the power concerned. */
async function ownVote(context: Context): Promise<string> {
  const open = await context.app.prisma.clockVote.findFirst({ where: { gameId: context.gameId, status: 'open', proposedByPower: context.own } });
  if (open) return open.id;
  await context.app.prisma.clockVote.deleteMany({ where: { gameId: context.gameId } });
  const proposed = await context.world.game.byPower
    .get(context.own)!
    .request('POST', `/api/games/${context.gameId}/clock-votes`, { kind: 'extend', extendSeconds: 3600 });
  expect(proposed.statusCode, proposed.body).toBe(201);
  return proposed.json().open.id;
}
/** The seat offered to new players in the matrix (a bystander's), offered now if it is not already. */
async function offeredSeat(context: Context): Promise<string> {
  const power = context.bystanders[0];
  await context.app.prisma.player.updateMany({
    where: { gameId: context.gameId, power, replacementWantedAt: null },
    data: { replacementWantedAt: new Date() },
  });
  return power;
}
/** A request waiting for the offered seat, by `userId` (a newcomer's when none is named). */
async function pendingSeatRequest(context: Context, userId?: string): Promise<string> {
  const power = await offeredSeat(context);
  const seat = await context.app.prisma.player.findFirstOrThrow({ where: { gameId: context.gameId, power } });
  const requester = userId ?? (await new Browser(context.app).register()).user!.id;
  return (await context.app.prisma.seatRequest.create({ data: { playerId: seat.id, userId: requester } })).id;
}
/** An absence to come of the power concerned's player. */
async function ownVacation(context: Context): Promise<string> {
  const away = context.world.game.byPower.get(context.own)!.user!.id;
  const row = await context.app.prisma.vacation.create({
    data: { userId: away, startsAt: new Date(Date.now() + 300 * 86400_000), endsAt: new Date(Date.now() + 301 * 86400_000) },
  });
  return row.id;
}

const MATRIX: Entry[] = [
  // ───────── accounts ─────────
  {
    route: 'POST /api/auth/register',
    request: async () => ({ url: '/api/auth/register', body: { username: uniqueName('new'), password: 'a long enough password' } }),
    expect: all(201),
  },
  {
    route: 'POST /api/auth/login',
    request: async (context) => ({ url: '/api/auth/login', body: { username: context.stash.loginName, password: 'correct horse battery' } }),
    expect: all(200),
  },
  { route: 'POST /api/auth/logout', request: async () => ({ url: '/api/auth/logout' }), expect: all(204) },
  // A visitor is answered too (`user: null`): not being logged in is no error.
  { route: 'GET /api/auth/me', request: async () => ({ url: '/api/auth/me' }), expect: all(200) },
  {
    route: 'POST /api/auth/password',
    // Anyone logged in may try to change their own password; nobody here knows the current one, so each is refused by it.
    request: async () => ({ url: '/api/auth/password', body: { currentPassword: 'not the password', newPassword: 'a brand new passphrase' } }),
    expect: loggedIn(403),
  },
  { route: 'POST /api/auth/tokens', request: async () => ({ url: '/api/auth/tokens', body: { name: 'matrix' } }), expect: loggedIn(201) },
  { route: 'GET /api/auth/tokens', request: async () => ({ url: '/api/auth/tokens' }), expect: loggedIn(200) },
  // One's own time zone: anyone logged in sets their own.
  { route: 'PUT /api/auth/preferences', request: async () => ({ url: '/api/auth/preferences', body: { timeZone: 'Asia/Tokyo' } }), expect: loggedIn(200) },
  {
    route: 'DELETE /api/auth/tokens/{tokenId}',
    // The token of the power concerned's player: nobody else can even find it, administrators included.
    request: async (context) => ({ url: `/api/auth/tokens/${context.stash.ownToken}` }),
    expect: { anonymous: 401, outsider: 404, otherPower: 404, ownPower: 204, gm: 404, admin: 404 },
  },
  // Account mail: one's own address; the links' routes and the reset request need no log-in (the token, or nothing, is the proof).
  { route: 'GET /api/auth/email', request: async () => ({ url: '/api/auth/email' }), expect: loggedIn(200) },
  {
    route: 'PUT /api/auth/email',
    // Nobody here knows the current password: each is refused by it.
    request: async () => ({ url: '/api/auth/email', body: { email: `${uniqueName('moved')}@example.org`, currentPassword: 'not the password' } }),
    expect: loggedIn(403),
  },
  // Nobody here has an address to verify.
  { route: 'POST /api/auth/email/verification', request: async () => ({ url: '/api/auth/email/verification' }), expect: loggedIn(409) },
  { route: 'POST /api/auth/email/verify', request: async () => ({ url: '/api/auth/email/verify', body: { token: 'A'.repeat(43) } }), expect: all(400) },
  {
    route: 'POST /api/auth/password-reset',
    request: async () => ({ url: '/api/auth/password-reset', body: { email: `${uniqueName('nobody')}@example.org` } }),
    expect: all(202),
  },
  {
    route: 'POST /api/auth/password-reset/confirm',
    request: async () => ({ url: '/api/auth/password-reset/confirm', body: { token: 'A'.repeat(43), newPassword: 'a brand new passphrase' } }),
    expect: all(400),
  },
  // Browser push: the server's key is public; subscriptions are each user's own (nobody else can even find one).
  { route: 'GET /api/push/key', request: async () => ({ url: '/api/push/key' }), expect: all(200) },
  { route: 'GET /api/push/subscriptions', request: async () => ({ url: '/api/push/subscriptions' }), expect: loggedIn(200) },
  {
    route: 'POST /api/push/subscriptions',
    request: async (_context, actor) => ({ url: '/api/push/subscriptions', body: pushSubscription(`matrix-${actor}`) }),
    expect: loggedIn(201),
  },
  {
    route: 'DELETE /api/push/subscriptions/{subscriptionId}',
    request: async (context) => ({ url: `/api/push/subscriptions/${context.stash.ownPush}` }),
    expect: { anonymous: 401, outsider: 404, otherPower: 404, ownPower: 204, gm: 404, admin: 404 },
  },
  {
    route: 'DELETE /api/push/subscriptions',
    request: async (context) => ({ url: `/api/push/subscriptions?endpoint=${encodeURIComponent(context.stash.ownPushEndpoint!)}` }),
    expect: { anonymous: 401, outsider: 404, otherPower: 404, ownPower: 204, gm: 404, admin: 404 },
  },
  {
    route: 'GET /api/admin/audit',
    request: async () => ({ url: '/api/admin/audit' }),
    expect: { anonymous: 401, outsider: 403, otherPower: 403, ownPower: 403, gm: 403, admin: 200 },
  },

  // The calendar feed: one's own address; the feed itself needs no log-in (its secret is the key), and an unknown one is 404.
  { route: 'GET /api/calendar/token', request: async () => ({ url: '/api/calendar/token' }), expect: loggedIn(200) },
  { route: 'POST /api/calendar/token', request: async () => ({ url: '/api/calendar/token' }), expect: loggedIn(200) },
  { route: 'DELETE /api/calendar/token', request: async () => ({ url: '/api/calendar/token' }), expect: loggedIn(204) },
  { route: 'GET /api/calendar/{token}.ics', request: async () => ({ url: `/api/calendar/${'x'.repeat(43)}.ics` }), expect: all(404) },

  // ───────── players ─────────
  {
    route: 'GET /api/users/{username}',
    // Anyone may read a player's page; the (private) game is on it only for those who may see the game.
    request: async (context) => ({ url: `/api/users/${context.world.game.byPower.get(context.own)!.user!.username}` }),
    expect: all(200),
    after: async (context, actor, response) => {
      const listed = response.json().games.some((entry: { game: { id: string } }) => entry.game.id === context.gameId);
      expect(listed, actor).toBe(actor !== 'anonymous' && actor !== 'outsider');
    },
  },

  // ───────── lobby ─────────
  { route: 'GET /api/variants', request: async () => ({ url: '/api/variants' }), expect: all(200) },
  { route: 'GET /api/games', request: async () => ({ url: '/api/games?filter=active' }), expect: all(200) },
  { route: 'POST /api/games', request: async () => ({ url: '/api/games', body: { name: 'Another', variant: 'standard' } }), expect: loggedIn(201) },
  { route: 'GET /api/games/{gameId}', request: game(), expect: gameRead() },
  {
    route: 'POST /api/games/{gameId}/join',
    request: async (context) => ({ url: `/api/games/${context.gameId}/join`, body: {} }),
    expect: { ...gmWrite(409), otherPower: 409, ownPower: 409 },
  },
  {
    route: 'POST /api/games/{gameId}/leave',
    request: game('/leave'),
    expect: { anonymous: 401, outsider: 404, otherPower: 409, ownPower: 409, gm: 409, admin: 409 },
  },
  { route: 'POST /api/games/{gameId}/start', request: game('/start'), expect: gmWrite(409) },

  // ───────── phases and orders ─────────
  { route: 'GET /api/games/{gameId}/phases', request: game('/phases'), expect: gameRead() },
  { route: 'GET /api/games/{gameId}/phases/current', request: game('/phases/current'), expect: gameRead() },
  // The map as a picture: whoever may read the phases.
  { route: 'GET /api/games/{gameId}/map.svg', request: game('/map.svg'), expect: gameRead() },
  { route: 'GET /api/games/{gameId}/map.png', request: game('/map.png'), expect: gameRead() },
  {
    route: 'GET /api/games/{gameId}/phases/{index}/map.svg',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/map.svg` }),
    expect: gameRead(),
  },
  {
    route: 'GET /api/games/{gameId}/phases/{index}/map.png',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/map.png` }),
    expect: gameRead(),
  },
  {
    route: 'GET /api/games/{gameId}/phases/{index}',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}` }),
    expect: gameRead(),
  },
  {
    route: 'GET /api/games/{gameId}/phases/{index}/orders',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/orders` }),
    expect: { ...powerWrite(200), anonymous: 401 },
  },
  {
    route: 'PUT /api/games/{gameId}/phases/{index}/orders',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/orders`, body: { orders: '', ready: false } }),
    expect: powerWrite(200),
  },
  {
    route: 'POST /api/games/{gameId}/phases/{index}/ready',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/ready`, body: { ready: false } }),
    expect: powerWrite(200),
  },

  // ───────── campaign play ─────────
  // The matrix's game is no campaign: its game master may ask, and the game's state says no (started; no contested sea).
  {
    route: 'PUT /api/games/{gameId}/campaign',
    request: async (context) => ({ url: `/api/games/${context.gameId}/campaign`, body: { ruleset: 'classis' } }),
    expect: gmWrite(409),
  },
  {
    route: 'GET /api/games/{gameId}/phases/{index}/seas',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas` }),
    expect: gameRead(),
  },
  {
    route: 'PUT /api/games/{gameId}/phases/{index}/seas/{sea}/sides',
    request: async (context) => ({
      url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/sides`,
      body: { sides: [['Rome'], ['Egypt']] },
    }),
    expect: gmWrite(404),
  },
  {
    route: 'POST /api/games/{gameId}/phases/{index}/seas/{sea}/decide',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/decide`, body: { winner: null } }),
    expect: gmWrite(404),
  },
  {
    route: 'POST /api/games/{gameId}/phases/{index}/seas/{sea}/waive',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/waive` }),
    expect: gmWrite(404),
  },
  // A sea fought as a battle (server/battles/from-sea.ts, sea-odds.ts): the game master's; the odds also its powers'
  // players', known once the sea is (so every member gets the 404 of a sea that is not there).
  {
    route: 'POST /api/games/{gameId}/phases/{index}/seas/{sea}/battle',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/battle`, body: {} }),
    expect: gmWrite(404),
  },
  {
    route: 'POST /api/games/{gameId}/phases/{index}/seas/{sea}/auto-resolve',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/auto-resolve` }),
    expect: gmWrite(404),
  },
  {
    route: 'POST /api/games/{gameId}/phases/{index}/seas/{sea}/odds',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/odds` }),
    expect: { ...gmWrite(404), otherPower: 404, ownPower: 404 },
  },
  {
    route: 'POST /api/games/{gameId}/phases/{index}/seas/{sea}/abandon',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/abandon` }),
    expect: gmWrite(409),
  },
  // Agreeing to auto-resolve is the fighting powers' players': every member is told the game is no campaign.
  {
    route: 'POST /api/games/{gameId}/phases/{index}/seas/{sea}/agreement',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/agreement` }),
    expect: { ...gmWrite(409), otherPower: 409, ownPower: 409 },
  },
  {
    route: 'DELETE /api/games/{gameId}/phases/{index}/seas/{sea}/agreement',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/seas/ION/agreement` }),
    expect: { ...gmWrite(409), otherPower: 409, ownPower: 409 },
  },

  // ───────── press ─────────
  { route: 'GET /api/games/{gameId}/press', request: game('/press'), expect: gameRead() },
  {
    route: 'POST /api/games/{gameId}/press',
    label: 'as a power',
    request: async (context) => ({ url: `/api/games/${context.gameId}/press`, body: { to: 'all', body: 'To all.' } }),
    expect: powerWrite(201),
  },
  {
    route: 'POST /api/games/{gameId}/press',
    label: 'as the game master',
    request: async (context) => ({ url: `/api/games/${context.gameId}/press`, body: { to: 'all', body: 'From the chair.', asGameMaster: true } }),
    expect: gmWrite(201),
  },
  // Read marks are the caller's own: those who may see the game read theirs; its players and game master keep them.
  {
    route: 'GET /api/games/{gameId}/press/read',
    request: game('/press/read'),
    expect: { ...gameRead(), anonymous: 401 },
  },
  {
    route: 'PUT /api/games/{gameId}/press/read',
    request: async (context) => ({ url: `/api/games/${context.gameId}/press/read`, body: { conversation: 'public', until: '2026-01-01T00:00:00.000Z' } }),
    expect: { ...gameRead(), anonymous: 401 },
  },

  // ───────── loans ─────────
  { route: 'GET /api/games/{gameId}/loans', request: game('/loans'), expect: gameRead() },
  {
    route: 'POST /api/games/{gameId}/loans',
    // A centre of the power concerned, lent to a bystander: another power cannot lend what it does not hold.
    request: async (context) => ({ url: `/api/games/${context.gameId}/loans`, body: { centre: context.stash.ownCentre, to: context.bystanders[0] } }),
    expect: { ...powerWrite(201), otherPower: 422 },
    after: async (context, _actor, response) => {
      context.stash.loanId = response.json().id;
    },
  },
  {
    route: 'POST /api/games/{gameId}/loans/{loanId}/end',
    request: async (context) => ({ url: `/api/games/${context.gameId}/loans/${context.stash.loanId}/end` }),
    // Lender or borrower only: another power is refused, the game master and administrator play no power.
    expect: { ...powerWrite(200), otherPower: 403 },
  },

  // ───────── votes ─────────
  { route: 'GET /api/games/{gameId}/votes', request: game('/votes'), expect: gameRead() },
  {
    route: 'POST /api/games/{gameId}/votes',
    request: async (context) => ({ url: `/api/games/${context.gameId}/votes`, body: { kind: 'draw' } }),
    expect: powerWrite(200),
  },
  { route: 'DELETE /api/games/{gameId}/votes/{kind}', request: game('/votes/draw'), expect: powerWrite(200) },

  // ───────── clock votes ─────────
  { route: 'GET /api/games/{gameId}/clock-votes', request: game('/clock-votes'), expect: gameRead() },
  {
    route: 'POST /api/games/{gameId}/clock-votes',
    request: async (context) => ({ url: `/api/games/${context.gameId}/clock-votes`, body: { kind: 'extend', extendSeconds: 3600 } }),
    // Players of powers only; one open vote at a time, so each allowed actor finds none open.
    expect: powerWrite(201),
    before: async (context) => void (await context.app.prisma.clockVote.deleteMany({ where: { gameId: context.gameId } })),
  },
  {
    route: 'POST /api/games/{gameId}/clock-votes/{voteId}/ballot',
    // A bystander's proposal, which the two powers' players agree with (three of five: it stays open).
    request: async (context) => ({ url: `/api/games/${context.gameId}/clock-votes/${await bystanderVote(context)}/ballot`, body: { agree: true } }),
    expect: powerWrite(200),
  },
  {
    route: 'DELETE /api/games/{gameId}/clock-votes/{voteId}',
    // The proposer (the power concerned) only.
    request: async (context) => ({ url: `/api/games/${context.gameId}/clock-votes/${await ownVote(context)}` }),
    expect: { ...powerWrite(200), otherPower: 403 },
  },
  {
    route: 'GET /api/games/{gameId}/phases/{index}/orders',
    label: 'the outsider sitting for the power concerned, whose player is away',
    request: async (context) => ({ url: `/api/games/${context.gameId}/phases/${await context.openPhase()}/orders` }),
    expect: { ...powerWrite(200), anonymous: 401, outsider: 200 },
    before: async (context, actor) => {
      if (actor !== 'outsider') return;
      const away = context.world.game.byPower.get(context.own)!.user!.id;
      const now = Date.now();
      const sitting = await context.app.prisma.vacation.create({
        data: { userId: away, sitterId: context.world.outsider.user!.id, startsAt: new Date(now - 60_000), endsAt: new Date(now + 3600_000) },
      });
      context.stash.sittingId = sitting.id;
    },
    after: async (context, actor, response) => {
      if (actor !== 'outsider') return;
      expect(response.json().power).toBe(context.own);
      await context.app.prisma.vacation.delete({ where: { id: context.stash.sittingId } });
    },
  },

  // ───────── vacations ─────────
  { route: 'GET /api/vacations', request: async () => ({ url: '/api/vacations' }), expect: loggedIn(200) },
  {
    route: 'POST /api/vacations',
    // Far off, so that no deadline of the game moves.
    request: async () => ({
      url: '/api/vacations',
      body: { startsAt: new Date(Date.now() + 200 * 86400_000).toISOString(), endsAt: new Date(Date.now() + 201 * 86400_000).toISOString() },
    }),
    expect: loggedIn(201),
  },
  {
    route: 'DELETE /api/vacations/{vacationId}',
    // The power concerned's player's own: nobody else finds it.
    request: async (context) => ({ url: `/api/vacations/${await ownVacation(context)}` }),
    expect: { anonymous: 401, outsider: 404, otherPower: 404, ownPower: 200, gm: 404, admin: 404 },
  },

  // ───────── game master ─────────
  // ───────── webhooks (the game master's setting) ─────────
  { route: 'GET /api/games/{gameId}/webhooks', request: game('/webhooks'), expect: gmWrite() },
  {
    route: 'POST /api/games/{gameId}/webhooks',
    request: async (context) => ({ url: `/api/games/${context.gameId}/webhooks`, body: { url: 'https://hooks.example.org/matrix', events: ['game-ended'] } }),
    expect: gmWrite(201),
    after: async (context, _actor, response) => {
      context.stash.webhookId = response.json().webhook.id;
    },
  },
  {
    route: 'POST /api/games/{gameId}/webhooks/{webhookId}/enable',
    request: async (context) => game(`/webhooks/${context.stash.webhookId}/enable`)(context),
    expect: gmWrite(),
  },
  {
    route: 'POST /api/games/{gameId}/webhooks/{webhookId}/test',
    // Calls out (the address does not resolve here): answered 200 with what happened.
    request: async (context) => game(`/webhooks/${context.stash.webhookId}/test`)(context),
    expect: gmWrite(),
  },
  {
    route: 'DELETE /api/games/{gameId}/webhooks/{webhookId}',
    // Each allowed actor deletes one of its own making; the denied try the one made above.
    request: async (context) => game(`/webhooks/${context.stash.doomedWebhookId ?? context.stash.webhookId}`)(context),
    expect: gmWrite(204),
    before: async (context) => {
      const made = await asGm(context, '/webhooks', { url: 'https://hooks.example.org/doomed', events: ['game-ended'] });
      context.stash.doomedWebhookId = made.json().webhook.id;
    },
  },

  { route: 'GET /api/games/{gameId}/gm/log', request: game('/gm/log'), expect: gameRead() },
  {
    route: 'POST /api/games/{gameId}/gm/deadline',
    request: async (context) => ({ url: `/api/games/${context.gameId}/gm/deadline`, body: { extendBySeconds: 3600 } }),
    expect: gmWrite(),
  },
  {
    route: 'POST /api/games/{gameId}/gm/pause',
    request: game('/gm/pause'),
    expect: gmWrite(),
    before: async (context) => void (await asGm(context, '/gm/resume')),
  },
  {
    route: 'POST /api/games/{gameId}/gm/resume',
    request: game('/gm/resume'),
    expect: gmWrite(),
    before: async (context) => void (await asGm(context, '/gm/pause')),
  },
  {
    route: 'POST /api/games/{gameId}/gm/replace',
    // A bystander's seat, handed to a newcomer (by each allowed actor to another one).
    request: async (context) => ({
      url: `/api/games/${context.gameId}/gm/replace`,
      body: { power: context.bystanders[1], username: (await new Browser(context.app).register()).user!.username },
    }),
    expect: gmWrite(),
  },
  {
    route: 'POST /api/games/{gameId}/gm/civil-disorder',
    request: async (context, actor) => ({
      url: `/api/games/${context.gameId}/gm/civil-disorder`,
      body: { power: actor === 'admin' ? context.bystanders[2] : context.bystanders[1] },
    }),
    expect: gmWrite(),
  },
  {
    route: 'PUT /api/games/{gameId}/gm/phases/{index}/orders/{power}',
    request: async (context) => ({ url: `/api/games/${context.gameId}/gm/phases/${await context.openPhase()}/orders/${context.own}`, body: { orders: '' } }),
    expect: gmWrite(),
  },
  { route: 'POST /api/games/{gameId}/gm/process', request: game('/gm/process'), expect: gmWrite() },
  {
    route: 'POST /api/games/{gameId}/gm/rollback',
    request: async (context) => ({ url: `/api/games/${context.gameId}/gm/rollback`, body: { phase: 0 } }),
    expect: gmWrite(),
    before: async (context) => void (await asGm(context, '/gm/process')),
  },
  {
    route: 'POST /api/games/{gameId}/gm/end',
    request: async (context) => ({ url: `/api/games/${context.gameId}/gm/end`, body: { outcome: 'draw' } }),
    expect: gmWrite(),
    // The game goes on for the entries after this one: re-opened at the phase it ended in.
    after: async (context) => {
      const reopened = await asGm(context, '/gm/rollback', { phase: await context.openPhase() });
      expect(reopened.statusCode, reopened.body).toBe(200);
    },
  },

  { route: 'POST /api/games/{gameId}/gm/finalize', request: game('/gm/finalize'), expect: gmWrite(409) },
  {
    route: 'POST /api/games/{gameId}/gm/invite',
    request: async (context) => ({
      url: `/api/games/${context.gameId}/gm/invite`,
      body: { username: (await new Browser(context.app).register()).user!.username },
    }),
    expect: gmWrite(),
  },
  // Nobody of the six was asked to run the game (the one asked is a newcomer): members are told so; the game stays unknown to others.
  {
    route: 'POST /api/games/{gameId}/gm/invitation/accept',
    request: game('/gm/invitation/accept'),
    expect: { anonymous: 401, outsider: 404, otherPower: 409, ownPower: 409, gm: 409, admin: 409 },
  },
  {
    route: 'DELETE /api/games/{gameId}/gm/invitation',
    request: game('/gm/invitation'),
    // The game master (or an administrator) withdraws a pending invitation; players have none to decline.
    expect: { anonymous: 401, outsider: 404, otherPower: 409, ownPower: 409, gm: 204, admin: 204 },
    before: async (context) => void (await asGm(context, '/gm/invite', { username: (await new Browser(context.app).register()).user!.username })),
  },
  // This game master plays no power, so has no requests to put to the players (consent.test.ts plays one who does):
  // the list is readable as the game is; a request that does not exist is answered as such, to those who may know the game.
  { route: 'GET /api/games/{gameId}/gm/proposals', request: game('/gm/proposals'), expect: gameRead() },
  {
    route: 'POST /api/games/{gameId}/gm/proposals/{proposalId}/answer',
    request: async (context) => ({ url: `/api/games/${context.gameId}/gm/proposals/019a0000-0000-7000-8000-000000000000/answer`, body: { agree: true } }),
    expect: { anonymous: 401, outsider: 404, otherPower: 404, ownPower: 404, gm: 404, admin: 404 },
  },
  {
    route: 'DELETE /api/games/{gameId}/gm/proposals/{proposalId}',
    request: game('/gm/proposals/019a0000-0000-7000-8000-000000000000'),
    expect: gmWrite(404),
  },

  // ───────── archive ─────────
  { route: 'GET /api/games/{gameId}/export', request: game('/export'), expect: gameRead() },
  { route: 'GET /api/games/{gameId}/export/datc', request: game('/export/datc'), expect: gameRead() },
  {
    route: 'POST /api/games/import',
    request: async (context) => ({ url: '/api/games/import', body: { export: JSON.parse(context.stash.export) } }),
    expect: loggedIn(201),
  },

  // ───────── naval battles ─────────
  // A private ship-to-ship duel being fought: ownPower plays Rhodes, otherPower Macedon, the game master sits as umpire.
  { route: 'GET /api/battle-rulesets', request: async () => ({ url: '/api/battle-rulesets' }), expect: all(200) },
  {
    route: 'POST /api/battles',
    request: async () => ({ url: '/api/battles', body: { title: 'Another', ruleset: 'ship-to-ship', scenario: 'duel' } }),
    expect: loggedIn(201),
  },
  { route: 'GET /api/battles', request: async () => ({ url: '/api/battles?filter=active' }), expect: all(200) },
  { route: 'GET /api/battles/{battleId}', request: battle(), expect: gameRead() },
  {
    route: 'POST /api/battles/{battleId}/join',
    request: async (context) => ({ url: `/api/battles/${context.stash.battleId}/join`, body: { seat: 'umpire' } }),
    expect: { anonymous: 401, outsider: 404, otherPower: 409, ownPower: 409, gm: 409, admin: 409 },
  },
  {
    route: 'POST /api/battles/{battleId}/leave',
    request: battle('/leave'),
    expect: { anonymous: 401, outsider: 404, otherPower: 409, ownPower: 409, gm: 409, admin: 409 },
  },
  {
    // Its creator's (ownPower's) or an administrator's to call off, and only before it starts: this one is being fought.
    route: 'POST /api/battles/{battleId}/cancel',
    request: battle('/cancel'),
    expect: { anonymous: 401, outsider: 404, otherPower: 403, ownPower: 409, gm: 403, admin: 409 },
  },
  { route: 'GET /api/battles/{battleId}/log', request: battle('/log'), expect: gameRead() },
  {
    route: 'POST /api/battles/{battleId}/actions',
    // Rhodes's plot: its player's to hand in; Macedon's player is refused by the rules (not its ship); the umpire and the administrator act for no side.
    request: async (context) => {
      const detail = (await send('ownPower', 'GET', { url: `/api/battles/${context.stash.battleId}?legalActions=true` })).json();
      return { url: `/api/battles/${context.stash.battleId}/actions`, body: { action: detail.legalActions[0].action, expected: detail.actionCount } };
    },
    expect: { anonymous: 401, outsider: 404, otherPower: 422, ownPower: 200, gm: 403, admin: 403 },
  },
  // The umpire's notes: the umpire's alone while the battle is fought (an administrator's neither).
  { route: 'GET /api/battles/{battleId}/notes', request: battle('/notes'), expect: { ...gameRead(403), gm: 200 } },
  {
    route: 'POST /api/battles/{battleId}/notes',
    request: async (context) => ({ url: `/api/battles/${context.stash.battleId}/notes`, body: { text: 'Rhodes hesitates.' } }),
    expect: { anonymous: 401, outsider: 404, otherPower: 403, ownPower: 403, gm: 201, admin: 403 },
  },
  { route: 'GET /api/battles/{battleId}/export', request: battle('/export'), expect: gameRead() },
  // Checked once the battle is over: until then those who may see it are told so.
  { route: 'GET /api/battles/{battleId}/verification', request: battle('/verification'), expect: gameRead(409) },
  {
    route: 'POST /api/battles/import',
    request: async (context) => ({ url: '/api/battles/import', body: { record: JSON.parse(context.stash.battleRecord) } }),
    expect: loggedIn(201),
  },

  // ───────── seats offered to new players ─────────
  { route: 'GET /api/seats/open', request: async () => ({ url: '/api/seats/open' }), expect: all(200) },
  { route: 'GET /api/games/{gameId}/seats', request: game('/seats'), expect: gameRead() },
  {
    route: 'POST /api/games/{gameId}/seats/{power}/offer',
    request: async (context) => ({ url: `/api/games/${context.gameId}/seats/${context.bystanders[0]}/offer` }),
    expect: gmWrite(),
    before: async (context) =>
      void (await context.app.prisma.player.updateMany({
        where: { gameId: context.gameId, power: context.bystanders[0] },
        data: { replacementWantedAt: null },
      })),
  },
  {
    route: 'DELETE /api/games/{gameId}/seats/{power}/offer',
    request: async (context) => ({ url: `/api/games/${context.gameId}/seats/${context.bystanders[0]}/offer` }),
    expect: gmWrite(),
    before: async (context) => void (await offeredSeat(context)),
  },
  {
    route: 'POST /api/games/{gameId}/seats/{power}/requests',
    // Taken by someone who neither plays in the game nor runs it, and may see it: here the administrator (the outsider lacks the code).
    request: async (context) => ({ url: `/api/games/${context.gameId}/seats/${await offeredSeat(context)}/requests`, body: {} }),
    expect: { anonymous: 401, outsider: 404, otherPower: 403, ownPower: 403, gm: 403, admin: 201 },
  },
  {
    route: 'POST /api/games/{gameId}/seats/{power}/requests/{requestId}/approve',
    // Each allowed actor hands the seat to another newcomer.
    request: async (context) => ({ url: `/api/games/${context.gameId}/seats/${context.bystanders[0]}/requests/${await pendingSeatRequest(context)}/approve` }),
    expect: gmWrite(),
  },
  {
    route: 'POST /api/games/{gameId}/seats/{power}/requests/{requestId}/decline',
    request: async (context) => ({ url: `/api/games/${context.gameId}/seats/${context.bystanders[0]}/requests/${await pendingSeatRequest(context)}/decline` }),
    expect: gmWrite(),
  },
  {
    route: 'DELETE /api/games/{gameId}/seats/{power}/requests/{requestId}',
    // The outsider's own request (made with the invite code): theirs alone to withdraw.
    request: async (context) => ({
      url: `/api/games/${context.gameId}/seats/${context.bystanders[0]}/requests/${await pendingSeatRequest(context, context.world.outsider.user!.id)}`,
    }),
    expect: { anonymous: 401, outsider: 200, otherPower: 404, ownPower: 404, gm: 404, admin: 404 },
  },

  // ───────── server ─────────
  // ───────── notification choices, unsubscribe ─────────
  { route: 'GET /api/notifications/settings', request: async () => ({ url: '/api/notifications/settings' }), expect: loggedIn(200) },
  {
    route: 'PUT /api/notifications/settings',
    request: async () => ({ url: '/api/notifications/settings', body: { push: { press: false } } }),
    expect: loggedIn(200),
  },
  // A member's own choices for the game: its players and its game master; an administrator runs it but is no member.
  { route: 'GET /api/games/{gameId}/notifications', request: game('/notifications'), expect: { ...gameRead(), anonymous: 401, admin: 403 } },
  {
    route: 'PUT /api/games/{gameId}/notifications',
    request: async (context) => ({ url: `/api/games/${context.gameId}/notifications`, body: { mail: { press: false } } }),
    expect: { anonymous: 401, outsider: 404, otherPower: 200, ownPower: 200, gm: 200, admin: 403 },
  },
  // The signed link is the authority: whoever holds it, logged in or not.
  {
    route: 'GET /api/notifications/unsubscribe',
    request: async (context) => ({ url: `/api/notifications/unsubscribe?token=${unsubscribeLink(context)}` }),
    expect: all(200),
  },
  {
    route: 'POST /api/notifications/unsubscribe',
    request: async (context) => ({ url: `/api/notifications/unsubscribe?token=${unsubscribeLink(context)}`, body: { 'List-Unsubscribe': 'One-Click' } }),
    expect: all(200),
  },
  { route: 'GET /api/live', label: 'without an upgrade', request: async () => ({ url: '/api/live' }), expect: loggedIn(426) },
  { route: 'GET /api/health', request: async () => ({ url: '/api/health' }), expect: all(200) },
];

/** Websocket messages: what each person is answered (the socket itself needs a user: nobody gets 401 at the upgrade). */
type WsEntry = { type: string; label: string; message(context: Context): unknown; expect: Record<Exclude<ActorName, 'anonymous'>, string> };
const allWs = (answer: string) => ({ outsider: answer, otherPower: answer, ownPower: answer, gm: answer, admin: answer });
const WS_MATRIX: WsEntry[] = [
  {
    type: 'subscribe',
    label: 'the private game',
    message: (context) => ({ type: 'subscribe', channel: `game:${context.gameId}` }),
    expect: { ...allWs('subscribed'), outsider: 'error:not_found' },
  },
  { type: 'subscribe', label: 'the lobby', message: () => ({ type: 'subscribe', channel: 'lobby' }), expect: allWs('subscribed') },
  {
    type: 'subscribe',
    label: 'the private battle',
    message: (context) => ({ type: 'subscribe', channel: `battle:${context.stash.battleId}` }),
    expect: { ...allWs('subscribed'), outsider: 'error:not_found' },
  },
  {
    type: 'subscribe',
    label: "the own power's player's user channel (private press)",
    message: (context) => ({ type: 'subscribe', channel: `user:${context.world.game.byPower.get(context.own)!.user!.id}` }),
    expect: { ...allWs('error:not_found'), ownPower: 'subscribed' },
  },
  {
    type: 'unsubscribe',
    label: 'the private game',
    message: (context) => ({ type: 'unsubscribe', channel: `game:${context.gameId}` }),
    expect: allWs('unsubscribed'),
  },
  { type: 'ping', label: '', message: () => ({ type: 'ping' }), expect: allWs('pong') },
];

let testApp: TestApp;
let app: FastifyInstance;
let url: string;
let context: Context;
const users = new Map<ActorName, { id: string; username: string } | null>();

beforeAll(async () => {
  // The game master ends the game and re-opens it (`POST …/gm/end`): results become final after an hour here.
  testApp = await startTestApp({ settings: { finalAfterMs: 3600_000 } });
  app = testApp.app;
  url = await listen(app);
  const world = await buildWorld(app, { private: true });
  // The power concerned is one that can lend a centre: the lender of the world's loan, which it ends
  // here so that it can lend that centre again in the matrix (to the same borrower, a bystander).
  const loans = (await world.game.master.request('GET', `/api/games/${world.game.id}/loans`)).json().loans as {
    id: string;
    lender: string;
    borrower: string;
    centre: string;
  }[];
  const loan = loans.find((row) => row.id === world.loanId)!;
  const own = loan.lender;
  const borrower = loan.borrower;
  const other = world.game.powers.find((power) => power !== own && power !== borrower)!;
  const rest = [borrower, ...world.game.powers.filter((power) => ![own, other, borrower].includes(power))];
  const ownPlayer = world.game.byPower.get(own)!;
  const ended = await ownPlayer.request('POST', `/api/games/${world.game.id}/loans/${loan.id}/end`);
  if (ended.statusCode !== 200) throw new Error(`ending the world's loan: ${ended.body}`);
  users
    .set('anonymous', null)
    .set('outsider', world.outsider.user)
    .set('otherPower', world.game.byPower.get(other)!.user)
    .set('ownPower', ownPlayer.user)
    .set('gm', world.game.master.user)
    .set('admin', world.admin.user);

  const login = await new Browser(app).register();
  const played = randomPlayed('standard', 3, 2);
  const token = (await ownPlayer.request('POST', '/api/auth/tokens', { name: 'concerned' })).json().id;
  const ownPush = (await ownPlayer.request('POST', '/api/push/subscriptions', pushSubscription('concerned-1'))).json().id;
  const ownPushEndpoint = pushSubscription('concerned-2').endpoint;
  await ownPlayer.request('POST', '/api/push/subscriptions', pushSubscription('concerned-2'));
  const battles = await privateBattle(ownPlayer, world.game.byPower.get(other)!, world.game.master);
  context = {
    app,
    world,
    gameId: world.game.id,
    own,
    other,
    bystanders: rest as [string, string, string],
    gm: world.game.master,
    async openPhase() {
      return (await world.game.master.request('GET', `/api/games/${world.game.id}/phases/current`)).json().index;
    },
    stash: {
      loginName: login.user!.username,
      ownToken: token,
      ownPush,
      ownPushEndpoint,
      ownCentre: loan.centre,
      export: JSON.stringify(exportOf('standard', played, 'Matrix import')),
      ...battles,
    },
  };
}, 120_000);
afterAll(() => testApp.close(), 60_000);

/**
 * A private ship-to-ship duel being fought (Rhodes, Macedon and the umpire's seats taken by the three given), and the
 * record of a finished one-turn duel against the computer, to import.
 */
async function privateBattle(rhodes: Browser, macedon: Browser, umpire: Browser): Promise<{ battleId: string; battleRecord: string }> {
  const created = (
    await rhodes.request('POST', '/api/battles', {
      title: 'Matrix battle',
      ruleset: 'ship-to-ship',
      scenario: 'duel',
      private: true,
      umpire: true,
      join: 'rhodes',
    })
  ).json();
  for (const [browser, seat] of [
    [macedon, 'macedon'],
    [umpire, 'umpire'],
  ] as const) {
    const joined = await browser.request('POST', `/api/battles/${created.id}/join`, { seat, inviteCode: created.inviteCode });
    if (joined.statusCode !== 200) throw new Error(`joining the matrix battle: ${joined.body}`);
  }
  const { SCENARIOS } = await import('../../shared/naval/index.ts');
  const setup = { ...(SCENARIOS['ship-to-ship'].find((scenario) => scenario.id === 'duel')!.setup as object), turnLimit: 1 };
  const short = (
    await rhodes.request('POST', '/api/battles', {
      title: 'One turn',
      ruleset: 'ship-to-ship',
      setup,
      seats: [{ side: 'macedon', player: 'computer' }],
      join: 'rhodes',
    })
  ).json();
  const listed = (await rhodes.request('GET', `/api/battles/${short.id}?legalActions=true`)).json();
  await rhodes.request('POST', `/api/battles/${short.id}/actions`, { action: listed.legalActions[0].action, expected: short.actionCount });
  const record = await rhodes.request('GET', `/api/battles/${short.id}/export`);
  if (!record.json().seed) throw new Error(`the one-turn battle did not end: ${record.body.slice(0, 300)}`);
  return { battleId: created.id, battleRecord: record.body };
}

/** A browser's push subscription at a known push service (a real P-256 key and auth secret); the same name, the same endpoint. */
function pushSubscription(name: string) {
  const browserKey = createECDH('prime256v1');
  browserKey.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${name}`,
    keys: { p256dh: browserKey.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

async function send(actor: ActorName, method: string, target: { url: string; body?: unknown }) {
  const user = users.get(actor)!;
  // Fresh credentials for each request (a cookie session with its CSRF token), so a log-out ends only itself.
  const headers = user ? (await freshCredentials(app, user.id, 'cookie')).headers : {};
  return app.inject({ method: method as 'GET', url: target.url, headers, ...(target.body === undefined ? {} : { payload: target.body as object }) });
}

describe('the authorization matrix', () => {
  test('every route the server serves has an entry, and every entry a route', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const documented = documentedRoutes(document);
    expect(documented).toEqual(servedRoutes(app));
    const inMatrix = new Set(MATRIX.map((entry) => entry.route));
    expect(
      documented.filter((route) => !inMatrix.has(route)),
      'routes without an entry in MATRIX',
    ).toEqual([]);
    expect(
      [...inMatrix].filter((route) => !documented.includes(route)),
      'entries for routes that do not exist',
    ).toEqual([]);
    const types = ClientMessageSchema.options.map((option) => option.shape.type.value);
    expect(
      types.filter((type) => !WS_MATRIX.some((entry) => entry.type === type)),
      'message types without an entry in WS_MATRIX',
    ).toEqual([]);
  });

  test('each person gets exactly the answer written down, on every route', async () => {
    const mismatches: string[] = [];
    for (const entry of MATRIX) {
      const method = entry.route.split(' ')[0];
      const ordered = [...ACTORS].sort((a, b) => Number(entry.expect[a] < 300) - Number(entry.expect[b] < 300));
      for (const actor of ordered) {
        const allowed = entry.expect[actor] < 300;
        if (allowed) await entry.before?.(context, actor);
        const response = await send(actor, method, await entry.request(context, actor));
        const what = `${entry.route}${entry.label ? ` (${entry.label})` : ''} as ${actor}`;
        if (response.statusCode !== entry.expect[actor])
          mismatches.push(`${what}: expected ${entry.expect[actor]}, got ${response.statusCode} ${response.body.slice(0, 200)}`);
        if (response.statusCode >= 400) expect(response.json().error.code, what).toEqual(expect.any(String));
        if (allowed && response.statusCode < 300) await entry.after?.(context, actor, response);
      }
    }
    expect(mismatches).toEqual([]);
  });

  test('websocket: nobody cannot connect; each message type gets the answer written down', async () => {
    await expect(connect(url, {})).rejects.toMatchObject({ statusCode: 401 });
    const mismatches: string[] = [];
    for (const actor of ACTORS.filter((a): a is Exclude<ActorName, 'anonymous'> => a !== 'anonymous')) {
      const user = users.get(actor)!;
      const client = await connect(url, { cookie: (await freshCredentials(app, user.id, 'cookie')).headers.cookie });
      await client.next('welcome');
      for (const entry of WS_MATRIX) {
        const before = client.messages.length;
        client.send(entry.message(context));
        await vi.waitFor(() => expect(client.messages.length).toBeGreaterThan(before));
        const answer = client.messages[before];
        const got = answer.type === 'error' ? `error:${answer.error.code}` : answer.type;
        if (got !== entry.expect[actor])
          mismatches.push(`${entry.type} ${entry.label} as ${actor}: expected ${entry.expect[actor]}, got ${JSON.stringify(answer)}`);
      }
      client.socket.close();
    }
    expect(mismatches).toEqual([]);
  });
});

describe('site administrators', () => {
  test('are made only from outside the API: ADMIN_USERS at start-up is the whole list', async () => {
    const [alice, bob] = await Promise.all([new Browser(app).register(), new Browser(app).register()]);
    const isAdmin = async (browser: Browser) => (await browser.request('GET', '/api/auth/me')).json().user.isAdmin;
    expect(await isAdmin(alice)).toBe(false);
    // Nothing a user can send makes them one.
    const tries = [
      await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username: uniqueName(), password: 'a long enough password', isAdmin: true } }),
      await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
        payload: `{"__proto__":{"isAdmin":true},"username":"${uniqueName()}","password":"a long enough password"}`,
      }),
    ];
    expect(tries.map((response) => response.statusCode)).toEqual([201, 400]);
    expect(tries[0].json().user.isAdmin).toBe(false);

    const { startSiblingApp } = await import('./helpers/app.ts');
    const withAdmins = await startSiblingApp(app, { settings: { adminUsers: [alice.user!.username.toUpperCase(), 'nobody-by-that-name'] } });
    try {
      // This instance held alice's session as it was: it forgets it when PostgreSQL's notification arrives.
      await vi.waitFor(async () => expect(await isAdmin(alice)).toBe(true), { timeout: 5_000, interval: 20 });
      expect(await isAdmin(bob)).toBe(false);
      // The administrator made by buildWorld is not on the list: no longer one.
      expect((await app.prisma.user.findUniqueOrThrow({ where: { id: context.world.admin.user!.id } })).isAdmin).toBe(false);
    } finally {
      await withAdmins.close();
      const { setAdmin } = await import('../../server/admin/admins.ts');
      await setAdmin(app.prisma, context.world.admin.user!.username, true);
      await setAdmin(app.prisma, alice.user!.username, false);
    }
  });

  test('the command line lists, grants and revokes; refuses to when ADMIN_USERS rules', async () => {
    const { adminCommand } = await import('../../server/admin/admins.ts');
    const carol = await new Browser(app).register();
    expect(await adminCommand(app.prisma, ['grant', carol.user!.username], false)).toEqual({
      exitCode: 0,
      output: `${carol.user!.username} is now a site administrator`,
    });
    expect((await adminCommand(app.prisma, ['list'], false)).output.split('\n')).toContain(carol.user!.username);
    expect((await adminCommand(app.prisma, ['revoke', carol.user!.username], true)).exitCode).toBe(1);
    expect(await adminCommand(app.prisma, ['revoke', carol.user!.username], false)).toEqual({
      exitCode: 0,
      output: `${carol.user!.username} is no longer a site administrator`,
    });
    expect((await adminCommand(app.prisma, ['grant', 'no-such-user'], false)).exitCode).toBe(1);
    expect((await adminCommand(app.prisma, ['promote'], false)).exitCode).toBe(2);
  });

  test("act as game master: their actions are in the game's log under their name and in the site-wide audit log", async () => {
    const admin = await actorFor(app, 'admin', context.world.admin.user, 'cookie');
    const extended = await app.inject({
      method: 'POST',
      url: `/api/games/${context.gameId}/gm/deadline`,
      headers: admin.credentials.headers,
      payload: { extendBySeconds: 60 },
    });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json().action.actor).toEqual(context.world.admin.user);
    const audit = await app.inject({ method: 'GET', url: '/api/admin/audit?limit=5', headers: admin.credentials.headers });
    expect(audit.json().actions[0]).toMatchObject({ gameId: context.gameId, action: 'change-deadline', actor: context.world.admin.user });
  });
});
