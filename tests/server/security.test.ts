/**
 * The security basics, each checked where it is enforced:
 * - passwords: scrypt with N = 2^14, r = 8, p = 5, a 16-byte salt per user and
 *   a 32-byte key (recomputed here with node's scrypt); secrets compared in
 *   constant time (node's timingSafeEqual is observed through a call-through
 *   spy: it still does the comparing); an unknown username costs a hash too;
 * - the session cookie: httpOnly, SameSite=Lax, Path=/, Max-Age, and Secure
 *   exactly when the request came over https — directly or, with TRUST_PROXY,
 *   through a proxy's X-Forwarded-Proto (and not when a client merely claims it);
 * - CSRF: every cookie-authenticated write route of the OpenAPI document
 *   refuses a request without the X-CSRF-Token header, with a wrong one or with
 *   another session's; API tokens need none; log-in and sign-up take JSON only;
 *   the websocket refuses cookie upgrades from other origins;
 * - rate limits on log-in and sign-up, per client IP (the proxy's word only from the addresses
 *   TRUST_PROXY names; `true` and hop counts are refused at start-up);
 * - helmet's headers on API answers, errors, the documentation and static files;
 * - no string-built SQL in server/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scryptSync } from 'node:crypto';
import * as crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { DEFAULT_SCRYPT_COST, hashPassword, verifyPassword } from '../../server/accounts/passwords.ts';
import { defaultSettings, projectRoot } from '../../server/settings.ts';
import { Browser, PASSWORD, startSiblingApp, startTestApp, testSettings, uniqueName, type TestApp } from './helpers/app.ts';
import { connect, listen } from './helpers/live.ts';
import { operationsOf } from './fuzz-support/api-fuzz.ts';
import { freshCredentials } from './fuzz-support/world.ts';

// Call-through spies: the real functions do the work; the test sees that they were used, and how.
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, timingSafeEqual: vi.fn(real.timingSafeEqual), scrypt: vi.fn(real.scrypt) };
});

vi.setConfig({ testTimeout: 60_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

describe('passwords', () => {
  test('production cost is scrypt N = 2^14, r = 8, p = 5 (OWASP, 16 MiB), and the server uses it unless told otherwise', () => {
    expect(DEFAULT_SCRYPT_COST).toEqual({ log2N: 14, r: 8, p: 5 });
    expect(defaultSettings.scryptCost).toBe(DEFAULT_SCRYPT_COST);
    // main.ts never lowers it (only tests pass a cheaper cost).
    expect(readFileSync(path.join(projectRoot, 'server/main.ts'), 'utf8')).not.toMatch(/scryptCost/);
  });

  test('a stored hash is scrypt$14$8$5$<16-byte salt>$<32-byte key>, the key exactly what scrypt gives', async () => {
    const stored = await hashPassword(PASSWORD);
    const [scheme, log2N, r, p, salt, key] = stored.split('$');
    expect([scheme, log2N, r, p]).toEqual(['scrypt', '14', '8', '5']);
    expect(Buffer.from(salt, 'base64url').length).toBe(16);
    expect(Buffer.from(key, 'base64url').length).toBe(32);
    const expected = scryptSync(PASSWORD.normalize('NFC'), Buffer.from(salt, 'base64url'), 32, { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
    expect(Buffer.from(key, 'base64url').equals(expected)).toBe(true);
    // Salted: the same password never hashes the same twice.
    expect((await hashPassword(PASSWORD)).split('$')[4]).not.toBe(salt);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword(`${PASSWORD} `, stored)).toBe(false);
    // A damaged record fails closed, whatever is wrong with it.
    expect(await verifyPassword(PASSWORD, stored.replace(/\$[^$]+$/, '$AAAA'))).toBe(false);
    expect(await verifyPassword(PASSWORD, 'plain text')).toBe(false);
  });

  test('a password stored with the earlier cost (N = 2^15, r = 8, p = 1) still logs in: each hash records its own cost', async () => {
    const stored = await hashPassword(PASSWORD, { log2N: 15, r: 8, p: 1 });
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '15', '8', '1']);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, stored)).toBe(false);
  });

  test('one hash at a time (16 MiB each, outside the heap); the rest wait and all complete', async () => {
    const spy = vi.mocked(crypto.scrypt);
    const real = (await vi.importActual<typeof import('node:crypto')>('node:crypto')).scrypt;
    let inFlight = 0;
    let most = 0;
    spy.mockImplementation(((
      password: crypto.BinaryLike,
      salt: crypto.BinaryLike,
      length: number,
      options: crypto.ScryptOptions,
      done: (error: Error | null, key: Buffer) => void,
    ) => {
      most = Math.max(most, ++inFlight);
      real(password, salt, length, options, (error, key) => {
        inFlight--;
        done(error, key);
      });
    }) as typeof crypto.scrypt);
    try {
      const cheap = { log2N: 12, r: 8, p: 1 };
      const stored = await Promise.all(Array.from({ length: 8 }, (_, i) => hashPassword(`${PASSWORD} ${i}`, cheap)));
      expect(most).toBe(1);
      await expect(Promise.all(stored.map((hash, i) => verifyPassword(`${PASSWORD} ${i}`, hash)))).resolves.toEqual(Array(8).fill(true));
    } finally {
      spy.mockImplementation(real);
    }
  });

  test('the comparison is constant-time: timingSafeEqual on equal-length keys, right or wrong', async () => {
    const stored = await hashPassword(PASSWORD, { log2N: 10, r: 8, p: 1 });
    const spy = vi.mocked(crypto.timingSafeEqual);
    for (const attempt of [PASSWORD, 'wrong password', 'c', PASSWORD.slice(0, -1)]) {
      spy.mockClear();
      await verifyPassword(attempt, stored);
      expect(spy, attempt).toHaveBeenCalledTimes(1);
      const [left, right] = spy.mock.calls[0] as [Buffer, Buffer];
      expect([left.length, right.length]).toEqual([32, 32]);
    }
  });

  test('a log-in with an unknown username costs a hash too, and gets the same answer as a wrong password', async () => {
    const username = uniqueName();
    await new Browser(app).register(username);
    const scrypt = vi.mocked(crypto.scrypt);
    const answers = [];
    for (const body of [
      { username, password: 'wrong password' },
      { username: uniqueName('ghost'), password: 'wrong password' },
    ]) {
      scrypt.mockClear();
      const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: body });
      answers.push([response.statusCode, response.body]);
      // One verification each (the unknown user's first also hashes the dummy once).
      expect(scrypt.mock.calls.length).toBeGreaterThanOrEqual(1);
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  test('CSRF tokens and invite codes are compared in constant time too', async () => {
    const spy = vi.mocked(crypto.timingSafeEqual);
    const browser = await new Browser(app).register();
    spy.mockClear();
    await browser.request('POST', '/api/games', { name: 'x', variant: 'standard' }, { 'x-csrf-token': 'x'.repeat(browser.csrfToken!.length) });
    expect(spy).toHaveBeenCalled();
    const game = (await browser.request('POST', '/api/games', { name: 'Private', variant: 'standard', private: true })).json();
    const other = await new Browser(app).register();
    spy.mockClear();
    expect((await other.request('POST', `/api/games/${game.id}/join`, { inviteCode: 'z'.repeat(game.inviteCode.length) })).statusCode).toBe(403);
    expect(spy).toHaveBeenCalled();
  });
});

describe('the session cookie', () => {
  const register = (target: FastifyInstance, headers: Record<string, string> = {}) =>
    target.inject({ method: 'POST', url: '/api/auth/register', headers, payload: { username: uniqueName(), password: PASSWORD } });
  const sid = (response: {
    cookies: { name: string; value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string; maxAge?: number }[];
  }) => response.cookies.find((cookie) => cookie.name === 'sid')!;

  test('httpOnly, SameSite=Lax, Path=/, Max-Age of the session; not Secure over plain http, nor when a client merely claims https', async () => {
    for (const headers of [{}, { 'x-forwarded-proto': 'https' }] as Record<string, string>[]) {
      const cookie = sid(await register(app, headers));
      expect(cookie).toMatchObject({
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        maxAge: testSettings.sessionTtlMs ? testSettings.sessionTtlMs / 1000 : defaultSettings.sessionTtlMs / 1000,
      });
      expect(cookie.secure).toBeFalsy();
    }
  });

  test('Secure behind an https proxy with TRUST_PROXY (from the environment, as main.ts reads it), on log-in and log-out alike', async () => {
    // inject's requests come from 127.0.0.1: the proxy here.
    const config = loadConfig({ TRUST_PROXY: '127.0.0.1' });
    const proxied = await buildApp({ database: app.database, trustProxy: config.TRUST_PROXY, settings: testSettings });
    await proxied.ready();
    try {
      const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };
      const registered = await register(proxied, https);
      expect(sid(registered)).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true });
      const session = `sid=${sid(registered).value}`;
      const logout = await proxied.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { ...https, cookie: session, 'x-csrf-token': registered.json().csrfToken },
      });
      expect(logout.statusCode).toBe(204);
      expect(sid(logout)).toMatchObject({ value: '', httpOnly: true, secure: true });
      // The same proxy over plain http: not Secure.
      expect(sid(await register(proxied, { 'x-forwarded-proto': 'http' })).secure).toBeFalsy();
      expect(loadConfig({}).TRUST_PROXY).toBe(false);
    } finally {
      await proxied.close();
    }
  });
});

describe('CSRF', () => {
  test("every cookie-authenticated write route refuses a request without the token, with a wrong one, or with another session's", async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const writes = operationsOf(document).filter((operation) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(operation.method));
    const exempt = ['POST /api/auth/register', 'POST /api/auth/login', 'POST /api/notifications/unsubscribe'];
    expect(writes.length).toBeGreaterThan(20);
    const user = await new Browser(app).register();
    const mine = await freshCredentials(app, user.user!.id, 'cookie');
    const theirs = await freshCredentials(app, (await new Browser(app).register()).user!.id, 'cookie');
    const bearer = await freshCredentials(app, user.user!.id, 'api_token');
    const refusals: string[] = [];
    for (const operation of writes.filter((op) => !exempt.includes(op.key))) {
      const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'index' ? '0' : name === 'power' ? 'Macedonia' : name === 'kind' ? 'draw' : '00000000-0000-4000-8000-000000000000',
      );
      const attempts: [string, Record<string, string>][] = [
        ['no token', { cookie: mine.headers.cookie }],
        ['a wrong token', { cookie: mine.headers.cookie, 'x-csrf-token': 'forged' }],
        ["another session's token", { cookie: mine.headers.cookie, 'x-csrf-token': theirs.csrf! }],
        ['an empty token', { cookie: mine.headers.cookie, 'x-csrf-token': '' }],
      ];
      for (const [what, headers] of attempts) {
        const response = await app.inject({ method: operation.method as 'POST', url, headers, payload: {} });
        if (response.statusCode !== 403 || response.json().error.code !== 'csrf_failed')
          refusals.push(`${operation.key} with ${what}: ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
      // With an API token there is no CSRF to fear: whatever the answer, it is not a CSRF refusal.
      const withToken = await app.inject({ method: operation.method as 'POST', url, headers: bearer.headers, payload: {} });
      if (withToken.statusCode === 403 && withToken.json().error.code === 'csrf_failed') refusals.push(`${operation.key} refused an API token for CSRF`);
    }
    expect(refusals).toEqual([]);
    // The session still works with its own token.
    expect((await app.inject({ method: 'POST', url: '/api/games', headers: mine.headers, payload: { name: 'ok', variant: 'standard' } })).statusCode).toBe(201);
  });

  test('log-in and sign-up need no token but take JSON only, which a cross-site form cannot send', async () => {
    for (const url of ['/api/auth/login', '/api/auth/register']) {
      for (const contentType of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
        const response = await app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload: `username=x&password=${PASSWORD}` });
        expect(response.statusCode, `${url} ${contentType}`).toBe(415);
      }
    }
  });

  test('the websocket refuses cookie upgrades from another origin (allowed: its own, ALLOWED_ORIGINS, and API tokens from anywhere)', async () => {
    const listening = await startSiblingApp(app, { settings: { allowedOrigins: ['https://client.example'] } });
    try {
      const url = await listen(listening);
      const user = await new Browser(app).register();
      const cookie = (await freshCredentials(app, user.user!.id, 'cookie')).headers.cookie;
      await expect(connect(url, { cookie, origin: 'https://evil.example' })).rejects.toMatchObject({ statusCode: 403 });
      const own = await connect(url, { cookie, origin: `http://${new URL(url).host}` });
      const listed = await connect(url, { cookie, origin: 'https://client.example' });
      const token = await connect(url, { ...(await freshCredentials(app, user.user!.id, 'api_token')).headers, origin: 'https://evil.example' });
      for (const client of [own, listed, token]) client.socket.close();
    } finally {
      await listening.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  test("false by default; otherwise the proxies' addresses or ranges, comma-separated", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '172.28.0.10' }).TRUST_PROXY).toEqual(['172.28.0.10']);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.2, 10.1.0.0/16 ,fd00::/8, ::1,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.2',
      '10.1.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  test.each([
    ['true', /TRUST_PROXY: "true" would believe an X-Forwarded-For that any client writes itself; set the addresses of the proxies/],
    ['1', /TRUST_PROXY: a hop count \(1\) cannot tell the proxy from a client that connects directly; set the addresses/],
    ['2', /TRUST_PROXY: a hop count \(2\)/],
    [
      'yes',
      /TRUST_PROXY: "yes" is not an IP address or CIDR range; set the addresses of the proxies in front of the server, comma-separated \(IPs or CIDR ranges, e\.g\. .*\), or false/,
    ],
    ['10.0.0.300, 10.0.0.0/33', /TRUST_PROXY: "10\.0\.0\.300", "10\.0\.0\.0\/33" are not an IP address or CIDR range/],
    ['10.0.0.2,', /TRUST_PROXY: "" is not an IP address/],
  ])('%j stops start-up with a message naming the variable and what it takes', (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
  });
});

describe('rate limits on log-in and sign-up', () => {
  test('counted per client IP: from a trusted proxy its X-Forwarded-For; otherwise a claimed one changes nothing', async () => {
    const settings = { ...testSettings, authRateLimit: { max: 2, windowMs: 60_000 } };
    const direct = await buildApp({ database: app.database, settings });
    // inject's requests come from 127.0.0.1.
    const proxied = await buildApp({ database: app.database, settings, trustProxy: ['127.0.0.1'] });
    await Promise.all([direct.ready(), proxied.ready()]);
    try {
      const login = (target: FastifyInstance, ip: string) =>
        target
          .inject({
            method: 'POST',
            url: '/api/auth/login',
            headers: { 'x-forwarded-for': ip },
            payload: { username: 'nobody-at-all', password: 'wrong password' },
          })
          .then((r) => r.statusCode);
      // Direct: a different claimed address each time does not escape the limit.
      expect([await login(direct, '198.51.100.1'), await login(direct, '198.51.100.2'), await login(direct, '198.51.100.3')]).toEqual([401, 401, 429]);
      // Behind the proxy: each client has its own count.
      expect([
        await login(proxied, '198.51.100.1'),
        await login(proxied, '198.51.100.1'),
        await login(proxied, '198.51.100.1'),
        await login(proxied, '198.51.100.2'),
      ]).toEqual([401, 401, 429, 401]);
      const limited = await direct.inject({ method: 'POST', url: '/api/auth/register', payload: {} });
      const again = await direct.inject({ method: 'POST', url: '/api/auth/register', payload: {} });
      const third = await direct.inject({ method: 'POST', url: '/api/auth/register', payload: {} });
      expect([limited.statusCode, again.statusCode, third.statusCode]).toEqual([400, 400, 429]);
      expect(third.json().error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('try again in') });
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await direct.close();
      await proxied.close();
    }
  });

  test('an app that trusts only its proxy believes the header from the proxy, not from a client that connects directly', async () => {
    const settings = { ...testSettings, authRateLimit: { max: 2, windowMs: 60_000 } };
    const behind = await buildApp({ database: app.database, settings, trustProxy: ['10.0.0.2'] });
    await behind.ready();
    try {
      const login = (remoteAddress: string, forwardedFor: string) =>
        behind
          .inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress,
            headers: { 'x-forwarded-for': forwardedFor },
            payload: { username: 'nobody-at-all', password: 'wrong password' },
          })
          .then((r) => r.statusCode);
      // A client straight at the app: a new forged address each time, still its own count.
      expect([await login('192.0.2.9', '198.51.100.1'), await login('192.0.2.9', '198.51.100.2, 10.0.0.2'), await login('192.0.2.9', '198.51.100.3')]).toEqual([
        401, 401, 429,
      ]);
      // Through the proxy: each client its own count, by the address the proxy gives.
      expect([
        await login('10.0.0.2', '203.0.113.5'),
        await login('10.0.0.2', '203.0.113.5'),
        await login('10.0.0.2', '203.0.113.5'),
        await login('10.0.0.2', '203.0.113.6'),
      ]).toEqual([401, 401, 429, 401]);
    } finally {
      await behind.close();
    }
  });
});

describe('security headers (helmet)', () => {
  const expectHeaders = (headers: Record<string, unknown>, what: string) => {
    expect(headers['x-content-type-options'], what).toBe('nosniff');
    expect(headers['x-frame-options'], what).toBe('SAMEORIGIN');
    expect(headers['strict-transport-security'], what).toMatch(/max-age=\d+/);
    expect(headers['referrer-policy'], what).toBe('no-referrer');
    expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
    expect(headers['content-security-policy'], what).toContain("default-src 'self'");
    expect(headers['content-security-policy'], what).toContain("frame-ancestors 'self'");
    expect(headers['x-powered-by'], what).toBeUndefined();
  };

  test('on API answers, errors of every kind, and the documentation', async () => {
    const browser = await new Browser(app).register();
    const answers = {
      'a JSON answer': await app.inject({ method: 'GET', url: '/api/health' }),
      'an authenticated answer': await browser.request('GET', '/api/auth/me'),
      'a 404': await app.inject({ method: 'GET', url: '/api/nowhere' }),
      'a 400': await app.inject({ method: 'GET', url: '/api/games?limit=0' }),
      'a 401': await app.inject({ method: 'GET', url: '/api/auth/tokens' }),
      'a 403': await browser.request('POST', '/api/games', {}, { 'x-csrf-token': 'no' }),
      'a 413': await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: 'x'.repeat(70_000) }),
      'a 415': await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'text/xml' }, payload: '<x/>' }),
      'a 426': await browser.request('GET', '/api/live'),
      'the documentation': await app.inject({ method: 'GET', url: '/api/docs/json' }),
      'the export as text': await app.inject({ method: 'GET', url: '/api/games/00000000-0000-4000-8000-000000000000/export/datc' }),
    };
    for (const [what, response] of Object.entries(answers)) expectHeaders(response.headers, what);
  });

  test('on the web client: files, index.html for client routes, and missing files', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'diadochi-headers-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Diadochi</title>');
    await writeFile(path.join(dist, 'app.js'), 'console.log(1)');
    const withClient = await startSiblingApp(app, { settings: { webDistDir: dist } });
    try {
      for (const url of ['/', '/app.js', '/games/some-game', '/missing.js']) {
        const response = await withClient.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expectHeaders(response.headers, url);
      }
    } finally {
      await withClient.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});

/** Source files of the server (generated Prisma client left out). */
function serverSources(): { file: string; text: string }[] {
  const root = path.join(projectRoot, 'server');
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.startsWith(`db${path.sep}generated`))
    .map((file) => ({ file: `server/${file}`, text: readFileSync(path.join(root, file), 'utf8') }));
}

