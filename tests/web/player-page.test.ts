/**
 * A player's public page, mounted with a stubbed server answering `GET /api/users/{username}` as the server's
 * UserProfile: the totals and the deadlines kept in words, each game a card linking to its page with the power
 * played and how it went, and an unknown player said so, not a crash. The game page links its players' and game
 * master's names to their pages; the account page, to the user's own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { UserProfile } from '../../shared/api/index.ts';
import Player from '../../web/src/pages/Player.svelte';
import GamePage from '../../web/src/pages/GamePage.svelte';
import Account from '../../web/src/pages/Account.svelte';
import { parseRoute, router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, gameDetail, gameSummary, json } from './api-fixtures.ts';

const EGYPT = { id: id(2), username: 'Egypt_Player' };

function profile(fields: Partial<UserProfile> = {}): UserProfile {
  return {
    user: EGYPT,
    memberSince: '2026-03-15T12:00:00.000Z',
    games: [
      {
        game: gameSummary({
          id: id(3),
          name: 'The Long War',
          status: 'finished',
          finishedAt: '2026-05-01T12:00:00.000Z',
          outcome: { kind: 'victory', powers: ['Egypt'] },
        }),
        role: 'player',
        power: 'Egypt',
        playerStatus: 'active',
        replaced: false,
        result: 'won',
      },
      {
        game: gameSummary({ id: id(4), name: 'Riots in Rhodes' }),
        role: 'player',
        power: 'Syria',
        playerStatus: 'civil-disorder',
        replaced: false,
        result: null,
      },
      { game: gameSummary({ id: id(5), name: 'Refereed' }), role: 'game-master', power: null, playerStatus: null, replaced: false, result: null },
    ],
    totals: { playing: 3, finished: 5, won: 1, drawn: 2, lost: 2, eliminated: 1, replaced: 0 },
    reliability: { phases: 50, missed: 3 },
    ...fields,
  };
}

let target: HTMLElement;
let page: ReturnType<typeof mount> | null = null;
let answer: UserProfile;
let asked: string[];

beforeEach(() => {
  vi.stubGlobal('WebSocket', ScriptedSocket);
  answer = profile();
  asked = [];
  vi.stubGlobal('fetch', async (path: string) => {
    asked.push(path);
    if (path.toLowerCase() === `/api/users/${EGYPT.username.toLowerCase()}`) return json(200, answer);
    return json(404, { error: { code: 'not_found', message: `there is no user named "${decodeURIComponent(path.split('/').pop()!)}"` } });
  });
  session.adopt(null);
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  if (page) unmount(page);
  page = null;
  target.remove();
  vi.unstubAllGlobals();
});

const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim();

async function open(username: string) {
  page = mount(Player, { target, props: { username } });
  flushSync();
  await vi.waitFor(() => expect(target.querySelector('h1')).not.toBeNull());
  flushSync();
}
const card = (name: string) => Array.from(target.querySelectorAll('li.game')).find((li) => text(li.querySelector('h3')) === name)!;

describe("a player's page", () => {
  it('is read again when someone logs in or out on it (what it shows depends on the viewer), not on the first who-am-I', async () => {
    await open('Egypt_Player');
    const reads = () => asked.filter((path) => path.toLowerCase() === '/api/users/egypt_player').length;
    expect(reads()).toBe(1);
    // The visitor's who-am-I answer (null, as beforeEach adopted it) again: nobody new.
    session.adopt(null);
    flushSync();
    expect(reads()).toBe(1);
    session.adopt({ user: { ...EGYPT, isAdmin: false, createdAt: '2026-03-15T12:00:00.000Z' }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<
      typeof session.adopt
    >[0]);
    flushSync();
    await vi.waitFor(() => expect(reads()).toBe(2));
    session.adopt(null);
    flushSync();
    await vi.waitFor(() => expect(reads()).toBe(3));
  });

  it('is found at /players/<username>, in any case', async () => {
    expect(parseRoute('/players/Egypt_Player')).toEqual({ name: 'player', username: 'Egypt_Player' });
    expect(parseRoute('/players/egypt_player/')).toEqual({ name: 'player', username: 'egypt_player' });
    await open('egypt_player');
    expect(asked).toEqual(['/api/users/egypt_player']);
    // The name as the player wrote it, whatever the address's case.
    expect(target.querySelectorAll('h1')).toHaveLength(1);
    expect(text(target.querySelector('h1'))).toBe('Egypt_Player');
    const since = new Date('2026-03-15T12:00:00.000Z').toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
    expect(target.textContent).toContain(`Member since ${since}`);
  });

  it('sums up the games played in words', async () => {
    await open('Egypt_Player');
    expect(text(target.querySelector('.totals'))).toBe('3 games playing · 5 finished: 1 won, 2 drawn, 2 lost (1 eliminated) · game master of 1 game');
  });

  it('says how many deadlines the player kept, as a share of those due', async () => {
    await open('Egypt_Player');
    expect(text(target.querySelector('.reliability'))).toBe('Kept 47 of 50 deadlines (94 %)');
  });

  it('rounds the share, but never to 100 % with a deadline missed', async () => {
    answer = profile({ reliability: { phases: 3, missed: 1 } });
    await open('Egypt_Player');
    expect(text(target.querySelector('.reliability'))).toBe('Kept 2 of 3 deadlines (67 %)');
    unmount(page!);
    answer = profile({ reliability: { phases: 1000, missed: 1 } });
    await open('Egypt_Player');
    expect(text(target.querySelector('.reliability'))).toBe('Kept 999 of 1000 deadlines (99 %)');
  });

  it('says no deadline was due yet for a player who never had to order, and a player with no games has played none', async () => {
    answer = profile({
      games: [],
      totals: { playing: 0, finished: 0, won: 0, drawn: 0, lost: 0, eliminated: 0, replaced: 0 },
      reliability: { phases: 0, missed: 0 },
    });
    await open('Egypt_Player');
    expect(text(target.querySelector('.reliability'))).toBe('No deadlines due yet');
    expect(text(target.querySelector('.totals'))).toBe('No games played yet');
    expect(target.textContent).not.toContain('NaN');
    expect(target.textContent).toContain('No games to show.');
  });

  it('lists the games, newest first as given, each a link to its page with the variant, the power played and how it went', async () => {
    await open('Egypt_Player');
    const games = target.querySelector('ul.games')!;
    expect(Array.from(games.querySelectorAll(':scope > li h3'), (h) => text(h))).toEqual(['The Long War', 'Riots in Rhodes', 'Refereed']);
    const won = card('The Long War');
    const link = won.querySelector('a')!;
    expect(link.getAttribute('href')).toBe(`/games/${id(3)}`);
    expect(text(link)).toBe('The Long War');
    expect(text(won)).toContain('Diadochi V');
    expect(text(won.querySelector('.role'))).toBe('Egypt');
    expect(text(won.querySelector('.badge'))).toBe('Won');
    expect(text(card('Riots in Rhodes').querySelector('.role'))).toBe('Syria');
    expect(text(card('Riots in Rhodes').querySelector('.badge'))).toBe('Civil disorder');
    expect(text(card('Refereed').querySelector('.role'))).toBe('Game master');
    expect(text(card('Refereed').querySelector('.badge'))).toBe('In progress');
  });

  it('marks an imported game Imported on its card, and no other', async () => {
    answer = profile();
    answer.games[0] = { ...answer.games[0], game: { ...answer.games[0].game, imported: true } };
    await open('Egypt_Player');
    const cards = Array.from(target.querySelectorAll('ul.games > li'));
    expect(cards.map((li) => text(li.querySelector('h3 .imported')) ?? null)).toEqual(['Imported', null, null]);
    // The heading's link is the game's name alone.
    expect(text(cards[0].querySelector('h3 a'))).toBe('The Long War');
  });

  it('says the result of every kind of seat', async () => {
    const seat = (n: number, name: string, fields: Partial<UserProfile['games'][number]>, status: 'active' | 'finished' = 'finished') => ({
      game: gameSummary({ id: id(n), name, status, finishedAt: status === 'finished' ? '2026-05-01T12:00:00.000Z' : null }),
      role: 'player' as const,
      power: 'Rome',
      playerStatus: 'active' as const,
      replaced: false,
      result: null,
      ...fields,
    });
    answer = profile({
      games: [
        seat(1, 'Drawn', { result: 'drew' }),
        seat(2, 'Lost', { result: 'lost' }),
        seat(3, 'Out', { playerStatus: 'eliminated' }, 'active'),
        seat(4, 'On', {}, 'active'),
        seat(5, 'Ended', {}),
        seat(6, 'Handed on', { replaced: true, playerStatus: null }, 'active'),
      ],
      totals: { playing: 2, finished: 3, won: 0, drawn: 1, lost: 1, eliminated: 1, replaced: 1 },
    });
    await open('Egypt_Player');
    expect(Array.from(target.querySelectorAll('li.game .badge'), (b) => text(b))).toEqual(['Drew', 'Lost', 'Eliminated', 'Playing', 'Finished', 'Replaced']);
    expect(text(target.querySelector('.totals'))).toBe('2 games playing · 3 finished: 0 won, 1 drawn, 1 lost (1 eliminated) · replaced in 1 game');
  });

  it('says plainly that there is no such player, without a crash', async () => {
    await open('nobody');
    expect(text(target.querySelector('h1'))).toBe('No such player');
    expect(text(target.querySelector('[role="alert"]'))).toBe('There is no player named “nobody”.');
    expect(target.querySelector('a[href="/"]')).not.toBeNull();
  });
});

describe("the game page's names", () => {
  it('link each player and the game master to their public page, and an anonymous seat to none', async () => {
    router.search = '?about';
    const detail = gameDetail(null, { gameMaster: { id: id(9), username: 'zeus' } });
    detail.players[1] = { ...detail.players[1], user: EGYPT };
    vi.stubGlobal('fetch', async (path: string) =>
      path === `/api/games/${detail.id}` ? json(200, detail) : json(404, { error: { code: 'not_found', message: 'no' } }),
    );
    try {
      page = mount(GamePage, { target, props: { id: detail.id } });
      await vi.waitFor(() => expect(text(target.querySelector('h1'))).toBe(detail.name));
      flushSync();
      const players = Array.from(target.querySelectorAll('.players li'));
      const egypt = players.find((li) => li.textContent?.includes('Egypt_Player'))!;
      expect(egypt.querySelector('a')?.getAttribute('href')).toBe('/players/Egypt_Player');
      expect(text(egypt.querySelector('a'))).toBe('Egypt_Player');
      // The other seats are anonymous here: no name, no link.
      expect(players.filter((li) => li.querySelector('a[href^="/players/"]'))).toHaveLength(1);
      const master = Array.from(target.querySelectorAll('a[href^="/players/"]')).find((a) => a.textContent === 'zeus');
      expect(master?.getAttribute('href')).toBe('/players/zeus');
    } finally {
      router.search = '';
    }
  });
});

describe('the account page', () => {
  it("links to the user's own public page", async () => {
    session.adopt({ user: { ...EGYPT, isAdmin: false, createdAt: '2026-01-01T00:00:00.000Z' }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<
      typeof session.adopt
    >[0]);
    vi.stubGlobal('fetch', async (path: string) =>
      path === '/api/auth/tokens' ? json(200, { tokens: [] }) : json(404, { error: { code: 'not_found', message: 'no' } }),
    );
    page = mount(Account, { target });
    flushSync();
    const link = Array.from(target.querySelectorAll('a')).find((a) => a.textContent === 'Your public page');
    expect(link?.getAttribute('href')).toBe('/players/Egypt_Player');
  });
});
