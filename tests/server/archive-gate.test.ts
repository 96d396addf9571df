/**
 * The places for heavy requests (server/archive/gate.ts), on a real Fastify
 * with the API's JSON parser and error handler: one request at a time, a few
 * waiting (their bodies unread until their turn), the rest refused at once
 * with 503 `server_busy` and Retry-After, as is one that waited too long; a
 * place is freed when its response is over and its handler has returned.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Gate } from '../../server/archive/gate.ts';
import { installErrorHandlers } from '../../server/errors.ts';
import { installJsonParser } from '../../server/json-body.ts';

let app: FastifyInstance;
let gate: Gate;
/** What happened, in order: `parsed n`, `done n`. */
let events: string[];
/** Handlers wait for these, by request number. */
let finish: Map<number, () => void>;

beforeEach(async () => {
  events = [];
  finish = new Map();
  gate = new Gate({ what: 'tests', concurrent: 1, maxWaiting: 2, maxWaitMs: 400 });
  app = Fastify();
  installErrorHandlers(app);
  installJsonParser(app);
  app.post(
    '/heavy',
    {
      preParsing: async (request, reply) => {
        await gate.enter(request, reply);
      },
      preValidation: async (request) => {
        events.push(`parsed ${(request.body as { n: number }).n}`);
      },
    },
    async (request) => {
      const { n } = request.body as { n: number };
      return gate.run(request, async () => {
        await new Promise<void>((resolve) => finish.set(n, resolve));
        events.push(`done ${n}`);
        return { n };
      });
    },
  );
  await app.ready();
});
afterEach(() => app.close());

const send = (n: number) => app.inject({ method: 'POST', url: '/heavy', headers: { 'content-type': 'application/json' }, payload: { n } });
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('the gate', () => {
  test('one at a time in order of arrival, two waiting with their bodies unread, the next refused at once', async () => {
    const first = send(1);
    await until(() => finish.has(1));
    const waiting = [send(2), send(3)];
    await until(() => gate.waiting === 2);
    const refused = await send(4);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().error.code).toBe('server_busy');
    // Only the first body has been read.
    expect(events).toEqual(['parsed 1']);
    finish.get(1)!();
    expect((await first).json()).toEqual({ n: 1 });
    await until(() => finish.has(2));
    expect(events).toEqual(['parsed 1', 'done 1', 'parsed 2']);
    finish.get(2)!();
    await until(() => finish.has(3));
    finish.get(3)!();
    expect((await Promise.all(waiting)).map((response) => response.statusCode)).toEqual([200, 200]);
    expect(events).toEqual(['parsed 1', 'done 1', 'parsed 2', 'done 2', 'parsed 3', 'done 3']);
    expect([gate.active, gate.waiting]).toEqual([0, 0]);
  });

  test('a request that waited too long is told to come back; the place is not lost', async () => {
    const first = send(1);
    await until(() => finish.has(1));
    const late = await send(2);
    expect(late.statusCode).toBe(503);
    expect(late.headers['retry-after']).toBe('1');
    finish.get(1)!();
    await first;
    // Its turn came after it gave up: passed on to the next at once.
    const next = send(3);
    await until(() => finish.has(3));
    finish.get(3)!();
    expect((await next).statusCode).toBe(200);
    expect(events).not.toContain('parsed 2');
  });

  test('a refused or failed request frees its place', async () => {
    const bad = await app.inject({ method: 'POST', url: '/heavy', headers: { 'content-type': 'application/json' }, payload: '{"n":' });
    expect(bad.statusCode).toBe(400);
    const next = send(5);
    await until(() => finish.has(5));
    finish.get(5)!();
    expect((await next).statusCode).toBe(200);
  });
});
