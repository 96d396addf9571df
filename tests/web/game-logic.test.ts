/**
 * The game view's pure logic: drafts kept until the server has the same
 * orders, press grouped into conversations with unread counts, deadlines in
 * words, and my games ordered by what needs me.
 */
import { describe, expect, it } from 'vitest';
import type { GameSummary, PhaseDetail, PressMessage } from '../../shared/api/index.ts';
import {
  Drafts,
  GM,
  PUBLIC,
  ReadMarks,
  attentionOf,
  byAttention,
  centreMark,
  conversationKey,
  conversations,
  isDirty,
  keyFor,
  localTime,
  normaliseOrders,
  recipientsFor,
  timeLeft,
  withGameMasterOnly,
  type KeyValue,
} from '../../web/src/game/logic.ts';

const memory = (): KeyValue & { map: Map<string, string> } => {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
};

let n = 0;
function message(from: string | null, to: 'all' | string[], sentAt: string, gameMaster = false): PressMessage {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    phase: 'Spring 240 BC Movement',
    from: { power: from, gameMaster, user: null },
    to,
    body: `message ${n}`,
    sentAt,
  };
}

describe('drafts of orders', () => {
  it('compares orders as the server does: trimmed lines, blank ones dropped', () => {
    expect(normaliseOrders('  A Rav - Cis \n\n A Bru H\n')).toBe('A Rav - Cis\nA Bru H');
    expect(isDirty('A Rav - Cis\n', ' A Rav - Cis')).toBe(false);
    expect(isDirty('A Rav - Cis', 'A Rav H')).toBe(true);
  });

  it('keeps a draft while it differs from the saved orders, and forgets it once they agree', () => {
    const store = memory();
    const drafts = new Drafts(store);
    drafts.keep('g', 0, 'Rome', 'A Rav - Cis', '');
    expect(drafts.get('g', 0, 'Rome')).toBe('A Rav - Cis');
    expect(drafts.get('g', 1, 'Rome')).toBeNull();
    expect(drafts.get('g', 0, 'Egypt')).toBeNull();
    drafts.keep('g', 0, 'Rome', 'A Rav - Cis\n', 'A Rav - Cis');
    expect(drafts.get('g', 0, 'Rome')).toBeNull();
    expect(store.map.size).toBe(0);
  });

  it('starts the order box from a differing draft (restored) or else from the saved orders', () => {
    const drafts = new Drafts(memory());
    expect(drafts.initial('g', 0, 'Rome', 'A Bru H')).toEqual({ text: 'A Bru H', restored: false });
    drafts.keep('g', 0, 'Rome', 'A Bru - Ben', 'A Bru H');
    expect(drafts.initial('g', 0, 'Rome', 'A Bru H')).toEqual({ text: 'A Bru - Ben', restored: true });
    // The server caught up (saved from another device): the stale draft goes.
    expect(drafts.initial('g', 0, 'Rome', 'A Bru - Ben')).toEqual({ text: 'A Bru - Ben', restored: false });
    expect(drafts.get('g', 0, 'Rome')).toBeNull();
  });
});

