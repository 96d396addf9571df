import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../server/accounts/passwords.ts';
import { passwordWeakness } from '../../server/accounts/password-policy.ts';
import { createSession, deleteExpiredSessions } from '../../server/auth/sessions.ts';
import { Browser, PASSWORD, startSiblingApp, startTestApp, uniqueName, type TestApp } from './helpers/app.ts';

// Generous: these go through a real database on a machine that may be busy.
vi.setConfig({ testTimeout: 30_000 });

let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
}, 60_000);
afterAll(() => testApp.close(), 60_000);

const newGame = { name: 'Test game', variant: 'standard' };

describe('sign-up', () => {
  test('creates the user, logs in with an httpOnly SameSite=Lax cookie and returns a CSRF token', async () => {
    const username = uniqueName('Alice');
    const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, password: PASSWORD } });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.user.username).toBe(username);
    expect(body.authenticatedBy).toBe('cookie');
    expect(body.csrfToken).toMatch(/^[\w-]{20,}$/);
    const cookie = response.cookies.find((c) => c.name === 'sid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeUndefined(); // plain http
    expect(cookie.value.length).toBeGreaterThan(30);
  });

  test('stores a salted scrypt hash, never the password', async () => {
    const username = uniqueName();
    await new Browser(app).register(username);
    const user = await app.prisma.user.findUniqueOrThrow({ where: { usernameKey: username.toLowerCase() } });
    expect(user.passwordHash).toMatch(/^scrypt\$\d+\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(user.passwordHash).not.toContain(PASSWORD);
  });

  test('refuses a username that differs only in case', async () => {
    const username = uniqueName('Bob');
    await new Browser(app).register(username);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: username.toUpperCase(), password: PASSWORD },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('username_taken');
  });

  test.each([
    [{ username: 'ab', password: PASSWORD }, 'body.username: must be at least 3 characters'],
    [{ username: 'bad name!', password: PASSWORD }, 'body.username: may contain only letters, digits, _ and -'],
    [{ username: 'validname', password: 'short' }, 'body.password: must be at least 8 characters'],
    [{ username: 'samesame', password: 'samesame' }, 'body.password: must not be the username'],
    [{ username: 'validname' }, 'body.password:'],
  ])('rejects %j with a 400 naming the problem', async (payload, expected) => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain(expected);
    expect(error.issues.length).toBeGreaterThan(0);
  });

  test('malformed JSON, a missing body and a wrong content type are 4xx JSON errors', async () => {
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('bad_request');

    const missing = await app.inject({ method: 'POST', url: '/api/auth/register' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('validation_failed');

    const form = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=x&password=y',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().error.code).toBe('unsupported_media_type');
  });
});

