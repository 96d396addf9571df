/**
 * One channel that one socket watches, and the order in which its events reach the socket. A channel's events
 * are numbered 1, 2, 3 … without gaps (server/bus/live-bus.ts), so each is given once and in order, and an
 * event that skips numbers shows that some were missed (a notification lost with the LISTEN connection).
 */
import type { LiveChannel } from '../../shared/api/live.ts';
import type { LoggedEvent } from '../bus/live-bus.ts';

/**
 * What an arriving event is to the subscription: it `waits` (the subscription holds), was `seen` already (given
 * or passed over), reveals a `gap` (it waits while the missed ones are read: the subscription now holds), or is
 * the `next` one, to give now.
 */
export type Arrival = 'waits' | 'seen' | 'gap' | 'next';

export class Subscription {
  /** The number of the last event on the channel that the socket has been given or passed over. */
  lastSeq: number;
  /** Stops the bus's calls for this subscription; set once it listens. */
  stopListening: () => void = () => {};
  /** Reads or checks under way (the first read, a catch-up from the log, a check of who may watch): events wait meanwhile. */
  private holds = 0;
  private waiting: LoggedEvent[] = [];

  constructor(
    readonly channel: LiveChannel,
    lastSeq: number,
  ) {
    this.lastSeq = lastSeq;
  }

  get holding(): boolean {
    return this.holds > 0;
  }

  accept(logged: LoggedEvent): Arrival {
    if (this.holding) {
      this.waiting.push(logged);
      return 'waits';
    }
    if (logged.seq <= this.lastSeq) return 'seen';
    if (logged.seq > this.lastSeq + 1) {
      this.hold();
      this.waiting.push(logged);
      return 'gap';
    }
    this.lastSeq = logged.seq;
    return 'next';
  }

  hold(): void {
    this.holds = 1;
  }

  /** Ends one hold; once none is left, the events that waited (in order), for the caller to give. */
  release(): LoggedEvent[] {
    this.holds = 0;
    const waiting = this.waiting;
    this.waiting = [];
    return waiting;
  }

  /** Ends every hold and returns what waited, to be put back after a replay. */
  setAside(): LoggedEvent[] {
    const waiting = this.waiting;
    this.waiting = [];
    this.holds = 0;
    return waiting;
  }

  putBack(waiting: LoggedEvent[]): void {
    this.waiting = waiting;
    this.holds = 1;
  }

  /**
   * The events missed cannot be replayed (the client is told to refetch): go on from where the channel stands
   * (`channelSeq`, when it could be read), or else from the first event that waited.
   */
  passOver(channelSeq: number | null, waiting: readonly LoggedEvent[]): void {
    this.lastSeq = channelSeq !== null ? Math.max(this.lastSeq, channelSeq) : waiting.length ? waiting[0].seq - 1 : this.lastSeq;
  }
}
