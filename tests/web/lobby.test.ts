/**
 * The lobby mounted in a DOM with a stubbed fetch (answers shaped as the server's
 * GameSummary): a finished game says it is finished and how it ended, in
 * "My games" as in the Finished list; a game with a paused clock says so.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import Lobby from '../../web/src/pages/Lobby.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId, gameSummary, json } from './api-fixtures.ts';
import type { GameOutcome, GameSummary } from '../../shared/api/index.ts';

const id = fixtureId;
const outcomes: Record<string, GameOutcome> = {
  [id(1)]: { kind: 'victory', powers: ['Egypt'] },
  [id(2)]: { kind: 'draw', powers: ['Egypt', 'Syria', 'Thrace'] },
  [id(3)]: { kind: 'concession', powers: ['Macedon'] },
};
const summary = (n: number, status: GameSummary['status'], joined: boolean) =>
  gameSummary({
    id: id(n),
    name: `Game ${n}`,
    status,
    startedAt: '2026-01-02T00:00:00.000Z',
    finishedAt: status === 'finished' ? '2026-03-01T00:00:00.000Z' : null,
    joined,
    outcome: status === 'finished' ? outcomes[id(n)] : null,
  });

let target: HTMLElement;
let page: ReturnType<typeof mount>;
let egyptSubmitted = false;

beforeEach(() => {
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.stubGlobal('fetch', async (path: string) => {
    const url = new URL(path, 'http://localhost');
    if (url.pathname === '/api/games') {
      const filter = url.searchParams.get('filter');
      // In progress: game 5 is paused; game 6 is run by me (syria), who plays in neither.
      const games =
        filter === 'finished'
          ? [summary(1, 'finished', false), summary(2, 'finished', false), summary(3, 'finished', false)]
          : filter === 'active'
            ? [
                { ...summary(5, 'active', false), pausedAt: '2026-01-03T00:00:00.000Z' },
                { ...summary(6, 'active', false), gameMaster: { id: id(8), username: 'syria' } },
              ]
            : [{ ...summary(4, 'active', true), rules: '1971' as const }, summary(1, 'finished', true)];
      return json(200, { games, nextCursor: null });
    }
    // Game 4: Egypt is mine; its clock is paused, with my orders in or not (`egyptSubmitted`).
    if (url.pathname === `/api/games/${id(4)}`) {
      return json(200, {
        ...summary(4, 'active', true),
        players: [{ id: id(5), user: null, power: 'Egypt', status: 'active', missedDeadlines: 0, isYou: true }],
      });
    }
    if (url.pathname === `/api/games/${id(4)}/phases/current`) {
      return json(200, {
        status: 'open',
        paused: true,
        deadlineAt: '2026-12-01T00:00:00.000Z',
        powers: [{ power: 'Egypt', mustOrder: true, submitted: egyptSubmitted, ready: false, playerStatus: 'active', missedDeadlines: 0 }],
      });
    }
    return json(404, { error: { code: 'not_found', message: 'no' } });
  });
  egyptSubmitted = false;
  session.adopt({ user: { id: id(8), username: 'syria', isAdmin: false }, csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
});
afterEach(() => {
  unmount(page);
  target.remove();
  vi.unstubAllGlobals();
});

async function open(tab: string) {
  router.go(`/?tab=${tab}`, true);
  target = document.createElement('div');
  document.body.appendChild(target);
  page = mount(Lobby, { target });
  flushSync();
  await vi.waitFor(() => expect(target.querySelectorAll('li.game').length).toBeGreaterThan(0));
  for (let i = 0; i < 5; i++) {
    await tick();
    await new Promise((resolve) => setTimeout(resolve));
  }
  flushSync();
}
const card = (name: string) => Array.from(target.querySelectorAll('li.game')).find((li) => li.querySelector('h2')?.textContent === name)!;

describe('finished games in the lobby', () => {
  it('in "My games", a finished game says Finished and how it ended, not Playing', async () => {
    await open('mine');
    expect(card('Game 1').querySelector('.badge')!.textContent).toBe('Finished');
    expect(card('Game 1').textContent).toContain('Victory of Egypt');
    expect(card('Game 4').querySelector('.badge')!.textContent).toBe('Playing');
  });

  it('a game played under the 1971 rulebook says so; one under the usual rules says nothing of them', async () => {
    await open('mine');
    expect(card('Game 4').textContent).toContain('Full press · 1971 rulebook');
    expect(card('Game 1').textContent).not.toMatch(/rulebook|modern rules/);
  });

  it('the Finished list says how each game ended', async () => {
    await open('finished');
    expect(card('Game 1').textContent).toContain('Victory of Egypt');
    expect(card('Game 2').textContent).toContain('Draw among Egypt, Syria and Thrace');
    expect(card('Game 3').textContent).toContain('Conceded to Macedon');
    for (const name of ['Game 1', 'Game 2', 'Game 3']) expect(card(name).querySelector('.badge')!.textContent).toBe('Finished');
  });
});

describe('a game whose clock the game master paused', () => {
  it('says so on its card, with orders due or not, and shows no countdown', async () => {
    await open('mine');
    await vi.waitFor(() => expect(card('Game 4').querySelector('.needs')?.textContent).toContain('Orders due · clock paused'));
    unmount(page);
    target.remove();
    egyptSubmitted = true;
    await open('mine');
    await vi.waitFor(() =>
      expect(card('Game 4').querySelector('.needs')?.textContent).toMatch(/Orders in, not ready[\s\S]*Clock paused|Clock paused[\s\S]*Orders in, not ready/),
    );
    expect(card('Game 4').textContent).not.toMatch(/left|deadline passed/);
  });
});

describe('the In progress list', () => {
  it("says a game's clock is paused on its card, though I play no part in it", async () => {
    await open('active');
    expect(card('Game 5').querySelector('.needs')?.textContent).toBe('Clock paused');
    expect(card('Game 6').querySelector('.needs')).toBeNull();
  });

  it('marks the list shown as the current page among the four links, for a screen reader', async () => {
    await open('active');
    const links = Array.from(target.querySelectorAll('nav.tabs a'));
    expect(links.filter((a) => a.getAttribute('aria-current') === 'page').map((a) => a.textContent)).toEqual(['In progress']);
    expect(target.querySelector('[role="tab"], [role="tablist"]')).toBeNull();
  });

  it("links each card's game master to their public page", async () => {
    await open('active');
    const link = card('Game 6').querySelector<HTMLAnchorElement>('.meta a[href^="/players/"]');
    expect([link?.textContent, link?.getAttribute('href')]).toEqual(['syria', '/players/syria']);
  });

  it('marks the games I run as their game master, where others read In progress', async () => {
    await open('active');
    expect(card('Game 6').querySelector('.badge')?.textContent).toBe('Game master');
    expect(card('Game 6').querySelector('.badge')?.classList.contains('quiet')).toBe(false);
    expect(card('Game 5').querySelector('.badge')?.textContent).toBe('In progress');
  });
});

describe('open games, a page at a time', () => {
  it('"More games" gives the focus to the first game it brought; every card says its seats in words', async () => {
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost');
      if (url.pathname !== '/api/games') return json(404, { error: { code: 'not_found', message: 'no' } });
      const second = url.searchParams.get('cursor') === 'page-2';
      const games = (second ? [7] : [5, 6]).map((n) => ({ ...summary(n, 'forming', false), playerCount: 2 }));
      return json(200, { games, nextCursor: second ? null : 'page-2' });
    });
    await open('open');
    expect(card('Game 5').querySelector('.seats')!.textContent!.replace(/\s+/g, ' ').trim()).toContain('2 of 5 seats taken');
    const more = Array.from(target.querySelectorAll<HTMLButtonElement>('button')).find((b) => b.textContent === 'More games')!;
    more.focus();
    more.click();
    await vi.waitFor(() => expect(card('Game 7')).toBeDefined());
    await vi.waitFor(() => expect(document.activeElement).toBe(card('Game 7').querySelector('h2 a')));
    // No page left: the button has gone.
    expect(Array.from(target.querySelectorAll('button')).some((b) => b.textContent === 'More games')).toBe(false);
  });
});

describe('the lists kept up to date while the lobby is open', () => {
  it('a burst of lobby events reads the list again twice, not once per event, and keeps the games "More games" brought', async () => {
    const reads: string[] = [];
    const all = Array.from({ length: 25 }, (_, i) => ({ ...summary(10 + i, 'forming', false), playerCount: 2 }));
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost');
      if (url.pathname !== '/api/games') return json(404, { error: { code: 'not_found', message: 'no' } });
      reads.push(url.search);
      const limit = Number(url.searchParams.get('limit'));
      const from = url.searchParams.get('cursor') === 'page-2' ? 20 : 0;
      const games = all.slice(from, from + limit);
      return json(200, { games, nextCursor: from + limit < all.length ? 'page-2' : null });
    });
    await open('open');
    Array.from(target.querySelectorAll<HTMLButtonElement>('button'))
      .find((b) => b.textContent === 'More games')!
      .click();
    await vi.waitFor(() => expect(target.querySelectorAll('li.game')).toHaveLength(25));
    const socket = ScriptedSocket.opened.at(-1)!;
    if (socket.readyState !== ScriptedSocket.OPEN) socket.accept();
    const before = reads.length;

    const joined = (n: number) => {
      const event = { type: 'player.joined', gameId: id(10 + n), playerCount: 3, seats: 5, user: null };
      socket.onmessage!({ data: JSON.stringify({ type: 'event', channel: 'lobby', seq: n + 1, event }) });
    };
    // At once for the first event; the nine after it, while that read is answered and just after, make one more a second later; then nothing.
    joined(0);
    await vi.waitFor(() => expect(reads.length).toBe(before + 1));
    for (let n = 1; n < 10; n++) {
      joined(n);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await vi.waitFor(() => expect(reads.length).toBe(before + 2), { timeout: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(reads.length).toBe(before + 2);
    expect(reads.slice(before).map((search) => new URLSearchParams(search).get('limit'))).toEqual(['25', '25']);
    expect(target.querySelectorAll('li.game')).toHaveLength(25);
  });
});

describe('an imported game', () => {
  it('is marked Imported on its card (its history was played elsewhere); a game played here is not', async () => {
    const imported = { ...summary(7, 'finished', false), name: 'From elsewhere', imported: true };
    const list = async () => json(200, { games: [imported, summary(2, 'finished', false)], nextCursor: null });
    vi.stubGlobal('fetch', async (path: string) =>
      new URL(path, 'http://localhost').pathname === '/api/games' ? list() : json(404, { error: { code: 'not_found', message: 'no' } }),
    );
    await open('finished');
    const cardOf = (name: string) => Array.from(target.querySelectorAll('li.game')).find((li) => li.querySelector('h2 a')?.textContent === name)!;
    const label = cardOf('From elsewhere').querySelector('h2 .imported');
    expect(label?.textContent).toBe('Imported');
    expect(label?.getAttribute('title')).toBe('Imported from an export: its history was played elsewhere');
    expect(cardOf('Game 2').querySelector('.imported')).toBeNull();
  });
});

describe('the lobby a player comes back to', () => {
  /** Games 4 (orders due), 5 (ready) and 6 (run by me): the server lists them 6, 5, 4. */
  function myGames() {
    const phases: Record<string, object> = {
      [id(4)]: { name: 'Spring 240 BC Movement', deadlineAt: '2099-12-01T18:30:00.000Z', me: 'Egypt', submitted: false, ready: false },
      [id(5)]: { name: 'Fall 240 BC Retreat', deadlineAt: '2099-12-02T09:00:00.000Z', me: 'Syria', submitted: true, ready: true },
      [id(6)]: { name: 'Winter 240 BC Adjustment', deadlineAt: '2099-12-03T09:00:00.000Z', me: null, submitted: false, ready: false },
    };
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost');
      if (url.pathname === '/api/games') {
        const filter = url.searchParams.get('filter');
        const games =
          filter === 'mine'
            ? [{ ...summary(6, 'active', false), gameMaster: { id: id(8), username: 'syria' } }, summary(5, 'active', true), summary(4, 'active', true)]
            : [{ ...summary(7, 'forming', false), playerCount: 2 }];
        return json(200, { games, nextCursor: null });
      }
      const [, , , gameId, what] = url.pathname.split('/');
      const phase = phases[gameId] as { name: string; deadlineAt: string; me: string | null; submitted: boolean; ready: boolean } | undefined;
      if (!phase) return json(404, { error: { code: 'not_found', message: 'no' } });
      if (what === undefined) {
        return json(200, {
          ...summary(Number(gameId.at(-1)), 'active', phase.me !== null),
          gameMaster: phase.me ? { id: id(9), username: 'zeus' } : { id: id(8), username: 'syria' },
          players: phase.me ? [{ id: id(5), user: null, power: phase.me, status: 'active', missedDeadlines: 0, isYou: true }] : [],
        });
      }
      if (what === 'phases') {
        const powers = phase.me
          ? [{ power: phase.me, mustOrder: true, submitted: phase.submitted, ready: phase.ready, playerStatus: 'active', missedDeadlines: 0 }]
          : [];
        return json(200, { status: 'open', paused: false, name: phase.name, deadlineAt: phase.deadlineAt, powers });
      }
      if (what === 'press' && url.pathname.endsWith('/read')) return json(200, { readUntil: {} });
      if (what === 'press') return json(200, { messages: [], nextCursor: null });
      return json(404, { error: { code: 'not_found', message: 'no' } });
    });
  }

  it('opens on my games, not on the games open to join, those needing my orders first', async () => {
    myGames();
    router.go('/', true);
    target = document.createElement('div');
    document.body.appendChild(target);
    page = mount(Lobby, { target });
    flushSync();
    await vi.waitFor(() => expect(target.querySelectorAll('li.game').length).toBe(3));
    expect(target.querySelector('nav.tabs a[aria-current="page"]')?.textContent).toBe('My games');
    expect(target.querySelector('nav.tabs a')?.getAttribute('href')).toBe('/');
    expect(target.textContent).not.toContain('No games are waiting for players');
    // Listed last by the server, the game whose orders are due comes first.
    await vi.waitFor(() => expect(target.querySelector('li.game h2')?.textContent).toBe('Game 4'));
    expect(target.querySelector('li.game')?.classList.contains('due')).toBe(true);
  });

  it('says on each card the power I play, the phase, its deadline and whether my orders are due or ready', async () => {
    myGames();
    await open('mine');
    await vi.waitFor(() => expect(card('Game 4').querySelector('.needs')?.textContent).toContain('Orders due'));
    const standing = (name: string) => card(name).querySelector('.standing')?.textContent?.replace(/\s+/g, ' ').trim();
    expect(standing('Game 4')).toMatch(/^Egypt · Spring 240 BC Movement · due .+\(\d+ d \d+ h left\)$/);
    expect(standing('Game 5')).toMatch(/^Syria · Fall 240 BC Retreat · due /);
    expect(card('Game 5').querySelector('.needs')?.textContent?.trim()).toBe('Ready');
    // A game I run without playing: no orders of mine, but where it stands.
    expect(standing('Game 6')).toMatch(/^Game master · Winter 240 BC Adjustment · due /);
    expect(card('Game 6').querySelector('.needs')).toBeNull();
  });

  it('still opens on the games open to join for a visitor', async () => {
    myGames();
    session.adopt({ user: null, csrfToken: null } as Parameters<typeof session.adopt>[0]);
    router.go('/', true);
    target = document.createElement('div');
    document.body.appendChild(target);
    page = mount(Lobby, { target });
    flushSync();
    await vi.waitFor(() => expect(target.querySelectorAll('li.game').length).toBe(1));
    expect(target.querySelector('nav.tabs a[aria-current="page"]')?.textContent).toBe('Open to join');
    expect(card('Game 7')).toBeDefined();
  });
});
