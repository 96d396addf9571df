/**
 * The game view's pure logic: drafts of orders kept in the browser, press
 * conversations and unread counts, deadlines in words, and which of my games
 * need me first. No Svelte and no fetching here, so all of it is unit-tested.
 */
import type { GameSummary, PhaseDetail, PressMessage } from '../../../shared/api/index.ts';
import { GAME_MASTER_RECIPIENT } from '../../../shared/api/press-recipients.ts';
import { shownTimeZone } from '../lib/format.ts';

// ───────────────────────────── drafts ─────────────────────────────

/** Order text as the server compares it: trimmed lines, blank ones dropped. */
export function normaliseOrders(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');
}

/** Unsaved: the text in the box says something else than what the server has. */
export const isDirty = (text: string, saved: string) => normaliseOrders(text) !== normaliseOrders(saved);

/** A small key-value store (localStorage in the browser; a Map in tests). */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** localStorage when it works (private modes may refuse it), else nothing is kept. */
export function browserStore(): KeyValue {
  try {
    const s = globalThis.localStorage;
    s.setItem('diadochi.probe', '1');
    s.removeItem('diadochi.probe');
    return s;
  } catch {
    const m = new Map<string, string>();
    return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
  }
}

/**
 * Drafts of orders not yet saved on the server, per game, phase and power, so a
 * reload, a closed tab or a lost connection never loses them.
 */
export class Drafts {
  constructor(private readonly store: KeyValue) {}

  private key(gameId: string, phase: number, power: string) {
    return `diadochi.draft.${gameId}.${phase}.${power}`;
  }

  get(gameId: string, phase: number, power: string): string | null {
    return this.store.getItem(this.key(gameId, phase, power));
  }

  /** Keep the text while it differs from what is saved; forget it once they agree. */
  keep(gameId: string, phase: number, power: string, text: string, saved: string): void {
    if (isDirty(text, saved)) this.store.setItem(this.key(gameId, phase, power), text);
    else this.store.removeItem(this.key(gameId, phase, power));
  }

  clear(gameId: string, phase: number, power: string): void {
    this.store.removeItem(this.key(gameId, phase, power));
  }

  /** What the order box starts with: a draft that differs from the saved orders wins (and says so). */
  initial(gameId: string, phase: number, power: string, saved: string): { text: string; restored: boolean } {
    const draft = this.get(gameId, phase, power);
    if (draft !== null && isDirty(draft, saved)) return { text: draft, restored: true };
    if (draft !== null) this.clear(gameId, phase, power);
    return { text: saved, restored: false };
  }
}

// ───────────────────────────── press ─────────────────────────────

export const PUBLIC = 'public';
/** The game master in conversation keys and labels (the wire's GAME_MASTER_RECIPIENT). */
export const GM = 'Game master';

/** Who took part in a message: the sender (a power, or the game master) and its recipients (the game master by its wire name). */
function participants(m: PressMessage): string[] {
  const from = m.from.gameMaster ? GM : (m.from.power ?? GM);
  const to = m.to === 'all' ? [] : m.to.map((p) => (p === GAME_MASTER_RECIPIENT ? GM : p));
  return [...new Set([from, ...to])].sort();
}

/** The conversation a message belongs to: the public channel, or the set of powers in it. */
export function conversationKey(m: PressMessage): string {
  return m.to === 'all' ? PUBLIC : participants(m).join('+');
}

/** The powers a private conversation is with (everyone in it but me); the key of a new one. */
export const othersIn = (key: string, me: string | null) => (key === PUBLIC ? [] : key.split('+').filter((p) => p !== me));
export const keyFor = (me: string | null, others: readonly string[]) => [...new Set([...(me ? [me] : [GM]), ...others])].sort().join('+');

/**
 * Whom a message written in a conversation goes to: "all" in the public one only; in a private one,
 * everyone in it but me (the game master as GAME_MASTER_RECIPIENT). Null when that is nobody: a private
 * conversation never falls back to "all".
 */
