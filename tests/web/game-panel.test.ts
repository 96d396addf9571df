/**
 * The Game tab's draw vote, mounted on a scripted game where Egypt is mine: a vote
 * is cast only once confirmed, and the question says so when this vote, the last
 * one needed, ends the game at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import GamePanel from '../../web/src/game/GamePanel.svelte';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { fixtureId as id, gameDetail, json, openPhase, POWERS } from './api-fixtures.ts';

const GAME = id(1);

const game = gameDetail('Egypt');

/** The powers that have voted for a draw on the scripted server, and the votes cast through it. */
let drawVotes: string[];
let cast: unknown[];
let target: HTMLElement;
let panel: ReturnType<typeof mount>;

beforeEach(() => {
  cast = [];
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === `/api/games/${GAME}/votes` && init?.method === 'POST') {
      cast.push(JSON.parse(String(init.body)));
      drawVotes = [...drawVotes, 'Egypt'];
    }
    if (url === `/api/games/${GAME}/votes`) return json(200, { survivors: POWERS, draw: drawVotes, concessions: [], outcome: null });
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  unmount(panel);
  target.remove();
  vi.unstubAllGlobals();
});

async function open(votes: string[]) {
  drawVotes = votes;
  const room = new GameRoom(game, () => id(2));
  await room.loadVotes();
  panel = mount(GamePanel, { target, props: { room } });
  flushSync();
}
const button = (name: string) => Array.from(target.querySelectorAll('button')).find((b) => b.textContent?.trim() === name);
const question = () => button('Yes, vote for a draw')?.previousElementSibling?.textContent;

describe('the draw vote', () => {
  it('asks first and says what the vote does; Cancel casts nothing', async () => {
    await open(['Rome']);
    button('Vote for a draw…')!.click();
    flushSync();
    expect(question()).toBe(
      'Vote for a draw shared by every survivor (Carthage, Egypt, Macedonia, Rome, Syria)? The game ends once all of them have voted; until then you may withdraw your vote.',
    );
    // The question is read out with the button that answers it, which has the focus.
    await vi.waitFor(() => expect(document.activeElement).toBe(button('Yes, vote for a draw')));
    expect(document.getElementById(button('Yes, vote for a draw')!.getAttribute('aria-describedby')!)?.textContent).toBe(question());
    button('Cancel')!.click();
    flushSync();
    expect(button('Yes, vote for a draw')).toBeUndefined();
    expect(cast).toEqual([]);
    await vi.waitFor(() => expect(document.activeElement).toBe(button('Vote for a draw…')));
  });

  it('says the last vote needed ends the game now, and casts it once confirmed', async () => {
    await open(['Carthage', 'Macedonia', 'Rome', 'Syria']);
    button('Vote for a draw…')!.click();
    flushSync();
    expect(question()).toBe(
      'Every other survivor has voted for a draw: your vote ends the game now, in a draw shared by Carthage, Egypt, Macedonia, Rome, Syria. Vote for it?',
    );
    button('Yes, vote for a draw')!.click();
    await vi.waitFor(() => expect(button('Withdraw my draw vote')).toBeDefined());
    expect(cast).toEqual([{ kind: 'draw' }]);
    await vi.waitFor(() => expect(document.activeElement).toBe(button('Withdraw my draw vote')));
  });
});

describe('the powers and who plays them', () => {
  it("links each named player and the game master to their public page; an anonymous seat to nobody's", async () => {
    const named = gameDetail('Egypt', {
      anonymous: true,
      players: POWERS.map((power, i) => ({
        id: id(10 + i),
        user: power === 'Egypt' ? { id: id(20), username: 'ptolemy' } : null,
        power,
        status: 'active',
        missedDeadlines: 0,
        isYou: power === 'Egypt',
      })),
    });
    drawVotes = [];
    panel = mount(GamePanel, { target, props: { room: new GameRoom(named, () => id(2)) } });
    flushSync();
    const links = Array.from(target.querySelectorAll<HTMLAnchorElement>('a[href^="/players/"]')).map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['ptolemy', '/players/ptolemy'],
      [named.gameMaster.username, `/players/${encodeURIComponent(named.gameMaster.username)}`],
    ]);
    expect(target.querySelector('.players')!.textContent).toContain('anonymous');
  });
});

describe('an imported game', () => {
  it("says it was imported, and marks the log's entries copied from the export as imported, their actor the exported game's, unlinked", async () => {
    const log = [
      {
        id: id(6),
        action: 'pause',
        actor: null,
        details: { phaseName: 'Spring 240 BC Movement', imported: true, exported: { actor: 'zeus', users: null } },
        at: '2026-01-01T10:00:00.000Z',
      },
      {
        id: id(7),
        action: 'import',
        actor: { id: id(2), username: 'importer' },
        details: { phases: 3, exported: { actor: null, users: { gameMaster: 'zeus', players: {} } } },
        at: '2026-01-02T10:00:00.000Z',
      },
    ];
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url === `/api/games/${GAME}/votes`) return json(200, { survivors: POWERS, draw: [], concessions: [], outcome: null });
      if (url === `/api/games/${GAME}/gm/log`) return json(200, { actions: log });
      return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
    });
    const room = new GameRoom(gameDetail('Egypt', { imported: true }), () => id(2));
    await room.loadVotes();
    room.log = log as typeof room.log;
    panel = mount(GamePanel, { target, props: { room } });
    flushSync();
    expect(target.querySelector('#imported-note')?.textContent).toBe(
      "Imported from an export: its history was played elsewhere (the game master's log says where it came from).",
    );
    const entries = Array.from(target.querySelectorAll('ol.log li'));
    // Newest first: the import (by this server's importer), then the entry copied from the export.
    expect(entries[0].querySelector('strong')?.textContent).toBe('importer');
    expect(entries[0].textContent).toContain('its game master in the exported game was zeus');
    expect(entries[1].querySelector('.imported-entry')?.textContent).toBe('imported');
    expect(entries[1].querySelector('strong')).toBeNull();
    expect(entries[1].querySelector('a')).toBeNull();
    expect(entries[1].querySelector('[data-action]')?.textContent).toBe(
      'Paused the clock in Spring 240 BC Movement. (Imported: done in the exported game, by zeus, before it came here.)',
    );
  });

  it('says nothing of an import for a game played here', async () => {
    await open([]);
    expect(target.querySelector('#imported-note')).toBeNull();
  });
});

describe('the map as a picture', () => {
  it('offers the phase shown as a PNG and an SVG download, from the server’s picture of that phase', async () => {
    drawVotes = [];
    const room = new GameRoom(game, () => id(2));
    room.timeline.current = openPhase(3, 'Fall 239 BC');
    panel = mount(GamePanel, { target, props: { room } });
    flushSync();
    const links = Array.from(target.querySelectorAll<HTMLAnchorElement>('section[aria-labelledby="map-picture-h"] a[download]'));
    expect(links.map((a) => [a.textContent?.trim(), a.getAttribute('href')])).toEqual([
      ['Download the map (PNG)', `/api/games/${GAME}/phases/3/map.png`],
      ['As SVG', `/api/games/${GAME}/phases/3/map.svg`],
    ]);
    expect(target.querySelector('section[aria-labelledby="map-picture-h"]')!.textContent).toContain('Fall 239 BC');
  });
});
