/**
 * The lobby's seats looking for a new player, mounted against a scripted server: each seat with its position
 * (centres, units, the phase), its deadline and whether approval is needed; "Ask to take" sends the request and
 * then shows it waiting, with Withdraw; "Take this seat" goes to the game once it is handed over; a refusal is
 * said in the server's words; an anonymous game's seat names nobody.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { OpenSeat } from '../../shared/api/seats.ts';
import OpenSeats from '../../web/src/lobby/OpenSeats.svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, json } from './api-fixtures.ts';

const ASKED = id(1);
const AT_ONCE = id(2);
const HIDDEN = id(3);
const ME = { id: id(5), username: 'ptolemy' };

const seat = (overrides: Partial<OpenSeat>): OpenSeat => ({
  gameId: ASKED,
  gameName: 'Wars of the Successors',
  variant: 'diadochi-v',
  power: 'Rome',
  offeredAt: '2026-11-24T10:00:00.000Z',
  private: false,
  anonymous: false,
  position: { phase: 'Fall 238 BC Movement', phaseKind: 'movement', year: '238 BC', centres: 3, supply: 4, units: 4 },
  deadlineAt: '2026-11-30T18:00:00.000Z',
  paused: false,
  approvalNeeded: true,
  rules: { minDeadlinesKept: 80, minFinishedGames: 0 },
  heldBy: { id: id(7), username: 'cassander' },
  yourRequest: null,
  ...overrides,
});

let seats: OpenSeat[];
let sent: string[];
let target: HTMLElement;
let component: ReturnType<typeof mount> | undefined;

beforeEach(() => {
  session.adopt({ user: { ...ME, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
  seats = [
    seat({}),
    seat({ gameId: AT_ONCE, gameName: 'Open table', power: 'Egypt', approvalNeeded: false, rules: { minDeadlinesKept: 0, minFinishedGames: 2 } }),
    seat({ gameId: HIDDEN, gameName: 'Masks', power: 'Syria', anonymous: true, heldBy: null }),
  ];
  sent = [];
  vi.stubGlobal('WebSocket', ScriptedSocket);
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const url = new URL(path, 'http://localhost');
    const method = init.method ?? 'GET';
    if (method !== 'GET') sent.push(`${method} ${url.pathname}`);
    if (url.pathname === '/api/seats/open') return json(200, { seats, nextCursor: null });
    if (method === 'POST' && url.pathname === `/api/games/${ASKED}/seats/Rome/requests`) {
      const request = { id: id(8), power: 'Rome', user: ME, status: 'pending', createdAt: '2026-11-25T10:00:00.000Z', decidedAt: null };
      seats = seats.map((s) => (s.gameId === ASKED ? { ...s, yourRequest: { id: request.id, status: 'pending', createdAt: request.createdAt } } : s));
      return json(201, { request, handedOver: false });
    }
    if (method === 'DELETE' && url.pathname === `/api/games/${ASKED}/seats/Rome/requests/${id(8)}`) {
      seats = seats.map((s) => (s.gameId === ASKED ? { ...s, yourRequest: { id: id(8), status: 'withdrawn', createdAt: '2026-11-25T10:00:00.000Z' } } : s));
      return json(200, {
        request: { id: id(8), power: 'Rome', user: ME, status: 'withdrawn', createdAt: '2026-11-25T10:00:00.000Z', decidedAt: null },
        handedOver: false,
      });
    }
    if (method === 'POST' && url.pathname === `/api/games/${AT_ONCE}/seats/Egypt/requests`)
      return json(201, {
        request: { id: id(9), power: 'Egypt', user: ME, status: 'approved', createdAt: '2026-11-25T10:00:00.000Z', decidedAt: null },
        handedOver: true,
      });
    if (method === 'POST' && url.pathname === `/api/games/${HIDDEN}/seats/Syria/requests`)
      return json(403, {
        error: {
          code: 'seat_rule_unmet',
          message:
            "to take a seat in this game you need to have kept at least 80 % of your deadlines (the game's minimum of deadlines kept); you kept 1 of 2 (50 %)",
        },
      });
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
const cards = () => Array.from(target.querySelectorAll('li.seat'));
const card = (power: string) => cards().find((li) => li.querySelector('h3')?.textContent?.startsWith(power))!;
const text = (element: Element) => element.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const buttonIn = (element: Element, name: string) => Array.from(element.querySelectorAll('button')).find((b) => b.textContent?.trim() === name);

describe('the lobby’s open seats', () => {
  it('lists each seat with its position, deadline, approval and rules; an anonymous game names nobody', async () => {
    component = mount(OpenSeats, { target });
    await settle();
    expect(cards()).toHaveLength(3);
    const rome = text(card('Rome'));
    expect(rome).toContain('Fall 238 BC Movement: 3 centres, 4 units (supply for 4)');
    expect(rome).toContain('held by cassander');
    expect(rome).toContain('The game master approves who takes it.');
    expect(rome).toContain('Needs at least 80 % of deadlines kept.');
    expect(rome).toContain('Orders due');
    expect(buttonIn(card('Rome'), 'Ask to take')).toBeDefined();
    expect(text(card('Egypt'))).toContain('Taken at once, no approval needed. Needs 2 finished games.');
    expect(buttonIn(card('Egypt'), 'Take this seat')).toBeDefined();
    expect(text(card('Syria'))).not.toContain('held by');
    expect(text(card('Syria'))).toContain('anonymous');
  });

  it('asking shows the request waiting, with Withdraw; withdrawing says so', async () => {
    component = mount(OpenSeats, { target });
    await settle();
    buttonIn(card('Rome'), 'Ask to take')!.click();
    await settle();
    expect(sent).toEqual([`POST /api/games/${ASKED}/seats/Rome/requests`]);
    expect(text(card('Rome'))).toContain('You asked for this seat: waiting for the game master.');
    expect(buttonIn(card('Rome'), 'Ask to take')).toBeUndefined();
    buttonIn(card('Rome'), 'Withdraw request')!.click();
    await settle();
    expect(sent.at(-1)).toBe(`DELETE /api/games/${ASKED}/seats/Rome/requests/${id(8)}`);
    expect(text(card('Rome'))).toContain('You withdrew your request.');
    expect(buttonIn(card('Rome'), 'Ask to take')).toBeDefined();
  });

  it('taking a seat that needs no approval goes to the game; a refusal is said in the server’s words', async () => {
    component = mount(OpenSeats, { target });
    await settle();
    buttonIn(card('Syria'), 'Ask to take')!.click();
    await settle();
    expect(text(card('Syria'))).toContain('you kept 1 of 2 (50 %)');
    buttonIn(card('Egypt'), 'Take this seat')!.click();
    await settle();
    expect(sent.at(-1)).toBe(`POST /api/games/${AT_ONCE}/seats/Egypt/requests`);
    expect(router.route).toMatchObject({ name: 'game' });
    expect(location.pathname).toBe(`/games/${AT_ONCE}`);
  });
});