export function recipientsFor(key: string, me: string | null): 'all' | string[] | null {
  if (key === PUBLIC) return 'all';
  const to = othersIn(key, me).map((p) => (p === GM ? GAME_MASTER_RECIPIENT : p));
  return to.length > 0 ? to : null;
}

/** A player's private line to the game master alone (which the server allows whatever the press kind). */
export const withGameMasterOnly = (key: string, me: string | null) => me !== null && me !== GM && key !== PUBLIC && key === keyFor(me, [GM]);

export interface Conversation {
  key: string;
  /** Powers in it besides me; empty for the public channel. */
  with: string[];
  /** Oldest first. */
  messages: PressMessage[];
  unread: number;
  lastAt: string | null;
}

/** Sent by me (my power, or me as the game master): never unread. */
export const mine = (m: PressMessage, myPower: string | null, iAmMaster: boolean) =>
  (myPower !== null && m.from.power === myPower && !m.from.gameMaster) || (iAmMaster && m.from.gameMaster);

/**
 * Group messages (any order) into conversations: the public channel first, then
 * private ones, most recent first; each with how many messages arrived after
 * `readUntil[key]` that I did not send.
 */
export function conversations(
  messages: readonly PressMessage[],
  myPower: string | null,
  iAmMaster: boolean,
  readUntil: Record<string, string>,
): Conversation[] {
  const byKey = new Map<string, PressMessage[]>([[PUBLIC, []]]);
  for (const m of messages) {
    const key = conversationKey(m);
    byKey.set(key, [...(byKey.get(key) ?? []), m]);
  }
  const list = [...byKey].map(([key, ms]): Conversation => {
    const sorted = [...ms].sort((a, b) => a.sentAt.localeCompare(b.sentAt));
    const since = readUntil[key] ?? '';
    return {
      key,
      with: othersIn(key, myPower ?? (iAmMaster ? GM : null)),
      messages: sorted,
      unread: sorted.filter((m) => m.sentAt > since && !mine(m, myPower, iAmMaster)).length,
      lastAt: sorted.at(-1)?.sentAt ?? null,
    };
  });
  return list.sort((a, b) => (a.key === PUBLIC ? -1 : b.key === PUBLIC ? 1 : (b.lastAt ?? '').localeCompare(a.lastAt ?? '')));
}

/**
 * When each conversation of a game was last read, as older versions of the board kept it in the browser. Read marks
 * are the user's on the server now (press.svelte.ts): these are only handed to it once, then forgotten.
 */
export class ReadMarks {
  constructor(private readonly store: KeyValue) {}

  private key(gameId: string) {
    return `diadochi.read.${gameId}`;
  }