describe('password strength (sign-up and password change)', () => {
  const signUp = (username: string, password: string) => app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, password } });

  test.each([
    ['password', 'is too easy to guess: this is a heavily used password'],
    ['12345678', 'is too easy to guess: this is a heavily used password'],
    ['        ', 'is too easy to guess: repeated characters like "aaa" are easy to guess'],
    ['qwertyuiop', 'is too easy to guess: this is a frequently used password'],
    ['abcdefgh', 'is too easy to guess: common character sequences like "abc" are easy to guess'],
    ['iloveyou2024', 'is too easy to guess: this is similar to a commonly used password'],
    ['P@ssw0rd!', 'is too easy to guess: this is similar to a commonly used password'],
    ['letmein123', 'is too easy to guess'],
    ['diadochi2024', 'is too easy to guess'],
  ])('sign-up refuses %j: 400 naming the field, the reason and the advice', async (password, reason) => {
    const username = uniqueName();
    const response = await signUp(username, password);
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain(`body.password: ${reason}`);
    expect(error.message).toContain('Add more words that are less common.');
    expect(await app.prisma.user.count({ where: { usernameKey: username.toLowerCase() } })).toBe(0);
  });

  test('a password built from the username is refused, a strong one that merely contains it is not', async () => {
    const username = uniqueName('Wellington');
    for (const password of [`${username}2024!`, `${username.toUpperCase()} ${username}`, `${username}${username}`, `1${username}1`]) {
      const response = await signUp(username, password);
      expect(response.statusCode, password).toBe(400);
      expect(response.json().error.message, password).toMatch(/^body\.password: (is too easy to guess|must not be built from the username)/);
    }
    expect((await signUp(username, `${username} keeps kettle violin umbrella`)).statusCode).toBe(201);
  });

  test.each(['correct horse battery', 'purple monkey dishwasher', 'kettle violin umbrella', 'Tr0ub4dor&3', `${'a'.repeat(8)} quiet lanterns drift`])(
    'sign-up accepts %j',
    async (password) => {
      expect((await signUp(uniqueName(), password)).statusCode).toBe(201);
    },
  );

  test('a changed password must be as hard to guess: 400 naming newPassword; a good one is taken', async () => {
    const browser = await new Browser(app).register();
    for (const newPassword of ['password', '12345678', '        ', `${browser.user!.username}!!`]) {
      const response = await browser.request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword });
      expect(response.statusCode, newPassword).toBe(400);
      expect(response.json().error.message, newPassword).toMatch(/^body\.newPassword: (is too easy to guess|must not be built from the username)/);
    }
    expect((await new Browser(app).login(browser.user!.username, PASSWORD)).statusCode).toBe(200);
    expect((await browser.request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'eleven quiet lanterns drift' })).statusCode).toBe(
      200,
    );
  });

  test('only the first 64 characters are rated, so a long hostile password cannot hold the server up', async () => {
    const hostile = ['1'.repeat(256), Array.from({ length: 256 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join(''), '4@1!|3$5'.repeat(32)];
    await passwordWeakness('warm up', 'someone');
    for (const password of hostile) {
      const started = performance.now();
      await passwordWeakness(password, 'someone');
      // Rated whole, each of these took 1.5 to 2.5 s of the event loop; now well under 100 ms on an idle machine.
      expect(performance.now() - started, password.slice(0, 16)).toBeLessThan(1000);
    }
  });
});

describe('log-in and log-out', () => {
  test('logs in with the right password (any case of the username) and out again', async () => {
    const username = uniqueName('Carol');
    await new Browser(app).register(username);
    const browser = new Browser(app);
    const login = await browser.login(username.toUpperCase());
    expect(login.statusCode).toBe(200);
    expect(login.json().user.username).toBe(username);

    const me = await browser.request('GET', '/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user: { username }, authenticatedBy: 'cookie', csrfToken: browser.csrfToken });

    const oldCookie = browser.cookie!;
    const logout = await browser.request('POST', '/api/auth/logout');
    expect(logout.statusCode).toBe(204);
    // The session is gone on the server, not just the cookie in this browser: the old cookie is a visitor's now.
    const replay = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: oldCookie } });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ user: null, authenticatedBy: null, csrfToken: null });
    expect((await app.inject({ method: 'GET', url: '/api/auth/tokens', headers: { cookie: oldCookie } })).statusCode).toBe(401);
  });

  test('a wrong password and an unknown user get the same 401', async () => {
    const username = uniqueName();
    await new Browser(app).register(username);
    const wrong = await new Browser(app).login(username, 'not the password');
    const unknown = await new Browser(app).login(uniqueName('nobody'), PASSWORD);
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toEqual({ code: 'invalid_credentials', message: 'wrong username or password' });
    }
  });

  test('who-am-I answers a visitor (no credentials) that nobody is logged in: 200, not an error a browser would log', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null, authenticatedBy: null, csrfToken: null });
    // What needs a user still refuses a visitor.
    expect((await app.inject({ method: 'GET', url: '/api/auth/tokens' })).statusCode).toBe(401);
  });
});

