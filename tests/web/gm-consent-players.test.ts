/**
 * The players' side of a game master who also plays (zeus, playing Rome): Egypt's board, mounted on a scripted
 * server, shows the request prominently with Agree / Refuse, kept current by the live `gm.proposal` events,
 * and says what became of it (carried out, refused, lapsed and why); a spectator and a player not asked see it
 * in the Game tab instead.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { GmProposal } from '../../shared/api/index.ts';
import GameView from '../../web/src/pages/GameView.svelte';
import GamePanel from '../../web/src/game/GamePanel.svelte';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, gameDetail, json, openPhase, POWERS, proposal } from './api-fixtures.ts';

// The board fetches its tabs' chunks once the map is up: loaded before, so that none arrives after a test's end.
beforeAll(() =>
  Promise.all([import('../../web/src/game/GamePanel.svelte'), import('../../web/src/game/PressPanel.svelte'), import('../../web/src/game/SupplyPanel.svelte')]),
);

const GAME = id(1);
const EGYPT = { id: id(2), username: 'egypt' };
const NAME = 'Spring 239 BC Movement';
const game = gameDetail('Egypt', { gameMasterPlays: true, currentPhase: { index: 2, name: NAME, kind: 'movement', deadlineAt: '2026-12-01T00:00:00.000Z' } });

let proposals: GmProposal[];
let answered: unknown[];
let answer: (body: { agree: boolean }) => Response;
let target: HTMLElement;
let view: ReturnType<typeof mount> | undefined;

beforeEach(() => {
  proposals = [proposal()];
  answered = [];
  answer = () => json(500, {});
  localStorage.clear();
  vi.stubGlobal('WebSocket', ScriptedSocket);
  session.adopt({ user: { ...EGYPT, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === `/api/games/${GAME}`) return json(200, game);
    if (url === `/api/games/${GAME}/phases`)
      return json(200, { phases: [{ index: 2, name: NAME, kind: 'movement', deadlineAt: null, status: 'open', processedAt: null }] });
    if (url === `/api/games/${GAME}/phases/current` || url === `/api/games/${GAME}/phases/2`) return json(200, openPhase(2, NAME));
    if (url === `/api/games/${GAME}/phases/2/orders`)
      return json(200, { phase: { index: 2, name: NAME, kind: 'movement', deadlineAt: null }, power: 'Egypt', mustOrder: true, current: null, history: [] });
    if (url === `/api/games/${GAME}/press`) return json(200, { messages: [], nextCursor: null });
    if (url === `/api/games/${GAME}/loans`) return json(200, { loans: [] });
    if (url === `/api/games/${GAME}/votes`) return json(200, { survivors: POWERS, draw: [], concessions: [], outcome: null });
    if (url === `/api/games/${GAME}/gm/log`) return json(200, { actions: [] });
    if (url === `/api/games/${GAME}/gm/proposals`) return json(200, { proposals });
    if (url === `/api/games/${GAME}/gm/proposals/${id(7)}/answer` && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { agree: boolean };
      answered.push(body);
      return answer(body);
    }
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  if (view) unmount(view);
  view = undefined;
  target.remove();
  vi.unstubAllGlobals();
});

/** Egypt's board, with the live events the test plays as the server's. */
async function board(): Promise<(status: GmProposal['status']) => void> {
  view = mount(GameView, { target, props: { game } });
  await vi.waitFor(() => expect(target.querySelector('#orders-text')).not.toBeNull());
  const socket = ScriptedSocket.opened.at(-1)!;
  socket.accept();
  return (status) =>
    socket.onmessage?.({
      data: JSON.stringify({
        type: 'event',
        channel: `game:${GAME}`,
        seq: 1,
        event: { type: 'gm.proposal', gameId: GAME, proposalId: id(7), action: 'process-now', status },
      }),
    });
}
/** The game master's requests are among the board's later reads, asked for once its map is up: a loaded machine may take seconds. */
const LATER = { timeout: 5000 };
const ask = () => target.querySelector('.notice.ask');
const notices = () => Array.from(target.querySelectorAll('.notices .notice:not(.ask)')).map((n) => n.textContent?.replace('×', '').replace(/\s+/g, ' ').trim());
const button = (name: string) => Array.from(target.querySelectorAll('button')).find((b) => b.textContent?.trim() === name);

