/**
 * The limits in force (server/README.md, "Limits"), pushed past: oversized
 * and deeply nested bodies, wrong content types, huge strings in every field
 * of every body, long URLs and path parameters; and on the websocket, floods
 * of messages, malformed, binary and oversized frames, too many subscriptions
 * and too many sockets. Each is refused with a 4xx JSON error or a close code,
 * and the server keeps serving.
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { IMPORT_BODY_LIMIT, IMPORT_LIMITS, type ExportedGame } from '../../shared/api/archive.ts';
import { BATTLE_IMPORT_LIMITS } from '../../shared/api/battles.ts';
import { exportOf, randomPlayed } from './helpers/random-export.ts';
import { LIVE_LIMITS } from '../../shared/api/live.ts';
import { MAX_PARAM_LENGTH } from '../../server/app.ts';
import { MAX_JSON_DEPTH, MAX_JSON_ITEMS, MAX_JSON_KEYS } from '../../server/json-body.ts';
import { Browser, startTestApp, type TestApp } from './helpers/app.ts';
import { connect, listen } from './helpers/live.ts';
import { checkAnswer, operationsOf } from './fuzz-support/api-fuzz.ts';
import { soakLive } from './fuzz-support/soak.ts';
import { SchemaArbitraries, type JsonSchema, type OpenApiDocument } from './fuzz-support/json-schema-arbitrary.ts';

vi.setConfig({ testTimeout: 60_000 });

const BODY_LIMIT = 64 * 1024;

let testApp: TestApp;
let app: FastifyInstance;
let url: string;
let player: Browser;
let bearer: Record<string, string>;
let document: OpenApiDocument;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  url = await listen(app);
  player = await new Browser(app).register();
  const token = (await player.request('POST', '/api/auth/tokens', { name: 'limits' })).json().token;
  bearer = { authorization: `Bearer ${token}` };
  document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const stillServing = async () => expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

describe('HTTP request limits', () => {
  test(`bodies over ${BODY_LIMIT / 1024} KiB are 413, on every route with a body (the imports: over ${IMPORT_BODY_LIMIT / 1024 / 1024} MiB for a game, ${BATTLE_IMPORT_LIMITS.bodyBytes / 1024 / 1024} MiB for a battle)`, async () => {
    const withBody = operationsOf(document).filter((operation) => operation.body);
    expect(withBody.length).toBeGreaterThan(10);
    for (const operation of withBody) {
      const limit =
        operation.key === 'POST /api/games/import'
          ? IMPORT_BODY_LIMIT
          : operation.key === 'POST /api/battles/import'
            ? BATTLE_IMPORT_LIMITS.bodyBytes
            : BODY_LIMIT;
      const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'index' ? '0' : name === 'power' ? 'Macedonia' : '00000000-0000-4000-8000-000000000000',
      );
      const response = await app.inject({
        method: operation.method as 'POST',
        url: path,
        headers: { ...bearer, 'content-type': 'application/json' },
        payload: `{"x":"${'a'.repeat(limit)}"}`,
      });
      expect(response.statusCode, operation.key).toBe(413);
      expect(response.json().error).toMatchObject({ code: 'payload_too_large' });
      checkAnswer(response, operation.key);
    }
    await stillServing();
  });

  test('an anonymous import is refused before its body is read', async () => {
    const big = `{"export":{"format":"${'a'.repeat(IMPORT_BODY_LIMIT - 100)}"}}`;
    const anonymous = await app.inject({ method: 'POST', url: '/api/games/import', headers: { 'content-type': 'application/json' }, payload: big });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthenticated');
  });

  test(`bodies with more than ${MAX_JSON_ITEMS} values and keys, or ${MAX_JSON_KEYS} different keys, are 413 before they are parsed (the import: ${IMPORT_LIMITS.jsonItems} and ${IMPORT_LIMITS.jsonKeys})`, async () => {
    const send = (url: string, payload: string) => app.inject({ method: 'POST', url, headers: { ...bearer, 'content-type': 'application/json' }, payload });
    // {"name":[[],[],…]} with k arrays: 3 for the frame, 1 for each array and 1 for each comma, 2k + 2 in all.
    const arrays = (items: number) => `{"name":[${Array.from({ length: items / 2 - 1 }, () => '[]').join(',')}]}`;
    const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`;
    for (const [url, items, distinct] of [
      ['/api/games', MAX_JSON_ITEMS, MAX_JSON_KEYS],
      ['/api/games/import', IMPORT_LIMITS.jsonItems, IMPORT_LIMITS.jsonKeys],
    ] as const) {
      // At the limit: read, and refused for what it is.
      expect((await send(url, arrays(items))).statusCode, url).toBe(400);
      const over = await send(url, arrays(items + 2));
      expect(over.statusCode, url).toBe(413);
      expect(over.json().error).toEqual({ code: 'payload_too_large', message: `body: JSON with more than ${items} values and keys (it has ${items + 2})` });
      expect((await send(url, keys(distinct))).statusCode, url).toBe(400);
      const tooMany = await send(url, keys(distinct + 1));
      expect(tooMany.statusCode, url).toBe(413);
      expect(tooMany.json().error).toEqual({ code: 'payload_too_large', message: `body: JSON with more than ${distinct} different keys` });
      checkAnswer(tooMany, url);
    }
    // The same keys over and over are one key each: a list of many games' worth of objects is fine.
    const same = `{"name":"x","variant":"standard","powerPreferences":[],${Array.from({ length: 50 }, (_, i) => `"x${i % 3}":{"a":1,"b":2}`).join(',')}}`;
    expect((await send('/api/games', same)).statusCode).not.toBe(413);
    await stillServing();
  });

  test('every list and string of an import is bounded, the 400 naming the field; a validation stops at the first problems', async () => {
    const base = exportOf('standard', randomPlayed('standard', 3, 3));
    const submission = { power: 'France', orders: [], ready: false, byGameMaster: false, submittedAt: base.exportedAt };
    const L = IMPORT_LIMITS;
    const cases: [string, (data: ExportedGame) => void, string][] = [
      // A submission's text as the order route takes it (OrdersInputSchema: 20000 characters).
      [
        'a submission text',
        (data) => void data.phases[0].submissions.push({ ...submission, text: 'x'.repeat(L.submissionTextChars + 1) }),
        'body.export.phases.0.submissions.0.text: must be at most 20000 characters',
      ],
      [
        'submissions in a phase',
        (data) => void (data.phases[0].submissions = Array.from({ length: L.submissionsPerPhase + 1 }, () => ({ ...submission, text: '' }))),
        `body.export.phases.0.submissions: must have at most ${L.submissionsPerPhase} entries`,
      ],
      [
        'orders in a submission',
        (data) =>
          void data.phases[0].submissions.push({
            ...submission,
            text: '',
            orders: Array.from({ length: L.ordersPerSubmission + 1 }, () => ({
              input: 'A Par H',
              text: 'A Par H',
              order: { kind: 'hold', unit: { at: 'par' } },
            })),
          }),
        `body.export.phases.0.submissions.0.orders: must have at most ${L.ordersPerSubmission} entries`,
      ],
      [
        'an order as given',
        (data) =>
          void data.phases[0].submissions.push({
            ...submission,
            text: '',
            orders: [{ input: 'x'.repeat(L.orderTextChars + 1), text: 'A Par H', order: { kind: 'hold', unit: { at: 'par' } } }],
          }),
        'body.export.phases.0.submissions.0.orders.0.input: must be at most 500 characters',
      ],
      ['a press body', (data) => void (data.press[0].body = 'x'.repeat(L.pressBodyChars + 1)), 'body.export.press.0.body'],
      [
        'press',
        (data) => void (data.press = Array.from({ length: L.press + 1 }, () => data.press[0])),
        `body.export.press: must have at most ${L.press} entries`,
      ],
      [
        'the log',
        (data) => void (data.gmLog = Array.from({ length: L.gmLog + 1 }, () => ({ action: 'pause', actor: null, details: {}, at: data.exportedAt }))),
        `body.export.gmLog: must have at most ${L.gmLog} entries`,
      ],
      [
        'votes',
        (data) => void (data.votes = Array.from({ length: L.votes + 1 }, () => ({ power: 'France', kind: 'draw' as const, powers: [], phaseIndex: 0 }))),
        `body.export.votes: must have at most ${L.votes} entries`,
      ],
      [
        'loans',
        (data) =>
          void (data.loans = Array.from({ length: L.loans + 1 }, () => ({
            centre: 'Par',
            lender: 'France',
            borrower: 'England',
            status: 'returned' as const,
            startedInPhase: 0,
            endedInPhase: null,
            endReason: null,
            createdAt: data.exportedAt,
          }))),
        `body.export.loans: must have at most ${L.loans} entries`,
      ],
      [
        'a log entry nested deep',
        (data) => void data.gmLog.push({ action: 'pause', actor: null, details: { a: [[[[[[[[[1]]]]]]]]] }, at: data.exportedAt }),
        `body.export.gmLog.0.details.a.0.0.0.0.0.0.0: must be nested at most ${L.detailsDepth} levels deep`,
      ],
      [
        'a log entry with many values',
        (data) => void data.gmLog.push({ action: 'pause', actor: null, details: { a: Array.from({ length: L.detailsItems }, () => 0) }, at: data.exportedAt }),
        `body.export.gmLog.0.details: must hold at most ${L.detailsItems} values`,
      ],
      [
        'a log entry of a long text',
        (data) => void data.gmLog.push({ action: 'pause', actor: null, details: { a: 'x'.repeat(L.detailsChars) }, at: data.exportedAt }),
        `body.export.gmLog.0.details: must be at most ${L.detailsChars} characters as JSON`,
      ],
      [
        'a log entry key',
        (data) => void data.gmLog.push({ action: 'pause', actor: null, details: { ['k'.repeat(65)]: 1 }, at: data.exportedAt }),
        'body.export.gmLog.0.details',
      ],
      [
        'a position',
        (data) => void (data.phases[0].stateBefore.units = Array.from({ length: L.entriesPerPhase + 1 }, () => data.phases[0].stateBefore.units[0])),
        `body.export.phases.0.stateBefore.units: must have at most ${L.entriesPerPhase} entries`,
      ],
      [
        "a result's reason",
        (data) => void (data.phases[0].results![0].reason = 'x'.repeat(L.reasonChars + 1)),
        `body.export.phases.0.results.0.reason: must be at most ${L.reasonChars} characters`,
      ],
      [
        'the outcome',
        (data) => void (data.game.outcome = { kind: 'draw', powers: Array.from({ length: 25 }, () => 'France') }),
        'body.export.game.outcome.powers',
      ],
      ['players', (data) => void (data.players = Array.from({ length: 25 }, () => data.players[0])), 'body.export.players'],
    ];
    for (const [what, change, message] of cases) {
      const data = structuredClone(base);
      change(data);
      const response = await player.request('POST', '/api/games/import', { export: data });
      expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBe(400);
      expect(response.json().error.message, what).toContain(message);
    }
    // Ten thousand broken submissions are one problem reported, not ten thousand (nor sixty thousand missing fields).
    const broken = structuredClone(base) as unknown as { phases: { submissions: unknown[] }[] };
    broken.phases[0].submissions = Array.from({ length: 1000 }, () => ({}));
    const refused = await player.request('POST', '/api/games/import', { export: broken });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues).toHaveLength(1);
    expect(refused.json().error.message).toBe('body.export.phases.0.submissions.0.power: Invalid input: expected string, received undefined');
  });

  test('imports are limited per user', async () => {
    const limited = await (await import('./helpers/app.ts')).startSiblingApp(app, { settings: { importRateLimit: { max: 2, windowMs: 60_000 } } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await limited.inject({ method: 'POST', url: '/api/games/import', headers: bearer, payload: { export: {} } })).statusCode);
      expect(statuses).toEqual([400, 400, 429]);
      // Another user has a count of their own.
      const other = await new Browser(limited).register();
      expect((await other.request('POST', '/api/games/import', { export: {} })).statusCode).toBe(400);
    } finally {
      await limited.close();
    }
  });

  test(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is 400, however it is nested; brackets inside strings do not count`, async () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    for (const payload of [`{"orders":${nested(MAX_JSON_DEPTH)}}`, `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`, nested(30_000)]) {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/games/00000000-0000-4000-8000-000000000000/phases/0/orders',
        headers: { ...bearer, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(`body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    // Deep-looking text inside a string is just text: refused for what it is (an unreadable order), not for depth.
    const game = (await player.request('POST', '/api/games', { name: `[[[[${'['.repeat(70)}`, variant: 'standard' })).json();
    expect(game.name).toBe(`[[[[${'['.repeat(70)}`);
  });

  test('wrong content types are 415; malformed JSON, a "__proto__" key and NUL characters are 400', async () => {
    const cases: [string, string, number][] = [
      ['text/plain', '{"name":"x","variant":"standard"}', 415],
      ['application/x-www-form-urlencoded', 'name=x&variant=standard', 415],
      ['multipart/form-data; boundary=x', '--x--', 415],
      ['application/xml', '<game/>', 415],
      ['application/json', '{"name":', 400],
      ['application/json', '{"name":"x","variant":"standard"}{"again":1}', 400],
      ['application/json', '{"__proto__":{"isAdmin":true},"name":"x","variant":"standard"}', 400],
      ['application/json', '{"constructor":{"prototype":{"isAdmin":true}},"name":"x","variant":"standard"}', 400],
      ['application/json', '{"name":"x\\u0000","variant":"standard"}', 400],
    ];
    for (const [contentType, payload, status] of cases) {
      const response = await app.inject({ method: 'POST', url: '/api/games', headers: { ...bearer, 'content-type': contentType }, payload });
      expect(response.statusCode, `${contentType} ${payload}`).toBe(status);
      checkAnswer(response, `${contentType} ${payload}`);
    }
    // An escaped backslash before "u0000" is no NUL.
    const fine = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { ...bearer, 'content-type': 'application/json' },
      payload: '{"name":"x\\\\u0000","variant":"standard"}',
    });
    expect(fine.statusCode, fine.body).toBe(201);
    expect(fine.json().name).toBe('x\\u0000');
  });

  test('a huge string in any field of any body is refused with a 4xx that names that field', async () => {
    const arbitraries = new SchemaArbitraries(document);
    let fields = 0;
    for (const operation of operationsOf(document).filter((op) => op.body && op.key !== 'POST /api/games/import')) {
      const [sample] = fc.sample(arbitraries.valid(operation.body!), { numRuns: 1, seed: 42 });
      for (const path of stringPaths(arbitraries, operation.body!, sample)) {
        fields += 1;
        const body = structuredClone(sample) as Record<string, unknown>;
        setPath(body, path, 'x'.repeat(30_000));
        const target = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === 'index' ? '0' : name === 'power' ? 'Macedonia' : '00000000-0000-4000-8000-000000000000',
        );
        const response = await app.inject({ method: operation.method as 'POST', url: target, headers: bearer, payload: body as object });
        const where = `${operation.key} body.${path.join('.')}`;
        checkAnswer(response, where);
        expect(response.statusCode, where).toBe(400);
        expect(response.json().error.message, where).toContain(`body.${path.join('.')}`);
      }
    }
    expect(fields).toBeGreaterThan(10);
  });

  test('numbers past what the database stores, and strings longer than their columns, are 400s naming the field (found by fuzzing: they were 500s)', async () => {
    const gameId = (await player.request('POST', '/api/games', { name: 'Numbers', variant: 'standard' })).json().id;
    for (const path of [`/phases/${2 ** 31}`, `/phases/${2 ** 53 - 1}/orders`]) {
      const response = await player.request('GET', `/api/games/${gameId}${path}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().error.message, path).toContain('params.index: must be at most');
    }
    const base = exportOf('standard', randomPlayed('standard', 3, 3));
    const cases: [string, (data: ExportedGame) => void, string][] = [
      ['missed deadlines', (data) => void (data.players[0].missedDeadlines = 2 ** 31), 'body.export.players.0.missedDeadlines'],
      [
        "a loan's phase",
        (data) =>
          void data.loans.push({
            centre: 'Par',
            lender: 'France',
            borrower: 'England',
            status: 'returned',
            startedInPhase: 2 ** 31,
            endedInPhase: null,
            endReason: null,
            createdAt: data.exportedAt,
          }),
        'body.export.loans.0.startedInPhase',
      ],
      [
        "a vote's phase",
        (data) => void data.votes.push({ power: 'France', kind: 'draw', powers: [], phaseIndex: -(2 ** 31) - 5 }),
        'body.export.votes.0.phaseIndex',
      ],
      [
        'a centre',
        (data) =>
          void data.loans.push({
            centre: 'x'.repeat(17),
            lender: 'France',
            borrower: 'England',
            status: 'returned',
            startedInPhase: 0,
            endedInPhase: null,
            endReason: null,
            createdAt: data.exportedAt,
          }),
        'body.export.loans.0.centre',
      ],
      [
        "a submission's power",
        (data) =>
          void data.phases[0].submissions.push({
            power: 'P'.repeat(25),
            text: '',
            orders: [],
            ready: false,
            byGameMaster: false,
            submittedAt: data.exportedAt,
          }),
        'body.export.phases.0.submissions.0.power',
      ],
      [
        'a discarded phase',
        (data) => {
          data.gmLog.push({ action: 'rollback', actor: null, details: {}, at: data.exportedAt });
          data.discardedPhases.push({ ...data.phases[0], index: 2 ** 31, rollback: 0, discardedAt: data.exportedAt });
        },
        'body.export.discardedPhases.0.index',
      ],
    ];
    for (const [what, change, field] of cases) {
      const data = structuredClone(base);
      change(data);
      const response = await player.request('POST', '/api/games/import', { export: data });
      expect(response.statusCode, `${what}: ${response.body.slice(0, 200)}`).toBe(400);
      expect(response.json().error.message, what).toContain(field);
    }
    const unknownPower = structuredClone(base);
    unknownPower.phases[0].submissions.push({ power: 'Narnia', text: '', orders: [], ready: false, byGameMaster: false, submittedAt: base.exportedAt });
    const refused = await player.request('POST', '/api/games/import', { export: unknownPower });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toContain('"Narnia" is not a power of the game');
  });

  test(`path parameters over ${MAX_PARAM_LENGTH} characters are 414, malformed URLs 400, a URL over 16 KiB 431 — in the API's error body`, async () => {
    const long = await app.inject({ method: 'GET', url: `/api/games/${'a'.repeat(MAX_PARAM_LENGTH + 1)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: { code: 'uri_too_long', message: `a path parameter is longer than ${MAX_PARAM_LENGTH} characters` } });
    const malformed = await app.inject({ method: 'GET', url: '/api/games/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('bad_request');
    // Node's own header limit, on the real socket.
    const port = new URL(url).port;
    const status = await rawHttpStatus(Number(port), `GET /api/games?cursor=${'c'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(status).toBe(431);
    await stillServing();
  });
});

/** Paths of the string leaves of `sample` whose schema bounds their length. */
function stringPaths(arbitraries: SchemaArbitraries, schema: JsonSchema, sample: unknown, path: (string | number)[] = []): (string | number)[][] {
  const resolved = arbitraries.resolve(schema);
  if (typeof sample === 'string') return resolved.maxLength !== undefined || resolved.pattern ? [path] : [];
  if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return [];
  const properties = resolved.properties ?? {};
  return Object.entries(sample as Record<string, unknown>).flatMap(([key, value]) =>
    properties[key] ? stringPaths(arbitraries, properties[key], value, [...path, key]) : [],
  );
}

