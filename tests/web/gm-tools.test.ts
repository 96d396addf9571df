/**
 * The game master's tools mounted in a DOM with a stubbed fetch: what the
 * confirmations say, where they appear, and what the deadline form refuses
 * to send (and how it words what the server refuses).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import GmTools from '../../web/src/game/GmTools.svelte';
import type { GameRoom } from '../../web/src/game/room.svelte.ts';
import { GmRecord } from '../../web/src/game/gm.svelte.ts';
import { start as startPosition, variant } from './positions.ts';

const GAME = '019a0000-0000-7000-8000-000000000004';
const deadline = new Date(Date.now() + 24 * 3600_000);
deadline.setUTCMilliseconds(0);

function fakeRoom(paused = false) {
  const room = {
    id: GAME,
    variant,
    open: {
      index: 2,
      name: 'Spring 239 BC Movement',
      kind: 'movement',
      paused,
      deadlineAt: deadline.toISOString(),
      status: 'open',
      powers: [],
      state: startPosition,
    },
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
  // The game master's record is the real one: the orders being entered live there.
  Object.assign(room, { gm: new GmRecord(room) });
  return room;
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
  reply = () =>
    new Response(JSON.stringify({ action: { id: 'x', action: 'x', actor: null, details: {}, at: new Date().toISOString() }, checked: [] }), { status: 200 });
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    sent.push({ method: init.method ?? 'GET', path, body: init.body ? JSON.parse(String(init.body)) : undefined });
    // The tools' webhook section reads the game's webhooks as it opens: none here.
    if (path.endsWith('/webhooks') && (init.method ?? 'GET') === 'GET') return new Response(JSON.stringify({ webhooks: [] }), { status: 200 });
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
/** The power the seat tools and the orders are for. */
const powerSelect = () => Array.from(target.querySelectorAll<HTMLSelectElement>('select')).find((s) => Array.from(s.options).some((o) => o.value === 'Egypt'))!;
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
      // The hours are in error: marked so, described by the error, and focused.
      expect(hours().getAttribute('aria-invalid'), value).toBe('true');
      expect(document.getElementById(hours().getAttribute('aria-describedby')!)?.getAttribute('role')).toBe('alert');
      expect(document.activeElement, value).toBe(hours());
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
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ extendBySeconds: 7200 }]);
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
    const select = powerSelect();
    select.value = 'Egypt';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    type($<HTMLTextAreaElement>('textarea')!, 'F Alx H');
    const enter = button(/Enter orders/);
    await click(enter);
    expect(confirmText()).toContain('They replace the orders saved for Egypt (by its player or by you)');
    expect($('[role="alertdialog"]')!.closest('.tool')).toBe(enter.closest('.tool'));
  });

  it('"Enter orders…" for a power with no orders saved says nothing is replaced', async () => {
    const room = fakeRoom();
    Object.assign(room.open!, { powers: [{ power: 'Egypt', mustOrder: true, submitted: false, ready: false }] });
    start(room);
    const select = powerSelect();
    select.value = 'Egypt';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    type($<HTMLTextAreaElement>('textarea')!, 'F Alx H');
    await click(button(/Enter orders/));
    expect(confirmText()).toContain('None are saved for it yet; these count as its orders');
    expect(confirmText()).not.toContain('replace');
  });
});

