/**
 * A finished game whose result is not final yet says so where its result is shown (the board's header, the Game
 * tab, the game's page): until when the game master may re-open it, and what stays hidden until then (private
 * messages, and the names in an anonymous game); its Press tab says the private messages come then. Once final,
 * none of it is said.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { GameDetail } from '../../shared/api/index.ts';
import GamePage from '../../web/src/pages/GamePage.svelte';
import GameView from '../../web/src/pages/GameView.svelte';
import PressPanel from '../../web/src/game/PressPanel.svelte';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { finalNote, pressHeldNote } from '../../web/src/game/finality.ts';
import { localTime } from '../../web/src/game/logic.ts';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, gameDetail, json, openPhase, POWERS } from './api-fixtures.ts';

// The board fetches its tabs' chunks once the map is up: loaded before, so that none arrives after a test's end.
beforeAll(() =>
  Promise.all([import('../../web/src/game/GamePanel.svelte'), import('../../web/src/game/PressPanel.svelte'), import('../../web/src/game/SupplyPanel.svelte')]),
);

const GAME = id(1);
const FINAL_AT = '2026-12-24T18:00:00.000Z';
const NOW = Date.parse('2026-12-24T00:00:00.000Z');
const ended = (fields: Partial<GameDetail> = {}): GameDetail =>
  gameDetail('Egypt', {
    status: 'finished',
    outcome: { kind: 'draw', powers: POWERS },
    finishedAt: '2026-12-23T18:00:00.000Z',
    finalAt: FINAL_AT,
    currentPhase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: null },
    ...fields,
  });

describe('the sentences', () => {
  const time = (iso: string) => `<${iso}>`;

  it('say when the result becomes final, and what stays hidden until then', () => {
    expect(finalNote(ended(), time, NOW)).toBe(
      `The result becomes final on <${FINAL_AT}>: until then the game master may re-open the game, and private messages stay hidden.`,
    );
    expect(finalNote(ended({ anonymous: true }), time, NOW)).toBe(
      `The result becomes final on <${FINAL_AT}>: until then the game master may re-open the game, and private messages and the players' names stay hidden.`,
    );
    expect(pressHeldNote(ended(), true, time, NOW)).toBe(
      `Private messages between other powers will be shown here when the result becomes final, on <${FINAL_AT}>.`,
    );
    expect(pressHeldNote(ended(), false, time, NOW)).toBe(
      `Private messages between powers will be shown here when the result becomes final, on <${FINAL_AT}>.`,
    );
  });

  it('say nothing once the result is final, nor while the game goes on', () => {
    const later = Date.parse(FINAL_AT) + 1;
    expect(finalNote(ended(), time, later)).toBeNull();
    expect(pressHeldNote(ended(), true, time, later)).toBeNull();
    expect(finalNote(gameDetail('Egypt'), time, NOW)).toBeNull();
  });
});

describe('where the result is shown', () => {
  let target: HTMLElement;
  let component: ReturnType<typeof mount> | undefined;
  let game: GameDetail;
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    game = ended({ anonymous: true });
    localStorage.clear();
    vi.stubGlobal('WebSocket', ScriptedSocket);
    session.adopt({ user: { id: id(2), username: 'egypt', isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<
      typeof session.adopt
    >[0]);
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url === `/api/games/${GAME}`) return json(200, game);
      if (url.endsWith('/phases/current') || url.endsWith('/phases/0')) return json(200, openPhase(0, 'Spring 240 BC Movement'));
      if (url.endsWith('/phases')) return json(200, { phases: [] });
      if (url.endsWith('/press')) return json(200, { messages: [], nextCursor: null });
      if (url.endsWith('/votes')) return json(200, { survivors: POWERS, draw: [], concessions: [], outcome: game.outcome });
      if (url.endsWith('/loans')) return json(200, { loans: [] });
      if (url.endsWith('/gm/log')) return json(200, { actions: [] });
      return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
    });
    target = document.createElement('div');
    document.body.appendChild(target);
  });
  afterEach(() => {
    if (component) unmount(component);
    component = undefined;
    target.remove();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    router.search = '';
  });
  const said = `The result becomes final on ${localTime(FINAL_AT)}: until then the game master may re-open the game, and private messages and the players' names stay hidden.`;

  it("the board's header, under the outcome", async () => {
    component = mount(GameView, { target, props: { game } });
    await vi.waitFor(() => expect(target.querySelector('.final-note')?.textContent).toBe(said));
    expect(target.querySelector('.phase-head')!.textContent).toContain('Game over: Draw among Carthage, Egypt, Macedonia, Rome and Syria');
  });

  it("the game's page, under the outcome", async () => {
    router.search = '?about';
    component = mount(GamePage, { target, props: { id: GAME } });
    await vi.waitFor(() => expect(target.querySelector('#final-note')?.textContent).toBe(said));
    game = { ...game, finalAt: '2026-12-23T20:00:00.000Z' };
    unmount(component);
    target.replaceChildren();
    component = mount(GamePage, { target, props: { id: GAME } });
    await vi.waitFor(() => expect(target.querySelector('h1')?.textContent).toBe('Test'));
    flushSync();
    expect(target.querySelector('#final-note')).toBeNull();
  });

  it('the press tab says the private messages come then', async () => {
    const room = new GameRoom(game, () => id(2));
    component = mount(PressPanel, { target, props: { room } });
    flushSync();
    expect(target.querySelector('#press-held')?.textContent).toBe(
      `Private messages between other powers will be shown here when the result becomes final, on ${localTime(FINAL_AT)}.`,
    );
  });
});
