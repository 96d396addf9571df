/**
 * The game page's store (GameRoom) against a scripted server whose answers
 * have the API's shapes: what a player sees when the game master hands their
 * seat to someone else, enters orders for their power, moves the clock, or
 * re-opens a game that had ended.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GameDetail, OrderSubmission, PhaseDetail } from '../../shared/api/index.ts';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { localTime } from '../../web/src/game/logic.ts';
import { start } from './positions.ts';
import { fixtureId, gameDetail, json, POWERS } from './api-fixtures.ts';

const id = fixtureId;
const GAME = id(1);
const ME = { id: id(2), username: 'egypt' };

/** What the scripted server holds: who sits where, and Egypt's saved orders. */
let seatOfMe: string | null;
let saved: OrderSubmission | null;
/** The game ended in a draw (until the game master re-opens it). */
let ended: boolean;
/** The open phase: 0 (Spring 240 BC), 1 (Fall 240 BC) or 2 (Spring 239 BC); the ones before it are processed. */
let openIndex: number;
/** The press the server holds. */
let press: unknown[];
const phaseNames = ['Spring 240 BC Movement', 'Fall 240 BC Movement', 'Spring 239 BC Movement'];

function game(): GameDetail {
  return gameDetail(seatOfMe, {
    currentPhase: { index: openIndex, name: phaseNames[openIndex], kind: 'movement', deadlineAt: '2026-12-01T00:00:00.000Z' },
    ...(ended ? { status: 'finished', outcome: { kind: 'draw', powers: POWERS } } : {}),
  });
}

function phase(index = openIndex): PhaseDetail {
  const processed = index < openIndex;
  return {
    index,
    name: phaseNames[index],
    kind: 'movement',
    deadlineAt: '2026-12-01T00:00:00.000Z',
    status: 'open',
    processedAt: null,
    engineVersion: null,
    paused: false,
    stateBefore: start,
    loanActions: [],
    state: start,
    supply: [],
    powers: POWERS.map((power) => ({
      power,
      mustOrder: true,
      submitted: power === 'Egypt' && saved !== null,
      ready: false,
      playerStatus: 'active',
      missedDeadlines: 0,
    })),
    orders: null,
    results: null,
    events: null,
    disbanded: null,
    stateAfter: null,
    seas: [],
    ...(processed
      ? { status: 'processed', processedAt: '2026-11-24T12:00:00.000Z', results: [], orders: [], events: [], disbanded: [], stateAfter: start }
      : {}),
  } as unknown as PhaseDetail;
}

const submission = (text: string, byGameMaster: boolean): OrderSubmission => ({
  id: id(byGameMaster ? 7 : 6),
  phaseIndex: 0,
  power: 'Egypt',
  text,
  orders: [],
  ready: false,
  byGameMaster,
  submittedAt: '2026-11-24T10:00:00.000Z',
});

beforeEach(() => {
  seatOfMe = 'Egypt';
  saved = submission('F Alx H', false);
  ended = false;
  openIndex = 0;
  press = [];
  localStorage.clear();
  vi.stubGlobal('fetch', async (path: string) => {
    const url = new URL(path, 'http://localhost').pathname;
    if (url === `/api/games/${GAME}`) return json(200, game());
    if (url === `/api/games/${GAME}/phases/current`) return json(200, phase());
    const indexed = new RegExp(`^/api/games/${GAME}/phases/(\\d+)$`).exec(url);
    if (indexed && Number(indexed[1]) <= openIndex) return json(200, phase(Number(indexed[1])));
    if (url === `/api/games/${GAME}/phases/${openIndex}/orders`) {
      if (!seatOfMe) return json(403, { error: { code: 'forbidden', message: 'you play no power in this game' } });
      return json(200, {
        phase: { index: openIndex, name: phaseNames[openIndex], kind: 'movement', deadlineAt: null },
        power: seatOfMe,
        mustOrder: true,
        current: saved,
        history: saved ? [saved] : [],
      });
    }
    if (url === `/api/games/${GAME}/phases`) return json(200, { phases: [] });
    if (url === `/api/games/${GAME}/press`) return json(200, { messages: press, nextCursor: null });
    if (url === `/api/games/${GAME}/loans`) return json(200, { loans: [] });
    if (url === `/api/games/${GAME}/votes`) return json(200, { votes: [], required: 5 });
    if (url === `/api/games/${GAME}/gm/log`) return json(200, { actions: [] });
    return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
  });
});
afterEach(() => vi.unstubAllGlobals());

