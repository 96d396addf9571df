/** Started games and players for the game-play tests, all through the HTTP API. */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { formatOrder, type GameState, type Order, type SubmittedOrder } from '../../../shared/index.ts';
import { Browser, registeredBrowsers } from './app.ts';

export type StartedGame = {
  gameId: string;
  master: Browser;
  players: Browser[];
  /** Each power's player. */
  byPower: Map<string, Browser>;
  powers: string[];
};

/** No grace for missed orders (play/grace.ts): a deadline passed is processed then, as the tests written before grace expect. */
export const NO_GRACE = { grace: { seconds: 0, perPlayer: 0 } };

/**
 * A Diadochi V game (five powers) with a game master who does not play, started through the lobby. Without
 * grace for missed orders unless `settings.correspondence` says otherwise (the game setting's default is on).
 */
export async function startGame(app: FastifyInstance, settings: Record<string, unknown> = {}): Promise<StartedGame> {
  const master = await new Browser(app).register();
  const created = await master.request('POST', '/api/games', {
    name: 'Play test',
    variant: 'diadochi-v',
    joinAsPlayer: false,
    correspondence: NO_GRACE,
    ...settings,
  });
  expect(created.statusCode, created.body).toBe(201);
  const game = created.json();
  const players = await registeredBrowsers(app, game.seats);
  for (const player of players) {
    const joined = await player.request('POST', `/api/games/${game.id}/join`, game.inviteCode ? { inviteCode: game.inviteCode } : {});
    expect(joined.statusCode, joined.body).toBe(200);
  }
  const byPower = new Map<string, Browser>();
  for (const player of players) {
    const detail = (await player.request('GET', `/api/games/${game.id}`)).json();
    const me = detail.players.find((seat: { isYou: boolean }) => seat.isYou);
    byPower.set(me.power, player);
  }
  return { gameId: game.id, master, players, byPower, powers: [...byPower.keys()].sort() };
}

export async function currentPhase(browser: Browser, gameId: string) {
  const response = await browser.request('GET', `/api/games/${gameId}/phases/current`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    index: number;
    name: string;
    kind: string;
    status: string;
    deadlineAt: string | null;
    state: GameState;
    supply: { power: string; centres: string[]; supply: number; units: number; loansOut: unknown[]; loansIn: unknown[] }[];
    powers: { power: string; mustOrder: boolean; submitted: boolean; ready: boolean; playerStatus: string | null; missedDeadlines: number }[];
  };
}

/** A hold for each of the power's units in the game's current phase, as typed (one order a line), read as `browser`. */
export async function holdAll(browser: Browser, gameId: string, power: string): Promise<string> {
  const phase = await currentPhase(browser, gameId);
  return phase.state.units
    .filter((unit) => unit.power === power)
    .map((unit) => `${unit.type} ${unit.at} H`)
    .join('\n');
}

/** Groups orders by power. The random-game generator puts whole units (with `power`) in removals; the wire's Order wants { type, at }. */
export function ordersByPower(orders: SubmittedOrder[]): Map<string, Order[]> {
  const out = new Map<string, Order[]>();
  for (const o of orders) {
    let order = o.order as Order;
    if (order.kind === 'remove') order = { kind: 'remove', unit: { type: order.unit.type, at: order.unit.at } };
    out.set(o.power, [...(out.get(o.power) ?? []), order]);
  }
  return out;
}

/**
 * Submits orders (as text when `asText`), dropping those the engine refuses
 * (random orders may build twice on one site) after checking the 422 names them.
 */
export async function submitAccepted(browser: Browser, gameId: string, index: number, orders: Order[], ready: boolean, asText = false) {
  const body = (list: Order[]) => ({ orders: asText ? list.map((order) => formatOrder(order)).join('\n') : list, ready });
  let response = await browser.request('PUT', `/api/games/${gameId}/phases/${index}/orders`, body(orders));
  if (response.statusCode === 422) {
    const refusal = response.json();
    expect(refusal.error.code).toBe('orders_rejected');
    expect(refusal.orders.length).toBe(orders.length);
    const kept = orders.filter((_, i) => refusal.orders[i].accepted);
    response = await browser.request('PUT', `/api/games/${gameId}/phases/${index}/orders`, body(kept));
  }
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { phaseProcessed: boolean; submission: { orders: unknown[] } };
}

/** A campaign game's settings (campaign play): its sea battles fought under Classis, with 48 hours for them. */
export const CAMPAIGN = { campaign: { ruleset: 'classis', battleHours: 48 } };

/** Every power submits its orders (text, one a line; none: every unit holds) and is ready. */
export async function playPhase(game: StartedGame, index: number, orders: Record<string, string[]>) {
  for (const power of game.powers) {
    const player = game.byPower.get(power)!;
    const lines = orders[power];
    const response = lines
      ? await player.request('PUT', `/api/games/${game.gameId}/phases/${index}/orders`, { orders: lines.join('\n'), ready: true })
      : await player.request('POST', `/api/games/${game.gameId}/phases/${index}/ready`, { ready: true });
    expect(response.statusCode, response.body).toBe(200);
  }
}

/**
 * A campaign game whose game master plays Rome, phase 0 held: Rome's and Macedonia's fleets met in the Ionian Sea,
 * Egypt's and Syria's in the Levantine Sea (a sea the master fights in, and one the master does not).
 */
export async function masterFightsIonian(app: FastifyInstance): Promise<StartedGame> {
  const master = await new Browser(app).register();
  const created = await master.request('POST', '/api/games', {
    name: 'Playing master',
    variant: 'diadochi-v',
    joinAsPlayer: true,
    powerAssignment: 'preferences',
    powerPreferences: ['Rome'],
    correspondence: NO_GRACE,
    ...CAMPAIGN,
  });
  expect(created.statusCode, created.body).toBe(201);
  const gameId = created.json().id as string;
  const others = await registeredBrowsers(app, 4);
  for (const player of others) expect((await player.request('POST', `/api/games/${gameId}/join`, {})).statusCode).toBe(200);
  const byPower = new Map<string, Browser>();
  for (const player of [master, ...others]) {
    const detail = (await player.request('GET', `/api/games/${gameId}`)).json();
    byPower.set(detail.players.find((seat: { isYou: boolean }) => seat.isYou).power, player);
  }
  expect(byPower.get('Rome')).toBe(master);
  const game: StartedGame = { gameId, master, players: others, byPower, powers: [...byPower.keys()].sort() };
  await playPhase(game, 0, { Rome: ['F Nea - ION'], Macedonia: ['F Kor - ION'], Egypt: ['F Alx - LEV'], Syria: ['F Ant - LEV'] });
  return game;
}
