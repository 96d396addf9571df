/**
 * A game's press as this page's reader sees it: every message they may read, grouped into conversations, and what
 * they have not read yet. Read marks are the user's, kept on the server (`…/press/read`), so a message read on the
 * desktop is read on the phone too; marks this browser kept before (logic.ts `ReadMarks`) are handed to the server
 * once, then forgotten here.
 */
import type { PressMessage } from '../../../shared/api/index.ts';
import { ApiError, api } from '../lib/api.ts';
import { conversations, type Conversation, type ReadMarks } from './logic.ts';

/** What the press needs of the game's store (room.svelte.ts). */
export interface PressRoom {
  readonly id: string;
  readonly myPower: string | null;
  readonly isMaster: boolean;
  failed(e: unknown): void;
}

/** The later of two read marks per conversation (a mark never moves back). */
function latest(a: Record<string, string>, b: Record<string, string>): Record<string, string> {
  const out = { ...a };
  for (const [key, at] of Object.entries(b)) if ((out[key] ?? '') < at) out[key] = at;
  return out;
}

export class PressInbox {
  messages = $state.raw<PressMessage[]>([]);
  /** Per conversation, the time of the last message read. */
  readUntil = $state.raw<Record<string, string>>({});
  /** Messages and read marks have both been read once: until then nothing is known to be unread. */
  loaded = $state(false);

  constructor(
    private readonly room: PressRoom,
    /** Marks an older version of the board kept in this browser: handed to the server once. */
    private readonly legacy: ReadMarks,
  ) {}

  /** Only a party to the press (a power's player, the game master) has read marks. */
  private get party(): boolean {
    return this.room.myPower !== null || this.room.isMaster;
  }

  get conversations(): Conversation[] {
    const { myPower, isMaster } = this.room;
    const all = conversations(this.messages, myPower, isMaster, this.readUntil);
    // A spectator (an archive's reader, logged in or not) is no party to the press: nothing is unread for them.
    // Nor is anything unread before the marks are known (it would flash as unread, then read).
    return !this.party || !this.loaded ? all.map((c) => ({ ...c, unread: 0 })) : all;
  }

  get unread(): number {
    return this.conversations.reduce((n, c) => n + c.unread, 0);
  }

  async load(): Promise<void> {
    try {
      const [all] = await Promise.all([this.readAll(), this.loadMarks()]);
      this.messages = all;
      this.loaded = true;
    } catch (e) {
      // Press may be hidden to spectators of a private game: nothing to show then.
      if (!(e instanceof ApiError && (e.status === 403 || e.status === 404))) this.room.failed(e);
    }
  }

  private async readAll(): Promise<PressMessage[]> {
    const all: PressMessage[] = [];
    let cursor: string | undefined;
    // Every page: a game's press is small; counts need all of it.
    for (let i = 0; i < 20; i++) {
      const page = await api.press(this.room.id, cursor);
      all.push(...page.messages);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return all;
  }

  /** The marks as the server has them (read on another device meanwhile, maybe); this browser's old ones handed over once. */
  async loadMarks(): Promise<void> {
    if (!this.party) return;
    let server: Record<string, string>;
    try {
      server = (await api.pressRead(this.room.id)).readUntil;
    } catch {
      // The messages still show; what was read is known again at the next read of the press.
      return;
    }
    const old = this.legacy.get(this.room.id);
    const newer = Object.entries(old).filter(([key, at]) => (server[key] ?? '') < at);
    this.readUntil = latest(latest(this.readUntil, server), old);
    if (Object.keys(old).length === 0) return;
    const sent = await Promise.all(newer.map(([key, at]) => this.send(key, at)));
    if (sent.every(Boolean)) this.legacy.forget(this.room.id);
  }

  private async send(conversation: string, at: string): Promise<boolean> {
    try {
      const answer = await api.markPressRead(this.room.id, conversation, at);
      this.readUntil = latest(this.readUntil, answer.readUntil);
      return true;
    } catch {
      // Kept on screen; told to the server again the next time the conversation is read.
      return false;
    }
  }

  markRead(conversation: string): void {
    if (!this.party || !this.loaded) return;
    const last = this.conversations.find((c) => c.key === conversation)?.lastAt;
    if (!last || (this.readUntil[conversation] ?? '') >= last) return;
    this.readUntil = { ...this.readUntil, [conversation]: last };
    void this.send(conversation, last);
  }

  /** The conversation to open the press on: the one with the latest unread message, else the public one. */
  get landing(): string | null {
    const unread = this.conversations.filter((c) => c.unread > 0);
    if (unread.length === 0) return null;
    const lastUnread = (c: Conversation) => c.messages.at(-1)?.sentAt ?? '';
    return unread.reduce((a, b) => (lastUnread(b) > lastUnread(a) ? b : a)).key;
  }
}