async function opened(): Promise<GameRoom> {
  const room = new GameRoom(game(), () => ME.id);
  await room.load();
  expect(room.entry?.text).toBe('F Alx H');
  return room;
}

describe('the game page when the game master acts on my seat', () => {
  it('a player whose seat is handed to another loses the order box, is told, and has nothing unsaved to leave', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY', 'Egypt');
    expect(room.dirty).toBe(true);
    seatOfMe = null;
    await room.onEvent({ type: 'player.status', gameId: GAME, power: 'Egypt', status: 'active', missedDeadlines: 0, replaced: true });
    expect(room.myPower).toBeNull();
    expect(room.entry).toBeNull();
    expect(room.dirty).toBe(false);
    expect(room.notices.map((n) => n.text)).toContainEqual(expect.stringMatching(/gave Egypt's seat to another player: you no longer play/));
  });

  it('orders the game master enters replace a box without edits, and say who entered them', async () => {
    const room = await opened();
    saved = submission('F Alx H\nA Pto - Sin', true);
    await room.onEvent({ type: 'orders.status', gameId: GAME, phaseIndex: 0, power: 'Egypt', submitted: true, ready: false });
    expect(room.entry?.text).toBe('F Alx H\nA Pto - Sin');
    expect(room.dirty).toBe(false);
    expect(room.draftRestored).toBe(false);
    expect(room.notices.map((n) => n.text)).toContainEqual(expect.stringMatching(/^The game master entered orders for Egypt: they are shown here/));
  });

  it('orders the game master enters leave unsaved edits in the box, and say so', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY', 'Egypt');
    saved = submission('A Pto - Sin', true);
    await room.onEvent({ type: 'orders.status', gameId: GAME, phaseIndex: 0, power: 'Egypt', submitted: true, ready: false });
    expect(room.entry?.text).toBe('F Alx - EGY');
    expect(room.saved?.text).toBe('A Pto - Sin');
    expect(room.notices.map((n) => n.text)).toContainEqual(expect.stringMatching(/Your unsaved changes here are kept/));
  });
});

describe('the clock, as the game master pauses it, moves the deadline and resumes it', () => {
  it('says paused once, then the new deadline with the clock still paused, then resumed', async () => {
    const room = await opened();
    const said = () => room.notices.map((n) => n.text);
    const deadline = (deadlineAt: string, paused: boolean) => room.onEvent({ type: 'deadline.changed', gameId: GAME, phaseIndex: 0, deadlineAt, paused });
    await deadline('2026-12-01T00:00:00.000Z', true);
    expect(said().at(-1)).toBe('The game master paused the clock.');
    await deadline('2026-12-02T18:00:00.000Z', true);
    expect(said().at(-1)).toMatch(/^The deadline is now .*; the clock is still paused/);
    await deadline('2026-12-02T18:00:05.000Z', false);
    expect(said().at(-1)).toMatch(/^The game master resumed the clock: orders are now due /);
    await deadline('2026-12-03T18:00:05.000Z', false);
    expect(said().at(-1)).toMatch(/^The deadline changed: orders are now due /);
    // Each word on the deadline replaced the one before: one notice, the latest.
    expect(said()).toHaveLength(1);
  });

  it('forgets what it said about a deadline once that phase is over', async () => {
    const room = await opened();
    await room.onEvent({ type: 'deadline.changed', gameId: GAME, phaseIndex: 0, deadlineAt: '2026-12-02T18:00:00.000Z', paused: false });
    expect(room.notices).toHaveLength(1);
    openIndex = 1;
    await room.onEvent({
      type: 'phase.processed',
      gameId: GAME,
      phase: { index: 0, name: phaseNames[0], kind: 'movement', deadlineAt: null },
      next: { index: 1, name: phaseNames[1], kind: 'movement', deadlineAt: '2026-12-05T00:00:00.000Z' },
    });
    expect(room.notices.map((n) => n.text).join(' ')).not.toMatch(/deadline|due/i);
  });
});

