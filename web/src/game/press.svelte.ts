/**
 * A game's press as this page's reader sees it: every message they may read, grouped into conversations, and what
 * they have not read yet (read marks kept in this browser, logic.ts).
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

export class PressInbox {
  messages = $state.raw<PressMessage[]>([]);
  /** Per conversation, the time of the last message read. */
  readUntil = $state.raw<Record<string, string>>({});

  constructor(
    private readonly room: PressRoom,
    private readonly marks: ReadMarks,
  ) {
    this.readUntil = marks.get(room.id);
  }

  get conversations(): Conversation[] {
    const { myPower, isMaster } = this.room;
    const all = conversations(this.messages, myPower, isMaster, this.readUntil);
    // A spectator (an archive's reader, logged in or not) is no party to the press: nothing is unread for them.
    return myPower === null && !isMaster ? all.map((c) => ({ ...c, unread: 0 })) : all;
  }

  get unread(): number {
    return this.conversations.reduce((n, c) => n + c.unread, 0);
  }

  async load(): Promise<void> {
    try {
      const all: PressMessage[] = [];
      let cursor: string | undefined;
      // Every page: a game's press is small; counts need all of it.
      for (let i = 0; i < 20; i++) {
        const page = await api.press(this.room.id, cursor);
        all.push(...page.messages);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      this.messages = all;
    } catch (e) {
      // Press may be hidden to spectators of a private game: nothing to show then.
      if (!(e instanceof ApiError && (e.status === 403 || e.status === 404))) this.room.failed(e);
    }
  }

  markRead(conversation: string): void {
    const last = this.conversations.find((c) => c.key === conversation)?.lastAt;
    if (last && (this.readUntil[conversation] ?? '') < last) this.readUntil = this.marks.mark(this.room.id, conversation, last);
  }
}
