/**
 * The contested seas' card (web/src/game/SeaBattles.svelte) with the API scripted: the game master abandons a battle
 * being fought after a question; the player of a power fighting in a sea agrees to auto-resolve it after a question
 * that shows the odds (or says none are estimated yet), sees who has agreed and whom the sea waits for, and withdraws;
 * a player whose power does not fight there only reads who agreed; a refusal is shown in the server's words.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { SeaBattle } from '../../shared/api/campaign.ts';
import SeaBattles from '../../web/src/game/SeaBattles.svelte';
import { describeGmAction } from '../../web/src/game/gm-words.ts';
import { session } from '../../web/src/lib/session.svelte.ts';
import { fixtureId as id, json, southTyrrhenianSea } from './api-fixtures.ts';

const GAME = id(4);

const sty = southTyrrhenianSea;

let writes: { method: string; url: string }[];
let answer: (url: string, method: string) => Response;
let target: HTMLElement;
let view: ReturnType<typeof mount> | undefined;
/** The seas as the page holds them: an answer replaces its sea, as the game page does. */
let seas: SeaBattle[];
let viewer: { master: boolean; power: string | null };

function render() {
  if (view) unmount(view);
  view = mount(SeaBattles, {
    target,
    props: {
      gameId: GAME,
      phaseIndex: 0,
      seas,
      master: viewer.master,
      power: viewer.power,
      onsea: (sea: SeaBattle) => {
        seas = seas.map((s) => (s.sea === sea.sea ? sea : s));
        queueMicrotask(render);
      },
    },
  });
  flushSync();
}