describe('a window left on the results', () => {
  it('shows the results of each phase as it is processed, and offers the orders of the phase open now', async () => {
    const room = await opened();
    const processed = (index: number) =>
      room.onEvent({
        type: 'phase.processed',
        gameId: GAME,
        phase: { index, name: phaseNames[index], kind: 'movement', deadlineAt: null },
        next: { index: index + 1, name: phaseNames[index + 1], kind: 'movement', deadlineAt: '2026-12-05T00:00:00.000Z' },
      });
    openIndex = 1;
    await processed(0);
    expect([room.shownIndex, room.justProcessed]).toEqual([0, 0]);
    openIndex = 2;
    await processed(1);
    expect([room.shownIndex, room.justProcessed, room.open?.index]).toEqual([1, 1, 2]);
  });

  it('shows the results to the game master who processed the phase, whose tools reload the phase before the event comes', async () => {
    const room = await opened();
    openIndex = 1;
    await room.loadCurrent();
    await room.onEvent({
      type: 'phase.processed',
      gameId: GAME,
      phase: { index: 0, name: phaseNames[0], kind: 'movement', deadlineAt: null },
      next: { index: 1, name: phaseNames[1], kind: 'movement', deadlineAt: null },
    });
    expect([room.shownIndex, room.justProcessed, room.open?.index]).toEqual([0, 0, 1]);
  });

  it('stays on a phase of the history that the player chose', async () => {
    openIndex = 1;
    const room = await opened();
    await room.view(0);
    openIndex = 2;
    await room.onEvent({
      type: 'phase.processed',
      gameId: GAME,
      phase: { index: 1, name: phaseNames[1], kind: 'movement', deadlineAt: null },
      next: { index: 2, name: phaseNames[2], kind: 'movement', deadlineAt: null },
    });
    expect(room.shownIndex).toBe(0);
    expect(room.notices.map((n) => n.text)).toContain('Fall 240 BC Movement was processed: Spring 239 BC Movement is open for orders.');
  });
});

describe('a roll-back by the game master', () => {
  it('tells the players what happened: the phase re-opened, later phases discarded, draw votes cleared', async () => {
    openIndex = 1;
    const room = await opened();
    await room.onEvent({ type: 'deadline.changed', gameId: GAME, phaseIndex: 1, deadlineAt: '2026-12-02T18:00:00.000Z', paused: false });
    openIndex = 0;
    await room.onEvent({
      type: 'phase.started',
      gameId: GAME,
      phase: { index: 0, name: phaseNames[0], kind: 'movement', deadlineAt: '2026-12-01T00:00:00.000Z' },
    });
    expect(room.open?.index).toBe(0);
    expect(room.notices.map((n) => n.text)).toEqual([
      `The game master rolled the game back to Spring 240 BC Movement: the phases after it were discarded, and any draw votes cleared. Orders are due ${localTime('2026-12-01T00:00:00.000Z')}.`,
    ]);
    // The re-opened phase's deadline follows (as the server sends it): the notice gave it already.
    await room.onEvent({ type: 'deadline.changed', gameId: GAME, phaseIndex: 0, deadlineAt: '2026-12-01T00:00:00.000Z', paused: false });
    expect(room.notices).toHaveLength(1);
    // A later change of it is news.
    await room.onEvent({ type: 'deadline.changed', gameId: GAME, phaseIndex: 0, deadlineAt: '2026-12-03T00:00:00.000Z', paused: false });
    expect(room.notices.map((n) => n.text)).toContain(`The deadline changed: orders are now due ${localTime('2026-12-03T00:00:00.000Z')}.`);
  });
});

