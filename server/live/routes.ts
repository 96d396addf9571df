/**
 * The websocket at /api/live: authenticated with the session cookie or an API
 * token (checked before the upgrade, and again at every heartbeat), then
 * per-channel subscriptions fed by the live bus. Protocol and limits:
 * shared/api/live.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  ClientMessageSchema,
  LIVE_CLOSE,
  LIVE_LIMITS,
  type LiveChannel,
  type LiveEvent,
  type ServerMessage,
} from '../../shared/api/live.ts';
import { credentialsOf, type Credentials } from '../auth/authenticate.ts';
import { mayView, type GameFacts } from '../access/policy.ts';
import { findSession } from '../auth/sessions.ts';
import { forbidden, HttpError, unauthenticated } from '../errors.ts';
import type { Auth } from '../auth/caller.ts';
import type { History, LoggedEvent } from '../bus/live-bus.ts';
import { errorResponses } from '../schemas.ts';

/**
 * A channel a socket watches. `lastSeq`: the number of the last event on it
 * that this socket has been given or passed over (not meant for it); while
 * `buffer` is set, the socket is being caught up from the event log and live
 * events wait there (then are given if newer than `lastSeq`).
 */
type Subscription = { stop: () => void; lastSeq: number; buffer: LoggedEvent[] | null };

type Connection = {
  user: Auth['user'];
  /** The secret the socket was opened with, to check that its session still holds. */
  credentials: Credentials;
  alive: boolean;
  subscriptions: Map<LiveChannel, Subscription>;
  /** Messages are handled one at a time, in order (so limits are checked against settled state). */
  queue: Promise<void>;
  /** Start of the current rate window and the messages received in it. */
  windowStart: number;
  messagesInWindow: number;
};

/**
 * Events after which someone watching a game may no longer be allowed to (a seat left or handed on, a new game
 * master): each watcher of the channel is checked again, and those no longer allowed lose the subscription at once.
 */
function changesWhoMayWatch(event: LiveEvent): boolean {
  return event.type === 'player.left' || (event.type === 'player.status' && event.replaced) || event.type === 'gm.action';
}

/** Pauses before each further try of a catch-up read that failed (then: resync). */
const CATCH_UP_RETRY_MS = [250, 1_000, 3_000];

const gameFactsSelect = {
  private: true,
  anonymous: true,
  status: true,
  gameMasterId: true,
  invitedGameMasterId: true,
  finalAt: true,
  players: { select: { userId: true, power: true } },
} as const;

/** WebSocket close codes (RFC 6455). */
const POLICY_VIOLATION = 1008;
const TRY_AGAIN_LATER = 1013;