describe('ending the game', () => {
  const survivors = ['Egypt', 'Rome', 'Syria'];
  const withSurvivors = () => Object.assign(fakeRoom(), { votes: { survivors, draw: [], concessions: [], outcome: null }, finished: false });
  const endButton = () => button(/End the game/);
  const box = (name: string) =>
    Array.from(target.querySelectorAll<HTMLInputElement>('.end input[type="checkbox"]')).find((b) => b.parentElement!.textContent!.trim() === name)!;

  it('offers a draw between every survivor, asks before ending, and sends the powers sharing it', async () => {
    start(withSurvivors());
    expect(Array.from(target.querySelectorAll('.end input[type="checkbox"]')).map((b) => b.parentElement!.textContent!.trim())).toEqual(survivors);
    box('Rome').click();
    flushSync();
    await click(endButton());
    expect(confirmText()).toMatch(/^End the game now as a draw between Egypt and Syria\? No more phases are played/);
    expect($('[role="alertdialog"]')!.closest('.tool')).toBe(endButton().closest('.tool'));
    reply = () =>
      new Response(
        JSON.stringify({
          action: {
            id: 'x',
            action: 'end-game',
            actor: null,
            details: { phaseName: 'Spring 239 BC Movement', outcome: { kind: 'draw', powers: ['Egypt', 'Syria'] } },
            at: new Date().toISOString(),
          },
        }),
        { status: 200 },
      );
    await click(button(/^Confirm$/));
    expect(sent.filter((r) => r.method === 'POST')).toEqual([
      { method: 'POST', path: `/api/games/${GAME}/gm/end`, body: { outcome: 'draw', powers: ['Egypt', 'Syria'] } },
    ]);
    // The answer says what was done, in the log's words.
    expect(target.textContent).toContain('Done: Ended the game in Spring 239 BC Movement as a draw between Egypt and Syria. The log below records it.');
  });

  it('keeps a question asked while the last action is still reloading the page (the roll-back done, its reloads not yet in)', async () => {
    let release = () => {};
    const room = Object.assign(withSurvivors(), { loadLog: () => new Promise<void>((resolve) => (release = resolve)) });
    start(room);
    await click(button(/Roll back/));
    await click(button(/^Confirm$/));
    expect(sent.some((r) => r.path.endsWith('/gm/rollback'))).toBe(true);
    // The game master goes straight on to the next tool, before the roll-back's reloads are all in.
    await click(endButton());
    expect(confirmText()).toMatch(/^End the game now/);
    release();
    await settle();
    expect(confirmText()).toMatch(/^End the game now/);
  });

  it('will not send a draw for one power, and ends with a concession to the power chosen', async () => {
    start(withSurvivors());
    box('Rome').click();
    box('Syria').click();
    flushSync();
    expect(endButton().disabled).toBe(true);
    expect(target.textContent).toContain('A draw is shared by at least two powers');
    const concession = $<HTMLInputElement>('input[type="radio"][value="concession"]')!;
    concession.click();
    flushSync();
    expect(endButton().disabled).toBe(true);
    const to = $<HTMLSelectElement>('select[aria-label="Concession to"]')!;
    to.value = 'Rome';
    to.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    await click(endButton());
    expect(confirmText()).toMatch(/^End the game now with a concession to Rome\?/);
    await click(button(/^Confirm$/));
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ outcome: 'concession', powers: ['Rome'] }]);
  });

  it('in a game that has ended, offers only to re-open it where it ended', async () => {
    const ended = Object.assign(fakeRoom(), { open: null, finished: true });
    Object.assign(ended.game, { anonymous: true, outcome: { kind: 'draw', powers: ['Egypt', 'Syria'] } });
    start(ended);
    expect(target.textContent).toContain('The game has ended. Its result becomes final once you make it final: until then a roll-back re-opens it');
    expect(button(/End the game/)).toBeUndefined();
    expect(button(/Replace the player/)).toBeUndefined();
    const options = Array.from(target.querySelectorAll('option')).map((o) => o.textContent);
    expect(options).toEqual(['Spring 240 BC Movement', 'Fall 240 BC Movement', 'Spring 239 BC Movement (where the game ended)']);
    await click(button(/Roll back/));
    expect(confirmText()).toMatch(/^Re-open the game at Spring 239 BC Movement\? It goes on from there with a new deadline; nothing is discarded\./);
    // What a roll-back of an ended game undoes: its result, and (anonymous) the names it revealed.
    expect(confirmText()).toContain(
      "The game's result (Draw among Egypt and Syria) is undone and the game goes on; its players are anonymous again until it ends.",
    );
    await click(button(/^Confirm$/));
    expect(sent.filter((r) => r.method === 'POST')).toEqual([{ method: 'POST', path: `/api/games/${GAME}/gm/rollback`, body: { phase: 2 } }]);
  });
});

