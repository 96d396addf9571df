/**
 * One open websocket of the live hub: whose it is, what it watches, whether it still answers, and the limits
 * that hold for it alone (messages per window, unsent bytes). Limits: shared/api/live.ts.
 */
import type { WebSocket } from 'ws';
import { LIVE_LIMITS, type LiveChannel, type ServerMessage } from '../../shared/api/live.ts';
import type { Credentials } from '../auth/authenticate.ts';
import type { Auth } from '../auth/caller.ts';
import type { Subscription } from './subscription.ts';

/** WebSocket close codes (RFC 6455). */
export const POLICY_VIOLATION = 1008;
const TRY_AGAIN_LATER = 1013;

export type LiveUser = Auth['user'];

export class LiveConnection {
  /** Answered the last ping (or sent something since): kept at the next heartbeat. */
  alive = true;
  readonly subscriptions = new Map<LiveChannel, Subscription>();
  /** Messages are handled one at a time, in order (so limits are checked against settled state). */
  private queue: Promise<void> = Promise.resolve();
  /** Start of the current rate window and the messages received in it. */
  private windowStart = Date.now();
  private messagesInWindow = 0;

  constructor(
    readonly socket: WebSocket,
    /** Read again at every heartbeat (an administrator's rights may have been revoked). */
    public user: LiveUser,
    /** The secret the socket was opened with, to check that its session still holds. */
    readonly credentials: Credentials,
  ) {}

  /** Sockets opened with the same secret share one session look-up per heartbeat. */
  get secret(): string {
    return `${this.credentials.kind}:${this.credentials.token}`;
  }

  /** Whether the subscription is still this socket's (it may have been ended while a read was under way). */
  watches(subscription: Subscription): boolean {
    return this.subscriptions.get(subscription.channel) === subscription;
  }

  unsubscribe(channel: LiveChannel): void {
    this.subscriptions.get(channel)?.stopListening();
    this.subscriptions.delete(channel);
  }

  unsubscribeAll(): void {
    for (const channel of [...this.subscriptions.keys()]) this.unsubscribe(channel);
  }

  /** Whether a message may be sent: the socket is open and not too far behind. */
  sendable(): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    // A client that does not read its messages must not make the server buffer them for ever.
    if (this.socket.bufferedAmount > LIVE_LIMITS.maxBufferedBytes) {
      this.socket.close(TRY_AGAIN_LATER, 'too far behind: reconnect and refetch');
      return false;
    }
    return true;
  }

  send(message: ServerMessage): void {
    if (this.sendable()) this.socket.send(JSON.stringify(message));
  }

  /** A message serialised once for every socket it goes to. */
  sendFrame(frame: Buffer): void {
    if (this.sendable()) this.socket.send(frame, { binary: false });
  }

  sendError(code: string, message: string): void {
    this.send({ type: 'error', error: { code, message } });
  }

  /** Counts a message from the client: false, and the socket is closed, when it is one too many for the window. */
  admit(now = Date.now()): boolean {
    this.alive = true;
    if (now - this.windowStart >= LIVE_LIMITS.messageWindowMs) {
      this.windowStart = now;
      this.messagesInWindow = 0;
    }
    this.messagesInWindow += 1;
    if (this.messagesInWindow <= LIVE_LIMITS.maxMessagesPerWindow) return true;
    this.socket.close(POLICY_VIOLATION, `too many messages: at most ${LIVE_LIMITS.maxMessagesPerWindow} per ${LIVE_LIMITS.messageWindowMs / 1000} s`);
    return false;
  }

  /** Runs `handle` once the messages before have been handled; `failed` when it throws. */
  inTurn(handle: () => Promise<void> | void, failed: (error: unknown) => void): void {
    this.queue = this.queue.then(handle).catch(failed);
  }

  /** The heartbeat: a socket that did not answer the previous ping is dropped (false); the others are pinged again. */
  beat(): boolean {
    if (!this.alive) {
      this.socket.terminate();
      return false;
    }
    this.alive = false;
    this.socket.ping();
    return true;
  }
}
