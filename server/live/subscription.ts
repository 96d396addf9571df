/**
 * One channel that one socket watches, and the order in which its events reach the socket. A channel's events
 * are numbered 1, 2, 3 … without gaps (server/bus/live-bus.ts), so each is given once and in order, and an
 * event that skips numbers shows that some were missed (a notification lost with the LISTEN connection).
 */
import type { LiveChannel } from '../../shared/api/live.ts';
import type { LoggedEvent } from '../bus/live-bus.ts';

/**
 * What an arriving event is to the subscription: it `waits` (the subscription holds), was `seen` already (given
 * or passed over), reveals a `gap` (it waits while the missed ones are read: the subscription now holds for that
 * read), or is the `next` one, to give now.
 */
export type Arrival = 'waits' | 'seen' | 'gap' | 'next';

/**
 * Why events wait: a `read` of the log (the subscription's first, or a catch-up), or a `check` that the watcher
 * may still watch. Both may be under way at once (a replayed event has the watcher checked), so each is counted.
 */
export type Hold = 'read' | 'check';

export class Subscription {
  /** The number of the last event on the channel that the socket has been given or passed over. */
  lastSeq: number;
  /** Stops the bus's calls for this subscription; set once it listens. */
  stopListening: () => void = () => {};
  private readonly holds: Record<Hold, number> = { read: 0, check: 0 };
  /** In order of their numbers, each once: a catch-up's events and the bus's may arrive in any order, and twice. */
  private waiting: LoggedEvent[] = [];

  constructor(
    readonly channel: LiveChannel,
    lastSeq: number,
    /** The invite code it was opened with: who may watch is checked again with it. */
    readonly inviteCode?: string,
  ) {
    this.lastSeq = lastSeq;
  }

  get holding(): boolean {
    return this.holds.read + this.holds.check > 0;
  }

  /** How many events wait for the holds to end. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** A read of the log is under way for it. */
  get reading(): boolean {
    return this.holds.read > 0;
  }

  accept(logged: LoggedEvent): Arrival {
    if (this.holding) {
      this.wait([logged]);
      return 'waits';
    }
    if (logged.seq <= this.lastSeq) return 'seen';
    if (logged.seq > this.lastSeq + 1) {
      this.hold('read');
      this.wait([logged]);
      return 'gap';
    }
    this.lastSeq = logged.seq;
    return 'next';
  }

  hold(reason: Hold): void {
    this.holds[reason] += 1;
  }

  /** Ends one hold; once none is left, the events that waited (in order), for the caller to give. */
  release(reason: Hold): LoggedEvent[] {
    this.holds[reason] -= 1;
    if (this.holding) return [];
    const waiting = this.waiting;
    this.waiting = [];
    return waiting;
  }

  wait(events: readonly LoggedEvent[]): void {
    for (const logged of events) {
      let at = this.waiting.length;
      while (at > 0 && this.waiting[at - 1].seq > logged.seq) at -= 1;
      if (this.waiting[at - 1]?.seq !== logged.seq) this.waiting.splice(at, 0, logged);
    }
  }

  /**
   * The events missed cannot be replayed (the client is told to refetch): go on from where the channel stands
   * (`channelSeq`, when it could be read), or else from the first event that waited.
   */
  passOver(channelSeq: number | null): void {
    this.lastSeq = channelSeq !== null ? Math.max(this.lastSeq, channelSeq) : this.waiting.length ? this.waiting[0].seq - 1 : this.lastSeq;
  }
}
