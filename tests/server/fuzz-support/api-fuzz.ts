/**
 * Property-based fuzzing of every route of the OpenAPI document: path
 * parameters, query strings and bodies generated from the route's own schemas
 * (valid-shaped, mutated, and garbage; wrong content types and raw non-JSON
 * text too), sent through `app.inject` by nobody, by a player, by the game
 * master and by a site administrator (cookie with CSRF token, API token, and
 * cookie without the token). What must hold for every request:
 *   - never a 5xx;
 *   - every 4xx is JSON `{ error: { code, message } }` with a known code and a
 *     message that names the problem: for validation failures, the field
 *     (`body.…`, `query.…`, `params.…`); otherwise a reason in words.
 * Shared by the quick test (tests/server/fuzz-api.test.ts) and the soak
 * (`npm run soak -- api`). No vitest import.
 */
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ApiErrorSchema, API_ERROR_CODES } from '../../../shared/api/errors.ts';
import { actorFor, freshCredentials, type Actor, type World } from './world.ts';
import { garbage, mutated, nastyStrings, SchemaArbitraries, type JsonSchema, type OpenApiDocument } from './json-schema-arbitrary.ts';

export type Operation = {
  key: string;
  method: string;
  path: string;
  parameters: { name: string; in: string; schema: JsonSchema }[];
  body: JsonSchema | null;
};

export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      parameters: (operation.parameters ?? []).map((p) => ({ name: p.name, in: p.in, schema: p.schema })),
      body: operation.requestBody?.content['application/json']?.schema ?? null,
    })),
  );
}

type GeneratedRequest = {
  actor: number;
  params: Record<string, string>;
  query: Record<string, string>;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };
  withCsrf: boolean;
};

const contentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/xml',
  'application/json',
];

/** Values real enough to reach past the id checks, by parameter name; plus schema values and junk. */
function knownValues(world: World): Record<string, string[]> {
  return {
    gameId: [world.game.id, world.forming.id],
    index: ['0', '1', '2'],
    power: world.game.powers,
    loanId: world.loanId ? [world.loanId] : [],
    tokenId: world.tokenIds,
    kind: ['draw', 'concede'],
    inviteCode: world.game.inviteCode ? [world.game.inviteCode] : [],
    filter: ['open', 'active', 'finished', 'mine'],
  };
}

/**
 * Page cursors as a client could craft them: base64url JSON with timestamps at and past the edges of what
 * PostgreSQL stores (year 0, year −271821), ids that are not UUIDs, wrong types and shapes, and real-looking ones.
 */