  get(gameId: string): Record<string, string> {
    try {
      const parsed = JSON.parse(this.store.getItem(this.key(gameId)) ?? '{}') as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  /** Read up to `at` (never moves back). */
  mark(gameId: string, conversation: string, at: string): Record<string, string> {
    const marks = this.get(gameId);
    if ((marks[conversation] ?? '') < at) {
      marks[conversation] = at;
      this.store.setItem(this.key(gameId), JSON.stringify(marks));
    }
    return marks;
  }

  forget(gameId: string): void {
    this.store.removeItem(this.key(gameId));
  }
}

// ───────────────────────────── deadlines ─────────────────────────────

/** "2 d 3 h left", "3 h 12 min left", "4 min 05 s left", or that the deadline has passed and the phase is being processed. */
export function timeLeft(deadline: string, now: number): string {
  const s = Math.floor((new Date(deadline).getTime() - now) / 1000);
  // Past it, the phase is about to be processed (the scheduler looks every few seconds).
  if (s <= 0) return 'deadline passed: processing';
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h left`;
  if (h > 0) return `${h} h ${m} min left`;
  return `${m} min ${String(s % 60).padStart(2, '0')} s left`;
}

// Made once per locale and zone: the page shows the deadline again every second.
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A time in the player's own time zone (their account's choice, else the browser's: lib/format.ts), as every
 * time on the game page is written (deadlines, press, the game master's log): "Tue 14 Jan, 18:30". The page's first date format costs 20–50 ms (the browser loads
 * its calendar and time-zone data), so the game view shows it after the map.
 */
export function localTime(iso: string, locale?: string, timeZone = shownTimeZone()): string {
  const key = `${locale ?? ''}|${timeZone ?? ''}`;
  let format = timeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      ...(timeZone ? { timeZone } : {}),
    });
    timeFormats.set(key, format);
  }
  return format.format(new Date(iso));
}

// ───────────────────────────── my games ─────────────────────────────

export interface Attention {
  game: GameSummary;
  /** My power in it (null: I only master it, or it has not started). */
  power: string | null;
  /** The phase being played (null: none open, the game is over). */
  phase: string | null;
  /** My power must order in the open phase and has not submitted. */
  ordersDue: boolean;
  /** Submitted, but not marked ready. */
  notReady: boolean;
  /** Marked ready: nothing more is asked of me in this phase. */
  ready: boolean;
  /** My power has nothing to order in this phase. */
  nothingToOrder: boolean;
  deadlineAt: string | null;
  /** The game master has paused the clock: the deadline waits. */
  paused: boolean;
  unread: number;
}

/** What a game asks of me, from its open phase and my press. */
export function attentionOf(game: GameSummary, power: string | null, phase: PhaseDetail | null, unread: number): Attention {
  const open = phase?.status === 'open' ? phase : null;
  const mine = open && power ? open.powers.find((p) => p.power === power) : undefined;
  return {
    game,
    power,
    phase: open?.name ?? null,
    ordersDue: !!mine && mine.mustOrder && !mine.submitted,
    notReady: !!mine && mine.mustOrder && mine.submitted && !mine.ready,
    ready: !!mine && mine.mustOrder && mine.ready,
    nothingToOrder: !!open && !!power && !mine?.mustOrder,
    deadlineAt: open?.deadlineAt ?? null,
    paused: open?.paused === true,
    unread,
  };
}

/** A card's word on my orders: "Orders due", "Orders in, not ready", "Ready", "Nothing to order"; null when I play no power there. */
export function ordersWord(a: Attention): string | null {
  if (a.ordersDue) return 'Orders due';
  if (a.notReady) return 'Orders in, not ready';
  if (a.ready) return 'Ready';
  if (a.nothingToOrder) return 'Nothing to order';
  return null;
}

/** Orders due first (soonest running deadline first), then unread press, then not ready, then the rest as they came, finished games last. */
export function byAttention(list: readonly Attention[]): Attention[] {
  const rank = (a: Attention) => (a.ordersDue ? 0 : a.unread > 0 ? 1 : a.notReady ? 2 : a.game.status === 'finished' ? 4 : 3);
  // ISO times compare as text; no deadline (or a paused one) after every time.
  const due = (a: Attention) => (a.paused ? null : a.deadlineAt) ?? '\uffff';
  const byDue = (x: Attention, y: Attention) => (due(x) < due(y) ? -1 : due(x) > due(y) ? 1 : 0);
  return (
    list
      .map((a, i) => ({ a, i }))
      // A paused clock's deadline waits: such a game comes after those whose deadlines run.
      .sort((x, y) => rank(x.a) - rank(y.a) || (rank(x.a) === 0 ? byDue(x.a, y.a) : 0) || x.i - y.i)
      .map((x) => x.a)
  );
}

// ───────────────────────────── supply ─────────────────────────────

/** What a centre's name is followed by in the supply panel: what it supplies when that is not one unit. */
export function centreMark(centre: { kind: string; destroyed: boolean } | undefined): string {
  // A destroyed centre supplies nothing until it is rebuilt, whatever its kind.
  if (centre?.destroyed) return ' (destroyed)';
  return centre?.kind === 'double' ? ' ×2' : centre?.kind === 'triple' ? ' ×3' : '';
}
