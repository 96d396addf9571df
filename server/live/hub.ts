/**
 * The live hub: this instance's websockets, the channels each watches, and how the bus's events reach them —
 * each once, in order, only to whoever may watch the channel. Catch-ups from the event log fill the gaps a lost
 * notification leaves; the heartbeat drops dead sockets and those whose session ended. Transport and parsing
 * are the route's (routes.ts); what the hub needs of the bus, the database and the sessions it is given
 * (`LiveHubOptions`), so it can be driven on its own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { LIVE_CLOSE, LIVE_LIMITS, type ClientMessage, type LiveChannel } from '../../shared/api/live.ts';
import type { GameFacts } from '../access/policy.ts';
import type { Credentials } from '../auth/authenticate.ts';
import type { History, LiveListener, LoggedEvent } from '../bus/live-bus.ts';
import { LiveConnection, type LiveUser } from './connection.ts';
import { Subscription, type Hold } from './subscription.ts';
import { changesWhoMayWatch, gameIdOf, mayWatch } from './who-may-watch.ts';

/** What the hub uses of the live bus (server/bus/live-bus.ts), its reads bound to the database. */
export interface EventFeed {
  subscribe(channel: LiveChannel, listener: LiveListener): () => void;
  /** Called when notifications may have been lost (the LISTEN connection is back). */
  onResync(listener: () => void): () => void;
  currentSeq(channel: LiveChannel): Promise<number>;
  history(channel: LiveChannel, after: number): Promise<History>;
}

export type LiveHubOptions = {
  feed: EventFeed;
  /** What the access rules need of a game (null: no such game). */
  gameFacts(gameId: string): Promise<GameFacts | null>;
  /** The session opened with these credentials, with its user as they are now; null once it has ended. */
  sessionOf(credentials: Credentials): Promise<{ user: LiveUser } | null>;
  log: Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn'>;
  heartbeatMs: number;
  /**
   * Pauses before each further try of a read that failed: a catch-up (then: resync), a check of who may watch
   * (which goes on at the last pause, see `checkPatienceMs`).
   */
  catchUpRetryMs?: readonly number[];
  /** How long a check of who may watch is tried before the watcher is asked to subscribe again. */
  checkPatienceMs?: number;
  /** Events one subscription may hold back while it waits for a read or a check; past it, it is dropped. */
  maxHeldEvents?: number;
};

const CATCH_UP_RETRY_MS = [250, 1_000, 3_000];
/** Longer than a database restart takes: the watchers of a game checked during an outage keep their channel. */
const CHECK_PATIENCE_MS = 120_000;
const MAX_HELD_EVENTS = 1_000;

export class LiveHub {
  private readonly connections = new Set<LiveConnection>();
  /** Set once the server is shutting down: catch-ups then stop retrying. */
  private closing = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly stopResync: () => void;
  /** A game's facts read after one of its events, once for all the watchers it has checked (then forgotten); by channel and number. */
  private readonly factLookups = new Map<string, Promise<GameFacts | null>>();
  /** The last event sent, serialised: the bus gives each event to every watcher of its channel in turn. */
  private lastFrame: { channel: LiveChannel; seq: number; data: Buffer } | null = null;

  constructor(private readonly options: LiveHubOptions) {
    this.heartbeat = setInterval(() => this.sweep(), options.heartbeatMs);
    this.heartbeat.unref();
    this.stopResync = options.feed.onResync(() => this.catchUpAll());
  }

  /** The sockets this user has open on this instance. */
  socketsOf(userId: string): number {
    let count = 0;
    for (const connection of this.connections) if (connection.user.id === userId) count += 1;
    return count;
  }

  /** Serves a socket just opened (authenticated at the upgrade with `credentials`): welcomes it with the limits. */
  open(socket: WebSocket, user: LiveUser, credentials: Credentials): LiveConnection {
    const connection = new LiveConnection(socket, user, credentials);
    this.connections.add(connection);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('close', () => {
      connection.unsubscribeAll();
      this.connections.delete(connection);
    });
    connection.send({
      type: 'welcome',
      user: { id: user.id, username: user.username },
      limits: { ...LIVE_LIMITS, heartbeatMs: this.options.heartbeatMs },
    });
    return connection;
  }

