/**
 * The web client's figures: what each view downloads (gzipped JavaScript,
 * from the production build), and how fast the game view is ready to play in
 * Debian's Chromium (playwright-core), cold (fresh profile, empty cache):
 *   - first render: the browser's first-contentful-paint;
 *   - map interactive: the page's `map-interactive` mark, set once the map is
 *     drawn with its units and handlers (web/src/pages/GameView.svelte).
 * Against the real server (`server/main.ts`, embedded PGlite in a temporary
 * folder) with a started five-player Diadochi V game made through the API.
 * Medians of several runs; skipped with a message where /usr/bin/chromium is missing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { drawingSizes, viewSizes } from '../web/scripts/size.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface WebFigure {
  bench: 'web';
  name: string;
  [k: string]: string | number | null;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });

function summarise(name: string, samples: number[]): WebFigure {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))];
  const round = (x: number) => Math.round(x * 10) / 10;
  return { bench: 'web', name, n: s.length, median_ms: round(at(0.5)), min_ms: round(s[0]), max_ms: round(s[s.length - 1]) };
}

/** A user of the API: keeps its cookie and CSRF token. */
class Client {
  cookie = '';
  csrf = '';
  constructor(readonly base: string) {}
  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetch(this.base + url, {
      method,
      headers: { 'content-type': 'application/json', cookie: this.cookie, ...(this.csrf ? { 'x-csrf-token': this.csrf } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const sid = response.headers.getSetCookie().find((c) => c.startsWith('sid='));
    if (sid) this.cookie = sid.split(';')[0];
    const data = (await response.json()) as T & { csrfToken?: string };
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(data)}`);
    if (data.csrfToken) this.csrf = data.csrfToken;
    return data;
  }
}

interface Database {
  kind: 'postgresql' | 'pglite';
  url: string | null;
  drop(): Promise<void>;
}

/**
 * With DATABASE_URL (as CI and the project's machines have), a throw-away
 * database on that PostgreSQL server, as in production; otherwise the
 * embedded PGlite (one connection: requests wait for each other).
 */
async function benchDatabase(): Promise<Database> {
  const server = process.env.DATABASE_URL;
  if (!server) return { kind: 'pglite', url: null, drop: async () => {} };
  const { default: pg } = await import('pg');
  const name = `bench_web_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    kind: 'postgresql',
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function startServer(root: string, webDist: string, database: Database): Promise<{ url: string; child: ChildProcess; dataDir: string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'diadochi-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDist,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_MAX: '1000',
  };
  if (database.url) env.DATABASE_URL = database.url;
  else delete env.DATABASE_URL;
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['server/main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(`${url}/api/variants`);
      if (r.ok) return { url, child, dataDir };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the server did not start within 60 s');
}

export async function webBenchmarks(root: string, runs = 7): Promise<WebFigure[]> {
  const figures: WebFigure[] = [];
  const webDist = path.join(root, 'dist', 'bench-web');
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir: webDist, emptyOutDir: true } });
  for (const s of [...viewSizes(webDist), ...drawingSizes(webDist)])
    figures.push({ bench: 'web', name: `bundle: ${s.view}`, gzip_kb: s.gzip_kb, budget_kb: s.budget_kb });

  if (!existsSync(CHROMIUM)) {
    console.warn(`[bench web] render timings skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
    return figures;
  }
  const { chromium } = await import('playwright-core');
  const database = await benchDatabase();
  const server = await startServer(root, webDist, database);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    // Five players and a started game.
    const tag = Date.now().toString(36).slice(-6);
    const players = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map(async (p) => {
        const c = new Client(server.url);
        await c.call('POST', '/api/auth/register', { username: `bench_${p}_${tag}`, password: 'benchmark password' });
        return c;
      }),
    );
    const game = await players[0].call<{ id: string }>('POST', '/api/games', { name: `Bench ${tag}`, variant: 'diadochi-v' });
    for (const p of players.slice(1)) await p.call('POST', `/api/games/${game.id}/join`, {});
    const [name, value] = players[0].cookie.split('=');

    const fcp: number[] = [];
    const interactive: number[] = [];
    const lobby: number[] = [];
    const busy: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      // A fresh context each time: nothing cached, as on a first visit.
      const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
      await context.addCookies([{ name, value, url: server.url }]);
      const page = await context.newPage();
      // The page's own CPU time (script, style, layout) until the map is interactive: what load on the machine does not inflate.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const profiling = process.env.BENCH_WEB_PROFILE === 'cpu' && i === runs - 1;
      if (profiling) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      await page.goto(`${server.url}/games/${game.id}`);
      await page.waitForFunction(() => performance.getEntriesByName('map-interactive').length > 0, undefined, { timeout: 30_000 });
      const t = await page.evaluate(() => ({
        interactive: performance.getEntriesByName('map-interactive')[0].startTime,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      }));
      interactive.push(t.interactive);
      if (profiling) printProfile((await cdp.send('Profiler.stop')).profile);
      const metrics = new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
      busy.push((metrics.get('TaskDuration') ?? NaN) * 1000);
      if (process.env.BENCH_WEB_PROFILE)
        console.log(
          ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration']
            .map((k) => `${k} ${Math.round((metrics.get(k) ?? 0) * 1000)} ms`)
            .join(', '),
        );
      if (process.env.BENCH_WEB_PROFILE)
        console.log(
          JSON.stringify(
            await page.evaluate(() => ({
              marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
              navigation: Object.fromEntries(
                Object.entries((performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).toJSON() as Record<string, unknown>)
                  .filter(([, v]) => typeof v === 'number' && v > 0)
                  .map(([k, v]) => [k, Math.round(v as number)]),
              ),
              resources: performance
                .getEntriesByType('resource')
                .map((e) => [
                  e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 50),
                  Math.round(e.startTime),
                  Math.round((e as PerformanceResourceTiming).responseEnd),
                ]),
            })),
          ),
        );
      fcp.push(t.fcp);
      // The same player coming back: the browser has the scripts cached (and compiled).
      await page.goto(`${server.url}/games/${game.id}`);
      await page.waitForFunction(() => performance.getEntriesByName('map-interactive').length > 0, undefined, { timeout: 30_000 });
      warm.push(await page.evaluate(() => performance.getEntriesByName('map-interactive')[0].startTime));
      const lobbyPage = await context.newPage();
      await lobbyPage.goto(`${server.url}/?tab=mine`);
      await lobbyPage.locator('.game').first().waitFor();
      lobby.push(await lobbyPage.evaluate(() => performance.now()));
      await context.close();
    }
    // The machine's load (2 cores shared with other work) moves these figures a lot: it is printed with them.
    const context = { database: database.kind, load_avg_1m: Math.round(loadavg()[0] * 10) / 10 };
    figures.push({ ...summarise('game view: first render (cold cache)', fcp), ...context });
    figures.push({ ...summarise('game view: map interactive (cold cache)', interactive), ...context });
    figures.push({ ...summarise('game view: main-thread busy until interactive', busy), ...context });
    figures.push({ ...summarise('game view: map interactive (warm cache)', warm), ...context });
    figures.push({ ...summarise('lobby: my games listed (cold cache)', lobby), ...context });
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(server.dataDir, { recursive: true, force: true });
    await database.drop();
  }
  return figures;
}

/** BENCH_WEB_PROFILE=cpu: where the page's main thread spent its time in the last run (self time per function). */
function printProfile(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, k) => {
    const f = byNode.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[k] ?? 0) / 1000);
  });
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
}

export function printWebFigures(figures: WebFigure[]): void {
  for (const f of figures) {
    if ('gzip_kb' in f) console.log(`${f.name.padEnd(48)} ${String(f.gzip_kb).padStart(7)} KB gzipped JS${f.budget_kb ? ` (budget ${f.budget_kb} KB)` : ''}`);
    else
      console.log(
        `${f.name.padEnd(48)} median ${String(f.median_ms).padStart(7)} ms   min ${f.min_ms} ms   max ${f.max_ms} ms   (n=${f.n}, ${f.database}, load ${f.load_avg_1m})`,
      );
  }
  for (const f of figures) console.log(JSON.stringify(f));
}