const liveRoutes: FastifyPluginAsync = async (app) => {
  const connections = new Map<WebSocket, Connection>();
  /** Set once the server is shutting down: catch-ups then stop retrying. */
  let closing = false;

  /** Whether a message may be sent: the socket is open and not too far behind. */
  const sendable = (socket: WebSocket): boolean => {
    if (socket.readyState !== socket.OPEN) return false;
    // A client that does not read its messages must not make the server buffer them for ever.
    if (socket.bufferedAmount > LIVE_LIMITS.maxBufferedBytes) {
      socket.close(TRY_AGAIN_LATER, 'too far behind: reconnect and refetch');
      return false;
    }
    return true;
  };
  const send = (socket: WebSocket, message: ServerMessage) => {
    if (!sendable(socket)) return;
    socket.send(JSON.stringify(message));
  };
  const sendError = (socket: WebSocket, code: string, message: string) => send(socket, { type: 'error', error: { code, message } });

  /**
   * Sockets whose session ended (log-out, expiry, a revoked token) are closed: they must not go on hearing
   * private press. The user is read again too (an administrator's rights may have been revoked). `sockets`
   * were all opened with the same secret, which is looked up once.
   */
  async function checkSession(sockets: Array<[WebSocket, Connection]>): Promise<void> {
    const { token, kind } = sockets[0][1].credentials;
    const session = await findSession(app.database, token, kind);
    for (const [socket, connection] of sockets) {
      if (session && session.user.id === connection.user.id) connection.user = session.user;
      else socket.close(LIVE_CLOSE.sessionEnded, 'the session has ended: log in again');
    }
  }

  // Heartbeat: ping every interval; a socket that has not answered the previous ping is dead.
  // Sessions are checked too, once per secret (and the look-ups of one beat go to the database together).
  const heartbeat = setInterval(() => {
    const bySecret = new Map<string, Array<[WebSocket, Connection]>>();
    for (const [socket, connection] of connections) {
      if (!connection.alive) {
        socket.terminate();
        continue;
      }
      connection.alive = false;
      socket.ping();
      const secret = `${connection.credentials.kind}:${connection.credentials.token}`;
      const group = bySecret.get(secret);
      if (group) group.push([socket, connection]);
      else bySecret.set(secret, [[socket, connection]]);
    }
    for (const sockets of bySecret.values()) {
      checkSession(sockets).catch((error: unknown) => app.log.debug({ err: error }, 'live session check failed; kept for now'));
    }
  }, app.settings.heartbeatMs);
  heartbeat.unref();

  /**
   * Gives one event to a socket: once, in order, only if it may have it. While
   * the subscription is being caught up from the log, events wait in its
   * buffer. An event that skips numbers reveals lost notifications (a LISTEN
   * connection that dropped): the subscription is caught up from the log first.
   */
  function deliver(socket: WebSocket, connection: Connection, channel: LiveChannel, subscription: Subscription, logged: LoggedEvent): void {
    if (subscription.buffer) {
      subscription.buffer.push(logged);
      return;
    }
    if (logged.seq <= subscription.lastSeq) return;
    if (logged.seq > subscription.lastSeq + 1) {
      subscription.buffer = [logged];
      void catchUpRead(channel, subscription.lastSeq).then((history) => {
        if (connection.subscriptions.get(channel) !== subscription) return;
        replay(socket, connection, channel, subscription, history);
        release(socket, connection, channel, subscription);
      });
      return;
    }
    subscription.lastSeq = logged.seq;
    sendEvent(socket, channel, logged);
    if (changesWhoMayWatch(logged.event)) recheck(socket, connection, channel, subscription);
  }

  /**
   * Checks again that the socket's user may watch the channel; what arrives meanwhile waits. One who may not
   * (or when the check fails: better to ask the client to subscribe again than to go on unchecked) loses the
   * subscription and is told (`unsubscribed` with a reason). The watchers of one event share one look-up.
   */
  function recheck(socket: WebSocket, connection: Connection, channel: LiveChannel, subscription: Subscription): void {
    subscription.buffer ??= [];
    void watchable(channel).then(
      (facts) => {
        if (connection.subscriptions.get(channel) !== subscription) return;
        if (facts !== null && mayWatchWith(facts, connection.user, channel)) return release(socket, connection, channel, subscription);
        drop(socket, connection, channel, subscription, 'you may no longer watch this game');
      },
      (error: unknown) => {
        app.log.warn({ err: error, channel }, 'checking who may watch a channel failed; its watchers were unsubscribed');
        if (connection.subscriptions.get(channel) === subscription) drop(socket, connection, channel, subscription, 'could not check that you may still watch: subscribe again');
      },
    );
  }

  function drop(socket: WebSocket, connection: Connection, channel: LiveChannel, subscription: Subscription, reason: string): void {
    subscription.stop();
    connection.subscriptions.delete(channel);
    send(socket, { type: 'unsubscribed', channel, reason });
  }

  /** The facts the access rules need about a channel's game (null: no such game), read once for everyone checked together. */
  const lookups = new Map<LiveChannel, Promise<GameFacts | null>>();
  function watchable(channel: LiveChannel): Promise<GameFacts | null> {
    let lookup = lookups.get(channel);
    if (!lookup) {
      lookup = channel.startsWith('game:') ? app.prisma.game.findUnique({ where: { id: channel.slice('game:'.length) }, select: gameFactsSelect }) : Promise.resolve(null);
      lookups.set(channel, lookup);
      // Kept for the watchers of this event (told in the same turn), then forgotten.
      const forget = () => lookups.delete(channel);
      lookup.then(forget, forget);
    }
    return lookup;
  }

  /**
   * An event goes to every socket watching its channel in turn (the bus calls each subscription for
   * the same event): its message is the same for all of them, so it is serialised once.
   */
  let lastFrame: { channel: LiveChannel; seq: number; data: Buffer } | null = null;
  function sendEvent(socket: WebSocket, channel: LiveChannel, logged: LoggedEvent): void {
    if (!sendable(socket)) return;
    if (!lastFrame || lastFrame.channel !== channel || lastFrame.seq !== logged.seq) {
      const message: ServerMessage = { type: 'event', channel, seq: logged.seq, event: logged.event };
      lastFrame = { channel, seq: logged.seq, data: Buffer.from(JSON.stringify(message)) };
    }
    socket.send(lastFrame.data, { binary: false });
  }

  /**
   * Gives a subscription (whose buffer holds what arrives meanwhile) the logged events it
   * missed, or `resync` for the channel when they cannot all be replayed (or the log could not be read).
   */
  function replay(socket: WebSocket, connection: Connection, channel: LiveChannel, subscription: Subscription, history: History | null): void {
    const waiting = subscription.buffer;
    subscription.buffer = null;
    if (history?.complete) {
      for (const logged of history.events) deliver(socket, connection, channel, subscription, logged);
    } else {
      send(socket, { type: 'resync', channel });
      // The client refetches: go on from where the channel stands (or from the first event that waited).
      subscription.lastSeq = history ? Math.max(subscription.lastSeq, history.seq) : waiting?.length ? waiting[0].seq - 1 : subscription.lastSeq;
    }
    subscription.buffer = waiting;
  }

  /**
   * Reads what a channel's watchers missed, for a catch-up: null (they are told to resync) only when
   * the log cannot be read after a few tries. Catch-ups follow outages, when the first reads may
   * still fail (the pool's connections are being re-made); a resync would send every watcher to
   * refetch from a database that is just coming back.
   */
  async function catchUpRead(channel: LiveChannel, after: number): Promise<History | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await app.bus.history(app.prisma, channel, after);
      } catch (error) {
        if (closing || attempt === CATCH_UP_RETRY_MS.length) {
          app.log.warn({ err: error, channel }, 'live catch-up failed; watchers told to resync');
          return null;
        }
        app.log.info({ err: error, channel, attempt }, 'live catch-up read failed; trying again');
        await sleep(CATCH_UP_RETRY_MS[attempt], undefined, { ref: false });
      }
    }
  }

  /** Gives the events that waited while the subscription was caught up. */
  function release(socket: WebSocket, connection: Connection, channel: LiveChannel, subscription: Subscription): void {
    const waiting = subscription.buffer ?? [];
    subscription.buffer = null;
    for (const logged of waiting) deliver(socket, connection, channel, subscription, logged);
  }

  // The LISTEN connection was lost and is back: notifications in between were lost, not the events:
  // catch every subscription up from the log (one read per channel), or tell it to resync. (Events that
  // arrive meanwhile wait; a gap they would reveal is handled by deliver as well.)
  const stopResync = app.bus.onResync(() => {
    const byChannel = new Map<LiveChannel, Array<[WebSocket, Connection, Subscription]>>();
    for (const [socket, connection] of connections) {
      for (const [channel, subscription] of connection.subscriptions) {
        if (subscription.buffer) continue; // already being caught up
        subscription.buffer = [];
        const list = byChannel.get(channel) ?? [];
        list.push([socket, connection, subscription]);
        byChannel.set(channel, list);
      }
    }
    for (const [channel, watchers] of byChannel) {
      const from = Math.min(...watchers.map(([, , subscription]) => subscription.lastSeq));
      void catchUpRead(channel, from).then((history) => {
        for (const [socket, connection, subscription] of watchers) {
          if (connection.subscriptions.get(channel) !== subscription) continue;
          replay(socket, connection, channel, subscription, history);
          release(socket, connection, channel, subscription);
        }
      });
    }
  });

  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(heartbeat);
    stopResync();
  });

  const openSockets = (userId: string) => [...connections.values()].filter((connection) => connection.user.id === userId).length;

  function originAllowed(request: FastifyRequest): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return true; // not a browser
    if (app.settings.allowedOrigins.includes(origin)) return true;
    try {
      return new URL(origin).host === request.host;
    } catch {
      return false;
    }
  }

  /** Who may watch what: the lobby, anyone logged in; your own user channel, you alone; a game, whoever may see it (access/policy.ts). */
  function mayWatchWith(game: GameFacts | null, user: { id: string; isAdmin: boolean }, channel: LiveChannel): boolean {
    if (channel === 'lobby') return true;
    if (channel.startsWith('user:')) return channel === `user:${user.id}`;
    return game !== null && mayView(game, user);
  }

  async function mayWatch(user: { id: string; isAdmin: boolean }, channel: LiveChannel): Promise<boolean> {
    const game = channel.startsWith('game:') ? await app.prisma.game.findUnique({ where: { id: channel.slice('game:'.length) }, select: gameFactsSelect }) : null;
    return mayWatchWith(game, user, channel);
  }

  async function handleMessage(socket: WebSocket, connection: Connection, text: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return sendError(socket, 'bad_request', 'messages must be JSON objects');
    }
    const parsed = ClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ');
      return sendError(socket, 'validation_failed', details);
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ping':
        return send(socket, { type: 'pong' });
      case 'unsubscribe':
        connection.subscriptions.get(message.channel)?.stop();
        connection.subscriptions.delete(message.channel);
        return send(socket, { type: 'unsubscribed', channel: message.channel });
      case 'subscribe': {
        const { channel } = message;
        const existing = connection.subscriptions.get(channel);
        if (existing) return send(socket, { type: 'subscribed', channel, seq: existing.lastSeq });
        if (connection.subscriptions.size >= LIVE_LIMITS.maxSubscriptionsPerSocket) {
          return sendError(socket, 'rate_limited', `at most ${LIVE_LIMITS.maxSubscriptionsPerSocket} subscriptions per socket`);
        }
        if (!(await mayWatch(connection.user, channel))) {
          return sendError(socket, 'not_found', `no channel ${channel} that you may watch`);
        }
        if (!connections.has(socket) || connection.subscriptions.has(channel)) return;
        // Listen first (events wait in the buffer), then read where the channel stands and what was missed.
        const subscription: Subscription = { stop: () => {}, lastSeq: message.after ?? 0, buffer: [] };
        subscription.stop = app.bus.subscribe(channel, (event, _channel, seq) => deliver(socket, connection, channel, subscription, { seq, event }));
        connection.subscriptions.set(channel, subscription);
        try {
          if (message.after === undefined) subscription.lastSeq = await app.bus.currentSeq(app.prisma, channel);
          else replay(socket, connection, channel, subscription, await app.bus.history(app.prisma, channel, message.after));
        } catch (error) {
          subscription.stop();
          connection.subscriptions.delete(channel);
          throw error;
        }
        send(socket, { type: 'subscribed', channel, seq: subscription.lastSeq });
        return release(socket, connection, channel, subscription);
      }
    }
  }

  app.route({
    method: 'GET',
    url: '/live',
    schema: {
      tags: ['live'],
      summary: 'Websocket for live events: open it with an Upgrade request (protocol: shared/api/live.ts)',
      response: { ...errorResponses },
    },
    // Runs before the upgrade, so refusals are ordinary HTTP error responses.
    preValidation: async (request) => {
      const auth = request.auth;
      if (!auth) throw unauthenticated();
      // Browsers send cookies with cross-site websocket requests too (no CORS for websockets).
      if (auth.via === 'cookie' && !originAllowed(request)) {
        throw forbidden('origin_not_allowed', `websocket connections from ${request.headers.origin} are not allowed`);
      }
      if (openSockets(auth.user.id) >= LIVE_LIMITS.maxSocketsPerUser) {
        throw new HttpError(429, 'rate_limited', `at most ${LIVE_LIMITS.maxSocketsPerUser} live connections per user`);
      }
    },
    // A plain GET (no Upgrade header) gets an explanation instead of a socket.
    handler: async () => {
      throw new HttpError(426, 'upgrade_required', 'open /api/live as a websocket (send "Upgrade: websocket")');
    },
    wsHandler: (socket, request) => {
      const user = request.auth!.user;
      // Upgrades racing past the check in preValidation: the limit holds all the same.
      if (openSockets(user.id) >= LIVE_LIMITS.maxSocketsPerUser) {
        socket.close(POLICY_VIOLATION, `at most ${LIVE_LIMITS.maxSocketsPerUser} live connections per user`);
        return;
      }
      const connection: Connection = {
        user,
        // Checked in preValidation: the upgrade was authenticated with these.
        credentials: credentialsOf(request)!,
        alive: true,
        subscriptions: new Map(),
        queue: Promise.resolve(),
        windowStart: Date.now(),
        messagesInWindow: 0,
      };
      connections.set(socket, connection);
      socket.on('pong', () => {
        connection.alive = true;
      });
      socket.on('message', (data, isBinary) => {
        connection.alive = true;
        const now = Date.now();
        if (now - connection.windowStart >= LIVE_LIMITS.messageWindowMs) {
          connection.windowStart = now;
          connection.messagesInWindow = 0;
        }
        connection.messagesInWindow += 1;
        if (connection.messagesInWindow > LIVE_LIMITS.maxMessagesPerWindow) {
          socket.close(
            POLICY_VIOLATION,
            `too many messages: at most ${LIVE_LIMITS.maxMessagesPerWindow} per ${LIVE_LIMITS.messageWindowMs / 1000} s`,
          );
          return;
        }
        if (isBinary) return sendError(socket, 'bad_request', 'send text frames');
        const text = data.toString();
        connection.queue = connection.queue
          .then(() => handleMessage(socket, connection, text))
          .catch((error: unknown) => {
            request.log.warn({ err: error }, 'live message failed');
            sendError(socket, 'internal_error', 'could not handle the message; try again');
          });
      });
      socket.on('close', () => {
        for (const subscription of connection.subscriptions.values()) subscription.stop();
        connections.delete(socket);
      });
      send(socket, { type: 'welcome', user: { id: user.id, username: user.username }, limits: { ...LIVE_LIMITS, heartbeatMs: app.settings.heartbeatMs } });
    },
  });
};

export default liveRoutes;
