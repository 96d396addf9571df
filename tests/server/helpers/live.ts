/** A real `ws` client for the live endpoint of a listening app. */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { LiveChannel, ServerMessage } from '../../../shared/api/live.ts';

/** The apps behind the live endpoints handed out, by address: `settled` asks a socket's app how far its channels stand. */
const appsByUrl = new Map<string, FastifyInstance>();

/** The app's live endpoint, listening on a free port from the first call on (later calls, from other tests of the file, get the same). */
export async function listen(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening on a TCP port');
  const url = `ws://127.0.0.1:${address.port}/api/live`;
  // Closed apps are let go (files share their modules, and this map, in one process).
  for (const [known, other] of appsByUrl) if (!other.server.listening) appsByUrl.delete(known);
  appsByUrl.set(url, app);
  return url;
}

export type LiveClient = {
  socket: WebSocket;
  messages: ServerMessage[];
  /** Resolves with the first message (already received or coming) that matches. */
  next<T extends ServerMessage['type']>(
    type: T,
    match?: (message: Extract<ServerMessage, { type: T }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<ServerMessage, { type: T }>>;
  /** Resolves with the first message (already received or coming) that passes `test`, whatever its type. */
  when(test: (message: ServerMessage) => boolean, timeoutMs?: number, what?: string): Promise<ServerMessage>;
  send(message: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
  /** The app serving this socket, when it was reached through `listen`. */
  app?: FastifyInstance;
};

export function connect(url: string, headers: Record<string, string>, options: WebSocket.ClientOptions = {}): Promise<LiveClient> {
  const socket = new WebSocket(url, { headers, ...options });
  const messages: ServerMessage[] = [];
  const waiters: Array<{ test: (message: ServerMessage) => boolean; resolve: (message: ServerMessage) => void }> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as ServerMessage;
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.test(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const client: LiveClient = {
    socket,
    messages,
    closed,
    app: appsByUrl.get(url),
    next(type, match = () => true, timeoutMs = 5000) {
      return client.when((message) => message.type === type && match(message as never), timeoutMs, `"${type}"`) as never;
    },
    when(test, timeoutMs = 5000, what = 'matching') {
      const seen = messages.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${what} message within ${timeoutMs / 1000} s; got ${JSON.stringify(messages).slice(0, 2000)}`)),
          timeoutMs,
        );
        waiters.push({ test, resolve: (message) => (clearTimeout(timer), resolve(message)) });
      });
    },
    send(message) {
      socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { statusCode: response.statusCode, body })));
    });
  });
}

/**
 * A socket opened with a browser's session cookie, subscribed to a game's channel — and, given the user's id, to
 * their own channel too, where private press comes (as the board does).
 */
export async function watchGame(url: string, cookie: string, gameId: string, userId?: string): Promise<LiveClient> {
  const socket = await connect(url, { cookie });
  socket.send({ type: 'subscribe', channel: `game:${gameId}` });
  await socket.next('subscribed');
  if (userId) {
    socket.send({ type: 'subscribe', channel: `user:${userId}` });
    await socket.next('subscribed', (message) => message.channel === `user:${userId}`);
  }
  return socket;
}

/**
 * Everything a socket has been sent up to now: every event committed before the call on a channel it watches. A
 * ping's pong comes after every event the server had heard of, but events reach the server through PostgreSQL's
 * NOTIFY, which may come later under load: so the socket's app is also asked where each channel stands, and the
 * socket waits for that event (or for being told it was dropped or must resync). Resolves as they arrive.
 */
export async function settled(socket: LiveClient): Promise<ServerMessage[]> {
  const count = () => socket.messages.filter((message) => message.type === 'pong').length;
  const pongs = count();
  socket.send({ type: 'ping' });
  await socket.next('pong', () => count() > pongs);
  expect(count()).toBe(pongs + 1);
  const app = socket.app;
  if (app) {
    for (const [channel, since] of watchedChannels(socket.messages)) {
      const latest = await app.bus.currentSeq(app.prisma, channel);
      await socket.when(
        (message) =>
          socket.messages.indexOf(message) >= since &&
          (((message.type === 'event' || message.type === 'subscribed') && message.channel === channel && (message.seq ?? 0) >= latest) ||
            ((message.type === 'unsubscribed' || message.type === 'resync') && (message.channel ?? channel) === channel)),
        5000,
        `${channel} caught up to event ${latest}`,
      );
    }
  }
  return socket.messages;
}

/** The channels a socket is subscribed to, by what it was told, each with the index of its last `subscribed`. */
function watchedChannels(messages: readonly ServerMessage[]): Map<LiveChannel, number> {
  const channels = new Map<LiveChannel, number>();
  messages.forEach((message, index) => {
    if (message.type === 'subscribed') channels.set(message.channel, index);
    else if (message.type === 'unsubscribed') channels.delete(message.channel);
  });
  return channels;
}