describe('a game that has ended', () => {
  it('goes on for a player watching when the game master re-opens it where it ended: the order box is back, and the player is told', async () => {
    ended = true;
    const room = new GameRoom(game(), () => ME.id);
    await room.load();
    expect(room.finished).toBe(true);
    expect(room.open).toBeNull();
    expect(room.entry).toBeNull();

    ended = false;
    await room.onEvent({
      type: 'phase.started',
      gameId: GAME,
      phase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: '2026-12-01T00:00:00.000Z' },
    });
    expect(room.finished).toBe(false);
    expect(room.open?.index).toBe(0);
    expect(room.entry?.text).toBe('F Alx H');
    expect(room.notices.map((n) => n.text)).toContain(
      `The game master re-opened the game at Spring 240 BC Movement: it goes on. Orders are due ${localTime('2026-12-01T00:00:00.000Z')}.`,
    );
  });
});

describe('Ready with unsaved orders', () => {
  it('when the phase is processed before the answer to the save Ready made, the player is not told the orders went unused', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY', 'Egypt');
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const server = globalThis.fetch as (path: string, init?: RequestInit) => Promise<Response>;
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
      if (init.method === 'PUT' && new URL(path, 'http://localhost').pathname === `/api/games/${GAME}/phases/0/orders`) {
        await answered;
        saved = { ...submission('F Alx - EGY', false), ready: true };
        return json(200, { submission: saved, checked: [], phaseProcessed: true });
      }
      return server(path, init);
    });
    const readying = room.setReady(true);
    // Everyone else was ready: the server processes the phase, and the websocket says so before the HTTP answer.
    const told = room.onEvent({
      type: 'phase.processed',
      gameId: GAME,
      phase: { index: 0, name: 'Spring 240 BC Movement', kind: 'movement', deadlineAt: null },
      next: { index: 1, name: 'Fall 240 BC Movement', kind: 'movement', deadlineAt: null },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    answer();
    await Promise.all([readying, told]);
    expect(room.notices.map((n) => n.text)).not.toContainEqual(expect.stringMatching(/not used/));
  });
});