describe('press', () => {
  const a = message('Rome', ['Carthage'], '2026-01-01T10:00:00Z');
  const b = message('Carthage', ['Rome'], '2026-01-01T10:05:00Z');
  const c = message('Egypt', 'all', '2026-01-01T10:02:00Z');
  const d = message('Rome', ['Carthage', 'Syria'], '2026-01-01T09:00:00Z');
  const gm = message(null, 'all', '2026-01-01T11:00:00Z', true);

  it('groups messages by the powers in them, both ways, and public ones together', () => {
    expect(conversationKey(a)).toBe(conversationKey(b));
    expect(conversationKey(a)).toBe(keyFor('Rome', ['Carthage']));
    expect(conversationKey(a)).toBe(keyFor('Carthage', ['Rome']));
    expect(conversationKey(d)).not.toBe(conversationKey(a));
    expect(conversationKey(c)).toBe(PUBLIC);
    expect(conversationKey(gm)).toBe(PUBLIC);
  });

  it('lists the public channel first, then private conversations newest first, each oldest message first', () => {
    const list = conversations([b, d, c, a, gm], 'Rome', false, {});
    expect(list.map((x) => x.with)).toEqual([[], ['Carthage'], ['Carthage', 'Syria']]);
    expect(list[1].messages.map((m) => m.id)).toEqual([a.id, b.id]);
    expect(list[0].messages.map((m) => m.id)).toEqual([c.id, gm.id]);
  });

  it('counts as unread what arrived after the last read and was not sent by me', () => {
    const list = conversations([a, b, c, d, gm], 'Rome', false, { [PUBLIC]: '2026-01-01T10:30:00Z' });
    expect(list.map((x) => x.unread)).toEqual([1, 1, 0]);
    // Carthage has not read anything: Rome's two messages to it are unread, its own answer is not.
    expect(conversations([a, b, d], 'Carthage', false, {}).map((x) => x.unread)).toEqual([0, 1, 1]);
    // The game master's own posts are never unread for the game master.
    expect(conversations([gm], null, true, {})[0].unread).toBe(0);
  });

  it('remembers what was read, never moving back', () => {
    const marks = new ReadMarks(memory());
    marks.mark('g', PUBLIC, '2026-01-01T10:00:00Z');
    marks.mark('g', PUBLIC, '2026-01-01T09:00:00Z');
    expect(marks.get('g')).toEqual({ [PUBLIC]: '2026-01-01T10:00:00Z' });
    expect(marks.get('other')).toEqual({});
  });
});

describe('press with the game master', () => {
  const fromMaster = message(null, ['Egypt'], '2026-01-01T10:00:00Z', true);
  const answer = message('Egypt', ['@gm'], '2026-01-01T10:05:00Z');
  const toTwo = message(null, ['Egypt', 'Rome'], '2026-01-01T11:00:00Z', true);
  const answerToTwo = message('Rome', ['@gm', 'Egypt'], '2026-01-01T11:05:00Z');

  it('replying in the game master thread addresses the game master, never everyone', () => {
    const [, thread] = conversations([fromMaster], 'Egypt', false, {});
    expect(thread.with).toEqual([GM]);
    expect(recipientsFor(thread.key, 'Egypt')).toEqual(['@gm']);
    expect(withGameMasterOnly(thread.key, 'Egypt')).toBe(true);
    // A thread of the game master and several powers: a power's reply goes to the game master and the other powers.
    const [, group] = conversations([toTwo], 'Rome', false, {});
    expect(recipientsFor(group.key, 'Rome')).toEqual(['Egypt', '@gm']);
    expect(withGameMasterOnly(group.key, 'Rome')).toBe(false);
    // The game master's reply goes to the powers in it (it does not write to itself).
    expect(recipientsFor(group.key, GM)).toEqual(['Egypt', 'Rome']);
    expect(recipientsFor(PUBLIC, 'Egypt')).toBe('all');
    // Nobody but me: refused (null), not sent to everyone.
    expect(recipientsFor(keyFor('Egypt', []), 'Egypt')).toBeNull();
  });

  it("groups a player's message to the game master into the game master thread, on both sides, with unread counts", () => {
    expect(conversationKey(answer)).toBe(conversationKey(fromMaster));
    expect(conversationKey(answerToTwo)).toBe(conversationKey(toTwo));
    const forEgypt = conversations([fromMaster, answer], 'Egypt', false, {});
    expect(forEgypt.map((c) => [c.with, c.messages.length, c.unread])).toEqual([
      [[], 0, 0],
      [[GM], 2, 1],
    ]);
    const forMaster = conversations([fromMaster, answer, toTwo, answerToTwo], null, true, {});
    expect(forMaster.map((c) => [c.with, c.messages.length, c.unread])).toEqual([
      [[], 0, 0],
      [['Egypt', 'Rome'], 2, 1],
      [['Egypt'], 2, 1],
    ]);
  });
});

