/**
 * The notices above the board's panel (NoticeBoard), on their own: what a player reads there stays short and
 * current, each notice going once what it is about is over.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderSubmission, PhaseDetail } from '../../shared/api/index.ts';
import { NoticeBoard } from '../../web/src/game/notices.svelte.ts';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { fixtureId as id, gameDetail, json, openPhase } from './api-fixtures.ts';

const texts = (board: NoticeBoard) => board.shown.map((n) => n.text);

describe('the notices above the board', () => {
  it('shows the latest four, the oldest going first', () => {
    const board = new NoticeBoard();
    for (const n of [1, 2, 3, 4, 5]) board.notify(`news ${n}`);
    expect(texts(board)).toEqual(['news 2', 'news 3', 'news 4', 'news 5']);
  });

  it('says the same news once, though two sources tell it (an answer, then the live event)', () => {
    const board = new NoticeBoard();
    board.notify('Spring 240 BC Movement was processed.');
    board.notify('Spring 240 BC Movement was processed.', 'warn');
    expect(board.shown).toHaveLength(1);
    expect(board.shown[0].kind).toBe('info');
  });

  it('replaces what it said about a deadline with the newer word on it, and keeps the rest', () => {
    const board = new NoticeBoard();
    board.notify('Egypt lent you Pelusium.');
    board.notify('The game master paused the clock.', 'warn', { deadlineOf: 3 });
    board.notify('The game master resumed the clock.', 'warn', { deadlineOf: 3 });
    expect(texts(board)).toEqual(['Egypt lent you Pelusium.', 'The game master resumed the clock.']);
  });

  it('hides a warning once it is no longer true', () => {
    const board = new NoticeBoard();
    let saved = false;
    board.notify('Your changes are not saved.', 'warn', { until: () => saved });
    expect(texts(board)).toEqual(['Your changes are not saved.']);
    saved = true;
    expect(texts(board)).toEqual([]);
  });

  it('lets the player dismiss one notice, leaving the others', () => {
    const board = new NoticeBoard();
    board.notify('one');
    board.notify('two');
    board.notify('three');
    board.dismiss(board.shown[1].id);
    expect(texts(board)).toEqual(['one', 'three']);
  });

  it('forgets what it said about phases once they are closed, not what is about the game', () => {
    const board = new NoticeBoard();
    board.notify('The game master took over.');
    board.notify('Orders are due in 9 minutes.', 'warn', { deadlineOf: 1 });
    board.notify('You are no longer ready.', 'warn', { phase: 1 });
    board.notify('Fall 240 BC is open for orders.', 'info', { phase: 2 });
    board.forgetPhasesBefore(2);
    expect(texts(board)).toEqual(['The game master took over.', 'Fall 240 BC is open for orders.']);
  });

  it('replaces what it said on a topic with the newer word on it', () => {
    const board = new NoticeBoard();
    board.notify('Egypt lent you Pelusium.');
    board.notify("Egypt's orders were saved from another window: they are shown here.", 'info', { topic: 'saved' });
    board.notify("Egypt's orders were saved from another window. Your unsaved changes here are kept.", 'warn', { topic: 'saved' });
    expect(texts(board)).toEqual(['Egypt lent you Pelusium.', "Egypt's orders were saved from another window. Your unsaved changes here are kept."]);
  });

  it('forgets every word about a phase or its deadline on a roll-back', () => {
    const board = new NoticeBoard();
    board.notify('The game master took over.');
    board.notify('Orders are due in 9 minutes.', 'warn', { deadlineOf: 5 });
    board.notify('Fall 240 BC is open for orders.', 'info', { phase: 5 });
    board.forgetPhases();
    expect(texts(board)).toEqual(['The game master took over.']);
  });
});

describe('orders saved from another window, again and again', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are said in one notice, the latest, not one more each time', async () => {
    const GAME = id(1);
    let saved: OrderSubmission = {
      id: id(3),
      phaseIndex: 0,
      power: 'Egypt',
      text: 'F Alx H',
      orders: [],
      ready: false,
      byGameMaster: false,
      submittedAt: '2026-11-24T10:00:00.000Z',
    };
    const phase: PhaseDetail = openPhase(0, 'Spring 240 BC Movement');
    vi.stubGlobal('fetch', async (path: string) => {
      const url = new URL(path, 'http://localhost').pathname;
      if (url === `/api/games/${GAME}/phases/current`) return json(200, phase);
      if (url === `/api/games/${GAME}/phases/0/orders`)
        return json(200, {
          phase: { index: 0, name: phase.name, kind: 'movement', deadlineAt: null },
          power: 'Egypt',
          mustOrder: true,
          current: saved,
          history: [saved],
        });
      return json(404, { error: { code: 'not_found', message: `no route ${url}` } });
    });
    localStorage.clear();
    const room = new GameRoom(gameDetail('Egypt', { currentPhase: { index: 0, name: phase.name, kind: 'movement', deadlineAt: phase.deadlineAt } }), () =>
      id(2),
    );
    await room.load();
    expect(room.entry?.text).toBe('F Alx H');
    const otherWindowSaves = async (text: string, n: number) => {
      saved = { ...saved, id: id(3 + n), text };
      await room.onEvent({ type: 'orders.status', gameId: GAME, phaseIndex: 0, power: 'Egypt', submitted: true, ready: false });
    };
    await otherWindowSaves('F Alx - EGY', 1);
    await otherWindowSaves('F Alx H\nA Pto H', 2);
    // Then once more while this window has changes of its own.
    room.entry!.setText('A Pto - Sin', 'Egypt');
    await otherWindowSaves('F Alx - EGY', 3);
    const about = room.notices.filter((n) => /another window/.test(n.text));
    expect(about.map((n) => n.text)).toEqual([
      "Egypt's orders were saved from another window. Your unsaved changes here are kept: save them to replace those orders, or discard them to see them.",
    ]);
  });
});
