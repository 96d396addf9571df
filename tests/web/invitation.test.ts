/**
 * The invitation to run a game, mounted against a scripted server: the one invited reads "zeus asks you to run
 * this game" with Accept / Decline on the game's page, on its board and on their lobby card; the game master who
 * asked reads "Waiting for … to accept" with Withdraw.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { GameDetail } from '../../shared/api/index.ts';
import GamePage from '../../web/src/pages/GamePage.svelte';
import GameView from '../../web/src/pages/GameView.svelte';
import Lobby from '../../web/src/pages/Lobby.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, gameDetail, gameSummary, json, openPhase, POWERS } from './api-fixtures.ts';

// The board fetches its tabs' chunks once the map is up: loaded before, so that none arrives after a test's end;
// and the invitation's own chunk, so that the page shows it within settle()'s few ticks however busy the machine.
beforeAll(() =>
  Promise.all([
    import('../../web/src/game/GamePanel.svelte'),
    import('../../web/src/game/PressPanel.svelte'),
    import('../../web/src/game/SupplyPanel.svelte'),
    import('../../web/src/game/Invitation.svelte'),
  ]),
);

const GAME = id(1);
const ZEUS = { id: id(9), username: 'zeus' };
const PTOLEMY = { id: id(5), username: 'ptolemy' };

/** The game as the server holds it: forming, zeus runs it and asked ptolemy to. */
let game: GameDetail;
let sent: string[];
let target: HTMLElement;
let component: ReturnType<typeof mount> | undefined;

