/**
 * The game master's tools of a game master who also plays a power (Rome), mounted on the game's real store with
 * a scripted server: the tools that need the other players' consent say they ask them and why, a 202 shows the
 * request with who answered and a Withdraw, other such tools wait meanwhile; no orders are entered for other
 * powers. And, for any game master: making an ended game's result final, how long a roll-back stays possible,
 * and inviting a successor.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushSync, mount, tick, unmount } from 'svelte';
import type { GmProposal } from '../../shared/api/index.ts';
import GmTools from '../../web/src/game/GmTools.svelte';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { localTime } from '../../web/src/game/logic.ts';
import { fixtureId as id, gameDetail, json, openPhase, POWERS, proposal } from './api-fixtures.ts';

const GAME = id(1);
const ZEUS = { id: id(9), username: 'zeus' };
const PHASES = ['Spring 240 BC Movement', 'Fall 240 BC Movement', 'Spring 239 BC Movement'];

/** What the scripted server holds, and what it was sent. */
let proposals: GmProposal[];
let sent: { method: string; path: string; body: unknown }[];
let answers: Record<string, (body: unknown) => Response>;

let target: HTMLElement;
let tools: ReturnType<typeof mount> | undefined;

beforeEach(() => {
  proposals = [];
  sent = [];
  answers = {};
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const url = new URL(path, 'http://localhost').pathname;
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    sent.push({ method, path: url, body });
    const scripted = answers[`${method} ${url}`];
    if (scripted) return scripted(body);
    if (url === `/api/games/${GAME}/gm/proposals`) return json(200, { proposals });
    return json(404, { error: { code: 'not_found', message: `no route ${method} ${url}` } });
  });
  target = document.createElement('div');
  document.body.appendChild(target);
});
afterEach(() => {
  if (tools) unmount(tools);
  tools = undefined;
  target.remove();
  vi.unstubAllGlobals();
});

/** Zeus runs the game, playing `mine` (null: playing none), in Spring 239 BC (or the game as given). */
function start(mine: string | null, fields: Parameters<typeof gameDetail>[1] = {}): GameRoom {
  const room = new GameRoom(gameDetail(mine, { gameMaster: ZEUS, gameMasterPlays: mine !== null, ...fields }), () => ZEUS.id);
  room.current = openPhase(2, PHASES[2]);
  room.phases = PHASES.map((name, index) => ({
    index,
    name,
    kind: 'movement',
    deadlineAt: null,
    status: index < 2 ? 'processed' : 'open',
    processedAt: null,
    engineVersion: null,
  }));
  tools = mount(GmTools, { target, props: { room } });
  flushSync();
  return room;
}

const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await tick();
    await new Promise((resolve) => setTimeout(resolve));
  }
  flushSync();
};
const button = (name: RegExp) => Array.from(target.querySelectorAll('button')).find((b) => name.test(b.textContent ?? ''));
async function click(el: Element | undefined) {
  expect(el, 'the button is there').toBeDefined();
  el!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  flushSync();
  await settle();
}
const confirmText = () => target.querySelector('[role="alertdialog"]')?.textContent?.trim() ?? null;
const describedBy = (el: Element | undefined) => document.getElementById(el?.getAttribute('aria-describedby') ?? '')?.textContent?.trim() ?? null;
const posts = () => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
function type(label: RegExp, value: string) {
  const input = Array.from(target.querySelectorAll<HTMLInputElement>('input[type="text"]')).find((i) => label.test(i.closest('label')?.textContent ?? ''))!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}

