/**
 * The game master's tools mounted in a DOM with a stubbed fetch: what the
 * confirmations say, where they appear, and what the deadline form refuses
 * to send (and how it words what the server refuses).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import GmTools from '../../web/src/game/GmTools.svelte';
import type { GameRoom } from '../../web/src/game/room.svelte.ts';

const GAME = '019a0000-0000-7000-8000-000000000004';
const deadline = new Date(Date.now() + 24 * 3600_000);
deadline.setUTCMilliseconds(0);

function fakeRoom(paused = false) {
  return {
    id: GAME,
    open: { index: 2, name: 'Spring 239 BC Movement', paused, deadlineAt: deadline.toISOString(), status: 'open' },
    game: { id: GAME, powers: [{ id: 'Egypt' }, { id: 'Syria' }], gameMaster: { id: 'gm', username: 'Zeus' }, players: [] },
    phases: [
      { index: 0, name: 'Spring 240 BC Movement', status: 'processed' },
      { index: 1, name: 'Fall 240 BC Movement', status: 'processed' },
      { index: 2, name: 'Spring 239 BC Movement', status: 'open' },
    ],
    loadLog: async () => {},
    loadCurrent: async () => {},
    reloadGame: async () => {},
  } as unknown as GameRoom;
}

let target: HTMLElement;
let tools: ReturnType<typeof mount>;
let sent: { method: string; path: string; body: unknown }[];
let reply: (path: string) => Response;

function start(room = fakeRoom()) {
  target = document.createElement('div');
  document.body.appendChild(target);
  tools = mount(GmTools, { target, props: { room } });
  flushSync();
}

beforeEach(() => {
  sent = [];
  reply = () => new Response(JSON.stringify({ action: { id: 'x', action: 'x', actor: null, details: {}, at: new Date().toISOString() }, checked: [] }), { status: 200 });
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    sent.push({ method: init.method ?? 'GET', path, body: init.body ? JSON.parse(String(init.body)) : undefined });
    return reply(path);
  });
});
afterEach(() => {
  unmount(tools);
  target.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const $ = <T extends Element = HTMLElement>(selector: string) => target.querySelector<T>(selector);
const button = (name: RegExp) => Array.from(target.querySelectorAll('button')).find((b) => name.test(b.textContent ?? ''))!;
const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await tick();
    await new Promise((resolve) => setTimeout(resolve));
  }
  flushSync();
};
async function click(el: Element) {
  el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  flushSync();
  await settle();
}
function type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}
const hours = () => $<HTMLInputElement>('input[type="number"]')!;
const confirmText = () => $('[role="alertdialog"]')?.textContent ?? null;

describe('changing the deadline', () => {
  it('does not send a change that would not move the deadline', async () => {
    start();
    for (const value of ['', '0', '0.0001']) {
      type(hours(), value);
      await click(button(/Change the deadline/));
      expect(confirmText(), value).toBeNull();
      expect($('[role="alert"]')!.textContent, value).toMatch(/(would not move|Enter the number of hours)/);
    }
    type(hours(), String(31 * 24));
    await click(button(/Change the deadline/));
    expect($('[role="alert"]')!.textContent).toBe('A deadline can move at most 30 days.');
    expect(sent).toEqual([]);
  });

  it('names the time in units and plurals people use', async () => {
    start();
    type(hours(), '1');
    await click(button(/Change the deadline/));
    expect(confirmText()).toMatch(/^Extend the deadline by 1 hour, to .+\?/);
    await click(button(/^Cancel$/));
    type(hours(), '-1.5');
    await click(button(/Change the deadline/));
    expect(confirmText()).toMatch(/^Shorten the deadline by 1 hour 30 minutes, to /);
    expect(confirmText()).not.toMatch(/hours\?|\d\.\d/);
  });

  it('words what the server refuses for the form, never as "body.…"', async () => {
    start();
    reply = () =>
      new Response(
        JSON.stringify({
          error: {
            code: 'validation_failed',
            message: 'body.extendBySeconds: Too big: expected number to be <=2592000',
            issues: [{ path: 'body.extendBySeconds', message: 'Too big: expected number to be <=2592000' }],
          },
        }),
        { status: 400 },
      );
    type(hours(), '2');
    await click(button(/Change the deadline/));
    await click(button(/^Confirm$/));
    expect(sent.map((r) => r.body)).toEqual([{ extendBySeconds: 7200 }]);
    const answer = $('[role="status"]')!.textContent!;
    expect(answer).toBe('A deadline can move at most 30 days.');
    expect(target.textContent).not.toContain('body.');
  });

  it('says, while the clock is paused, that the new deadline is kept as set', async () => {
    start(fakeRoom(true));
    type(hours(), '2');
    await click(button(/Change the deadline/));
    expect(confirmText()).toContain('The clock is paused');
  });
});

describe('confirmations', () => {
  it('appear next to the button that asked, scrolled into view and focused; Cancel gives the focus back', async () => {
    const scrolled: Element[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this);
    });
    start();
    const rollBack = button(/Roll back/);
    await click(rollBack);
    const box = $('[role="alertdialog"]')!;
    expect(box.closest('.tool')).toBe(rollBack.closest('.tool'));
    expect(scrolled).toContain(box);
    expect(document.activeElement).toBe(box);
    // Only the one box, nothing at the top of the section.
    expect(target.querySelectorAll('[role="alertdialog"]')).toHaveLength(1);
    expect($('section.gm')!.children[1]).not.toBe(box);
    await click(button(/^Cancel$/));
    expect($('[role="alertdialog"]')).toBeNull();
    expect(document.activeElement).toBe(rollBack);
  });

  it('"Enter orders…" says the orders replace the power\'s saved orders', async () => {
    start();
    const select = $<HTMLSelectElement>('select')!;
    select.value = 'Egypt';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    type($<HTMLTextAreaElement>('textarea')!, 'A Alx H');
    const enter = button(/Enter orders/);
    await click(enter);
    expect(confirmText()).toContain("They replace the orders saved for Egypt (by its player or by you)");
    expect($('[role="alertdialog"]')!.closest('.tool')).toBe(enter.closest('.tool'));
  });
});