describe('unsaved changes as the deadline nears', () => {
  const deadline = new Date('2026-12-01T00:00:00.000Z').getTime();
  let puts: string[];
  beforeEach(() => {
    puts = [];
    const server = globalThis.fetch as (path: string, init?: RequestInit) => Promise<Response>;
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
      if (init.method === 'PUT' && new URL(path, 'http://localhost').pathname === `/api/games/${GAME}/phases/0/orders`) {
        const { orders, ready } = JSON.parse(String(init.body)) as { orders: string; ready: boolean };
        puts.push(orders);
        saved = { ...submission(orders, false), ready };
        return json(200, { submission: saved, checked: [], phaseProcessed: false });
      }
      return server(path, init);
    });
  });
  const said = (room: GameRoom) => room.notices.map((n) => n.text);

  it('warns once ten minutes before, then saves them a minute before and says so', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY', 'Egypt');
    room.guardDeadline(deadline - 11 * 60_000);
    expect(said(room)).toEqual([]);
    room.guardDeadline(deadline - 9 * 60_000);
    room.guardDeadline(deadline - 8 * 60_000);
    expect(said(room)).toEqual([
      'Orders are due in 9 minutes and your changes are not saved. Save them: a minute before the deadline they are saved for you, if every line is accepted.',
    ]);
    room.guardDeadline(deadline - 50_000);
    await vi.waitFor(() => expect(said(room)).toContain('A minute before the deadline, your unsaved changes were saved for you.'));
    expect(puts).toEqual(['F Alx - EGY']);
    expect(room.dirty).toBe(false);
    room.guardDeadline(deadline - 40_000);
    expect(puts).toHaveLength(1);
  });

  it('does not save changes over orders saved from another window since, and offers to discard them', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY', 'Egypt');
    // Another window saves other orders, and ticks Ready.
    saved = { ...submission('F Alx H\nA Pto H', false), id: id(8), ready: true };
    await room.onEvent({ type: 'orders.status', gameId: GAME, phaseIndex: 0, power: 'Egypt', submitted: true, ready: true });
    expect(room.entry?.text).toBe('F Alx - EGY');
    room.guardDeadline(deadline - 9 * 60_000);
    room.guardDeadline(deadline - 50_000);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(puts).toEqual([]);
    expect(said(room).at(-1)).toBe(
      "Orders are due in 1 minute, and your changes here are not saved for you: Egypt's orders were saved from another window after you began them. Save them to replace those orders.",
    );
    const offer = room.notices.find((n) => n.action)!;
    expect(offer.text).toMatch(/^Egypt's orders were saved from another window\. Your unsaved changes here are kept/);
    expect(offer.action!.label).toBe('Discard my changes');
    offer.action!.run();
    expect(room.entry?.text).toBe('F Alx H\nA Pto H');
    // The warnings were about the changes: they go with them.
    expect(said(room)).toEqual([]);
  });

  it('says Ready was withdrawn by an edit, and takes it back once Ready is ticked again', async () => {
    const server = globalThis.fetch as (path: string, init?: RequestInit) => Promise<Response>;
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
      if (new URL(path, 'http://localhost').pathname === `/api/games/${GAME}/phases/0/ready`) {
        const { ready } = JSON.parse(String(init.body)) as { ready: boolean };
        return json(200, { ready, phaseProcessed: false });
      }
      return server(path, init);
    });
    const room = await opened();
    await room.onEvent({ type: 'orders.status', gameId: GAME, phaseIndex: 0, power: 'Egypt', submitted: true, ready: true });
    room.entry!.setText('F Alx - EGY', 'Egypt');
    room.keepDraft();
    await vi.waitFor(() => expect(said(room)).toEqual(['You are changing your orders, so you are no longer ready. Save them, or tick Ready again when done.']));
    await room.setReady(true);
    expect(room.myStatus?.ready).toBe(true);
    expect(said(room)).toEqual([]);
  });

  it('names the game master, mid-sentence, when it was the game master who entered orders over the changes', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY', 'Egypt');
    saved = submission('A Pto - Sin', true);
    await room.onEvent({ type: 'orders.status', gameId: GAME, phaseIndex: 0, power: 'Egypt', submitted: true, ready: false });
    room.guardDeadline(deadline - 9 * 60_000);
    expect(said(room).at(-1)).toBe(
      'Orders are due in 9 minutes, and your changes here are not saved for you: the game master entered orders for Egypt after you began them. Save them to replace those orders, or discard them.',
    );
  });

  it('saves the changes without the Ready that another window ticked on its own orders', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY', 'Egypt');
    saved = { ...submission('F Alx H\nA Pto H', false), id: id(8), ready: true };
    await room.onEvent({ type: 'orders.status', gameId: GAME, phaseIndex: 0, power: 'Egypt', submitted: true, ready: true });
    expect(room.myStatus?.ready).toBe(true);
    const sent: unknown[] = [];
    const server = globalThis.fetch as (path: string, init?: RequestInit) => Promise<Response>;
    vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
      if (init.method === 'PUT') sent.push(JSON.parse(String(init.body)));
      return server(path, init);
    });
    expect(await room.submit()).toBe(true);
    expect(sent).toEqual([{ orders: 'F Alx - EGY', ready: false }]);
    expect(room.myStatus?.ready).toBe(false);
  });

  it('takes a warning back once the changes are saved', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY', 'Egypt');
    room.guardDeadline(deadline - 9 * 60_000);
    expect(said(room)).toHaveLength(1);
    expect(await room.submit()).toBe(true);
    expect(said(room)).toEqual([]);
  });

  it('does not save a line the engine refuses, and says what to do', async () => {
    const room = await opened();
    room.entry!.setText('F Alx - EGY\nnonsense', 'Egypt');
    room.guardDeadline(deadline - 30_000);
    expect(puts).toEqual([]);
    expect(said(room)).toEqual(['Orders are due in 1 minute and your changes are not saved: 1 line would be refused. Correct or delete it, then save.']);
  });

  it('leaves saved orders, and a paused clock, alone', async () => {
    const room = await opened();
    room.guardDeadline(deadline - 30_000);
    room.entry!.setText('F Alx - EGY', 'Egypt');
    await room.onEvent({ type: 'deadline.changed', gameId: GAME, phaseIndex: 0, deadlineAt: '2026-12-01T00:00:00.000Z', paused: true });
    room.guardDeadline(deadline - 30_000);
    expect(puts).toEqual([]);
    expect(said(room).join(' ')).not.toMatch(/unsaved|not saved/);
  });
});

