/** A real `ws` client for the live endpoint of a listening app. */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../../shared/api/live.ts';

/** The app's live endpoint, listening on a free port from the first call on (later calls, from other tests of the file, get the same). */
export async function listen(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening on a TCP port');
  return `ws://127.0.0.1:${address.port}/api/live`;
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
  send(message: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
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
    next(type, match = () => true, timeoutMs = 5000) {
      const test = (message: ServerMessage) => message.type === type && match(message as never);
      const seen = messages.find(test);
      if (seen) return Promise.resolve(seen as never);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no "${type}" message within ${timeoutMs / 1000} s; got ${JSON.stringify(messages).slice(0, 2000)}`)),
          timeoutMs,
        );
        waiters.push({ test, resolve: (message) => (clearTimeout(timer), resolve(message as never)) });
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
 * Everything a socket has been sent up to now: a ping's pong comes after every event published before it. Resolves
 * as that pong arrives (not at the next 50 ms check, as polling did: files that settle hundreds of times waited
 * seconds for nothing).
 */
export async function settled(socket: LiveClient): Promise<ServerMessage[]> {
  const count = () => socket.messages.filter((message) => message.type === 'pong').length;
  const pongs = count();
  socket.send({ type: 'ping' });
  await socket.next('pong', () => count() > pongs);
  expect(count()).toBe(pongs + 1);
  return socket.messages;
}
