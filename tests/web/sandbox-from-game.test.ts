/**
 * The sandbox opened on a game's position: /sandbox?game=<id>&phase=<index> reads that phase from the server
 * and starts there, saying where it came from, and asks first when that would replace work in the sandbox.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { router } from '../../web/src/lib/router.svelte.ts';
import { sandboxPageEachTest } from './sandbox-dom.ts';
import { adjustment } from './positions.ts';
import { json } from './api-fixtures.ts';

const { $, click, button, text, pageText } = sandboxPageEachTest();

const GAME = '019a0000-0000-7000-8000-000000000004';
let asked: string[] = [];

beforeEach(() => {
  asked = [];
  vi.stubGlobal('fetch', async (path: string) => {
    asked.push(path);
    if (path === `/api/games/${GAME}/phases/3`)
      return json(200, { index: 3, name: 'Winter 240 BC Adjustment', kind: 'adjustment', state: adjustment, stateBefore: adjustment });
    if (path === `/api/games/${GAME}`)
      return json(200, {
        id: GAME,
        name: 'Wars of the Successors',
        rules: '1971',
        players: ['Carthage', 'Rome'].map((power) => ({ power, isYou: power === 'Rome' })),
      });
    return json(404, { error: { code: 'not_found', message: 'no phase 9 in this game' } });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  router.go('/', true);
});

/** Follows a link to the sandbox (the page is already mounted, as after a click in the app). */
async function open(href: string) {
  router.go(href, true);
  flushSync();
  await vi.waitFor(() => expect(router.search).toBe(''));
  flushSync();
}

describe('the sandbox on a game’s position', () => {
  it('starts from the phase’s position, says which game and phase, and leaves the link', async () => {
    await open(`/sandbox?game=${GAME}&phase=3`);
    expect(asked).toContain(`/api/games/${GAME}/phases/3`);
    expect($('h1')!.textContent).toBe('Winter 240 BC Adjustment');
    expect($('.origin')!.textContent!.replace(/\s+/g, ' ').trim()).toBe('Started from “Wars of the Successors”, at Winter 240 BC Adjustment.');
    expect($('.origin a')!.getAttribute('href')).toBe(`/games/${GAME}`);
    // The URL is the sandbox's own again: a reload keeps the sandbox rather than reading the game again.
    expect(location.pathname + location.search).toBe('/sandbox');
    // The player plays Rome in that game: Rome's orders come first.
    expect(pageText()).toContain('Rome may build 3 units.');
    // The game is played under the 1971 rulebook: so is the sandbox now.
    expect($<HTMLSelectElement>('.rules select')!.value).toBe('1971');
  });

  it('asks before replacing orders written in the sandbox, and keeps them when told no', async () => {
    // The router's leave guard cannot tell a link to the sandbox itself from one away (it is not told where to):
    // with orders not adjudicated it asks too, and is answered yes here; the question asked of the sandbox is the one tested.
    let replace = false;
    const confirm = vi.fn((question: string) => (/Leave anyway/.test(question) ? true : replace));
    vi.stubGlobal('confirm', confirm);
    const replaceQuestions = () => confirm.mock.calls.map(([q]) => q).filter((q) => !/Leave anyway/.test(q));
    click($('g.unit[data-unit="Rav"]'));
    click(button(/Hold/));
    await open(`/sandbox?game=${GAME}&phase=3`);
    expect(replaceQuestions()).toEqual([expect.stringContaining('Winter 240 BC Adjustment of “Wars of the Successors”')]);
    expect($('h1')!.textContent).toBe('Spring 240 BC Movement');
    expect(text()).toBe('A Rav H');
    expect($('.origin')).toBeNull();

    replace = true;
    await open(`/sandbox?game=${GAME}&phase=3`);
    expect(replaceQuestions()).toHaveLength(2);
    expect($('h1')!.textContent).toBe('Winter 240 BC Adjustment');
  });

  it('says so when the phase cannot be read', async () => {
    router.go(`/sandbox?game=${GAME}&phase=9`, true);
    flushSync();
    await vi.waitFor(() => expect($('[role="alert"]')?.textContent).toMatch(/could not be read: no phase 9 in this game/));
    expect($('h1')!.textContent).toBe('Spring 240 BC Movement');
  });
});