describe('a game master who also plays', () => {
  it('asks the other players to process now, saying why; the request shows who agreed and who is still to answer, until withdrawn', async () => {
    const room = start('Rome');
    expect(target.querySelector('.why')?.textContent).toMatch(
      /^You also play a power here, so the tools that could help your own power .* act only once every other player agrees\.$/,
    );
    expect(button(/^Process now…$/)).toBeUndefined();
    await click(button(/^Ask the other players to process now…$/));
    expect(confirmText()).toContain('Process Spring 239 BC Movement now?');
    expect(confirmText()).toContain('Nothing is done yet: Carthage, Egypt, Macedonia and Syria are asked, and it is done once all of them agree.');
    expect(confirmText()).not.toContain('will see it in the log');

    // The server puts it to the players: 202, nothing done.
    answers[`POST /api/games/${GAME}/gm/process`] = () => {
      proposals = [proposal()];
      return json(202, { proposal: proposal() });
    };
    await click(button(/^Ask them$/));
    expect(posts()).toEqual([`POST /api/games/${GAME}/gm/process`]);
    expect(target.textContent).toContain('Asked: Carthage, Egypt, Macedonia and Syria must all agree before it is done.');
    const request = () => target.querySelector('.request')?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
    expect(request()).toBe(
      'Your request to process Spring 239 BC Movement now waits for the players. Agreed: nobody yet. Still to answer: Carthage, Egypt, Macedonia and Syria. Withdraw the request',
    );

    // Egypt agrees: the live event brings the request as it stands.
    proposals = [proposal({ agreed: ['Egypt'] })];
    await room.onEvent({ type: 'gm.proposal', gameId: GAME, proposalId: id(7), action: 'process-now', status: 'open' });
    flushSync();
    expect(request()).toContain('Agreed: Egypt. Still to answer: Carthage, Macedonia and Syria.');

    // Meanwhile the other consent tools wait, and say so; the deadline (which acts at once) does not.
    for (const name of [/^Ask to roll back…$/, /^Ask to end the game…$/, /^Ask the other players to process now…$/]) {
      expect(button(name)!.disabled, String(name)).toBe(true);
      expect(describedBy(button(name)), String(name)).toBe(
        'Wait: your request to process Spring 239 BC Movement now is still before the players. Withdraw it, or let them answer, before asking another.',
      );
    }
    expect(button(/^Change the deadline…$/)!.disabled).toBe(false);

    answers[`DELETE /api/games/${GAME}/gm/proposals/${id(7)}`] = () => {
      proposals = [proposal({ agreed: ['Egypt'], status: 'withdrawn' })];
      return json(200, { proposal: proposals[0] });
    };
    await click(button(/^Withdraw the request$/));
    expect(posts().at(-1)).toBe(`DELETE /api/games/${GAME}/gm/proposals/${id(7)}`);
    expect(request()).toBeNull();
    expect(target.textContent).toContain('You withdrew your request to process Spring 239 BC Movement now.');
    expect(button(/^Ask to roll back…$/)!.disabled).toBe(false);
  });

  it('enters no orders for other powers, and says why; a game master who does not play does, and acts at once', async () => {
    start('Rome');
    expect(target.querySelector('textarea')).toBeNull();
    expect(button(/^Enter orders…$/)).toBeUndefined();
    expect(target.querySelector('#gm-no-orders')?.textContent).toBe(
      "You play Rome in this game, so you enter no orders for other powers: each power's orders are its own player's.",
    );
    unmount(tools!);
    tools = undefined;
    target.replaceChildren();

    start(null);
    expect(target.querySelector('.why')).toBeNull();
    // The order tool is offered (its entry opens once a power is chosen).
    expect(button(/^Enter orders…$/)).toBeDefined();
    await click(button(/^Process now…$/));
    expect(confirmText()).toContain('nobody has missed the deadline. The players will see it in the log.');
    expect(button(/^Confirm$/)).toBeDefined();
  });
});