const craftedCursor: fc.Arbitrary<string> = fc
  .oneof(
    fc.record(
      {
        t: fc.oneof(
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          fc.constantFrom(
            '0000-01-01T00:00:00.000Z',
            '-271821-04-20T00:00:00.000Z',
            '+275760-09-13T00:00:00.000Z',
            '9999-12-31T23:59:59.999Z',
            '1969-12-31T23:59:59Z',
            '2026-02-30T00:00:00Z',
            '',
          ),
          fc.integer(),
          fc.constant(null),
        ),
        id: fc.oneof(fc.uuid(), fc.constantFrom('-'.repeat(36), 'f'.repeat(36), '00000000-0000-0000-0000-000000000000', ''), fc.string({ maxLength: 40 })),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map((value) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url'));

/** Percent-encodes a path segment as UTF-8 (lone surrogates become U+FFFD); "raw:" values go as they are (malformed escapes). */
function pathSegment(value: string): string {
  if (value.startsWith('raw:')) return value.slice(4);
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

export type FuzzReport = { requests: number; byRoute: Map<string, Map<number, number>>; milliseconds: Map<string, number> };

export class ApiFuzzer {
  readonly report: FuzzReport = { requests: 0, byRoute: new Map(), milliseconds: new Map() };
  private readonly arbitraries: SchemaArbitraries;
  private actors: Actor[] = [];

  constructor(
    private readonly app: FastifyInstance,
    readonly document: OpenApiDocument,
    private readonly world: World,
  ) {
    this.arbitraries = new SchemaArbitraries(document, world.hints);
  }

  async setUp(): Promise<void> {
    const { world, app } = this;
    const player = world.game.byPower.get(world.game.powers[0])!;
    this.actors = [
      await actorFor(app, 'nobody', null, 'none'),
      await actorFor(app, 'player (cookie)', player.user, 'cookie'),
      await actorFor(app, 'player (API token)', player.user, 'api_token'),
      await actorFor(app, 'game master (API token)', world.game.master.user, 'api_token'),
      await actorFor(app, 'outsider (cookie)', world.outsider.user, 'cookie'),
      await actorFor(app, 'site administrator (cookie)', world.admin.user, 'cookie'),
    ];
  }

  private parameter(name: string, schema: JsonSchema): fc.Arbitrary<string> {
    const known = knownValues(this.world)[name] ?? [];
    const options: { weight: number; arbitrary: fc.Arbitrary<string> }[] = [
      { weight: 4, arbitrary: this.arbitraries.valid(schema).map(text) },
      {
        weight: 1,
        arbitrary: fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.constantFrom(...nastyStrings),
          fc.constant('9'.repeat(400)),
          fc.constant('-1'),
          fc.constant('1.5'),
          fc.constantFrom('raw:%', 'raw:%E0%A4%A', 'raw:%ZZ', 'raw:%C0%AF', 'raw:..'),
        ),
      },
    ];
    if (known.length > 0) options.push({ weight: 5, arbitrary: fc.constantFrom(...known) });
    if (name === 'cursor') options.push({ weight: 6, arbitrary: craftedCursor });
    return fc.oneof(...options);
  }

  private request(operation: Operation): fc.Arbitrary<GeneratedRequest> {
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const queryParams = operation.parameters.filter((p) => p.in === 'query');
    const params = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, this.parameter(p.name, p.schema)]))) as fc.Arbitrary<Record<string, string>>;
    const query = fc
      .tuple(
        fc.record(Object.fromEntries(queryParams.map((p) => [p.name, this.parameter(p.name, p.schema)])), { requiredKeys: [] }),
        fc.dictionary(fc.constantFrom('unknown', 'limit', 'cursor', '__proto__', 'filter'), fc.string({ maxLength: 20 }), { maxKeys: 2 }),
        fc.boolean(),
      )
      .map(([known, extra, addExtra]) => ({ ...(addExtra ? extra : {}), ...known }) as Record<string, string>);
    const valid = operation.body ? this.arbitraries.valid(operation.body) : fc.constant(undefined);
    const body: fc.Arbitrary<GeneratedRequest['body']> = fc.oneof(
      { weight: operation.body ? 5 : 1, arbitrary: valid.map((value) => (value === undefined ? { kind: 'none' as const } : { kind: 'json' as const, value })) },
      { weight: operation.body ? 5 : 1, arbitrary: mutated(valid).map((value) => ({ kind: 'json' as const, value })) },
      { weight: 2, arbitrary: garbage.map((value) => ({ kind: 'json' as const, value })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('{', '{"a":', '[1,]', 'null', '"', '{"a":1}{"b":2}', '\u0000')),
            fc.constantFrom(...contentTypes),
          )
          .map(([raw, contentType]) => ({ kind: 'raw' as const, text: raw, contentType })),
      },
    );
    return fc.record({
      actor: fc.nat({ max: this.actors.length - 1 }),
      params,
      query,
      body,
      withCsrf: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    });
  }

  private async send(operation: Operation, generated: GeneratedRequest): Promise<{ response: LightMyRequestResponse; description: string }> {
    const actor = this.actors[generated.actor];
    const url =
      operation.path.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(generated.params[name] ?? '')) +
      (Object.keys(generated.query).length > 0 ? `?${new URLSearchParams(generated.query).toString()}` : '');
    const headers: Record<string, string> = { ...actor.credentials.headers };
    if (!generated.withCsrf) delete headers['x-csrf-token'];
    let payload: string | undefined;
    const body = generated.body;
    if (body.kind === 'json') {
      const raw =
        body.value && typeof body.value === 'object' && '__rawJson' in body.value ? String((body.value as { __rawJson: string }).__rawJson) : undefined;
      payload = raw ?? JSON.stringify(body.value) ?? 'null';
      headers['content-type'] = 'application/json';
    } else if (body.kind === 'raw') {
      payload = body.text;
      headers['content-type'] = body.contentType;
    }
    const started = performance.now();
    const response = await this.app.inject({ method: operation.method as 'GET', url, headers, payload });
    this.report.milliseconds.set(operation.key, (this.report.milliseconds.get(operation.key) ?? 0) + performance.now() - started);
    this.report.requests += 1;
    const statuses = this.report.byRoute.get(operation.key) ?? new Map<number, number>();
    statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    this.report.byRoute.set(operation.key, statuses);
    const description = `${operation.method} ${url} as ${actor.name}${generated.withCsrf ? '' : ' without CSRF token'}, body ${payload === undefined ? '(none)' : `${headers['content-type']} ${payload.slice(0, 300)}${payload.length > 300 ? `… (${payload.length} chars)` : ''}`}`;
    // Credentials the request itself ended (log-out, revoking the token in use) are renewed.
    if (response.statusCode < 300 && actor.userId && (operation.key === 'POST /api/auth/logout' || operation.key === 'DELETE /api/auth/tokens/{tokenId}')) {
      actor.credentials = await freshCredentials(this.app, actor.userId, actor.via as 'cookie' | 'api_token');
    }
    return { response, description };
  }

  /** Fuzzes one operation with `runs` requests; throws (with fast-check's counterexample) on the first broken answer. */
  async fuzz(operation: Operation, runs: number, seed: number): Promise<void> {
    await fc.assert(
      fc.asyncProperty(this.request(operation), async (generated) => {
        const { response, description } = await this.send(operation, generated);
        checkAnswer(response, description);
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
  }
}

const knownCodes = new Set<string>(API_ERROR_CODES);

/** What every answer must be: no 5xx; every 4xx a JSON error that names the problem. */
export function checkAnswer(response: LightMyRequestResponse, description: string): void {
  const fail = (why: string) => {
    throw new Error(`${why}\n  request: ${description}\n  answer: ${response.statusCode} ${response.body.slice(0, 500)}`);
  };
  if (response.statusCode >= 500) fail('a 5xx');
  if (response.statusCode < 400) return;
  if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) fail('an error that is not JSON');
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    fail('an error body that does not parse');
    return;
  }
  const parsed = ApiErrorSchema.safeParse(body);
  if (!parsed.success) {
    fail('an error body that is not { error: { code, message } }');
    return;
  }
  const { code, message, issues } = parsed.data.error;
  if (!knownCodes.has(code)) fail(`error code "${code}" is not in shared/api/errors.ts`);
  if (message.trim().length < 10) fail('an error message too short to name the problem');
  if (code === 'validation_failed') {
    // Names the field: "body.orders: …", "query.limit: …", "params.gameId: …".
    if (!/^(body|query|params|headers)(\.|:|\b)/.test(message)) fail('a validation error that does not name the field');
    for (const issue of issues ?? []) if (!/^(body|query|params|headers)\b/.test(issue.path)) fail(`an issue path "${issue.path}" that does not say where`);
  }
}