beforeEach(() => {
  writes = [];
  answer = () => json(500, {});
  session.adopt({ user: { id: id(9), username: 'zeus', isAdmin: false }, authenticatedBy: 'cookie', csrfToken: 'token' } as Parameters<
    typeof session.adopt
  >[0]);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost').pathname;
    const method = init?.method ?? 'GET';
    writes.push({ method, url });
    return answer(url, method);
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

const card = () => target.querySelector<HTMLElement>('li.sea[data-sea="STY"]')!;
const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const button = (name: string) => Array.from(card().querySelectorAll('button')).find((b) => text(b) === name) ?? null;
const seaUrl = (what: string) => `/api/games/${GAME}/phases/0/seas/STY/${what}`;

describe('the game master abandons a battle being fought', () => {
  it('asks first, then abandons it, and the sea is offered to fight again', async () => {
    viewer = { master: true, power: null };
    seas = [sty({ status: 'fighting', battleId: id(8) })];
    answer = () => json(200, sty());
    render();
    expect(text(card())).toContain('being fought');
    expect(button('Fight it out')).toBeNull();
    button('Abandon battle')!.click();
    flushSync();
    expect(text(card().querySelector('.confirm'))).toMatch(
      /^Abandon the battle for South Tyrrhenian Sea\? It ends with nobody winning it, and the sea is undecided again/,
    );
    expect(writes).toEqual([]);
    button('Confirm')!.click();
    await vi.waitFor(() => expect(button('Fight it out')).not.toBeNull());
    expect(writes).toEqual([{ method: 'POST', url: seaUrl('abandon') }]);
    expect(button('Abandon battle')).toBeNull();
    expect(text(card())).toContain('awaiting the game master');
  });

  it("shows a refusal in the server's words, and offers no abandon on a sea not being fought", async () => {
    viewer = { master: true, power: null };
    seas = [sty({ status: 'fighting', battleId: id(8) })];
    answer = () => json(409, { error: { code: 'conflict', message: 'the battle for South Tyrrhenian Sea is over already (finished)' } });
    render();
    button('Abandon battle')!.click();
    flushSync();
    button('Confirm')!.click();
    await vi.waitFor(() => expect(text(card().querySelector('.error-text'))).toBe('the battle for South Tyrrhenian Sea is over already (finished)'));
    seas = [sty()];
    render();
    expect(button('Abandon battle')).toBeNull();
  });
});

describe('the sides agree to auto-resolve', () => {
  it("Rome's player agrees after a question, sees whom the sea waits for, and withdraws", async () => {
    viewer = { master: false, power: 'Rome' };
    seas = [sty()];
    answer = (_url, method) => json(200, sty({ agreed: method === 'POST' ? ['Rome'] : [] }));
    render();
    // A player has none of the game master's actions.
    expect(button('Fight it out')).toBeNull();
    expect(button('Waive')).toBeNull();
    button('Agree to auto-resolve')!.click();
    flushSync();
    const question = text(card().querySelector('.confirm'));
    expect(question).toMatch(/^Agree to auto-resolve South Tyrrhenian Sea\? Once Carthage agrees too, the computer fights the battle/);
    expect(question).toContain('No odds have been estimated yet');
    expect(writes).toEqual([]);
    button('Agree')!.click();
    await vi.waitFor(() => expect(text(card().querySelector('.agreement'))).toBe('Rome has agreed to auto-resolve it; waiting for Carthage.'));
    expect(writes).toEqual([{ method: 'POST', url: seaUrl('agreement') }]);
    expect(button('Agree to auto-resolve')).toBeNull();
    button('Withdraw')!.click();
    await vi.waitFor(() => expect(card().querySelector('.agreement')).toBeNull());
    expect(writes.at(-1)).toEqual({ method: 'DELETE', url: seaUrl('agreement') });
    expect(button('Agree to auto-resolve')).not.toBeNull();
  });

  it('the last to agree sees the odds first and is told the computer fights at once; the answer shows the sea decided', async () => {
    viewer = { master: false, power: 'Carthage' };
    const odds = { battles: 1000, of: 1000, won: { rome: 350, carthage: 610 }, drawn: 40 };
    seas = [sty({ agreed: ['Rome'], odds })];
    answer = () =>
      json(200, sty({ agreed: ['Rome', 'Carthage'], odds, status: 'decided', outcome: { winner: 'Carthage' }, decidedBy: 'computer', battleId: id(8) }));
    render();
    expect(text(card().querySelector('.odds'))).toBe('1,000 of 1,000 battles: Rome 35 %, Carthage 61 %, drawn 4 %');
    expect(text(card().querySelector('.agreement'))).toBe('Rome has agreed to auto-resolve it; waiting for Carthage.');
    button('Agree to auto-resolve')!.click();
    flushSync();
    const question = text(card().querySelector('.confirm'));
    expect(question).toMatch(/Every other power here has agreed: the computer fights the battle for both sides at once/);
    expect(question).not.toContain('No odds');
    button('Agree')!.click();
    await vi.waitFor(() => expect(text(card().querySelector('.outcome'))).toBe('Carthage won by the computer.'));
    expect(text(card().querySelector('.agreement'))).toBe('Auto-resolved as Rome and Carthage agreed.');
    expect(button('Withdraw')).toBeNull();
    expect(button('Agree to auto-resolve')).toBeNull();
  });

  it('a player whose power does not fight there reads who agreed, with nothing to press', () => {
    viewer = { master: false, power: 'Egypt' };
    seas = [sty({ agreed: ['Carthage'] })];
    render();
    expect(text(card().querySelector('.agreement'))).toBe('Carthage has agreed to auto-resolve it; waiting for Rome.');
    expect(card().querySelectorAll('button').length).toBe(1); // the sea's name, to find it on the map
  });
});

describe("the game master's log", () => {
  const say = (action: string, details: Record<string, unknown>) => describeGmAction({ action, details }, (iso: string) => iso);
  it('says a battle abandoned and a sea auto-resolved by its sides in sentences', () => {
    expect(say('abandon-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea', battleId: 'b', actions: 7 })).toBe(
      'Abandoned the battle for Ionian Sea in phase 0 after 7 actions: nobody won it, and the sea is undecided again.',
    );
    expect(say('abandon-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea', battleId: 'b', actions: 0 })).toBe(
      'Abandoned the battle for Ionian Sea in phase 0 before its first move: nobody won it, and the sea is undecided again.',
    );
    expect(say('auto-resolve-sea', { phase: 0, sea: 'ION', seaName: 'Ionian Sea', battleId: 'b', agreedBy: ['Macedonia', 'Rome'] })).toBe(
      "As Macedonia and Rome agreed, the computer fought Ionian Sea in phase 0 out on the server's dice.",
    );
  });
});
