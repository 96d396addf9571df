/**
 * What the board says above its panel: news of the game (a deadline moved, a phase processed, a loan ended) and
 * warnings about my orders. Each says what it is about, so that it goes once it is out of date: the phase it is
 * about closes, a newer word on the same deadline comes, or its warning is no longer true.
 */
export interface Notice {
  id: number;
  text: string;
  kind: 'info' | 'warn';
  /** The phase whose deadline it is about: a newer word on it replaces it, and it goes when that phase closes. */
  deadlineOf?: number;
  /** The phase it is about: it goes when that phase closes. */
  phase?: number;
  /** It goes once this holds (its warning no longer true). */
  until?: () => boolean;
  /** What it is news of (orders saved elsewhere, say): a newer notice on it replaces this one, so they never stack. */
  topic?: string;
  /** What the notice offers to do, as a button beside it. */
  action?: { label: string; run: () => void };
}
export type NoticeOptions = Pick<Notice, 'deadlineOf' | 'phase' | 'until' | 'action' | 'topic'>;

export class NoticeBoard {
  private list = $state.raw<Notice[]>([]);
  private lastId = 0;

  /** What the page says: those still true, the latest four. */
  get shown(): Notice[] {
    return this.list.filter((n) => !n.until?.());
  }

  notify(text: string, kind: Notice['kind'] = 'info', options: NoticeOptions = {}): void {
    const { deadlineOf, topic } = options;
    const kept = this.shown.filter((n) => (deadlineOf === undefined || n.deadlineOf !== deadlineOf) && (topic === undefined || n.topic !== topic));
    // The same news from two sources (an answer, and the live event after it) is said once.
    if (kept.some((n) => n.text === text)) return;
    this.list = [...kept.slice(-3), { id: ++this.lastId, text, kind, ...options }];
  }

  dismiss(id: number): void {
    this.list = this.list.filter((n) => n.id !== id);
  }

  /** Words about phases no longer open are out of date. */
  forgetPhasesBefore(index: number): void {
    this.list = this.list.filter((n) => (n.deadlineOf ?? n.phase ?? index) >= index);
  }

  /** A roll-back: every word about a phase or its deadline is out of date. */
  forgetPhases(): void {
    this.list = this.list.filter((n) => n.deadlineOf === undefined && n.phase === undefined);
  }
}
