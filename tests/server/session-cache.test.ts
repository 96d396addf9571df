/**
 * Sessions held in memory by each instance (server/auth/session-cache.ts):
 * requests are answered without a query, and whatever ends or changes a session
 * on any instance (log-out, a revoked token, a new password, the administrator
 * command) reaches every instance.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SessionCache } from '../../server/auth/session-cache.ts';
import type { SessionWithUser } from '../../server/auth/sessions.ts';
import { adminCommand } from '../../server/admin/admins.ts';
import pg from 'pg';
import { Browser, PASSWORD, startSiblingApp, startTestApp, type TestApp } from './helpers/app.ts';
import { usingPostgres } from './helpers/database.ts';

vi.setConfig({ testTimeout: 30_000 });

function session(tokenHash: string, userId = 'u1', id = `s-${tokenHash}`): SessionWithUser {
  const at = new Date(0);
  return {
    id,
    userId,
    kind: 'cookie',
    tokenHash,
    name: null,
    createdAt: at,
    lastUsedAt: at,
    expiresAt: null,
    user: { id: userId, username: 'alice', isAdmin: false, createdAt: at },
  };
}

describe('the cache itself', () => {
  const live = (options?: ConstructorParameters<typeof SessionCache>[0]) => {
    const cache = new SessionCache(options);
    cache.listening(true);
    return cache;
  };

  test('keeps what was read, for ttlMs', () => {
    const cache = live({ ttlMs: 1000, capacity: 10 });
    cache.keep(session('a'), cache.begin(), 0);
    expect(cache.get('a', 999)?.id).toBe('s-a');
    expect(cache.get('a', 1000)).toBeUndefined();
  });

  test('does not keep a read that was under way when something was forgotten', () => {
    const cache = live();
    const generation = cache.begin();
    cache.forgetSession('s-other');
    cache.keep(session('a'), generation);
    expect(cache.get('a')).toBeUndefined();
  });

  test('forgets by session, by user, or everything, as notifications say', () => {
    const cache = live();
    for (const [hash, user] of [
      ['a', 'u1'],
      ['b', 'u1'],
      ['c', 'u2'],
      ['d', 'u3'],
    ])
      cache.keep(session(hash, user), cache.begin());
    cache.notified('session s-c');
    expect(cache.get('c')).toBeUndefined();
    cache.notified('user u1');
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, undefined]);
    expect(cache.get('d')?.id).toBe('s-d');
    cache.notified('something a later version says');
    expect(cache.get('d')).toBeUndefined();
  });

  test('is not used while notifications may be missed, and starts empty when they are back', () => {
    const cache = live();
    cache.keep(session('a'), cache.begin());
    cache.listening(false);
    expect(cache.get('a')).toBeUndefined();
    cache.keep(session('a'), cache.begin());
    cache.listening(true);
    expect(cache.get('a')).toBeUndefined();
  });

  test('holds at most `capacity` sessions, dropping the oldest', () => {
    const cache = live({ ttlMs: 60_000, capacity: 2 });
    for (const hash of ['a', 'b', 'c']) cache.keep(session(hash), cache.begin());
    expect([cache.get('a'), cache.get('b')?.id, cache.get('c')?.id]).toEqual([undefined, 's-b', 's-c']);
  });
});

describe('two instances on one database', () => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let other: FastifyInstance;

  beforeAll(async () => {
    testApp = await startTestApp();
    app = testApp.app;
    other = await startSiblingApp(app);
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await testApp?.close();
  }, 60_000);

  /** The same browser (cookie and CSRF token) talking to the other instance. */
  const onOther = (browser: Browser) => Object.assign(new Browser(other), { cookie: browser.cookie, csrfToken: browser.csrfToken, user: browser.user });
  const whoAmI = async (browser: Browser) => (await browser.request('GET', '/api/auth/me')).json().user as { id: string; isAdmin: boolean } | null;
  /** Within a moment: the time PostgreSQL takes to tell the other instance. */
  const soon = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 5_000, interval: 20 });

  test('a session in use is answered from memory, without a query', async () => {
    const alice = await new Browser(app).register();
    await whoAmI(alice);
    const before = { ...app.sessions.stats };
    expect((await whoAmI(alice))?.id).toBe(alice.user!.id);
    expect(await whoAmI(alice)).not.toBeNull();
    expect(app.sessions.stats.hits - before.hits).toBe(2);
    expect(app.sessions.stats.misses).toBe(before.misses);
  });

  test('logging out on one instance ends the session on the other, which held it', async () => {
    const bob = await new Browser(app).register();
    expect(await whoAmI(bob)).not.toBeNull();
    expect((await onOther(bob).request('POST', '/api/auth/logout')).statusCode).toBe(204);
    await soon(async () => expect(await whoAmI(bob)).toBeNull());
  });

  test('an API token revoked on one instance is refused by the other', async () => {
    const carol = await new Browser(app).register();
    const created = (await carol.request('POST', '/api/auth/tokens', { name: 'bot' })).json() as { token: string; id: string };
    const asBot = () => app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${created.token}` } });
    expect((await asBot()).statusCode).toBe(200);
    expect((await onOther(carol).request('DELETE', `/api/auth/tokens/${created.id}`)).statusCode).toBe(204);
    await soon(async () => expect((await asBot()).statusCode).toBe(401));
  });

  test('a new password ends the other sessions on every instance', async () => {
    const dave = await new Browser(app).register();
    const laptop = new Browser(app);
    expect((await laptop.login(dave.user!.username)).statusCode).toBe(200);
    expect(await whoAmI(laptop)).not.toBeNull();
    const changed = await onOther(dave).request('POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'another long password' });
    expect(changed.json()).toEqual({ otherSessionsEnded: 1 });
    await soon(async () => expect(await whoAmI(laptop)).toBeNull());
    expect(await whoAmI(dave)).not.toBeNull();
  });

  test('the administrator command reaches a running server', async () => {
    const erin = await new Browser(app).register();
    expect((await whoAmI(erin))?.isAdmin).toBe(false);
    // As `npx tsx server/admin.ts grant <name>` does, from outside the server.
    expect((await adminCommand(other.prisma, ['grant', erin.user!.username], false)).exitCode).toBe(0);
    try {
      await soon(async () => expect((await whoAmI(erin))?.isAdmin).toBe(true));
    } finally {
      await adminCommand(other.prisma, ['revoke', erin.user!.username], false);
    }
    await soon(async () => expect((await whoAmI(erin))?.isAdmin).toBe(false));
  });

  test.skipIf(!usingPostgres)('while the notifications connection is down and after, nothing is answered from memory that may have changed', async () => {
    const frank = await new Browser(app).register();
    expect(await whoAmI(frank)).not.toBeNull();
    const admin = new pg.Client({ connectionString: testApp.database.url! });
    await admin.connect();
    try {
      // The instance's LISTEN session ends (a restart or a network blip would do it) …
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "diadochi_sessions"'`,
      );
      expect(killed.rowCount).toBe(2);
      // … and the session is deleted by hand, with no notice at all.
      await admin.query('DELETE FROM sessions WHERE user_id = $1::uuid', [frank.user!.id]);
      await soon(async () => expect(await whoAmI(frank)).toBeNull());
    } finally {
      await admin.end();
    }
  });
});