describe('deadlines', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('says how long is left', () => {
    expect(timeLeft('2026-01-03T15:30:00Z', now)).toBe('2 d 3 h left');
    expect(timeLeft('2026-01-01T15:12:00Z', now)).toBe('3 h 12 min left');
    expect(timeLeft('2026-01-01T12:04:05Z', now)).toBe('4 min 05 s left');
    expect(timeLeft('2026-01-01T11:00:00Z', now)).toBe('deadline passed: processing');
  });
  it('shows the deadline in the player’s own time zone', () => {
    expect(localTime('2026-01-01T12:00:00Z', 'en-GB', 'Asia/Tokyo')).toBe('Thu 1 Jan, 21:00');
    expect(localTime('2026-01-01T12:00:00Z', 'en-GB', 'America/New_York')).toBe('Thu 1 Jan, 07:00');
  });
});

describe('my games, by what needs me', () => {
  const game = (id: string) => ({ id, name: id, status: 'active' }) as GameSummary;
  const phase = (powers: { power: string; mustOrder: boolean; submitted: boolean; ready: boolean }[], deadlineAt: string | null) =>
    ({ status: 'open', deadlineAt, powers: powers.map((p) => ({ ...p, playerStatus: 'active', missedDeadlines: 0 })) }) as unknown as PhaseDetail;

  it('tells orders due, orders in but not ready, and nothing to do', () => {
    const p = phase(
      [
        { power: 'Rome', mustOrder: true, submitted: false, ready: false },
        { power: 'Egypt', mustOrder: true, submitted: true, ready: false },
        { power: 'Syria', mustOrder: false, submitted: false, ready: false },
      ],
      '2026-01-02T00:00:00Z',
    );
    expect(attentionOf(game('a'), 'Rome', p, 0)).toMatchObject({ ordersDue: true, notReady: false, deadlineAt: '2026-01-02T00:00:00Z' });
    expect(attentionOf(game('a'), 'Egypt', p, 0)).toMatchObject({ ordersDue: false, notReady: true });
    expect(attentionOf(game('a'), 'Syria', p, 0)).toMatchObject({ ordersDue: false, notReady: false });
    expect(attentionOf(game('a'), null, p, 2)).toMatchObject({ ordersDue: false, unread: 2 });
    expect(attentionOf(game('a'), 'Rome', p, 0).paused).toBe(false);
    expect(attentionOf(game('a'), 'Rome', { ...p, paused: true }, 0)).toMatchObject({ ordersDue: true, paused: true });
  });

  it('puts orders due first (soonest deadline first), then unread press, then not ready, then the rest', () => {
    const mk = (id: string, ordersDue: boolean, unread: number, notReady: boolean, deadlineAt: string | null, paused = false) => ({
      game: game(id),
      power: 'Rome',
      phase: 'Spring 240 BC Movement',
      ordersDue,
      notReady,
      ready: false,
      nothingToOrder: false,
      unread,
      deadlineAt,
      paused,
    });
    const list = [
      { ...mk('over', false, 0, false, null), game: { ...game('over'), status: 'finished' } as GameSummary },
      mk('quiet', false, 0, false, null),
      mk('paused', true, 0, false, '2026-01-01T00:00:00Z', true),
      mk('press', false, 3, false, null),
      mk('late', true, 0, false, '2026-01-05T00:00:00Z'),
      mk('not-ready', false, 0, true, null),
      mk('soon', true, 1, false, '2026-01-02T00:00:00Z'),
    ];
    expect(byAttention(list).map((a) => a.game.id)).toEqual(['soon', 'late', 'paused', 'press', 'not-ready', 'quiet', 'over']);
  });
});

describe('supply panel', () => {
  it('marks what a centre supplies: doubles and triples, and nothing from a destroyed one', () => {
    expect(centreMark({ kind: 'single', destroyed: false })).toBe('');
    expect(centreMark({ kind: 'double', destroyed: false })).toBe(' ×2');
    expect(centreMark({ kind: 'triple', destroyed: false })).toBe(' ×3');
    expect(centreMark({ kind: 'double', destroyed: true })).toBe(' (destroyed)');
    expect(centreMark(undefined)).toBe('');
  });
});
