/**
 * The notices above the board's panel (NoticeBoard), on their own: what a player reads there stays short and
 * current, each notice going once what it is about is over.
 */
import { describe, expect, it } from 'vitest';
import { NoticeBoard } from '../../web/src/game/notices.svelte.ts';

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

  it('forgets every word about a phase or its deadline on a roll-back', () => {
    const board = new NoticeBoard();
    board.notify('The game master took over.');
    board.notify('Orders are due in 9 minutes.', 'warn', { deadlineOf: 5 });
    board.notify('Fall 240 BC is open for orders.', 'info', { phase: 5 });
    board.forgetPhases();
    expect(texts(board)).toEqual(['The game master took over.']);
  });
});
