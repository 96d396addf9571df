/**
 * The live websocket (/api/live): subscribe to `lobby`, `game:<id>` or
 * `user:<id>` and get told what changed; pages refetch over HTTP. Reconnects
 * with backoff, and re-subscribes; a `resync` message means events were
 * missed. When the server ends a subscription itself (`unsubscribed` with a
 * reason: the user may no longer watch that game), its listeners are told
 * and it is forgotten: a page that may still see the game subscribes again.
 * When the server closes the socket because its session ended,
 * `onSessionEnded` is told.
 */
import type { ClientMessage, LiveChannel, LiveEvent, ServerMessage } from '../../../shared/api/index.ts';
import { LIVE_CLOSE } from '../../../shared/api/live-close.ts';

/** What a listener hears: an event, that events were missed (`resync`), or that the server ended the subscription. */
export type LiveNews = LiveEvent | { type: 'resync' } | { type: 'unsubscribed'; reason: string };
type Listener = (event: LiveNews) => void;

/**
 * How long a socket nobody listens to stays open: when one page hands over to another (a game's page
 * to its board), the socket is kept rather than closed while it is still connecting and opened again.
 */
export const IDLE_CLOSE_MS = 2000;

class Live {
  private socket: WebSocket | null = null;
  private listeners = new Map<LiveChannel, Set<Listener>>();
  /** Called, per listener that asked, each time the server confirms its channel's subscription (see subscribe). */
  private onListening = new Map<Listener, () => void>();
  /** Channels the server confirmed on the open socket: from then on it tells each of their events. */
  private confirmed = new Set<LiveChannel>();
  /** The invite code a channel was asked for with (a private game or battle watched without a seat), sent again on reconnect. */
  private inviteCodes = new Map<LiveChannel, string>();
  private retry = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private idle: ReturnType<typeof setTimeout> | null = null;
  /** Called when the server closed the socket because the session ended (session.svelte.ts refreshes who is logged in). */
  onSessionEnded: (() => void) | null = null;

  /**
   * Listen on a channel (a private one's invite code lets one without a seat watch it); returns the function that
   * stops listening. `onListening` is called once the server listens on the channel for this socket (at once if it
   * does already), and again after each reconnect: what was read before then may predate an event this listener was
   * never told of (the game started between the page's read and its subscription), so a page reads again there.
   */
  subscribe(channel: LiveChannel, listener: Listener, inviteCode?: string, onListening?: () => void): () => void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      if (inviteCode) this.inviteCodes.set(channel, inviteCode);
      else this.inviteCodes.delete(channel);
      this.send(this.subscription(channel));
    }
    set.add(listener);
    if (onListening) {
      this.onListening.set(listener, onListening);
      if (this.confirmed.has(channel)) queueMicrotask(() => this.onListening.get(listener)?.());
    }
    this.connect();
    return () => {
      set.delete(listener);
      this.onListening.delete(listener);
      // Not a later subscription to the channel, once the server ended this one.
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        this.inviteCodes.delete(channel);
        this.confirmed.delete(channel);
        this.send({ type: 'unsubscribe', channel });
      }
      if (this.listeners.size === 0 && !this.idle)
        this.idle = setTimeout(() => {
          this.idle = null;
          if (this.listeners.size === 0) this.close();
        }, IDLE_CLOSE_MS);
    };
  }

  private subscription(channel: LiveChannel): ClientMessage {
    const inviteCode = this.inviteCodes.get(channel);
    return { type: 'subscribe', channel, ...(inviteCode ? { inviteCode } : {}) };
  }

  private send(message: ClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private connect(): void {
    if (this.socket || this.timer || typeof WebSocket === 'undefined') return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/live`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 0;
      for (const channel of this.listeners.keys()) this.send(this.subscription(channel));
      this.pinger = setInterval(() => this.send({ type: 'ping' }), 25_000);
    };
    socket.onmessage = (m) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(String(m.data)) as ServerMessage;
      } catch {
        return;
      }
      if (message.type === 'event') for (const l of this.listeners.get(message.channel) ?? []) l(message.event);
      else if (message.type === 'subscribed') {
        const set = this.listeners.get(message.channel);
        if (!set) return;
        this.confirmed.add(message.channel);
        for (const l of set) this.onListening.get(l)?.();
      } else if (message.type === 'resync') for (const set of this.listeners.values()) for (const l of set) l({ type: 'resync' });
      else if (message.type === 'unsubscribed' && message.reason !== undefined) {
        // The server ended it: not asked for again on a reconnect. The listeners read again what they show (and
        // subscribe again if they still may see the game), rather than keep a view that no longer changes.
        const set = this.listeners.get(message.channel);
        if (!set) return;
        this.listeners.delete(message.channel);
        this.confirmed.delete(message.channel);
        for (const l of set) l({ type: 'unsubscribed', reason: message.reason });
      }
    };
    socket.onclose = (event) => {
      // A socket closed on purpose (close()) may report it after a new one opened: leave that one alone.
      if (this.socket !== socket) return;
      this.socket = null;
      this.confirmed.clear();
      if (this.pinger) clearInterval(this.pinger);
      this.pinger = null;
      // The page asks who is logged in now: if nobody, it stops listening (and the retry below is cancelled).
      if (event.code === LIVE_CLOSE.sessionEnded) this.onSessionEnded?.();
      if (this.listeners.size === 0) return;
      // Back off: 1 s, 2 s, 4 s … up to 30 s; events missed meanwhile are made up by a resync.
      const delay = Math.min(30_000, 1000 * 2 ** this.retry++);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.connect();
        for (const set of this.listeners.values()) for (const l of set) l({ type: 'resync' });
      }, delay);
    };
  }

  private close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
    const socket = this.socket;
    this.socket = null;
    this.confirmed.clear();
    socket?.close(1000);
  }
}

export const live = new Live();
