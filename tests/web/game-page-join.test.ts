import { CorrespondenceSettingsSchema } from '../../shared/api/games.ts';
/**
 * A forming game's page offers a seat only while one is free: on a full game
 * (every seat taken, waiting for the game master to start it) an outsider or a
 * game master who does not play is told it is full, not offered to join it
 * (the server would answer 409 "all seats are taken").
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { GameDetail } from '../../shared/api/index.ts';
import GamePage from '../../web/src/pages/GamePage.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { json } from './api-fixtures.ts';

const GAME = '019a0000-0000-7000-8000-000000000004';
const MASTER = { id: '019a0000-0000-7000-8000-00000000000a', username: 'master' };
const OUTSIDER = { id: '019a0000-0000-7000-8000-00000000000b', username: 'outsider' };
const powers = ['Macedonia', 'Egypt', 'Rome', 'Carthage', 'Syria'];

function game(playerCount: number, autoStart = false): GameDetail {
  return {
    id: GAME,
    name: 'Five seats',
    variant: 'diadochi-v',
    status: 'forming',
    seats: 5,
    playerCount,
    press: 'full',
    anonymous: false,
    private: false,
    deadlines: { movement: 86400, retreat: 43200, adjustment: 43200 },
    rules: 'datc',
    gameMaster: MASTER,
    createdAt: '2025-01-01T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    joined: false,
    maxMissedDeadlines: 2,
    powerAssignment: 'random',
    autoStart,
    correspondence: CorrespondenceSettingsSchema.parse({}),
    powers: powers.map((id) => ({ id, adjective: id, colour: '#888888' })),
    players: Array.from({ length: playerCount }, (_, i) => ({
      id: `019a0000-0000-7000-8000-00000000010${i}`,
      user: { id: `019a0000-0000-7000-8000-00000000020${i}`, username: `player${i}` },
      power: null,
      status: 'active' as const,
      missedDeadlines: 0,
      isYou: false,
    })),
    inviteCode: null,
    yourPowerPreferences: null,
    currentPhase: null,
    pausedAt: null,
    outcome: null,
    imported: false,
    invitedYou: false,
    finalAt: null,
    gameMasterPlays: false,
    invitedGameMaster: null,
    campaign: null,
  };
}

let target: HTMLElement;
let component: ReturnType<typeof mount>;

async function open(user: typeof MASTER | null, detail: GameDetail) {
  session.adopt(user ? ({ user: { ...user, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]) : null);
  vi.stubGlobal('fetch', async (path: string) => {
    if (path === `/api/games/${GAME}`) return json(200, detail);
    if (path === `/api/games/${GAME}/join`) return json(409, { error: { code: 'game_full', message: 'all seats are taken' } });
    return json(404, { error: { code: 'not_found', message: `no route GET ${path}` } });
  });
  component = mount(GamePage, { target, props: { id: GAME } });
  await vi.waitFor(() => expect(target.querySelector('h1')?.textContent).toBe('Five seats'));
  flushSync();
}

const buttons = () => Array.from(target.querySelectorAll('button, a.button'), (b) => b.textContent!.trim());
const status = () => target.querySelector('[role="status"]')?.textContent?.replace(/\s+/g, ' ').trim();

beforeEach(() => {
  vi.stubGlobal('WebSocket', ScriptedSocket);
  // The details page: no board chunk nor phase is fetched for it.
  router.search = '?about';
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  unmount(component);
  target.remove();
  vi.unstubAllGlobals();
  router.search = '';
});

describe('game page of a forming game', () => {
  it('offers an outsider a free seat', async () => {
    await open(OUTSIDER, game(4));
    expect(buttons()).toContain('Join this game');
    expect(target.textContent).toContain('Take a seat');
  });

  it('after joining or leaving, the list of players takes the focus from the button that went', async () => {
    await open(OUTSIDER, game(4));
    const joined = game(5);
    joined.players[4] = { ...joined.players[4], user: OUTSIDER, isYou: true };
    vi.stubGlobal('fetch', async (path: string) => {
      if (path === `/api/games/${GAME}/join`) return json(200, joined);
      if (path === `/api/games/${GAME}/leave`) return json(200, game(4));
      return json(200, game(4));
    });
    const join = Array.from(target.querySelectorAll<HTMLButtonElement>('button')).find((b) => b.textContent?.trim() === 'Join this game')!;
    join.focus();
    join.click();
    await vi.waitFor(() => expect(buttons()).toContain('Leave the game'));
    await vi.waitFor(() => expect(document.activeElement?.id).toBe('players-h'));
    expect(document.activeElement?.textContent?.replace(/\s+/g, ' ').trim()).toBe('Players 5 of 5');
    const leave = Array.from(target.querySelectorAll<HTMLButtonElement>('button')).find((b) => b.textContent?.trim() === 'Leave the game')!;
    leave.focus();
    leave.click();
    await vi.waitFor(() => expect(buttons()).toContain('Join this game'));
    await vi.waitFor(() => expect(document.activeElement?.id).toBe('players-h'));
  });

  it('keeps the focus on Join when the server refuses, and says why', async () => {
    await open(OUTSIDER, game(4));
    const join = Array.from(target.querySelectorAll<HTMLButtonElement>('button')).find((b) => b.textContent?.trim() === 'Join this game')!;
    join.focus();
    join.click();
    await vi.waitFor(() => expect(target.querySelector('[role="alert"]')?.textContent).toBe('all seats are taken'));
    expect(document.activeElement).toBe(join);
  });

  it('tells an outsider a full game is full, and offers no seat', async () => {
    await open(OUTSIDER, game(5));
    expect(buttons()).not.toContain('Join this game');
    expect(target.textContent).not.toContain('Take a seat');
    expect(status()).toBe('The game is full: every seat is taken. It starts when the game master starts it.');
  });

  it('tells a game master who does not play that the full game is theirs to start', async () => {
    await open(MASTER, game(5));
    expect(buttons()).not.toContain('Join this game');
    expect(buttons()).toContain('Start the game');
    expect(status()).toBe('The game is full: every seat is taken, and you can start it.');
  });

  it('offers a visitor who is not logged in no log-in to join a full game', async () => {
    await open(null, game(5));
    expect(buttons()).not.toContain('Log in to join');
    expect(status()).toMatch(/^The game is full/);
  });
});

describe('game page of a private game, opened without its invitation code', () => {
  const CODE = 'k3Y-code_9';
  async function openPrivate() {
    session.adopt({ user: { ...OUTSIDER, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
    vi.stubGlobal('fetch', async (path: string) => {
      if (path === `/api/games/${GAME}?inviteCode=${CODE}`) return json(200, { ...game(3), private: true });
      return json(404, { error: { code: 'not_found', message: 'no game with that id' } });
    });
    component = mount(GamePage, { target, props: { id: GAME } });
    await vi.waitFor(() => expect(target.querySelector('[role="alert"]')?.textContent).toBe('There is no such game, or it is private.'));
    flushSync();
  }
  const typeCode = (text: string) => {
    const input = target.querySelector<HTMLInputElement>('#invite-entry')!;
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
    target.querySelector<HTMLFormElement>('form.invite-entry')!.requestSubmit();
    flushSync();
  };

  it('takes the code typed in, and opens the game with it', async () => {
    await openPrivate();
    typeCode(`  ${CODE} `);
    await vi.waitFor(() => expect(target.querySelector('h1')?.textContent).toBe('Five seats'));
    expect(router.search).toBe(`?invite=${CODE}`);
    expect(buttons()).toContain('Join this game');
    expect(target.querySelector<HTMLInputElement>('.invite input')!.value).toBe(CODE);
  });

  it('takes the whole invitation link pasted in', async () => {
    await openPrivate();
    typeCode(`http://example.test/games/${GAME}?invite=${CODE}`);
    await vi.waitFor(() => expect(target.querySelector('h1')?.textContent).toBe('Five seats'));
  });

  it("says a wrong code is not the game's, and offers the box again", async () => {
    await openPrivate();
    typeCode('wrong');
    await vi.waitFor(() => expect(target.querySelector('[role="alert"]')?.textContent).toBe('There is no such game, or that is not its invitation code.'));
    expect(target.querySelector('#invite-entry')).not.toBeNull();
  });
});

describe('a private game to its game master', () => {
  const CODE = 'Xy3_private-code';
  it('asks for no invitation code it has already shown, joins with it, and copies the invitation link', async () => {
    const detail = { ...game(2), private: true, inviteCode: CODE };
    const joined: unknown[] = [];
    await open(MASTER, detail);
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
      if (path === `/api/games/${GAME}/join`) joined.push(JSON.parse(String(init!.body)));
      return json(200, detail);
    });
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });

    expect(target.querySelector('.invite input')).toBeNull();
    Array.from(target.querySelectorAll('button'))
      .find((b) => b.textContent === 'Join this game')!
      .click();
    await vi.waitFor(() => expect(joined).toEqual([{ powerPreferences: [], inviteCode: CODE }]));

    const copy = Array.from(target.querySelectorAll('button')).find((b) => b.textContent === 'Copy the link')!;
    copy.click();
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(`${location.origin}/games/${GAME}?invite=${CODE}`));
    await vi.waitFor(() => expect(Array.from(target.querySelectorAll('dd button'), (b) => b.textContent)).toEqual(['Copied']));
    expect(target.querySelector('dd [role="status"]')!.textContent).toBe('The invitation link is copied.');
  });
});

describe('power preferences on a forming game', () => {
  it('numbers the powers in the order picked, drops one picked again, and joins with that order', async () => {
    await open(OUTSIDER, { ...game(2), powerAssignment: 'preferences' });
    const joined: unknown[] = [];
    vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
      if (path === `/api/games/${GAME}/join`) joined.push(JSON.parse(String(init!.body)));
      return json(200, game(3));
    });
    const group = target.querySelector('[role="group"][aria-label="Power preferences"]')!;
    const pick = (power: string) => {
      Array.from(group.querySelectorAll('button'))
        .find((b) => b.textContent!.startsWith(power))!
        .click();
      flushSync();
    };
    const shown = () => Array.from(group.querySelectorAll('button[aria-pressed="true"]'), (b) => b.textContent);
    pick('Rome');
    pick('Egypt');
    pick('Syria');
    expect(shown()).toEqual(['Egypt2', 'Rome1', 'Syria3']);
    pick('Rome');
    expect(shown()).toEqual(['Egypt1', 'Syria2']);
    Array.from(target.querySelectorAll('button'))
      .find((b) => b.textContent === 'Join this game')!
      .click();
    await vi.waitFor(() => expect(joined).toEqual([{ powerPreferences: ['Egypt', 'Syria'] }]));
  });
});