  /** A client's message, parsed (messages are handled one at a time per socket: `LiveConnection.inTurn`). */
  async handle(connection: LiveConnection, message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'ping':
        return connection.send({ type: 'pong' });
      case 'unsubscribe':
        connection.unsubscribe(message.channel);
        return connection.send({ type: 'unsubscribed', channel: message.channel });
      case 'subscribe':
        return this.subscribe(connection, message.channel, message.after, message.inviteCode);
    }
  }

  /** On shutdown (the sockets themselves are closed by the websocket server). */
  close(): void {
    this.closing = true;
    clearInterval(this.heartbeat);
    this.stopResync();
  }

  /**
   * The heartbeat: sockets that did not answer the previous ping are dropped, the others pinged. Sessions are
   * checked too, once per secret (and the look-ups of one beat go to the database together).
   */
  sweep(): void {
    const bySecret = new Map<string, LiveConnection[]>();
    for (const connection of this.connections) {
      if (!connection.beat()) continue;
      const group = bySecret.get(connection.secret);
      if (group) group.push(connection);
      else bySecret.set(connection.secret, [connection]);
    }
    for (const group of bySecret.values()) {
      this.checkSession(group).catch((error: unknown) => this.options.log.debug({ err: error }, 'live session check failed; kept for now'));
    }
  }

  /**
   * Sockets whose session ended (log-out, expiry, a revoked token) are closed: they must not go on hearing
   * private press. The user is read again too. `group` were all opened with the same secret.
   */
  private async checkSession(group: LiveConnection[]): Promise<void> {
    const session = await this.options.sessionOf(group[0].credentials);
    for (const connection of group) {
      if (session && session.user.id === connection.user.id) connection.user = session.user;
      else connection.socket.close(LIVE_CLOSE.sessionEnded, 'the session has ended: log in again');
    }
  }

  private async subscribe(connection: LiveConnection, channel: LiveChannel, after: number | undefined, inviteCode?: string): Promise<void> {
    const existing = connection.subscriptions.get(channel);
    if (existing) return connection.send({ type: 'subscribed', channel, seq: existing.lastSeq });
    if (connection.subscriptions.size >= LIVE_LIMITS.maxSubscriptionsPerSocket) {
      return connection.sendError('rate_limited', `at most ${LIVE_LIMITS.maxSubscriptionsPerSocket} subscriptions per socket`);
    }
    const gameId = gameIdOf(channel);
    if (!mayWatch(channel, connection.user, gameId ? await this.options.gameFacts(gameId) : null, inviteCode)) {
      return connection.sendError('not_found', `no channel ${channel} that you may watch`);
    }
    if (!this.connections.has(connection) || connection.subscriptions.has(channel)) return;
    // Listen first (events wait), then read where the channel stands and what was missed.
    const subscription = new Subscription(channel, after ?? 0, inviteCode);
    subscription.hold('read');
    subscription.stopListening = this.options.feed.subscribe(channel, (event, _channel, seq) => this.deliver(connection, subscription, { seq, event }));
    connection.subscriptions.set(channel, subscription);
    let missed: History | undefined;
    try {
      if (after === undefined) subscription.lastSeq = await this.options.feed.currentSeq(channel);
      else missed = await this.options.feed.history(channel, after);
    } catch (error) {
      if (connection.watches(subscription)) connection.unsubscribe(channel);
      throw error;
    }
    // Dropped while its first read was under way (too many events held back; or the socket went): told already.
    if (!connection.watches(subscription)) return;
    if (missed) this.replay(connection, subscription, missed);
    connection.send({ type: 'subscribed', channel, seq: subscription.lastSeq });
    this.release(connection, subscription, 'read');
  }

  /**
   * Gives one event to a socket: once, in order, only if it may have it. While the subscription holds, events
   * wait. An event that skips numbers reveals lost notifications: the subscription is caught up from the log first.
   */
  private deliver(connection: LiveConnection, subscription: Subscription, logged: LoggedEvent): void {
    switch (subscription.accept(logged)) {
      case 'waits':
        if (subscription.waitingCount > (this.options.maxHeldEvents ?? MAX_HELD_EVENTS)) {
          this.options.log.warn({ channel: subscription.channel }, 'a live subscription held back too many events; its watcher was unsubscribed');
          this.drop(connection, subscription, 'too many events came while your access was being checked: subscribe again');
        }
        return;
      case 'gap':
        this.catchUp(subscription.channel, [[connection, subscription]]);
        return;
      case 'next':
        this.sendEvent(connection, subscription.channel, logged);
        if (changesWhoMayWatch(subscription.channel, logged.event)) this.recheck(connection, subscription, logged.seq);
    }
  }

  private sendEvent(connection: LiveConnection, channel: LiveChannel, logged: LoggedEvent): void {
    if (!this.lastFrame || this.lastFrame.channel !== channel || this.lastFrame.seq !== logged.seq) {
      const data = Buffer.from(JSON.stringify({ type: 'event', channel, seq: logged.seq, event: logged.event }));
      this.lastFrame = { channel, seq: logged.seq, data };
    }
    connection.sendFrame(this.lastFrame.data);
  }

  /** Ends a hold, and gives the events that waited once nothing holds the subscription any more (up to a hold one of them starts). */
  private release(connection: LiveConnection, subscription: Subscription, reason: Hold): void {
    for (const logged of subscription.release(reason)) this.deliver(connection, subscription, logged);
  }

  /**
   * Checks again that the socket's user may watch the channel; what arrives meanwhile waits (nothing is given
   * unchecked). One who may not loses the subscription and is told (`unsubscribed` with a reason); so is one
   * whose check could not be made for `checkPatienceMs` (the database stays down) or who was held back too long.
   */
  private recheck(connection: LiveConnection, subscription: Subscription, seq: number): void {
    subscription.hold('check');
    void this.factsWithRetries(subscription.channel, seq, () => connection.watches(subscription)).then(
      (facts) => {
        if (!connection.watches(subscription)) return;
        if (mayWatch(subscription.channel, connection.user, facts, subscription.inviteCode)) return this.release(connection, subscription, 'check');
        this.drop(connection, subscription, 'you may no longer watch this game');
      },
      (error: unknown) => {
        if (!connection.watches(subscription)) return; // the socket went, or the subscription was dropped meanwhile
        this.options.log.warn({ err: error, channel: subscription.channel }, 'checking who may watch a channel failed; its watchers were unsubscribed');
        this.drop(connection, subscription, 'could not check that you may still watch: subscribe again');
      },
    );
  }

  /**
   * The facts after event `seq`, tried again after a pause when the read fails, for as long as the database
   * may be coming back (`checkPatienceMs`) and someone still `wants` them: checks follow events, and events
   * come in bursts around an outage, when reads fail; unsubscribing every watcher then would send them all to
   * subscribe again at the worst moment.
   */
  private async factsWithRetries(channel: LiveChannel, seq: number, wanted: () => boolean): Promise<GameFacts | null> {
    const pauses = this.options.catchUpRetryMs ?? CATCH_UP_RETRY_MS;
    const giveUpAt = performance.now() + (this.options.checkPatienceMs ?? CHECK_PATIENCE_MS);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.factsAfter(channel, seq);
      } catch (error) {
        const pause = pauses[Math.min(attempt, pauses.length - 1)] ?? 0;
        if (this.closing || !wanted() || performance.now() + pause > giveUpAt) throw error;
        this.options.log.info({ err: error, channel, attempt }, 'checking who may watch a channel failed; trying again');
        await sleep(pause, undefined, { ref: false });
      }
    }
  }

  /**
   * The facts of a channel's game as they are after its event `seq`, read once for the watchers that event has
   * checked (the bus tells them in the same turn). Not shared with a read begun for an earlier event: that one
   * may have read the game before this event's change was committed.
   */
  private factsAfter(channel: LiveChannel, seq: number): Promise<GameFacts | null> {
    const key = `${channel}#${seq}`;
    let lookup = this.factLookups.get(key);
    if (!lookup) {
      const gameId = gameIdOf(channel);
      lookup = gameId ? this.options.gameFacts(gameId) : Promise.resolve(null);
      this.factLookups.set(key, lookup);
      const forget = () => this.factLookups.delete(key);
      lookup.then(forget, forget);
    }
    return lookup;
  }

  private drop(connection: LiveConnection, subscription: Subscription, reason: string): void {
    connection.unsubscribe(subscription.channel);
    connection.send({ type: 'unsubscribed', channel: subscription.channel, reason });
  }

  /**
   * Gives a subscription that holds for a read of the log the events it missed, or `resync` for the channel when
   * they cannot all be replayed (or the log could not be read). The caller then ends the read's hold.
   */
  private replay(connection: LiveConnection, subscription: Subscription, history: History | null): void {
    if (!history?.complete) {
      connection.send({ type: 'resync', channel: subscription.channel });
      subscription.passOver(history ? history.seq : null);
      return;
    }
    // The read's hold is lifted while the missed events are given, then taken again: what came meanwhile waits
    // behind them, and so does the rest of them should one of them have the watcher checked again.
    const meanwhile = subscription.release('read');
    for (const logged of history.events) this.deliver(connection, subscription, logged);
    subscription.hold('read');
    subscription.wait(meanwhile);
  }

  /** Catches up subscriptions of one channel (each holding for it) with one read of the log, from the furthest behind. */
  private catchUp(channel: LiveChannel, watchers: Array<[LiveConnection, Subscription]>): void {
    const from = Math.min(...watchers.map(([, subscription]) => subscription.lastSeq));
    void this.catchUpRead(channel, from).then((history) => {
      for (const [connection, subscription] of watchers) {
        if (!connection.watches(subscription)) continue;
        this.replay(connection, subscription, history);
        this.release(connection, subscription, 'read');
      }
    });
  }

  /**
   * The LISTEN connection was lost and is back: notifications in between were lost, not the events: catch
   * every subscription up from the log (one read per channel), or tell it to resync. (Events that arrive
   * meanwhile wait; a gap they would reveal is handled by deliver as well.) One held for a check is caught up
   * too: what the read brings waits with the rest until the check is done.
   */
  private catchUpAll(): void {
    const byChannel = new Map<LiveChannel, Array<[LiveConnection, Subscription]>>();
    for (const connection of this.connections) {
      for (const subscription of connection.subscriptions.values()) {
        if (subscription.reading) continue; // already being caught up
        subscription.hold('read');
        const watchers = byChannel.get(subscription.channel) ?? [];
        watchers.push([connection, subscription]);
        byChannel.set(subscription.channel, watchers);
      }
    }
    for (const [channel, watchers] of byChannel) this.catchUp(channel, watchers);
  }

  /**
   * Reads what a channel's watchers missed, for a catch-up: null (they are told to resync) only when the log
   * cannot be read after a few tries. Catch-ups follow outages, when the first reads may still fail (the pool's
   * connections are being re-made); a resync would send every watcher to refetch from a database that is just
   * coming back.
   */
  private async catchUpRead(channel: LiveChannel, after: number): Promise<History | null> {
    const pauses = this.options.catchUpRetryMs ?? CATCH_UP_RETRY_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.options.feed.history(channel, after);
      } catch (error) {
        if (this.closing || attempt === pauses.length) {
          this.options.log.warn({ err: error, channel }, 'live catch-up failed; watchers told to resync');
          return null;
        }
        this.options.log.info({ err: error, channel, attempt }, 'live catch-up read failed; trying again');
        await sleep(pauses[attempt], undefined, { ref: false });
      }
    }
  }
}
