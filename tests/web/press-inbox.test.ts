/**
 * A game's press on the board (PressInbox), on its own, against a scripted server whose answers have the API's
 * shapes: every page of it is read, what a player read is kept on the server (so another device finds it read),
 * marks an older board kept in the browser are handed to the server once, and press hidden from a spectator shows
 * nothing rather than an error.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PressMessage } from '../../shared/api/index.ts';
import { PressInbox, type PressRoom } from '../../web/src/game/press.svelte.ts';
import { ReadMarks, browserStore } from '../../web/src/game/logic.ts';
import { fixtureId as id, json } from './api-fixtures.ts';

const GAME = id(1);

const message = (n: number, from: string, to: 'all' | string[], sentAt: string): PressMessage =>
  ({ id: id(n), phase: 'Spring 240 BC Movement', from: { power: from, gameMaster: false, user: null }, to, body: `message ${n}`, sentAt }) as PressMessage;

/** The server's press, in pages of two (oldest first), and what it answers instead when set. */
let all: PressMessage[];
let refusal: Response | null;
/** The cursors the client asked with, in order. */
let asked: (string | null)[];
/** The server's read marks for the user, and the marks it was sent. */
let serverMarks: Record<string, string>;
let marked: { conversation: string; until: string }[];

beforeEach(() => {
  localStorage.clear();
  refusal = null;
  asked = [];
  serverMarks = {};
  marked = [];
  all = [
    message(2, 'Rome', 'all', '2026-11-24T10:00:00.000Z'),
    message(3, 'Syria', ['Egypt'], '2026-11-24T10:01:00.000Z'),
    message(4, 'Rome', ['Egypt'], '2026-11-24T10:02:00.000Z'),
    message(5, 'Syria', ['Egypt'], '2026-11-24T10:03:00.000Z'),
    message(6, 'Macedonia', 'all', '2026-11-24T10:04:00.000Z'),
  ];
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'http://localhost');
    if (url.pathname === `/api/games/${GAME}/press/read` && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { conversation: string; until: string };
      marked.push(body);
      if ((serverMarks[body.conversation] ?? '') < body.until) serverMarks[body.conversation] = body.until;
      return json(200, { readUntil: serverMarks });
    }
    if (url.pathname === `/api/games/${GAME}/press/read`) return json(200, { readUntil: serverMarks });
    if (url.pathname !== `/api/games/${GAME}/press`) return json(404, { error: { code: 'not_found', message: `no route ${url.pathname}` } });
    if (refusal) return refusal;
    const cursor = url.searchParams.get('cursor');
    asked.push(cursor);
    const from = cursor === null ? 0 : Number(cursor);
    return json(200, { messages: all.slice(from, from + 2), nextCursor: from + 2 < all.length ? String(from + 2) : null });
  });
});
afterEach(() => vi.unstubAllGlobals());

/** Egypt's inbox, as a page of this browser opens it. */
function inbox(room: Partial<PressRoom> = {}): { inbox: PressInbox; errors: unknown[] } {
  const errors: unknown[] = [];
  const host: PressRoom = { id: GAME, myPower: 'Egypt', isMaster: false, failed: (e) => errors.push(e), ...room };
  return { inbox: new PressInbox(host, new ReadMarks(browserStore())), errors };
}

describe("the board's press", () => {
  it('reads every page of it, so that the counts cover all of it', async () => {
    const { inbox: press } = inbox();
    await press.load();
    expect(asked).toEqual([null, '2', '4']);
    expect(press.messages.map((m) => m.body)).toEqual(all.map((m) => m.body));
    // Syria's two messages and Rome's one to Egypt, besides the public ones.
    expect(press.unread).toBe(5);
  });

  it('keeps what was read on the server: the same player on another device finds the conversation read', async () => {
    const desktop = inbox().inbox;
    await desktop.load();
    const syria = desktop.conversations.find((c) => c.with.includes('Syria'))!;
    expect(syria.unread).toBe(2);
    desktop.markRead(syria.key);
    expect(desktop.conversations.find((c) => c.key === syria.key)!.unread).toBe(0);
    expect(desktop.unread).toBe(3);
    await vi.waitFor(() => expect(marked).toEqual([{ conversation: syria.key, until: '2026-11-24T10:03:00.000Z' }]));

    // Nothing of it in this browser's storage: the phone has none of the desktop's.
    localStorage.clear();
    const phone = inbox().inbox;
    await phone.load();
    expect(phone.conversations.find((c) => c.key === syria.key)!.unread).toBe(0);
    expect(phone.unread).toBe(3);
  });

  it('hands the marks an older board kept in this browser to the server once, then forgets them here', async () => {
    new ReadMarks(browserStore()).mark(GAME, 'public', '2026-11-24T10:04:00.000Z');
    const press = inbox().inbox;
    await press.load();
    await vi.waitFor(() => expect(marked).toEqual([{ conversation: 'public', until: '2026-11-24T10:04:00.000Z' }]));
    expect(press.conversations.find((c) => c.key === 'public')!.unread).toBe(0);
    await vi.waitFor(() => expect(new ReadMarks(browserStore()).get(GAME)).toEqual({}));
  });

  it('opens on the conversation with the latest unread message, not on the public one', async () => {
    const press = inbox().inbox;
    await press.load();
    // Macedonia's public message is the latest of all.
    expect(press.landing).toBe('public');
    press.markRead('public');
    expect(press.landing).toBe(press.conversations.find((c) => c.with.includes('Syria'))!.key);
  });

  it('shows nothing, and no error, where the press is hidden from the reader; says any other failure', async () => {
    refusal = json(403, { error: { code: 'forbidden', message: 'press of a private game' } });
    const hidden = inbox({ myPower: null });
    await hidden.inbox.load();
    expect(hidden.inbox.messages).toEqual([]);
    expect(hidden.errors).toEqual([]);

    refusal = json(500, { error: { code: 'internal', message: 'the database is down' } });
    const failing = inbox();
    await failing.inbox.load();
    expect(failing.errors.map((e) => (e as Error).message)).toEqual(['the database is down']);
  });
});