function setPath(target: Record<string, unknown>, path: (string | number)[], value: unknown) {
  let parent: Record<string | number, unknown> = target;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1]] = value;
}

function rawHttpStatus(port: number, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const match = /^HTTP\/1\.1 (\d+)/.exec(data);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', reject);
  });
}

describe('websocket limits', () => {
  const auth = () => ({ cookie: player.cookie! });

  test(`more than ${LIVE_LIMITS.maxMessagesPerWindow} messages in ${LIVE_LIMITS.messageWindowMs / 1000} s close the socket (1008); others are untouched`, async () => {
    const flooder = await connect(url, auth());
    const bystander = await connect(url, auth());
    await flooder.next('welcome');
    for (let i = 0; i < LIVE_LIMITS.maxMessagesPerWindow + 50; i++) flooder.send({ type: 'ping' });
    const closed = await flooder.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('too many messages');
    // It was answered up to the limit, not beyond.
    expect(flooder.messages.filter((message) => message.type === 'pong').length).toBeLessThanOrEqual(LIVE_LIMITS.maxMessagesPerWindow);
    bystander.send({ type: 'ping' });
    await bystander.next('pong');
    bystander.socket.close();
  });

  test('malformed frames: invalid UTF-8 closes with 1007, binary frames and bad JSON get errors, raw garbage closes the connection', async () => {
    const client = await connect(url, auth());
    await client.next('welcome');
    client.socket.send(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: true });
    await client.next('error', (message) => message.error.message === 'send text frames');
    client.send('{"type": "subscribe", "channel": ');
    await client.next('error', (message) => message.error.code === 'bad_request');
    client.send({ type: 'subscribe', channel: { $gt: '' } });
    await client.next('error', (message) => message.error.code === 'validation_failed');
    client.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect((await client.closed).code).toBe(1007);

    // Not a websocket frame at all, after a real handshake: the server drops the connection.
    const port = Number(new URL(url).port);
    const dropped = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `GET /api/live HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nCookie: ${player.cookie}\r\n\r\n`,
        );
      });
      let upgraded = false;
      socket.on('data', (chunk) => {
        if (!upgraded && chunk.toString().startsWith('HTTP/1.1 101')) {
          upgraded = true;
          // RSV bits set, unmasked, a length that lies: every rule of RFC 6455 broken at once.
          socket.write(Buffer.from([0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]));
        }
      });
      socket.on('close', () => resolve(upgraded ? 'closed after upgrade' : 'never upgraded'));
      socket.on('error', () => {});
    });
    expect(dropped).toBe('closed after upgrade');
    await stillServing();
  });

  test('generated frames from clients that pace themselves and clients that flood: the server answers a calm client throughout (npm run soak -- live: 40 clients)', async () => {
    await soakLive(6, 60, 20261122);
  });

  test(`a frame over ${LIVE_LIMITS.maxMessageBytes} bytes closes the socket (1009)`, async () => {
    const client = await connect(url, auth());
    await client.next('welcome');
    client.send({ type: 'ping', padding: 'x'.repeat(LIVE_LIMITS.maxMessageBytes) });
    expect((await client.closed).code).toBe(1009);
  });

  test(`at most ${LIVE_LIMITS.maxSubscriptionsPerSocket} subscriptions per socket, even when asked for all at once`, async () => {
    const [creator] = [player];
    const ids: string[] = [];
    for (let i = 0; i < LIVE_LIMITS.maxSubscriptionsPerSocket + 10; i++) {
      const created = await app.prisma.game.create({
        data: {
          name: `Sub ${i}`,
          variantId: 'standard',
          createdById: creator.user!.id,
          gameMasterId: creator.user!.id,
          movementDeadlineSeconds: 86400,
          retreatDeadlineSeconds: 86400,
          adjustmentDeadlineSeconds: 86400,
          pressKind: 'full',
          maxMissedDeadlines: 2,
          seats: 7,
        },
      });
      ids.push(created.id);
    }
    const client = await connect(url, auth());
    await client.next('welcome');
    // All at once, without waiting for answers: the limit must hold against the race.
    for (const id of ids) client.send({ type: 'subscribe', channel: `game:${id}` });
    await vi.waitFor(() => expect(client.messages.filter((m) => m.type === 'subscribed' || m.type === 'error').length).toBe(ids.length), { timeout: 20_000 });
    expect(client.messages.filter((m) => m.type === 'subscribed').length).toBe(LIVE_LIMITS.maxSubscriptionsPerSocket);
    const refused = client.messages.filter((m) => m.type === 'error');
    expect(refused.length).toBe(10);
    expect(refused.every((m) => m.type === 'error' && m.error.code === 'rate_limited')).toBe(true);
    client.socket.close();
  });

  test(`at most ${LIVE_LIMITS.maxSocketsPerUser} sockets per user, even when opened all at once`, async () => {
    const user = await new Browser(app).register();
    const attempts = await Promise.allSettled(Array.from({ length: LIVE_LIMITS.maxSocketsPerUser + 8 }, () => connect(url, { cookie: user.cookie! })));
    const opened = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []));
    // Refused before the upgrade (429), or closed right after it (1008) when the upgrades raced.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const open = opened.filter((client) => client.socket.readyState === client.socket.OPEN);
    expect(open.length).toBe(LIVE_LIMITS.maxSocketsPerUser);
    for (const attempt of attempts) if (attempt.status === 'rejected') expect((attempt.reason as { statusCode?: number }).statusCode).toBe(429);
    for (const client of opened) client.socket.close();
    // Closed sockets free their places.
    await vi.waitFor(async () => {
      const again = await connect(url, { cookie: user.cookie! });
      again.socket.close();
    });
  });
});