describe('a loan to or from my power', () => {
  const loan = (action: 'lend' | 'end', centre: string, lender: string, borrower: string, by: string | null) =>
    ({ type: 'loan.changed', gameId: GAME, action, centre, lender, borrower, by }) as const;

  it('is told to the borrower when made and when ended, and not to others', async () => {
    const room = await opened();
    await room.onEvent(loan('lend', 'Cre', 'Macedonia', 'Egypt', 'Macedonia'));
    await room.onEvent(loan('lend', 'Sic', 'Rome', 'Carthage', 'Rome'));
    await room.onEvent(loan('end', 'Cre', 'Macedonia', 'Egypt', 'Macedonia'));
    await room.onEvent(loan('end', 'Sic', 'Rome', 'Carthage', 'Carthage'));
    expect(room.notices.map((n) => n.text)).toEqual([
      'Macedonia lent you Crete: it supports one of your units while the loan lasts.',
      'Macedonia ended its loan of Crete to you: your units need other support by the next adjustment.',
    ]);
  });

  it('tells the lender when the borrower or the adjustment ends it, and nobody what they did themselves', async () => {
    const room = await opened();
    await room.onEvent(loan('lend', 'Alx', 'Egypt', 'Syria', 'Egypt'));
    await room.onEvent(loan('end', 'Alx', 'Egypt', 'Syria', 'Egypt'));
    expect(room.notices).toEqual([]);
    await room.onEvent(loan('end', 'Alx', 'Egypt', 'Syria', 'Syria'));
    await room.onEvent(loan('end', 'Cyp', 'Egypt', 'Rome', null));
    expect(room.notices.map((n) => n.text)).toEqual([
      'Syria ended your loan of Alexandria: it supplies your own units again.',
      'Your loan of Cyprus to Rome ended at the adjustment (a capture or a rebellion): it supplies your own units again.',
    ]);
  });

  it('tells the lender of a destroyed centre that it supplies nobody until rebuilt', async () => {
    const room = await opened();
    room.current = { ...room.current!, state: { ...room.current!.state, destroyed: ['Alx'] } };
    await room.onEvent(loan('end', 'Alx', 'Egypt', 'Syria', 'Syria'));
    expect(room.notices.map((n) => n.text)).toEqual(['Syria ended your loan of Alexandria: it is yours again, and supplies nobody until it is rebuilt.']);
  });
});

describe('press in a finished game', () => {
  it('counts as unread for a player, and as nothing for a spectator, logged in or not', async () => {
    ended = true;
    seatOfMe = null;
    press = [
      {
        id: id(3),
        phase: phaseNames[0],
        from: { power: 'Rome', gameMaster: false, user: null },
        to: 'all',
        body: 'Peace?',
        sentAt: '2026-11-24T10:00:00.000Z',
      },
      {
        id: id(4),
        phase: phaseNames[0],
        from: { power: 'Syria', gameMaster: false, user: null },
        to: ['Egypt'],
        body: 'Ally?',
        sentAt: '2026-11-24T10:01:00.000Z',
      },
    ];
    const visitor = new GameRoom(game(), () => null);
    await visitor.loadPress();
    expect(visitor.conversations.length).toBeGreaterThan(0);
    expect(visitor.unread).toBe(0);
    expect(visitor.conversations.map((c) => c.unread)).toEqual(visitor.conversations.map(() => 0));
    // Logged in, in no seat and not the game master.
    const spectator = new GameRoom(game(), () => id(5));
    await spectator.loadPress();
    expect(spectator.unread).toBe(0);

    seatOfMe = 'Egypt';
    const player = new GameRoom(game(), () => ME.id);
    await player.loadPress();
    expect(player.unread).toBe(2);
  });
});