describe("a player whose consent the game master's request needs", () => {
  it('is asked on the board; agreeing says who is still to answer, then that it was carried out', async () => {
    const event = await board();
    await vi.waitFor(() => expect(ask()).not.toBeNull(), LATER);
    expect(ask()!.querySelector('#consent-question')!.textContent!.replace(/\s+/g, ' ').trim()).toBe(
      'The game master (who also plays) asks to process Spring 239 BC Movement now. It is done only if every other player agrees (Carthage, Macedonia and Syria have not answered yet).',
    );
    // In the notices, above the panel's tabs: where every player looks.
    expect(ask()!.closest('.notices')).not.toBeNull();
    answer = () => json(200, { proposal: proposal({ agreed: ['Egypt'] }), action: null });
    button('Agree')!.click();
    await vi.waitFor(() => expect(answered).toEqual([{ agree: true }]));
    await vi.waitFor(() => expect(ask()).toBeNull());
    expect(notices()).toEqual(['You agreed to let the game master process Spring 239 BC Movement now; it waits for Carthage, Macedonia and Syria.']);

    // The last player agrees elsewhere: the event says so, and the request is carried out.
    proposals = [proposal({ agreed: ['Carthage', 'Egypt', 'Macedonia', 'Syria'], status: 'agreed', decidedAt: '2026-11-24T11:00:00.000Z' })];
    event('agreed');
    await vi.waitFor(() =>
      expect(notices()).toEqual(["All the players asked agreed: the game master's request to process Spring 239 BC Movement now was carried out."]),
    );
  });

  it('refusing closes it, and says so', async () => {
    await board();
    await vi.waitFor(() => expect(ask()).not.toBeNull(), LATER);
    answer = () => json(200, { proposal: proposal({ status: 'refused', refusedBy: 'Egypt' }), action: null });
    button('Refuse')!.click();
    await vi.waitFor(() => expect(answered).toEqual([{ agree: false }]));
    await vi.waitFor(() => expect(ask()).toBeNull());
    expect(notices()).toEqual(["You refused the game master's request to process Spring 239 BC Movement now: nothing was done."]);
  });

  it('sees another player refuse it live, and a request that lapsed, with the reason', async () => {
    const event = await board();
    await vi.waitFor(() => expect(ask()).not.toBeNull(), LATER);
    proposals = [proposal({ status: 'refused', refusedBy: 'Syria' })];
    event('refused');
    await vi.waitFor(() => expect(ask()).toBeNull());
    expect(notices()).toEqual(["Syria refused the game master's request to process Spring 239 BC Movement now: nothing was done."]);

    proposals = [proposals[0], proposal({ id: id(8), action: 'civil-disorder', request: { power: 'Carthage' } })];
    event('open');
    await vi.waitFor(() => expect(ask()?.textContent).toContain('asks to put Carthage in civil disorder'), LATER);
    proposals = [
      proposals[0],
      proposal({ id: id(8), action: 'civil-disorder', request: { power: 'Carthage' }, status: 'lapsed', note: 'Carthage is in civil disorder already' }),
    ];
    // The event names the request (its id): here the second one.
    const socket = ScriptedSocket.opened.at(-1)!;
    socket.onmessage?.({
      data: JSON.stringify({
        type: 'event',
        channel: `game:${GAME}`,
        seq: 2,
        event: { type: 'gm.proposal', gameId: GAME, proposalId: id(8), action: 'civil-disorder', status: 'lapsed' },
      }),
    });
    await vi.waitFor(() => expect(ask()).toBeNull());
    expect(notices().at(-1)).toBe(
      "The game master's request to put Carthage in civil disorder lapsed, as it could no longer be carried out (Carthage is in civil disorder already): nothing was done.",
    );
  });

  it('answering a request closed meanwhile says what became of it', async () => {
    await board();
    await vi.waitFor(() => expect(ask()).not.toBeNull(), LATER);
    answer = () => {
      proposals = [proposal({ status: 'lapsed' })];
      return json(409, { error: { code: 'proposal_closed', message: 'the game has moved on since the request was made: it lapsed' } });
    };
    button('Agree')!.click();
    await vi.waitFor(() => expect(ask()).toBeNull());
    expect(notices()).toEqual([
      "The game master's request to process Spring 239 BC Movement now lapsed, as the game moved on before every player had answered: nothing was done.",
    ]);
  });
});

describe('everyone else who may see the game', () => {
  async function gameTab(mine: string | null) {
    const room = new GameRoom(gameDetail(mine, { gameMasterPlays: true }), () => (mine ? EGYPT.id : id(6)));
    room.current = openPhase(2, NAME);
    await room.loadProposals();
    view = mount(GamePanel, { target, props: { room } });
    flushSync();
    return room;
  }

  it('reads the open request and where it stands in the Game tab, and is told nothing on the board', async () => {
    proposals = [proposal({ needed: ['Carthage', 'Macedonia', 'Syria'], agreed: ['Syria'] })];
    const room = await gameTab('Egypt');
    expect(room.askedOfMe).toBeNull();
    const item = target.querySelector('.requests li')!;
    expect(item.textContent!.replace(/\s+/g, ' ')).toContain(
      'Process Spring 239 BC Movement now — waiting: agreed by Syria; still to answer: Carthage and Macedonia.',
    );
    expect(item.querySelector('button')).toBeNull();
    expect(target.querySelector('#requests-h')?.closest('section')?.textContent).toContain('The game master also plays a power in this game');
  });

  it("a spectator sees past requests' outcomes", async () => {
    proposals = [
      proposal({ status: 'refused', refusedBy: 'Syria' }),
      proposal({ id: id(8), status: 'agreed', agreed: ['Carthage', 'Egypt', 'Macedonia', 'Syria'] }),
    ];
    await gameTab(null);
    const items = Array.from(target.querySelectorAll('.requests li')).map((li) => li.textContent!.replace(/\s+/g, ' '));
    // The latest first.
    expect(items[0]).toContain('Process Spring 239 BC Movement now — agreed by Carthage, Egypt, Macedonia and Syria, and carried out.');
    expect(items[1]).toContain('refused by Syria.');
  });
});
