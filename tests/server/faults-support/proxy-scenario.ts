/**
 * Clients that forge X-Forwarded-For to escape the log-in and sign-up limits:
 * the real server (server/main.ts in a child process) behind the load
 * balancer of docker-compose.yml (deploy/nginx.conf, run for real), with the
 * TRUST_PROXY that docker-compose.yml ships (the load balancer's address,
 * rewritten to the local one as nginx.ts rewrites the upstreams). Clients
 * connect from addresses of their own in the loopback range (127.0.0.0/8 is
 * all this machine's), so the server's access log can tell the real client
 * from the balancer (127.0.0.1) and from a forged address.
 * tests/server/proxy.test.ts runs a few attempts; `npm run soak -- proxy`
 * thousands (proxySoak).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { withDatabaseName } from '../../../server/db/migrate.ts';
import { pool } from './client.ts';
import { startNginx, type LoadBalancer } from './nginx.ts';
import { freePort } from './postgres-cluster.ts';
import { projectRoot, startServer, type LogLine, type ServerProcess } from './server-process.ts';

/** Where nginx connects to the app from, here: the address TRUST_PROXY names instead of the balancer's. */
export const BALANCER_ADDRESS = '127.0.0.1';

export type ShippedProxySetting = { trustProxy: string; balancerAddress: string };

/** docker-compose.yml's TRUST_PROXY for the app instances, and the load balancer's fixed address there. */
export async function shippedProxySetting(): Promise<ShippedProxySetting> {
  const compose = await readFile(path.join(projectRoot, 'docker-compose.yml'), 'utf8');
  const trustProxy = /^\s*TRUST_PROXY:\s*"?([^"\n]*)"?\s*$/m.exec(compose)?.[1];
  const lb = /^ {2}lb:\n((?: {4}.*\n|\s*\n)*)/m.exec(compose)?.[1] ?? '';
  const balancerAddress = /ipv4_address:\s*"?([\d.]+)"?/.exec(lb)?.[1];
  if (trustProxy === undefined || balancerAddress === undefined) throw new Error("docker-compose.yml: expected TRUST_PROXY and the lb service's ipv4_address");
  return { trustProxy, balancerAddress };
}