function logIn(user: { id: string; username: string }) {
  session.adopt({ user: { ...user, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
}

beforeEach(() => {
  game = gameDetail(null, { status: 'forming', playerCount: 2, gameMaster: ZEUS, invitedGameMaster: PTOLEMY, startedAt: null });
  sent = [];
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const url = new URL(path, 'http://localhost');
    const method = init.method ?? 'GET';
    if (method !== 'GET') sent.push(`${method} ${url.pathname}`);
    if (url.pathname === `/api/games/${GAME}/gm/invitation/accept`) {
      game = { ...game, gameMaster: PTOLEMY, invitedGameMaster: null };
      return json(200, {
        action: { id: id(8), action: 'take-over', actor: PTOLEMY, details: { users: { from: 'zeus', to: 'ptolemy' } }, at: '2026-11-24T10:00:00.000Z' },
      });
    }
    if (url.pathname === `/api/games/${GAME}/gm/invitation`) {
      game = { ...game, invitedGameMaster: null };
      return new Response(null, { status: 204 });
    }
    if (url.pathname === `/api/games/${GAME}`) return json(200, game);
    // As the server lists it to ptolemy, the one asked.
    if (url.pathname === '/api/games')
      return json(200, { games: [gameSummary({ ...game, joined: false, invitedYou: game.invitedGameMaster?.id === PTOLEMY.id })], nextCursor: null });
    return json(404, { error: { code: 'not_found', message: `no route ${url.pathname}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  if (component) unmount(component);
  component = undefined;
  target.remove();
  vi.unstubAllGlobals();
  router.search = '';
});

const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await tick();
    await new Promise((resolve) => setTimeout(resolve));
  }
  flushSync();
};
const button = (name: string) => Array.from(target.querySelectorAll('button')).find((b) => b.textContent?.trim() === name);
const invitation = () => target.querySelector('.invitation')?.textContent?.replace(/\s+/g, ' ').trim() ?? null;

async function gamePage() {
  router.search = '?about';
  component = mount(GamePage, { target, props: { id: GAME } });
  await vi.waitFor(() => expect(target.querySelector('h1')?.textContent).toBe('Test'));
  await settle();
}

describe("the game's page", () => {
  it('asks the one invited, who accepts and runs the game from then on', async () => {
    logIn(PTOLEMY);
    await gamePage();
    expect(invitation()).toMatch(/^zeus asks you to run this game as its game master/);
    button('Accept')!.click();
    await vi.waitFor(() => expect(sent).toEqual([`POST /api/games/${GAME}/gm/invitation/accept`]));
    await vi.waitFor(() => expect(invitation()).toBeNull());
    expect(target.querySelector('.done')?.textContent).toBe('You run this game now.');
    // The settings name the new game master.
    expect(
      Array.from(target.querySelectorAll('dt'))
        .find((dt) => dt.textContent === 'Game master')!
        .nextElementSibling!.textContent!.trim(),
    ).toBe('ptolemy');
  });

  it('tells the game master who asked that it waits for an answer, and lets them withdraw it', async () => {
    logIn(ZEUS);
    await gamePage();
    expect(invitation()).toMatch(/^Waiting for ptolemy to accept running this game/);
    expect(button('Accept')).toBeUndefined();
    button('Withdraw the invitation')!.click();
    await vi.waitFor(() => expect(sent).toEqual([`DELETE /api/games/${GAME}/gm/invitation`]));
    await vi.waitFor(() => expect(invitation()).toBeNull());
    expect(target.querySelector('.done')?.textContent).toBe('The invitation is withdrawn: you remain the game master.');
  });

  it('shows nothing of it to anyone else', async () => {
    // The server leaves the invitee out for them (GameDetail.invitedGameMaster is null).
    game = { ...game, invitedGameMaster: null };
    logIn({ id: id(6), username: 'someone' });
    await gamePage();
    expect(invitation()).toBeNull();
  });
});

describe("the lobby's “My games”", () => {
  it("shows the invitation on the game's card; declining takes the game off the list", async () => {
    logIn(PTOLEMY);
    game = { ...game, status: 'active', playerCount: 5 };
    router.go('/?tab=mine', true);
    component = mount(Lobby, { target });
    await vi.waitFor(() => expect(invitation()).not.toBeNull());
    const card = target.querySelector('li.game')!;
    expect(card.querySelector('.invitation')).not.toBeNull();
    expect(invitation()).toMatch(/^zeus asks you to run this game/);
    expect(card.querySelector('.badge')?.textContent).toBe('Asked to run it');
    // Declined: the server no longer lists the game as mine.
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (init.method === 'DELETE') sent.push(`DELETE ${url}`);
      if (url === '/api/games') return json(200, { games: [], nextCursor: null });
      return new Response(null, { status: 204 });
    });
    button('Decline')!.click();
    await vi.waitFor(() => expect(sent).toEqual([`DELETE /api/games/${GAME}/gm/invitation`]));
    await vi.waitFor(() => expect(target.querySelector('li.game')).toBeNull());
  });

  it('shows an invitation as soon as it is made, told on my own live channel', async () => {
    logIn(PTOLEMY);
    const asked = { ...game, status: 'active' as const, playerCount: 5 };
    game = { ...asked, invitedGameMaster: null };
    router.go('/?tab=mine', true);
    component = mount(Lobby, { target });
    await vi.waitFor(() => expect(target.querySelector('.empty, li.game, p')).not.toBeNull());
    await settle();
    expect(invitation()).toBeNull();
    const socket = ScriptedSocket.opened.at(-1)!;
    socket.accept();
    await vi.waitFor(() => expect(socket.sent).toContainEqual(expect.objectContaining({ type: 'subscribe', channel: `user:${PTOLEMY.id}` })));
    // zeus asks: the server now lists the game as mine, and says so on ptolemy's channel.
    game = asked;
    socket.onmessage?.({
      data: JSON.stringify({ type: 'event', channel: `user:${PTOLEMY.id}`, seq: 1, event: { type: 'gm.invitation', gameId: GAME, pending: true } }),
    });
    await vi.waitFor(() => expect(invitation()).toMatch(/^zeus asks you to run this game/), { timeout: 3000 });
  });

  it('does not take a game I play in for an invitation', async () => {
    logIn(PTOLEMY);
    game = { ...game, invitedGameMaster: null, players: [{ id: id(3), user: PTOLEMY, power: null, status: 'active', missedDeadlines: 0, isYou: true }] };
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url === '/api/games') return json(200, { games: [gameSummary({ ...game, joined: true })], nextCursor: null });
      if (url === `/api/games/${GAME}`) return json(200, game);
      return json(404, { error: { code: 'not_found', message: 'no' } });
    });
    router.go('/?tab=mine', true);
    component = mount(Lobby, { target });
    await vi.waitFor(() => expect(target.querySelector('li.game')).not.toBeNull());
    await settle();
    expect(invitation()).toBeNull();
  });
});

describe('the board of a game under way', () => {
  it('asks the one invited there too, and says they run it once accepted', async () => {
    game = {
      ...gameDetail(null, { gameMaster: ZEUS, invitedGameMaster: PTOLEMY }),
      currentPhase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: null },
    };
    logIn(PTOLEMY);
    const server = globalThis.fetch as (path: string, init?: RequestInit) => Promise<Response>;
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url.endsWith('/phases/current')) return json(200, openPhase(0, 'Spring 240 BC Movement'));
      if (url.endsWith('/phases')) return json(200, { phases: [] });
      if (url.endsWith('/press')) return json(200, { messages: [], nextCursor: null });
      if (url.endsWith('/votes')) return json(200, { survivors: POWERS, draw: [], concessions: [], outcome: null });
      if (url.endsWith('/loans')) return json(200, { loans: [] });
      if (url.endsWith('/gm/log')) return json(200, { actions: [] });
      return server(path, init);
    });
    component = mount(GameView, { target, props: { game } });
    await vi.waitFor(() => expect(invitation()).not.toBeNull());
    expect(target.querySelector('.invitation')!.closest('.notices')).not.toBeNull();
    expect(invitation()).toMatch(/^zeus asks you to run this game/);
    button('Accept')!.click();
    await vi.waitFor(() => expect(invitation()).toBeNull());
    expect(sent).toEqual([`POST /api/games/${GAME}/gm/invitation/accept`]);
    expect(target.querySelector('.notices')!.textContent).toContain("You run this game now: the game master's tools are under the Game tab.");
    expect(target.querySelector('.eyebrow')!.textContent).toContain('game master');
  });
});
