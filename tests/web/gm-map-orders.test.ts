/**
 * A game master who plays no power enters a power's orders on the map, as a player does: with the power chosen in
 * the tools (the Game tab), its units on the map are buttons, a click picks one, and its targets light up and take
 * clicks; the tools' order box and the map's arrows follow. The map is bound to those orders only while the tools
 * show, and what was entered is still there after a look at another tab.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import GameView from '../../web/src/pages/GameView.svelte';
import { session } from '../../web/src/lib/session.svelte.ts';
import { ScriptedSocket } from './scripted-socket.ts';
import { fixtureId as id, gameDetail, json, openPhase, POWERS } from './api-fixtures.ts';

// The board fetches its tabs' chunks once the map is up: loaded before, so that none arrives after a test's end.
beforeAll(() =>
  Promise.all([
    import('../../web/src/game/GamePanel.svelte'),
    import('../../web/src/game/PressPanel.svelte'),
    import('../../web/src/game/SupplyPanel.svelte'),
    import('../../web/src/game/GmTools.svelte'),
  ]),
);

const GAME = id(1);
// The fixtures' game master, who plays no power here.
const ZEUS = { id: id(9), username: 'zeus' };
const NAME = 'Spring 240 BC Movement';
const game = gameDetail(null, { currentPhase: { index: 0, name: NAME, kind: 'movement', deadlineAt: '2026-12-01T00:00:00.000Z' } });

let entered: unknown[];
let target: HTMLElement;
let view: ReturnType<typeof mount> | undefined;

beforeEach(async () => {
  entered = [];
  localStorage.clear();
  vi.stubGlobal('WebSocket', ScriptedSocket);
  session.adopt({ user: { ...ZEUS, isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<typeof session.adopt>[0]);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === `/api/games/${GAME}`) return json(200, game);
    if (url === `/api/games/${GAME}/phases`)
      return json(200, { phases: [{ index: 0, name: NAME, kind: 'movement', deadlineAt: null, status: 'open', processedAt: null }] });
    if (url === `/api/games/${GAME}/phases/current` || url === `/api/games/${GAME}/phases/0`) return json(200, openPhase(0, NAME));
    if (url === `/api/games/${GAME}/gm/phases/0/orders/Egypt` && init?.method === 'PUT') {
      entered.push(JSON.parse(String(init.body)));
      return json(200, { checked: [] });
    }
    if (url === `/api/games/${GAME}/press`) return json(200, { messages: [], nextCursor: null });
    if (url === `/api/games/${GAME}/loans`) return json(200, { loans: [] });
    if (url === `/api/games/${GAME}/votes`) return json(200, { survivors: POWERS, draw: [], concessions: [], outcome: null });
    if (url === `/api/games/${GAME}/gm/log`) return json(200, { actions: [] });
    if (url === `/api/games/${GAME}/gm/proposals`) return json(200, { proposals: [] });
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
  view = mount(GameView, { target, props: { game } });
  await vi.waitFor(() => expect(target.querySelector('g.unit[data-unit="Pto"]')).not.toBeNull());
  flushSync();
});
afterEach(() => {
  if (view) unmount(view);
  view = undefined;
  target.remove();
  vi.unstubAllGlobals();
});

const $ = <T extends Element = HTMLElement>(selector: string) => target.querySelector<T>(selector);
const button = (name: RegExp) => Array.from(target.querySelectorAll('button')).find((b) => name.test(b.textContent?.trim() ?? '')) ?? null;
function click(el: Element) {
  el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  flushSync();
}
function showTab(name: string) {
  click(Array.from(target.querySelectorAll('[role="tab"]')).find((t) => t.textContent?.includes(name))!);
}
/** The tools shown, their orders for this power chosen. */
async function ordersFor(power: string) {
  showTab('Game');
  await vi.waitFor(() => expect($('section.gm select')).not.toBeNull());
  // The tools' own choice of power (the Game tab has others, for draws and concessions).
  const select = Array.from(target.querySelectorAll<HTMLSelectElement>('section.gm select')).find((s) => Array.from(s.options).some((o) => o.value === power))!;
  // happy-dom's :checked matches inputs only, so Svelte's select binding reads the first enabled option: the others
  // are disabled while the change is read.
  const others = Array.from(select.options).filter((o) => o.value !== power && !o.disabled);
  for (const o of others) o.disabled = true;
  select.value = power;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  flushSync();
  for (const o of others) o.disabled = false;
  await vi.waitFor(() => expect($('.gm-orders textarea')).not.toBeNull());
}
/** An action of the unit picked, in the tools' order panel. */
const action = (name: string) => Array.from(target.querySelectorAll('.gm-orders button.action')).find((b) => b.textContent?.includes(name))!;
const unit = (province: string) => $(`g.unit[data-unit="${province}"]`)!;
const orderBox = () => $<HTMLTextAreaElement>('.gm-orders textarea')!.value;

describe("the game master's orders on the map", () => {
  it('the chosen power’s units are buttons on the map; a click picks one and its targets take the next click', async () => {
    // Before a power is chosen, nothing on the map is the game master's to order.
    expect(unit('Pto').getAttribute('role')).not.toBe('button');
    await ordersFor('Egypt');
    expect(unit('Pto').getAttribute('role')).toBe('button');
    // Other powers' units are not.
    expect(unit('Ant').getAttribute('role')).not.toBe('button');
    click(unit('Pto'));
    expect(unit('Pto').getAttribute('aria-pressed')).toBe('true');
    click(action('Move'));
    expect($('#p-Sin')!.classList.contains('target')).toBe(true);
    click($('#p-Sin')!);
    expect(orderBox()).toBe('A Pto - Sin');
    // The order is drawn on the map, and the unit's name says it.
    expect(target.querySelectorAll('svg.dmap g.glyph.arrow')).toHaveLength(1);
    expect(unit('Pto').getAttribute('aria-label')).toContain('ordered: A Pto - Sin');
    click(button(/^Enter orders…$/)!);
    click(button(/^Confirm$/)!);
    await vi.waitFor(() => expect(entered).toEqual([{ orders: 'A Pto - Sin' }]));
  });

  it('on another tab the map is not bound to them; back on the tools, what was entered is still there', async () => {
    await ordersFor('Egypt');
    click(unit('Alx'));
    click(action('Hold'));
    expect(orderBox()).toBe('F Alx H');
    showTab('Orders');
    expect(unit('Pto').getAttribute('role')).not.toBe('button');
    click(unit('Pto'));
    expect($('#p-Sin')!.classList.contains('target')).toBe(false);
    showTab('Game');
    await vi.waitFor(() => expect($('.gm-orders textarea')).not.toBeNull());
    expect(orderBox()).toBe('F Alx H');
    expect(unit('Pto').getAttribute('role')).toBe('button');
  });
});
