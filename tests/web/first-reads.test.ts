/**
 * The reads a visit starts with, and none the client knows must fail. A visitor asks who is logged in and is
 * answered nobody (200, `user: null`), not refused. A game still forming has no phase
 * (the server answers 404 to its open phase), so neither the page's first script (preload-board.js) nor the
 * page asks for one until the game says it has started; a game known to have started (listed in the lobby)
 * has its open phase asked for at once, beside the game.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { GameDetail } from '../../shared/api/index.ts';
import App from '../../web/src/App.svelte';
import GamePage from '../../web/src/pages/GamePage.svelte';
// The board's chunk, which the page imports at once: loaded here, so no import is still on its way when the tests end.
import '../../web/src/pages/GameView.svelte';
import { api } from '../../web/src/lib/api.ts';
import { earlyReadsSource } from '../../web/src/lib/early-reads.ts';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, gameDetail, gameSummary, json } from './api-fixtures.ts';

const ME = { id: id(8), username: 'egypt', createdAt: '2026-01-01T00:00:00.000Z', isAdmin: false, timeZone: null };
const started = (gameId: string): GameDetail =>
  gameDetail('Egypt', { id: gameId, currentPhase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: null } });
const forming = (gameId: string): GameDetail =>
  gameDetail(null, { id: gameId, status: 'forming', startedAt: null, playerCount: 3, players: [], currentPhase: null });

/** Every request made, by path; `answer` gives each its response (a promise left pending keeps the page waiting). */
let asked: string[];
let answer: (path: string) => Promise<Response>;
beforeEach(() => {
  asked = [];
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.stubGlobal('fetch', (path: string) => {
    asked.push(path);
    return answer(path);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  globalThis.diadochiEarlyReads = undefined;
});

describe('a visitor', () => {
  it('is answered nobody by who-am-I, and offered to log in or sign up', async () => {
    answer = async (path) =>
      path === '/api/auth/me' ? json(200, { user: null, authenticatedBy: null, csrfToken: null }) : json(200, { games: [], nextCursor: null });
    session.adopt({ user: ME, authenticatedBy: 'cookie', csrfToken: 'token' });
    router.go('/login', true);
    const target = document.createElement('div');
    document.body.appendChild(target);
    const app = mount(App, { target });
    try {
      await vi.waitFor(() => expect(session.user).toBeNull());
      flushSync();
      expect(Array.from(target.querySelectorAll('nav a'), (a) => a.textContent)).toEqual(['Lobby', 'Sandbox', 'Battles', 'Log in', 'Sign up']);
      expect(asked).toEqual(['/api/auth/me']);
    } finally {
      unmount(app);
      target.remove();
      router.go('/', true);
    }
  });
});

describe("the page's first script", () => {
  /** The script's reads, as the build writes them into preload-board.js. */
  const sendEarlyReads = new Function(`return ${earlyReadsSource()}`)() as (gameId: string) => Map<string, Promise<Response | null>>;

  it('asks a forming game for who is logged in and the game, not for a phase it has not got', async () => {
    const gameId = id(1);
    answer = async (path) => (path === '/api/auth/me' ? json(200, { user: null, authenticatedBy: null, csrfToken: null }) : json(200, forming(gameId)));
    const reads = sendEarlyReads(gameId);
    await expect(reads.get(`/api/games/${gameId}/phases/current`)).resolves.toBeNull();
    expect(asked).toEqual(['/api/auth/me', `/api/games/${gameId}`]);
  });

  it("asks a started game for its open phase once the game's answer says it has one; the app takes each answer once", async () => {
    const gameId = id(2);
    answer = async (path) =>
      path === '/api/auth/me'
        ? json(200, { user: ME, authenticatedBy: 'cookie', csrfToken: 'token' })
        : path.endsWith('/phases/current')
          ? json(200, { index: 0 })
          : json(200, started(gameId));
    globalThis.diadochiEarlyReads = sendEarlyReads(gameId);
    expect((await api.game(gameId)).id).toBe(gameId);
    expect((await api.phase(gameId, 'current')).index).toBe(0);
    expect((await api.me()).user?.username).toBe('egypt');
    expect(asked).toEqual(['/api/auth/me', `/api/games/${gameId}`, `/api/games/${gameId}/phases/current`]);
    // Taken once: a later read goes to the network.
    await api.phase(gameId, 'current');
    expect(asked.filter((p) => p.endsWith('/phases/current'))).toHaveLength(2);
  });

  it('leaves the phase alone when the game cannot be read (a private game without its code)', async () => {
    const gameId = id(3);
    answer = async (path) =>
      path === '/api/auth/me'
        ? json(200, { user: null, authenticatedBy: null, csrfToken: null })
        : json(404, { error: { code: 'not_found', message: 'game not found' } });
    const reads = sendEarlyReads(gameId);
    await expect(reads.get(`/api/games/${gameId}/phases/current`)).resolves.toBeNull();
    expect(asked).toEqual(['/api/auth/me', `/api/games/${gameId}`]);
  });
});

describe('the game page', () => {
  let target: HTMLElement;
  let page: ReturnType<typeof mount> | undefined;
  beforeEach(() => {
    session.adopt({ user: ME, authenticatedBy: 'cookie', csrfToken: 'token' });
    router.search = '';
    target = document.createElement('div');
    document.body.appendChild(target);
  });
  afterEach(() => {
    if (page) unmount(page);
    page = undefined;
    target.remove();
  });
  const open = (gameId: string) => {
    page = mount(GamePage, { target, props: { id: gameId } });
    flushSync();
  };
  const phaseReads = () => asked.filter((p) => p.includes('/phases'));

  it('of a forming game asks for the game only, and shows it', async () => {
    const gameId = id(4);
    answer = async (path) => (path === `/api/games/${gameId}` ? json(200, forming(gameId)) : json(404, { error: { code: 'not_found', message: 'no phase' } }));
    open(gameId);
    await vi.waitFor(() => expect(target.querySelector('h1')?.textContent).toBe('Test'));
    expect(target.textContent).toContain('waiting for players');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toEqual([`/api/games/${gameId}`]);
  });

  it("of a started game opened by its address asks for the open phase once the game's answer says it has one", async () => {
    const gameId = id(5);
    let sendGame!: (r: Response) => void;
    answer = (path) => (path === `/api/games/${gameId}` ? new Promise((resolve) => (sendGame = resolve)) : new Promise(() => {}));
    open(gameId);
    await vi.waitFor(() => expect(asked).toEqual([`/api/games/${gameId}`]));
    sendGame(json(200, started(gameId)));
    await vi.waitFor(() => expect(phaseReads()).toEqual([`/api/games/${gameId}/phases/current`]));
  });

  it('of a game the lobby listed as in progress asks for its open phase at once, beside the game', async () => {
    const gameId = id(6);
    answer = async () => json(200, { games: [gameSummary({ id: gameId, status: 'active' }), gameSummary({ id: id(7), status: 'forming' })], nextCursor: null });
    await api.games({ filter: 'mine' });
    asked = [];
    answer = () => new Promise(() => {});
    open(gameId);
    await vi.waitFor(() => expect([...asked].sort()).toEqual([`/api/games/${gameId}`, `/api/games/${gameId}/phases/current`]));
    unmount(page!);
    // A forming game of that list waits for its answer.
    asked = [];
    open(id(7));
    await vi.waitFor(() => expect(asked).toEqual([`/api/games/${id(7)}`]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(phaseReads()).toEqual([]);
  });
});
