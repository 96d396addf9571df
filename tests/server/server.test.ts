import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../server/config.ts';
import { startSiblingApp, startTestApp, type TestApp } from './helpers/app.ts';

// Generous: these go through a real database on a machine that may be busy.
vi.setConfig({ testTimeout: 30_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

describe('OpenAPI documentation', () => {
  test('/api/docs serves swagger-ui, and its JSON lists every route with the shared schemas', async () => {
    const ui = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');

    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const routes = Object.entries(document.paths as Record<string, object>).flatMap(([route, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/auth/register',
        'POST /api/auth/login',
        'POST /api/auth/logout',
        'GET /api/auth/me',
        'POST /api/auth/tokens',
        'GET /api/auth/tokens',
        'DELETE /api/auth/tokens/{tokenId}',
        'GET /api/variants',
        'POST /api/games',
        'GET /api/games',
        'GET /api/games/{gameId}',
        'POST /api/games/{gameId}/join',
        'POST /api/games/{gameId}/leave',
        'POST /api/games/{gameId}/start',
        'GET /api/live',
        'GET /api/health',
      ]),
    );
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['ApiError', 'SessionInfo', 'CreateGameRequestInput', 'GameDetail', 'GameList']),
    );
    const register = document.paths['/api/auth/register'].post;
    expect(register.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/RegisterRequestInput');
    expect(register.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/SessionInfo');
    // Who-am-I answers a visitor too: the session, or a visitor's answer with every field null.
    const me = document.paths['/api/auth/me'].get;
    expect(me.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/WhoAmI');
    expect(document.components.schemas.WhoAmI.anyOf).toEqual([{ $ref: '#/components/schemas/SessionInfo' }, { $ref: '#/components/schemas/VisitorSession' }]);
    expect(document.info.description).toContain('/api/live');
  });
});

describe('errors and static files', () => {
  test('an unknown API route is a JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing-here?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'no route GET /api/nothing-here' } });
  });

  test('without a built client, / is a JSON 404', async () => {
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
  });

  test('serves the built client from web/dist, with index.html for client-side routes', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'diadochi-web-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Diadochi</title>');
    await writeFile(path.join(dist, 'assets', 'app.js'), 'console.log("hi")');
    await writeFile(path.join(dist, 'assets', 'app.js.br'), brotliCompressSync('console.log("hi")'));
    await writeFile(path.join(dist, 'assets', 'app.js.gz'), gzipSync('console.log("hi")'));
    const withClient = await startSiblingApp(app, { settings: { webDistDir: dist } });
    try {
      const index = await withClient.inject({ method: 'GET', url: '/' });
      expect(index.statusCode).toBe(200);
      expect(index.body).toContain('<title>Diadochi</title>');
      const asset = await withClient.inject({ method: 'GET', url: '/assets/app.js' });
      expect(asset.body).toBe('console.log("hi")');
      expect(asset.headers['content-type']).toContain('javascript');
      // Hashed build output is kept by browsers for good; index.html, which names it, is checked on every visit.
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(index.headers['cache-control']).toBe('no-cache');
      // The build's brotli and gzip copies go to browsers that accept them.
      const brotli = await withClient.inject({ method: 'GET', url: '/assets/app.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers['content-type']).toContain('javascript');
      expect(brotli.headers.vary).toContain('accept-encoding');
      expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log("hi")');
      const gzip = await withClient.inject({ method: 'GET', url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log("hi")');
      const clientRoute = await withClient.inject({ method: 'GET', url: '/games/some-game' });
      expect(clientRoute.statusCode).toBe(200);
      expect(clientRoute.body).toContain('<title>Diadochi</title>');
      const api = await withClient.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(api.statusCode).toBe(404);
      expect(api.json().error.code).toBe('not_found');
      expect((await withClient.inject({ method: 'GET', url: '/api/health' })).json().status).toBe('ok');
    } finally {
      await withClient.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('configuration', () => {
  test('defaults: port 3000, embedded database in ./data', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe(path.resolve('data'));
    expect(config.TRUST_PROXY).toBe(false);
    // An ended game may be re-opened for a day; then its result is final.
    expect(config.FINAL_AFTER_HOURS).toBe(24);
  });

  test('a bad value stops start-up with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT: /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/db' })).toThrow(/DATABASE_URL: must be a postgresql:\/\/ connection string/);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ FINAL_AFTER_HOURS: '-1' })).toThrow(/FINAL_AFTER_HOURS: /);
  });

  test('parses the rest', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://app:secret@db:5432/diadochi',
      TRUST_PROXY: '172.28.0.10, 10.1.0.0/16',
      ALLOWED_ORIGINS: 'https://a.example, https://b.example',
      FINAL_AFTER_HOURS: '0',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgresql://app:secret@db:5432/diadochi',
      TRUST_PROXY: ['172.28.0.10', '10.1.0.0/16'],
      ALLOWED_ORIGINS: ['https://a.example', 'https://b.example'],
      FINAL_AFTER_HOURS: 0,
    });
  });
});
