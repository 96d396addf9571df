/**
 * The route table the web client builds its calls from (shared/api/routes.ts) is the server's: every route the
 * server registers is in it and nothing else, with the same method, path, body, query and answers, as the server's
 * own OpenAPI document states them; and each wire name the table uses is the schema of that name.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_ROUTES, pathOf, type ApiRoute } from '../../shared/api/routes.ts';
import { WIRE_SCHEMAS } from '../../shared/api/wire.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
};

let testApp: TestApp;
let operations: Map<string, Operation>;

const componentName = (ref: string | undefined) => ref?.replace('#/components/schemas/', '');

beforeAll(async () => {
  testApp = await startTestApp();
  const doc = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  operations = new Map();
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(byMethod)) operations.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, operation);
  }
}, 60_000);
afterAll(() => testApp?.close(), 60_000);

const routes = Object.entries(API_ROUTES) as [string, ApiRoute][];

describe('the route table', () => {
  test('lists exactly the routes the server serves', () => {
    expect(routes.map(([, route]) => `${route.method} ${route.path}`).sort()).toEqual([...operations.keys()].sort());
  });

  test.each(routes)('%s: body, query and answers as the server documents them', (_name, route) => {
    const operation = operations.get(`${route.method} ${route.path}`)!;
    // Request bodies are documented as what a client writes (the schema's input: "…Input").
    const body = componentName(operation.requestBody?.content?.['application/json']?.schema?.$ref)?.replace(/Input$/, '');
    expect(body).toBe(route.body);
    expect((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)).toEqual([...(route.query ?? [])]);
    const answers = Object.fromEntries(
      Object.entries(operation.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .map(([status, response]) => {
          const json = response.content?.['application/json']?.schema;
          if (json) return [status, componentName(json.$ref) ?? 'untyped'];
          if (Object.keys(response.content ?? {}).some((type) => type.startsWith('image/'))) return [status, 'image'];
          return [status, status === '204' ? 'none' : 'text'];
        }),
    );
    // The websocket's upgrade is documented without an answer.
    const expected = route.answers[200] === 'websocket' ? {} : Object.fromEntries(Object.entries(route.answers).map(([status, answer]) => [status, answer]));
    expect(answers).toEqual(expected);
  });

  test('each wire name is the schema of that name', () => {
    for (const [name, schema] of Object.entries(WIRE_SCHEMAS)) expect(schema.meta()?.id, name).toBe(name);
  });

  test('a path is filled in with its parameters, each encoded', () => {
    expect(pathOf('phase', { gameId: 'g1', index: 3 })).toBe('/api/games/g1/phases/3');
    expect(pathOf('profile', { username: 'a b/c' })).toBe('/api/users/a%20b%2Fc');
    expect(() => pathOf('phase', { gameId: 'g1' } as never)).toThrow('phase: no value for :index');
  });
});