describe('a game that has ended', () => {
  const finalAt = '2026-12-24T18:00:00.000Z';
  const ended = (finalAtIs: string) => ({
    status: 'finished' as const,
    anonymous: true,
    outcome: { kind: 'draw' as const, powers: POWERS },
    finishedAt: '2026-11-20T00:00:00.000Z',
    finalAt: finalAtIs,
  });

  it('offers to make its result final, saying what that publishes and that the game can then not be re-opened; the roll-back says until when', async () => {
    vi.useFakeTimers({ now: new Date('2026-12-24T00:00:00.000Z'), toFake: ['Date'] });
    start(null, ended(finalAt));
    expect(describedBy(button(/^Roll back…$/))).toBe(`Possible until ${localTime(finalAt)}, when the result becomes final.`);
    await click(button(/^Make the result final now…$/));
    expect(confirmText()).toContain(
      `Make the result final now? The private messages between powers and the players' names are published, and the game can then no longer be re-opened (otherwise it becomes final ${localTime(finalAt)}).`,
    );
    answers[`POST /api/games/${GAME}/gm/finalize`] = () =>
      json(200, {
        action: { id: id(8), action: 'finalize', actor: ZEUS, details: { outcome: { kind: 'draw', powers: POWERS } }, at: '2026-12-24T00:00:00.000Z' },
      });
    await click(button(/^Confirm$/));
    expect(posts()).toEqual([`POST /api/games/${GAME}/gm/finalize`]);
    expect(target.textContent).toContain('Done: Made the result final');
    vi.useRealTimers();
  });

  it('once final, offers neither to make it final nor to roll back', () => {
    vi.useFakeTimers({ now: new Date('2026-12-25T00:00:00.000Z'), toFake: ['Date'] });
    start(null, ended(finalAt));
    expect(target.textContent).toContain('The game has ended, and its result is final: it can no longer be re-opened.');
    expect(button(/final now/)).toBeUndefined();
    expect(button(/Roll back/)).toBeUndefined();
    vi.useRealTimers();
  });

  it('asks the other players to make it final, when the game master plays', async () => {
    vi.useFakeTimers({ now: new Date('2026-12-24T00:00:00.000Z'), toFake: ['Date'] });
    start('Rome', ended(finalAt));
    expect(button(/^Ask to make the result final now…$/)).toBeDefined();
    expect(button(/^Ask to roll back…$/)).toBeDefined();
    vi.useRealTimers();
  });
});

describe('inviting a successor', () => {
  const profile = {
    user: { id: id(5), username: 'Ptolemy' },
    memberSince: '2026-01-01T00:00:00.000Z',
    games: [],
    totals: { playing: 0, finished: 0, won: 0, drawn: 0, lost: 0, eliminated: 0, replaced: 0 },
    reliability: { phases: 0, missed: 0 },
  };

  it('looks the user up, asks first, and sends the invitation', async () => {
    answers['GET /api/users/ptolemy'] = () => json(200, profile);
    answers[`POST /api/games/${GAME}/gm/invite`] = () =>
      json(200, {
        action: { id: id(8), action: 'invite-game-master', actor: ZEUS, details: { users: { invited: 'Ptolemy' } }, at: '2026-11-24T10:00:00.000Z' },
      });
    start(null);
    type(/Hand the game to another game master/, 'ptolemy');
    await click(button(/^Invite as game master…$/));
    expect(confirmText()).toContain('Ask Ptolemy to take over as game master? They become it only by accepting; until then you remain the game master.');
    await click(button(/^Confirm$/));
    expect(sent.filter((r) => r.method === 'POST')).toEqual([{ method: 'POST', path: `/api/games/${GAME}/gm/invite`, body: { username: 'ptolemy' } }]);
    expect(target.textContent).toContain('Done: Asked Ptolemy to take over as game master. The log below records it.');
  });

  it('says at once that nobody has that name, or that it is the game master, and asks nothing', async () => {
    answers['GET /api/users/nobody'] = () => json(404, { error: { code: 'not_found', message: 'no player is called "nobody"' } });
    answers['GET /api/users/zeus'] = () => json(200, { ...profile, user: ZEUS });
    start(null);
    type(/Hand the game to another game master/, 'nobody');
    await click(button(/^Invite as game master…$/));
    expect(confirmText()).toBeNull();
    expect(target.querySelector('.answer')?.textContent).toBe('There is no player called “nobody”.');
    type(/Hand the game to another game master/, 'zeus');
    await click(button(/^Invite as game master…$/));
    expect(target.querySelector('.answer')?.textContent).toBe('zeus is the game master already.');
    expect(posts()).toEqual([]);
  });

  it('shows the invitation waiting for its answer, with Withdraw; a game master who plays asks the players to invite', async () => {
    answers[`DELETE /api/games/${GAME}/gm/invitation`] = () => new Response(null, { status: 204 });
    start('Rome', { invitedGameMaster: { id: id(5), username: 'Ptolemy' } });
    expect(target.querySelector('.invitation')?.textContent).toContain('Waiting for Ptolemy to accept running this game');
    expect(button(/^Ask to invite as game master…$/)).toBeDefined();
    await click(button(/^Withdraw the invitation$/));
    expect(posts()).toEqual([`DELETE /api/games/${GAME}/gm/invitation`]);
  });
});
