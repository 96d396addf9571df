/**
 * The votes on the clock beside the draw votes, mounted on a scripted game where Egypt is mine: proposing an
 * extension sends its length in seconds, an open vote shows who agrees and who disagrees and takes my ballot once,
 * and a sitter's page says whom they sit for.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import type { ClockVote, ClockVotes as Votes } from '../../shared/api/clock-votes.ts';
import ClockVotes from '../../web/src/game/ClockVotes.svelte';
import { describeGmAction } from '../../web/src/game/gm-words.ts';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { fixtureId as id, gameDetail, json, POWERS } from './api-fixtures.ts';

const GAME = id(1);
const VOTE = id(7);

let state: Votes;
let sent: { method: string; url: string; body: unknown }[];
let target: HTMLElement;
let panel: ReturnType<typeof mount>;

const openVote = (ballots: ClockVote['ballots']): ClockVote => ({
  id: VOTE,
  kind: 'extend',
  extendSeconds: 6 * 3600,
  phaseIndex: 0,
  proposedBy: 'Rome',
  status: 'open',
  createdAt: new Date().toISOString(),
  closesAt: new Date(Date.now() + 5 * 3600_000).toISOString(),
  decidedAt: null,
  reason: null,
  ballots,
});

beforeEach(() => {
  sent = [];
  state = { rule: 'unanimous', voters: POWERS, needed: 5, open: null, recent: [], yourPower: 'Egypt' };
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost').pathname;
    const method = init?.method ?? 'GET';
    if (url.startsWith(`/api/games/${GAME}/clock-votes`)) {
      if (method !== 'GET') sent.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (method === 'POST' && url.endsWith('/ballot') && state.open)
        state = { ...state, open: { ...state.open, ballots: [...state.open.ballots, { power: 'Egypt', agree: false, user: null }] } };
      else if (method === 'POST') state = { ...state, open: openVote([{ power: 'Egypt', agree: true, user: null }]) };
      return json(method === 'POST' && !url.endsWith('/ballot') ? 201 : 200, state);
    }
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

async function open() {
  const room = new GameRoom(gameDetail('Egypt'), () => id(2));
  await room.clockVotes.load();
  panel = mount(ClockVotes, { target, props: { room } });
  flushSync();
}
const button = (name: string) => Array.from(target.querySelectorAll('button')).find((b) => b.textContent?.trim() === name);

describe('votes on the clock', () => {
  it('proposes an extension in hours, sent in seconds, and then shows it open', async () => {
    await open();
    expect(target.textContent!.replace(/\s+/g, ' ')).toContain('A vote passes when every voting power agrees (5 of 5) within a day');
    const hours = target.querySelector<HTMLInputElement>('input[type="number"]')!;
    hours.value = '12';
    hours.dispatchEvent(new Event('input', { bubbles: true }));
    target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await vi.waitFor(() => expect(target.querySelector('#clock-vote-open')).not.toBeNull());
    expect(sent).toEqual([{ method: 'POST', url: `/api/games/${GAME}/clock-votes`, body: { kind: 'extend', extendSeconds: 43200 } }]);
  });

  it('shows who agrees and who disagrees, and takes my ballot once', async () => {
    state = { ...state, open: openVote([{ power: 'Rome', agree: true, user: { id: id(9), username: 'caesar' } }]) };
    await open();
    const shown = target.querySelector('#clock-vote-open')!.textContent!;
    expect(shown).toContain('Rome proposes to extend the deadline by 6 hours.');
    expect(shown).toContain('Agree: Rome (caesar). Disagree: nobody.');
    button('Disagree')!.click();
    await vi.waitFor(() => expect(target.textContent).toContain('You disagree.'));
    expect(button('Agree')).toBeUndefined();
    expect(sent).toEqual([{ method: 'POST', url: `/api/games/${GAME}/clock-votes/${VOTE}/ballot`, body: { agree: false } }]);
  });

  it('offers nothing to one who does not vote', async () => {
    state = { ...state, yourPower: null, open: openVote([{ power: 'Rome', agree: true, user: null }]) };
    await open();
    expect(button('Agree')).toBeUndefined();
    expect(target.querySelector('form')).toBeNull();
  });
});

describe('a sitter', () => {
  it("acts for the power sat for: the room's power is it", () => {
    const until = new Date(Date.now() + 86400_000).toISOString();
    const room = new GameRoom(gameDetail(null, { sittingFor: { power: 'Syria', until } }), () => id(2));
    expect(room.myPower).toBe('Syria');
    expect(new GameRoom(gameDetail(null), () => id(2)).myPower).toBeNull();
  });
});

describe("the game master's log", () => {
  const at = (iso: string) => iso.slice(0, 10);
  it('says who sits for which power, and what became of a vote', () => {
    expect(describeGmAction({ action: 'sitter', details: { power: 'Syria', until: '2026-12-24T12:00:00.000Z', users: { sitter: 'ann' } } }, at)).toBe(
      'ann sits for Syria while its player is away, until 2026-12-24.',
    );
    // Names hidden (an anonymous game): the sitter is not named.
    expect(describeGmAction({ action: 'sitter', details: { power: 'Syria' } }, at)).toBe('A sitter sits for Syria while its player is away.');
    const vote = { kind: 'extend', extendSeconds: 7200, proposedBy: 'Rome' };
    expect(describeGmAction({ action: 'clock-vote', details: { ...vote, event: 'proposed' } }, at)).toBe(
      'Rome proposed to extend the deadline by 2 hours; the players vote.',
    );
    expect(describeGmAction({ action: 'clock-vote', details: { kind: 'pause', proposedBy: 'Rome', event: 'passed' } }, at)).toBe(
      "The players voted to pause the clock (Rome's proposal).",
    );
    expect(describeGmAction({ action: 'clock-vote', details: { ...vote, event: 'failed', reason: 'time ran out' } }, at)).toBe(
      'The vote to extend the deadline by 2 hours failed: time ran out.',
    );
  });
});
