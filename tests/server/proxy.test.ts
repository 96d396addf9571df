/**
 * Behind the load balancer, a client's own X-Forwarded-For counts for nothing:
 * the real server (with docker-compose.yml's TRUST_PROXY, the balancer's
 * address made local) behind the real nginx running deploy/nginx.conf, and
 * clients that forge a new address for every attempt. Log-ins and sign-ups
 * still meet the limit, the access log names the real client, and a client
 * that goes straight to the app is not believed either. Clients connect from
 * loopback addresses of their own (127.0.0.3 …), the balancer from 127.0.0.1.
 * PostgreSQL only (the server runs in its own process, as in scale.test.ts);
 * skipped without nginx. `npm run soak -- proxy` runs thousands of attempts.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { nginxBinary } from './faults-support/nginx.ts';
import { accessLines, forgedForwardedFor, isForged, requestFrom, shippedProxySetting, startBehindBalancer, type Rig } from './faults-support/proxy-scenario.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from './helpers/database.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const LIMIT = 4;
const PASSWORD = 'eleven quiet lanterns drift';

if (!nginxBinary()) console.warn('proxy.test.ts: skipped, no nginx binary (Debian: apt-get install nginx-light)');

describe.skipIf(!usingPostgres || !nginxBinary())('forged X-Forwarded-For behind the load balancer', () => {
  let database: TestDatabase;
  let rig: Rig;

  beforeAll(async () => {
    database = await createTestDatabase();
    rig = await startBehindBalancer({ limit: LIMIT, databaseUrl: database.url! });
  });

  afterAll(async () => {
    await rig?.stop();
    await database?.drop();
  });

  const login = (client: string, base: string, i: number) =>
    requestFrom(client, base, 'POST', '/api/auth/login', {
      headers: { 'x-forwarded-for': forgedForwardedFor(i) },
      body: { username: `nobody${i}`, password: 'not the password' },
    });

  /** The access lines leave the server within 100 ms (written asynchronously). */
  const logged = (url: string, count: number) =>
    vi.waitFor(() => expect(accessLines(rig.server, url).length).toBeGreaterThanOrEqual(count), { timeout: 5_000, interval: 50 });

  test('docker-compose.yml trusts exactly its load balancer, whose address it fixes, and the server accepts the setting', async () => {
    const shipped = await shippedProxySetting();
    expect(shipped.trustProxy).toBe(shipped.balancerAddress);
    expect(loadConfig({ TRUST_PROXY: shipped.trustProxy }).TRUST_PROXY).toEqual([shipped.balancerAddress]);
    expect(rig.trustProxy).toBe('127.0.0.1');
  });

  test('log-ins through the balancer, each with a new forged address, get 429 after the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) statuses.push((await login('127.0.0.3', rig.lb.url, i)).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429, 429]);
    // Another real client still has its own budget: the limit is per client, not one for everybody behind the balancer.
    expect((await login('127.0.0.6', rig.lb.url, 99)).status).toBe(401);
  });

  test('sign-ups through the balancer, each with a new forged address, get 429 after the limit; a forged X-Forwarded-Proto does not make the cookie Secure', async () => {
    const answers = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      answers.push(
        await requestFrom('127.0.0.4', rig.lb.url, 'POST', '/api/auth/register', {
          headers: { 'x-forwarded-for': forgedForwardedFor(i), 'x-forwarded-proto': 'https' },
          body: { username: `forger${i}_${Date.now().toString(36)}`, password: PASSWORD },
        }),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual([...Array(LIMIT).fill(201), 429, 429]);
    expect(JSON.parse(answers.at(-1)!.body).error.code).toBe('rate_limited');
    // nginx says how the client came (plain http here), whatever the client claims.
    expect(String(answers[0].headers['set-cookie'])).toMatch(/^sid=/);
    expect(String(answers[0].headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
  });

  test('the access log names the real client, never the forged address nor the balancer', async () => {
    await logged('/api/auth/register', LIMIT + 2);
    const lines = [...accessLines(rig.server, '/api/auth/login'), ...accessLines(rig.server, '/api/auth/register')];
    expect(lines.length).toBeGreaterThanOrEqual(2 * LIMIT + 5);
    expect(lines.filter((line) => isForged(line.remoteAddress))).toEqual([]);
    expect(new Set(lines.map((line) => line.remoteAddress))).toEqual(new Set(['127.0.0.3', '127.0.0.4', '127.0.0.6']));
  });

  test('straight to the app, a client that is not the trusted proxy is not believed: its own address, and the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await login('127.0.0.5', rig.server.url, 1000 + i)).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    await logged('/api/auth/login', LIMIT + 4 + LIMIT + 2);
    const direct = accessLines(rig.server, '/api/auth/login').filter((line) => line.remoteAddress === '127.0.0.5');
    expect(direct).toHaveLength(LIMIT + 2);
  });
});