/** The first argument of the call whose "(" is at `open`, as source text (strings and templates skipped over). */
export function firstArgument(text: string, open: number): string {
  let depth = 0;
  let i = open + 1;
  const start = i;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = text.indexOf(c, i + 1) + 1;
      continue;
    }
    if (c === '`') {
      i++;
      while (i < text.length && text[i] !== '`') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) {
      if (depth === 0) break;
      depth--;
    }
    if (c === ',' && depth === 0) break;
    i++;
  }
  return text.slice(start, i).trim();
}

/**
 * Raw SQL in server/ that is built from strings. Allowed: tagged templates
 * ($queryRaw`…${value}…`, whose values Prisma binds as parameters); the
 * Unsafe calls only with a constant SQL text (a literal, or a const bound to
 * one, interpolating nothing but UPPER_CASE string constants of the file) and
 * values passed as parameters; pg's query() with an
 * interpolated text only where listed in IDENTIFIER_INTERPOLATIONS.
 */
export function stringBuiltSql(sources: { file: string; text: string }[]): string[] {
  const problems: string[] = [];
  /** A string constant of the file: `const NAME = '…'` (a plain literal). */
  const literalConstant = (text: string, name: string) => new RegExp(`const\\s+${name}\\s*=\\s*('[^'$]*'|"[^"$]*")\\s*;`).test(text);
  /** Literal text, whose only interpolations (if any) are UPPER_CASE string constants of the file. */
  const constantText = (text: string, literal: string) =>
    !/['"`]\s*\+|\+\s*['"`]/.test(literal) &&
    [...literal.matchAll(/\$\{([^}]*)\}/g)].every(([, name]) => /^[A-Z][A-Z0-9_]*$/.test(name) && literalConstant(text, name));
  const constantSql = (text: string, argument: string) => {
    if (/^(['"`])/.test(argument)) return constantText(text, argument);
    const declaration = new RegExp(`const\\s+${argument.replace(/[^\w$]/g, '')}\\s*=\\s*(\`[^\`]*\`|'[^']*'|"[^"]*")\\s*;`).exec(text);
    return declaration !== null && constantText(text, declaration[1]);
  };
  for (const { file, text } of sources) {
    for (const match of text.matchAll(/\$(queryRawUnsafe|executeRawUnsafe)\s*(<[^>]*>)?\s*\(/g)) {
      const argument = firstArgument(text, match.index! + match[0].length - 1);
      if (!constantSql(text, argument)) problems.push(`${file}: $${match[1]}(${argument.slice(0, 60)}…) builds SQL from strings`);
    }
    for (const match of text.matchAll(/\$(queryRaw|executeRaw)\s*(<[^>]*>)?\s*\(/g)) {
      problems.push(`${file}: $${match[1]}(…) called as a function: use the tagged template $${match[1]}\`…\``);
    }
    for (const match of text.matchAll(/Prisma\.raw\s*\(|\.\$unsafe\s*\(/g)) problems.push(`${file}: ${match[0]}…) puts text into SQL unescaped`);
    for (const match of text.matchAll(/\.query\s*\(/g)) {
      const argument = firstArgument(text, match.index! + match[0].length - 1);
      const interpolated = argument.includes('${') || /['"`]\s*\+|\+\s*['"`]/.test(argument);
      if (!interpolated) continue;
      if (!IDENTIFIER_INTERPOLATIONS.some((allowed) => allowed.file === file && argument === allowed.sql))
        problems.push(`${file}: query(${argument.slice(0, 80)}) builds SQL from strings`);
    }
  }
  return problems;
}

/** Identifiers cannot be bound parameters in PostgreSQL; these few are built in code, never from input. */
const IDENTIFIER_INTERPOLATIONS = [
  { file: 'server/db/database.ts', sql: '`LISTEN "${this.channel}"`', why: 'the channel is the constant NOTIFY_CHANNEL' },
  { file: 'server/db/database.ts', sql: '`LISTEN "${this.heartbeatChannel}"`', why: 'that channel + _heartbeat_ + random hex' },
  { file: 'server/db/migrate.ts', sql: '`CREATE DATABASE "${shadowName}"`', why: 'prisma_shadow_ + a random UUID' },
  { file: 'server/db/migrate.ts', sql: '`DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`', why: 'the same name' },
];

describe('no string-built SQL', () => {
  test('server/ has no $queryRawUnsafe / $executeRawUnsafe on built text, no Prisma.raw, no interpolated pg queries', () => {
    const sources = serverSources();
    expect(sources.length).toBeGreaterThan(30);
    expect(stringBuiltSql(sources)).toEqual([]);
  });

  test('the scan finds what it looks for', () => {
    const bad = [
      { file: 'server/x.ts', text: "await db.$queryRawUnsafe(`SELECT * FROM users WHERE name = '${name}'`);" },
      { file: 'server/x.ts', text: "await db.$executeRawUnsafe('DELETE FROM games WHERE id = ' + id);" },
      { file: 'server/x.ts', text: 'const sql = `SELECT ${column} FROM users`;\nawait db.$queryRawUnsafe(sql);' },
      { file: 'server/x.ts', text: 'let TABLE = input;\nconst SQL = `SELECT * FROM ${TABLE}`;\nawait db.$queryRawUnsafe(SQL);' },
      { file: 'server/x.ts', text: 'await db.$queryRaw(Prisma.raw(text));' },
      { file: 'server/x.ts', text: 'await client.query(`SELECT * FROM users WHERE id = ${id}`);' },
      { file: 'server/x.ts', text: "await client.query('SELECT * FROM users WHERE id = ' + id);" },
    ];
    for (const source of bad) expect(stringBuiltSql([source]), source.text).not.toEqual([]);
    const good = [
      { file: 'server/x.ts', text: 'await tx.$queryRaw`SELECT id FROM games WHERE id = ${gameId}::uuid FOR UPDATE`;' },
      { file: 'server/x.ts', text: 'const SQL = `SELECT $1::int`;\nawait db.$queryRawUnsafe(SQL, value);' },
      { file: 'server/x.ts', text: "const CHANNEL = 'live';\nconst SQL = `SELECT pg_notify('${CHANNEL}', $1)`;\nawait db.$queryRawUnsafe(SQL, value);" },
      { file: 'server/x.ts', text: "await client.query('SELECT 1');" },
    ];
    for (const source of good) expect(stringBuiltSql([source]), source.text).toEqual([]);
  });
});