export type Answer = { status: number; body: string; headers: http.IncomingHttpHeaders };

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** One HTTP request made from `localAddress` (a loopback address: the client's own, as the server sees it). */
export function requestFrom(
  localAddress: string,
  base: string,
  method: string,
  url: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const target = new URL(url, base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        localAddress,
        agent,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/**
 * A forged X-Forwarded-For, a new one for each `i`, in the forms an attacker tries: a made-up client alone, one
 * followed by a "proxy" of ours (as in the security report), chains, IPv6, a garbage entry.
 */
export function forgedForwardedFor(i: number): string {
  const a = `198.51.100.${(i % 250) + 1}`;
  const b = `203.0.113.${(Math.floor(i / 250) % 250) + 1}`;
  const forms = [`${a}, 127.0.0.1`, a, `${b}, ${a}`, `2001:db8::${i.toString(16)}`, `unknown, ${a}`, `${a}, ${BALANCER_ADDRESS}, ${BALANCER_ADDRESS}`];
  return forms[i % forms.length];
}

/** Addresses the forged headers name: none of them may ever be taken for the client. */
export const isForged = (address: unknown): boolean => typeof address === 'string' && /^(198\.51\.100\.|203\.0\.113\.|2001:db8:|unknown)/.test(address);

export type Rig = {
  server: ServerProcess;
  lb: LoadBalancer;
  /** TRUST_PROXY as the server was started with it. */
  trustProxy: string;
  stop(): Promise<void>;
};

export type RigOptions = {
  /** Log-in and sign-up attempts per client address and window. */
  limit: number;
  windowMs?: number;
  /** A PostgreSQL server (a database is created and dropped there); PGlite on disk without. */
  postgresUrl?: string;
  /** An existing database instead (left as it is). */
  databaseUrl?: string;
};

/** The server with docker-compose.yml's TRUST_PROXY (the balancer's address made local) behind deploy/nginx.conf. */
export async function startBehindBalancer(options: RigOptions): Promise<Rig> {
  const cleanup: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  };
  try {
    const shipped = await shippedProxySetting();
    const trustProxy = shipped.trustProxy
      .split(',')
      .map((entry) => (entry.trim() === shipped.balancerAddress ? BALANCER_ADDRESS : entry.trim()))
      .join(',');
    let databaseUrl = options.databaseUrl;
    let dataDir: string | undefined;
    if (!databaseUrl && options.postgresUrl) {
      const admin = options.postgresUrl;
      const name = `proxy_${randomBytes(6).toString('hex')}`;
      const onServer = async (sql: string) => {
        const client = new pg.Client({ connectionString: admin });
        await client.connect();
        await client.query(sql).finally(() => client.end());
      };
      await onServer(`CREATE DATABASE "${name}"`);
      cleanup.push(() => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      databaseUrl = withDatabaseName(admin, name);
    } else if (!databaseUrl) {
      const dir = await mkdtemp(path.join(tmpdir(), 'diadochi-proxy-'));
      dataDir = dir;
      cleanup.push(() => rm(dir, { recursive: true, force: true }));
    }
    const env = {
      TRUST_PROXY: trustProxy,
      AUTH_RATE_LIMIT_MAX: String(options.limit),
      AUTH_RATE_LIMIT_WINDOW_MS: String(options.windowMs ?? 60_000),
      SCHEDULER_ENABLED: 'false',
    };
    const server = await startServer({ port: await freePort(), databaseUrl, dataDir, env });
    cleanup.push(async () => {
      server.kill('SIGTERM');
      await server.exited;
    });
    // Both upstream lines to the one server.
    const port = Number(new URL(server.url).port);
    const lb = await startNginx([port, port]);
    cleanup.push(() => lb.stop());
    return { server, lb, trustProxy, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Access-log lines of the server (one per answered request) for a path. */
export function accessLines(server: ServerProcess, url: string): LogLine[] {
  return server.logs.filter((line) => line.msg === 'request' && line.url === url);
}

export type ProxySoakReport = {
  attempts: number;
  /** Answers that were not 429, per what was tried: at most the limit each. */
  passed: Record<string, number>;
  limit: number;
  seconds: number;
};

/**
 * Thousands of log-ins, sign-ups and password changes, each with a new forged X-Forwarded-For, through the balancer
 * and straight to the app, from a few real client addresses; within one window none may pass the limit (log-ins and
 * password changes share one budget per address, sign-ups have their own), and the access log must name only the
 * real clients. Throws on the first breach.
 */
export async function proxySoak({
  attempts,
  postgresUrl,
  log = () => {},
}: {
  attempts: number;
  postgresUrl?: string;
  log?: (line: string) => void;
}): Promise<ProxySoakReport> {
  const started = performance.now();
  const limit = 10;
  // One window for the whole soak: every answer that is not 429 counts against the limit.
  const rig = await startBehindBalancer({ limit, windowMs: 3_600_000, postgresUrl });
  try {
    const clients = ['127.0.0.3', '127.0.0.4', '127.0.0.5'];
    // A logged-in user for the password changes (signed up from an address of its own, outside the counts).
    const owner = await requestFrom('127.0.0.9', rig.lb.url, 'POST', '/api/auth/register', {
      body: { username: `soak_${randomBytes(4).toString('hex')}`, password: 'eleven quiet lanterns drift' },
    });
    if (owner.status !== 201) throw new Error(`sign-up for the soak failed: ${owner.status} ${owner.body}`);
    const cookie = /sid=[^;]+/.exec(String(owner.headers['set-cookie']))![0];
    const csrfToken = (JSON.parse(owner.body) as { csrfToken: string }).csrfToken;
    const kinds = {
      login: { method: 'POST', url: '/api/auth/login', body: (i: number) => ({ username: `nobody${i}`, password: 'not the password' }), headers: {} },
      signup: {
        method: 'POST',
        url: '/api/auth/register',
        body: (i: number) => ({ username: `forger${i}_${randomBytes(3).toString('hex')}`, password: 'eleven quiet lanterns drift' }),
        headers: {},
      },
      password: {
        method: 'POST',
        url: '/api/auth/password',
        body: (i: number) => ({ currentPassword: `guess ${i}`, newPassword: 'twelve silent harbours glow' }),
        headers: { cookie, 'x-csrf-token': csrfToken },
      },
    } as const;
    const passed: Record<string, number> = {};
    const jobs = Array.from({ length: attempts }, (_, i) => ({
      i,
      kind: (['login', 'signup', 'password'] as const)[i % 3],
      client: clients[Math.floor(i / 3) % clients.length],
      // Most through the balancer; every fifth straight to the app, which must not believe a header from a client either.
      direct: i % 5 === 4,
    }));
    await pool(jobs, 8, async ({ i, kind, client, direct }) => {
      const what = kinds[kind];
      const answer = await requestFrom(client, direct ? rig.server.url : rig.lb.url, what.method, what.url, {
        headers: { ...what.headers, 'x-forwarded-for': forgedForwardedFor(i), 'x-real-ip': '198.51.100.250', forwarded: 'for=198.51.100.251' },
        body: what.body(i),
      });
      if (answer.status >= 500) throw new Error(`${what.url} from ${client}: ${answer.status} ${answer.body}`);
      if (answer.status === 429) return;
      // Log-ins and password changes share one budget per address.
      const budget = `${kind === 'signup' ? 'signup' : 'login+password'} from ${client}`;
      passed[budget] = (passed[budget] ?? 0) + 1;
      if (passed[budget] > limit)
        throw new Error(`${budget}: ${passed[budget]} attempts passed a limit of ${limit} (the last with X-Forwarded-For: ${forgedForwardedFor(i)})`);
    });
    // Every budget was used up, and no further: the limit held for each real client, and was not shared among them.
    for (const client of clients) {
      for (const budget of [`signup from ${client}`, `login+password from ${client}`]) {
        if (passed[budget] !== limit) throw new Error(`${budget}: ${passed[budget] ?? 0} attempts passed, expected exactly the limit (${limit})`);
      }
    }
    // The access lines leave the server within 100 ms (written asynchronously).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines = [kinds.login.url, kinds.signup.url, kinds.password.url].flatMap((url) => accessLines(rig.server, url));
    const strangers = lines.filter((line) => !clients.includes(String(line.remoteAddress)) && line.remoteAddress !== '127.0.0.9');
    if (strangers.length > 0) throw new Error(`the access log names clients that never connected: ${JSON.stringify(strangers.slice(0, 5))}`);
    if (lines.length < attempts) throw new Error(`only ${lines.length} of ${attempts} attempts are in the access log`);
    log(`${attempts} attempts with forged X-Forwarded-For from ${clients.length} clients: ${JSON.stringify(passed)} passed`);
    return { attempts, passed, limit, seconds: (performance.now() - started) / 1000 };
  } finally {
    await rig.stop();
  }
}
