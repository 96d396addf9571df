/** Builds the real app on a fresh test database, and a small HTTP client over `inject`. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../../server/app.ts';
import { seededRandom } from '../../../server/games/power-assignment.ts';
import { defaultSettings, type AppSettings } from '../../../server/settings.ts';
import { createTestDatabase, type TestDatabase, usingPostgres } from './database.ts';

/** Cheap password hashing (scrypt N = 2^10) keeps the suite fast; the format and code path are the same. */
export const testSettings: Partial<AppSettings> = {
  scryptCost: { log2N: 10, r: 8, p: 1 },
  authRateLimit: { max: 1000, windowMs: 60_000 },
  random: seededRandom(20261122),
  // Tests drive the deadline scheduler themselves (app.scheduler.processDue); those that test the loop turn it on.
  scheduler: { enabled: false, intervalMs: 50, batch: 100 },
  // An ended game's result is final at once (its secrets public, no re-opening); tests of the time before that set one.
  finalAfterMs: 0,
  // Every API answer must come from a view (server/views/route-views.ts): a route that shapes game data by hand fails.
  checkViews: true,
  // The outbox's delivery loop stays off, as the scheduler's does: tests of delivery turn it on or call deliverDue themselves.
  notify: { ...defaultSettings.notify, delivery: { ...defaultSettings.notify.delivery, enabled: false } },
};

export type TestApp = { app: FastifyInstance; database: TestDatabase; close(): Promise<void> };

export async function startTestApp(options: Partial<AppOptions> = {}): Promise<TestApp> {
  // Already migrated (a copy of the template): the app's start-up migration has nothing left to apply.
  const database = await createTestDatabase({ migrated: true });
  const app = await buildApp({
    database: database.options,
    ...options,
    settings: { ...testSettings, ...options.settings },
  });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/** Another app instance on the same database (as a second server would be). */
export async function startSiblingApp(first: FastifyInstance, options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    database: first.database,
    ...options,
    settings: { ...testSettings, ...options.settings },
  });
  await app.ready();
  return app;
}

/**
 * Another server instance on the test app's database as a second server would be: its own connection pool on
 * PostgreSQL (PGlite has one connection, which it shares).
 */
export async function startSecondInstance(first: TestApp, settings: Partial<AppSettings> = {}): Promise<FastifyInstance> {
  if (!usingPostgres) return startSiblingApp(first.app, { settings });
  const other = await buildApp({ database: first.database.options, settings: { ...testSettings, ...settings } });
  await other.ready();
  return other;
}

let counter = 0;
/** Unique usernames, so tests sharing an app do not collide. */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}_${Math.random().toString(36).slice(2, 7)}`;
}

export const PASSWORD = 'correct horse battery';

/** A browser-like client: keeps the session cookie and sends the CSRF token on writes. */
export class Browser {
  cookie: string | null = null;
  csrfToken: string | null = null;
  user: { id: string; username: string } | null = null;

  constructor(readonly app: FastifyInstance) {}

  async request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
    const allHeaders: Record<string, string> = { ...headers };
    if (this.cookie) allHeaders.cookie = this.cookie;
    if (this.csrfToken && method !== 'GET' && !('x-csrf-token' in headers)) allHeaders['x-csrf-token'] = this.csrfToken;
    const response = await this.app.inject({ method, url, headers: allHeaders, ...(body === undefined ? {} : { payload: body as object }) });
    const sid = response.cookies.find((cookie) => cookie.name === 'sid');
    if (sid) this.cookie = sid.value ? `sid=${sid.value}` : null;
    return response;
  }

  async register(username = uniqueName(), password = PASSWORD): Promise<this> {
    const response = await this.request('POST', '/api/auth/register', { username, password });
    if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
    this.adopt(response);
    return this;
  }

  async login(username: string, password = PASSWORD) {
    const response = await this.request('POST', '/api/auth/login', { username, password });
    if (response.statusCode === 200) this.adopt(response);
    return response;
  }

  private adopt(response: LightMyRequestResponse): void {
    const body = response.json();
    this.csrfToken = body.csrfToken;
    this.user = { id: body.user.id, username: body.user.username };
  }
}

export async function registeredBrowsers(app: FastifyInstance, count: number): Promise<Browser[]> {
  return Promise.all(Array.from({ length: count }, () => new Browser(app).register()));
}