describe('replacing a player', () => {
  const profile = (username: string) => ({
    user: { id: '019a0000-0000-7000-8000-000000000009', username },
    memberSince: '2026-01-01T00:00:00.000Z',
    games: [],
    totals: { playing: 2, finished: 0, won: 0, drawn: 0, lost: 0, eliminated: 0, replaced: 0 },
    reliability: { phases: 10, missed: 1 },
  });
  async function replaceWith(name: string) {
    start();
    const select = powerSelect();
    select.value = 'Egypt';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    type(
      Array.from(target.querySelectorAll<HTMLInputElement>('input[type="text"]')).find((i) => i.closest('label')?.textContent?.includes('New player'))!,
      name,
    );
    await click(button(/Replace the player/));
  }

  it("asks with the new player's record: the deadlines they kept and the games they play", async () => {
    reply = (path) =>
      path.startsWith('/api/users/') ? new Response(JSON.stringify(profile('Ptolemy')), { status: 200 }) : new Response('{}', { status: 500 });
    await replaceWith('ptolemy');
    expect(sent.filter((request) => request.path.startsWith('/api/users/')).map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/users/ptolemy',
    ]);
    // The name as the player spells it, whatever the case typed.
    expect(confirmText()).toContain("Give Egypt's seat to Ptolemy? Ptolemy: Kept 9 of 10 deadlines (90\u00a0%); playing 2 games.");
  });

  it('says at once that the player named already holds a seat here, with their power', async () => {
    reply = (path) => new Response(JSON.stringify(profile('Ptolemy')), { status: path.startsWith('/api/users/') ? 200 : 500 });
    const room = fakeRoom();
    Object.assign(room.game, { players: [{ id: 'seat', user: profile('Ptolemy').user, power: 'Syria' }] });
    start(room);
    const select = powerSelect();
    select.value = 'Egypt';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    type(
      Array.from(target.querySelectorAll<HTMLInputElement>('input[type="text"]')).find((i) => i.closest('label')?.textContent?.includes('New player'))!,
      'ptolemy',
    );
    await click(button(/Replace the player/));
    expect(confirmText()).toBeNull();
    expect($('.answer')!.textContent).toBe('Ptolemy already plays Syria in this game: a player holds one seat.');
  });

  it('says at once that nobody has that name, and asks nothing', async () => {
    reply = () => new Response(JSON.stringify({ error: { code: 'not_found', message: 'no player is called "nobody"' } }), { status: 404 });
    await replaceWith('nobody');
    expect(confirmText()).toBeNull();
    expect($('.answer')!.textContent).toBe('There is no player called “nobody”.');
    expect(document.activeElement).toBe($('.answer'));
    expect(sent.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

describe('the clock and the deadline', () => {
  it('while the clock is paused, Process now is off and says why', () => {
    start(fakeRoom(true));
    const process = button(/Process now/);
    expect(process.disabled).toBe(true);
    expect(document.getElementById(process.getAttribute('aria-describedby')!)!.textContent).toBe('The clock is paused: resume it to process the phase.');
  });

  it('after a deadline set by date, the date field is emptied, so hours typed next are what counts', async () => {
    start();
    const date = $<HTMLInputElement>('input[type="datetime-local"]')!;
    const at = new Date(deadline.getTime() + 3 * 3600_000);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    type(date, local);
    await click(button(/Change the deadline/));
    await click(button(/^Confirm$/));
    expect(date.value).toBe('');
    type(hours(), '48');
    await click(button(/Change the deadline/));
    expect(confirmText()).toMatch(/^Extend the deadline by 2 days/);
  });
});

describe('a game of short phases', () => {
  function shortPhases() {
    const room = fakeRoom();
    return {
      ...room,
      variant,
      open: { ...room.open, kind: 'movement', state: startPosition },
      game: { ...room.game, deadlines: { movement: 1200, retreat: 600, adjustment: 600 } },
    } as unknown as GameRoom;
  }
  const unit = () => $<HTMLSelectElement>('.deadline-form select')!;

  it('moves the deadline by minutes, starting at one phase (20 minutes), not a day', async () => {
    start(shortPhases());
    expect([hours().value, unit().value]).toEqual(['20', 'minutes']);
    await click(button(/Change the deadline/));
    expect(confirmText()).toMatch(/^Extend the deadline by 20 minutes, to /);
    await click(button(/^Confirm$/));
    type(hours(), '-5');
    await click(button(/Change the deadline/));
    expect(confirmText()).toMatch(/^Shorten the deadline by 5 minutes, to /);
    await click(button(/^Confirm$/));
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ extendBySeconds: 1200 }, { extendBySeconds: -300 }]);
  });

  it('still takes hours, chosen beside the number', async () => {
    start(shortPhases());
    unit().value = 'hours';
    unit().dispatchEvent(new Event('change', { bubbles: true }));
    type(hours(), '2');
    await click(button(/Change the deadline/));
    await click(button(/^Confirm$/));
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ extendBySeconds: 7200 }]);
  });
});

describe("the game master's orders for a power", () => {
  function withPosition() {
    const room = fakeRoom();
    return { ...room, variant, open: { ...room.open, kind: 'movement', state: startPosition } } as unknown as GameRoom;
  }
  function choose(powerName: string) {
    const select = Array.from(target.querySelectorAll<HTMLSelectElement>('select')).find((s) => Array.from(s.options).some((o) => o.value === powerName))!;
    select.value = powerName;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
  }

  it('are given as a player gives them: a unit, its order, and the line checked; then entered', async () => {
    start(withPosition());
    choose('Egypt');
    const pieces = Array.from(target.querySelectorAll<HTMLButtonElement>('.gm-orders .actions button'));
    expect(pieces.length).toBeGreaterThan(0);
    const alexandria = pieces.find((b) => /Alexandria/.test(b.textContent ?? ''))!;
    await click(alexandria);
    await click(button(/Hold/));
    expect($<HTMLTextAreaElement>('.gm-orders textarea')!.value).toBe('F Alx H');
    expect($('.gm-orders .order-list li.ok')?.textContent).toContain('F Alx H');
    await click(button(/^Enter orders…$/));
    await click(button(/^Confirm$/));
    expect(sent.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      [`/api/games/${GAME}/gm/phases/2/orders/Egypt`, { orders: 'F Alx H' }],
    ]);
  });

  it('checks typed lines as they are typed, and enters nothing while one would be refused', async () => {
    start(withPosition());
    choose('Egypt');
    type($<HTMLTextAreaElement>('.gm-orders textarea')!, 'F Alx - Rom');
    expect($('.gm-orders .order-list li.bad .reason')?.textContent).toBeTruthy();
    expect(button(/^Enter orders…$/).disabled).toBe(true);
    expect(target.textContent).toContain('1 line would be refused');
  });
});