describe('session expiry', () => {
  test('an expired session counts for nothing (who-am-I answers a visitor) and is swept away', async () => {
    const browser = await new Browser(app).register();
    const expired = await createSession(app.prisma, browser.user!.id, 'cookie', { ttlMs: -1000 });
    const response = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `sid=${expired.token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toBeNull();
    expect(await app.prisma.session.count({ where: { id: expired.session.id } })).toBe(0);

    const another = await createSession(app.prisma, browser.user!.id, 'cookie', { ttlMs: -1000 });
    expect(await deleteExpiredSessions(app.prisma)).toBeGreaterThanOrEqual(1);
    expect(await app.prisma.session.count({ where: { id: another.session.id } })).toBe(0);
    // The live session is untouched.
    expect((await browser.request('GET', '/api/auth/me')).json().user.id).toBe(browser.user!.id);
  });
});

describe('CSRF protection of cookie-authenticated writes', () => {
  test('refuses a write without the X-CSRF-Token header or with a wrong one, accepts the right one', async () => {
    const browser = await new Browser(app).register();
    const missing = await app.inject({ method: 'POST', url: '/api/games', headers: { cookie: browser.cookie! }, payload: newGame });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error.code).toBe('csrf_failed');

    const wrong = await browser.request('POST', '/api/games', newGame, { 'x-csrf-token': 'forged' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('csrf_failed');

    const other = await new Browser(app).register();
    const someoneElsesToken = await browser.request('POST', '/api/games', newGame, { 'x-csrf-token': other.csrfToken! });
    expect(someoneElsesToken.statusCode).toBe(403);

    const right = await browser.request('POST', '/api/games', newGame);
    expect(right.statusCode).toBe(201);
  });

  test('reads need no token', async () => {
    const browser = await new Browser(app).register();
    const response = await app.inject({ method: 'GET', url: '/api/games?filter=mine', headers: { cookie: browser.cookie! } });
    expect(response.statusCode).toBe(200);
  });
});

describe('API tokens', () => {
  test('create, use as Bearer (no CSRF token needed), list and revoke', async () => {
    const browser = await new Browser(app).register();
    const created = await browser.request('POST', '/api/auth/tokens', { name: 'my bot' });
    expect(created.statusCode).toBe(201);
    const { token, id, name } = created.json();
    expect(name).toBe('my bot');
    expect(token).toMatch(/^dip_/);
    const bearer = { authorization: `Bearer ${token}` };

    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user: { id: browser.user!.id }, authenticatedBy: 'api_token', csrfToken: null });

    const write = await app.inject({ method: 'POST', url: '/api/games', headers: bearer, payload: newGame });
    expect(write.statusCode).toBe(201);

    const list = await browser.request('GET', '/api/auth/tokens');
    expect(list.json().tokens).toEqual([expect.objectContaining({ id, name: 'my bot' })]);
    // Used once: no longer "never used" (later uses are written at most every 5 minutes).
    const [listed] = list.json().tokens;
    expect(new Date(listed.lastUsedAt).getTime()).toBeGreaterThan(new Date(listed.createdAt).getTime());
    expect(list.body).not.toContain(token);

    // A token is not a session cookie, and a session cookie is not a token.
    const asCookie = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `sid=${token}` } });
    expect(asCookie.statusCode).toBe(200);
    expect(asCookie.json().user).toBeNull();

    const revoke = await browser.request('DELETE', `/api/auth/tokens/${id}`);
    expect(revoke.statusCode).toBe(204);
    const after = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.message).toContain('invalid or has been revoked');
  });

  test('an API token cannot create another: 403, so a leaked token ends when it is revoked', async () => {
    const browser = await new Browser(app).register();
    const { id, token } = (await browser.request('POST', '/api/auth/tokens', { name: 'leaked bot' })).json();
    const bearer = { authorization: `Bearer ${token}` };
    const minted = await app.inject({ method: 'POST', url: '/api/auth/tokens', headers: bearer, payload: { name: 'escape hatch' } });
    expect(minted.statusCode).toBe(403);
    expect(minted.json().error).toEqual({ code: 'forbidden', message: expect.stringContaining('not with an API token') });
    expect((await browser.request('GET', '/api/auth/tokens')).json().tokens.map((listed: { id: string }) => listed.id)).toEqual([id]);
    // The token still reads and lists; revoked, it is the end of it.
    expect((await app.inject({ method: 'GET', url: '/api/auth/tokens', headers: bearer })).statusCode).toBe(200);
    expect((await browser.request('DELETE', `/api/auth/tokens/${id}`)).statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer })).statusCode).toBe(401);
  });

  test("cannot revoke someone else's token", async () => {
    const owner = await new Browser(app).register();
    const { id } = (await owner.request('POST', '/api/auth/tokens', { name: 'mine' })).json();
    const intruder = await new Browser(app).register();
    const response = await intruder.request('DELETE', `/api/auth/tokens/${id}`);
    expect(response.statusCode).toBe(404);
    expect(await app.prisma.session.count({ where: { id } })).toBe(1);
  });

  test('a malformed Authorization header is 401', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Basic abc' } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toContain('Bearer');
  });
});

describe('changing the password', () => {
  const NEW_PASSWORD = 'a brand new passphrase';

  test('needs the current password; afterwards only the new one logs in, other browsers are signed out, API tokens kept', async () => {
    const here = await new Browser(app).register();
    const username = here.user!.username;
    const elsewhere = new Browser(app);
    expect((await elsewhere.login(username)).statusCode).toBe(200);
    const token = (await here.request('POST', '/api/auth/tokens', { name: 'bot' })).json().token;

    const changed = await here.request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ otherSessionsEnded: 1 });

    expect((await here.request('GET', '/api/auth/me')).json().user.username).toBe(username);
    expect((await elsewhere.request('GET', '/api/auth/me')).json().user).toBeNull();
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).json().user.username).toBe(username);
    expect((await new Browser(app).login(username, PASSWORD)).statusCode).toBe(401);
    expect((await new Browser(app).login(username, NEW_PASSWORD)).statusCode).toBe(200);
  });

  test('a wrong current password changes nothing: 403 wrong_password', async () => {
    const browser = await new Browser(app).register();
    const before = await app.prisma.user.findUniqueOrThrow({ where: { id: browser.user!.id } });
    const response = await browser.request('POST', '/api/auth/password', { currentPassword: 'not my password', newPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({ code: 'wrong_password', message: 'the current password is wrong' });
    expect((await app.prisma.user.findUniqueOrThrow({ where: { id: browser.user!.id } })).passwordHash).toBe(before.passwordHash);
    expect((await browser.request('GET', '/api/auth/me')).statusCode).toBe(200);
  });

  test('an API token cannot change the password', async () => {
    const browser = await new Browser(app).register();
    const token = (await browser.request('POST', '/api/auth/tokens', { name: 'leaked bot' })).json().token;
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers: { authorization: `Bearer ${token}` },
      payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toContain('not with an API token');
    expect((await new Browser(app).login(browser.user!.username, PASSWORD)).statusCode).toBe(200);
  });

  test.each([
    [{ currentPassword: PASSWORD, newPassword: 'short' }, 'body.newPassword: must be at least 8 characters'],
    [{ currentPassword: PASSWORD, newPassword: PASSWORD }, 'body.newPassword: must differ from the current password'],
    [{ newPassword: NEW_PASSWORD }, 'body.currentPassword:'],
  ])('rejects %j with a 400 naming the problem', async (payload, expected) => {
    const browser = await new Browser(app).register();
    const response = await browser.request('POST', '/api/auth/password', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(expected);
  });

  test('the new password may not be the username', async () => {
    const browser = await new Browser(app).register(uniqueName('Carol'));
    const response = await browser.request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: browser.user!.username.toUpperCase() });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'validation_failed', message: 'body.newPassword: must not be the username' });
  });

  test('needs the CSRF token and a session', async () => {
    const browser = await new Browser(app).register();
    const forged = await browser.request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, { 'x-csrf-token': 'forged' });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.code).toBe('csrf_failed');
    const anonymous = await app.inject({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } });
    expect(anonymous.statusCode).toBe(401);
  });

  test("two changes at once: one wins, the other is told, and the winner's password is the one that works", async () => {
    const first = await new Browser(app).register();
    const username = first.user!.username;
    const second = new Browser(app);
    await second.login(username);
    const [a, b] = await Promise.all([
      first.request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'first new password' }),
      second.request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'second new password' }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? 'first new password' : 'second new password';
    expect((await new Browser(app).login(username, winner)).statusCode).toBe(200);
  });

  test('a change that lands after the other request was let in: that request is told the password was changed meanwhile, not that it is wrong', async () => {
    const late = await new Browser(app).register();
    expect((await late.request('GET', '/api/auth/me')).statusCode).toBe(200);
    // What the other session's change does when it commits (a new hash; this session ended), written while this
    // session is still held by the server as last read: as when it commits between this request's log-in check and its read.
    const user = late.user!;
    await app.prisma.$transaction([
      app.prisma.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword('changed elsewhere', app.settings.scryptCost) } }),
      app.prisma.session.deleteMany({ where: { userId: user.id } }),
    ]);
    const told = await late.request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'third new password' });
    expect(told.statusCode, told.body).toBe(409);
    expect(told.json().error.message).toMatch(/changed meanwhile/);
    // A wrong current password in a session still open is still called wrong.
    const open = await new Browser(app).register();
    const wrong = await open.request('POST', '/api/auth/password', { currentPassword: 'not my password', newPassword: 'third new password' });
    expect(wrong.statusCode, wrong.body).toBe(403);
    expect(wrong.json().error.code).toBe('wrong_password');
  });
});

describe('rate limits and headers', () => {
  test('log-in attempts beyond the limit get 429 with a JSON error', async () => {
    const limited = await startSiblingApp(app, { settings: { authRateLimit: { max: 3, windowMs: 60_000 } } });
    try {
      const username = uniqueName();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await limited.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password: 'wrong password' } });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.json().error.code).toBe('rate_limited');
          expect(response.headers['retry-after']).toBeDefined();
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      // Sign-up is limited too.
      const signups = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        signups.push((await limited.inject({ method: 'POST', url: '/api/auth/register', payload: {} })).statusCode);
      }
      expect(signups).toEqual([400, 400, 400, 429]);
    } finally {
      await limited.close();
    }
  });

  test('guesses at the current password in a change of password are limited too', async () => {
    const browser = await new Browser(app).register();
    const limited = await startSiblingApp(app, { settings: { authRateLimit: { max: 2, windowMs: 60_000 } } });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const headers = { cookie: browser.cookie!, 'x-csrf-token': browser.csrfToken! };
        const payload = { currentPassword: `guess number ${attempt}`, newPassword: 'a brand new passphrase' };
        statuses.push((await limited.inject({ method: 'POST', url: '/api/auth/password', headers, payload })).statusCode);
      }
      expect(statuses).toEqual([403, 403, 429]);
    } finally {
      await limited.close();
    }
  });

  test('log-ins and password changes share one budget per address, whichever comes first', async () => {
    const browser = await new Browser(app).register();
    const change = (target: FastifyInstance, attempt: number) =>
      target.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: { cookie: browser.cookie!, 'x-csrf-token': browser.csrfToken! },
        payload: { currentPassword: `guess number ${attempt}`, newPassword: 'a brand new passphrase' },
      });
    const login = (target: FastifyInstance) =>
      target.inject({ method: 'POST', url: '/api/auth/login', payload: { username: browser.user!.username, password: 'wrong password' } });
    for (const order of ['log-ins first', 'password changes first']) {
      // A fresh instance each time: fresh counters.
      const limited = await startSiblingApp(app, { settings: { authRateLimit: { max: 3, windowMs: 60_000 } } });
      try {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 3; attempt++)
          statuses.push((order === 'log-ins first' ? await login(limited) : await change(limited, attempt)).statusCode);
        const then = order === 'log-ins first' ? await change(limited, 9) : await login(limited);
        expect([...statuses, then.statusCode], order).toEqual(order === 'log-ins first' ? [401, 401, 401, 429] : [403, 403, 403, 429]);
        expect(then.json().error.code).toBe('rate_limited');
      } finally {
        await limited.close();
      }
    }
  });

  test('behind an https proxy (TRUST_PROXY) the session cookie is Secure', async () => {
    const proxied = await startSiblingApp(app, { trustProxy: ['127.0.0.1'] });
    try {
      const response = await proxied.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { username: uniqueName(), password: PASSWORD },
      });
      expect(response.statusCode).toBe(201);
      expect(response.cookies.find((c) => c.name === 'sid')!.secure).toBe(true);
    } finally {
      await proxied.close();
    }
  });

  test('responses carry helmet security headers', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });
});
