/**
 * The game master's seats looking for a new player, mounted against a scripted server: folded until opened (then
 * read), the offered seat with its position and the requests waiting; Approve and Decline send the decision, and a
 * seat is offered from the powers not offered yet.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { GameSeatOffers } from '../../shared/api/seats.ts';
import SeatOffers from '../../web/src/game/SeatOffers.svelte';
import type { GameRoom } from '../../web/src/game/room.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, json } from './api-fixtures.ts';

const GAME = id(1);
const ZEUS = { id: id(9), username: 'zeus' };
const SELEUCUS = { id: id(6), username: 'seleucus' };

let offers: GameSeatOffers;
let sent: string[];
let reloaded: number;
let target: HTMLElement;
let component: ReturnType<typeof mount> | undefined;

const seat = (power: string, status: string) => ({ id: `${power}-seat`, user: null, power, status, missedDeadlines: 0, isYou: false });
const room = () =>
  ({
    id: GAME,
    game: { status: 'active', players: [seat('Rome', 'civil-disorder'), seat('Egypt', 'active'), seat('Syria', 'eliminated')] },
    reloadGame: async () => void (reloaded += 1),
  }) as unknown as GameRoom;

beforeEach(() => {
  session.adopt({ user: { ...ZEUS, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
  offers = {
    gameId: GAME,
    approvalNeeded: true,
    rules: { minDeadlinesKept: 0, minFinishedGames: 1 },
    offers: [
      {
        power: 'Rome',
        offeredAt: '2026-11-24T10:00:00.000Z',
        position: { phase: 'Fall 238 BC Movement', phaseKind: 'movement', year: '238 BC', centres: 3, supply: 4, units: 2 },
      },
    ],
    requests: [{ id: id(7), power: 'Rome', user: SELEUCUS, status: 'pending', createdAt: '2026-11-25T10:00:00.000Z', decidedAt: null }],
  };
  sent = [];
  reloaded = 0;
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const url = new URL(path, 'http://localhost');
    const method = init.method ?? 'GET';
    sent.push(`${method} ${url.pathname}`);
    if (url.pathname === `/api/games/${GAME}/seats`) return json(200, offers);
    if (url.pathname === `/api/games/${GAME}/seats/Rome/requests/${id(7)}/approve`) {
      offers = { ...offers, offers: [], requests: [{ ...offers.requests[0], status: 'approved' }] };
      return json(200, { request: offers.requests[0], handedOver: true });
    }
    if (url.pathname === `/api/games/${GAME}/seats/Egypt/offer`) {
      offers = { ...offers, offers: [...offers.offers, { power: 'Egypt', offeredAt: '2026-11-25T11:00:00.000Z', position: null }] };
      return json(200, offers);
    }
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
});

const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await tick();
    await new Promise((resolve) => setTimeout(resolve));
  }
  flushSync();
};
const button = (name: RegExp) =>
  Array.from(target.querySelectorAll('button')).find((b) => name.test(b.textContent?.trim() ?? '') || name.test(b.getAttribute('aria-label') ?? ''));
const text = () => target.textContent?.replace(/\s+/g, ' ').trim() ?? '';

async function open() {
  const details = target.querySelector('details')!;
  details.open = true;
  details.dispatchEvent(new Event('toggle'));
  await settle();
}

describe("the game master's seat offers", () => {
  it('reads nothing until opened; then shows the offer, its position and the request waiting', async () => {
    component = mount(SeatOffers, { target, props: { room: room() } });
    await settle();
    expect(sent).toEqual([]);
    await open();
    expect(sent).toEqual([`GET /api/games/${GAME}/seats`]);
    expect(text()).toContain('Rome offered');
    expect(text()).toContain('3 centres, 2 units');
    expect(text()).toContain('seleucus asks to take Rome');
    expect(text()).toContain('Needs 1 finished game.');
  });

  it('offering names a power not offered nor eliminated; approving sends the decision and reads the game again', async () => {
    component = mount(SeatOffers, { target, props: { room: room() } });
    await settle();
    await open();
    const select = target.querySelector('select')!;
    const choices = Array.from(select.options)
      .map((option) => option.value)
      .filter(Boolean);
    // Rome is offered already and Syria eliminated.
    expect(choices).toEqual(['Egypt']);
    for (const option of Array.from(select.options)) option.selected = option.value === 'Egypt';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    button(/^Offer in the lobby$/)!.click();
    await settle();
    expect(sent, JSON.stringify(sent)).toContain(`POST /api/games/${GAME}/seats/Egypt/offer`);
    expect(text()).toContain('Egypt offered');

    button(/^Approve seleucus for Rome$/)!.click();
    await settle();
    expect(sent, JSON.stringify(sent)).toContain(`POST /api/games/${GAME}/seats/Rome/requests/${id(7)}/approve`);
    expect(reloaded).toBe(1);
    expect(text()).toContain('seleucus takes Rome');
    expect(text()).not.toContain('asks to take');
  });
});
