/**
 * Imports and exports an attacker may send without limit of their own, aimed
 * at a real server's memory (tests/server/import-memory.test.ts, and `npm run
 * soak -- memory` with more at once): bodies of empty arrays, objects and
 * unique keys at and just over IMPORT_LIMITS, the largest body of text,
 * deeply nested bodies, a body whose validation would report millions of
 * problems, several at once; an oversized submission text; the largest game
 * an import can create and a long one, each exported by many logged-out
 * readers at once. Every answer must be the one the limits promise (400, 413,
 * 201, 200 complete, or 503 `server_busy` with Retry-After); it throws
 * otherwise, and reports what it did. `memoryScenario` runs it against the
 * production build started as `npm start` starts it, sampling its memory.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { IMPORT_LIMITS, type ExportedGame } from '../../../shared/api/archive.ts';
import { scanJson } from '../../../server/json-body.ts';
import { exportOf, randomPlayed } from '../helpers/random-export.ts';
import { registerUser } from '../faults-support/client.ts';
import { freePort } from '../faults-support/postgres-cluster.ts';
import { npmStart, projectRoot, startServer } from '../faults-support/server-process.ts';

export type AttackTarget = { url: string /** API tokens of users who may import (each has its own import rate limit). */; tokens: string[] };
export type AttackOptions = {
  /** Logged-out readers of each export at once. */
  exporters: number;
  /** Phases of the long game (a seeded random standard game). */
  longGamePhases: number;
  /** Told each step once it is over, with what it did. */
  onStep?: (line: string) => void;
};

type Answer = { status: number; body: string; retryAfter: string | null };

class Attacker {
  private turn = 0;
  readonly lines: string[] = [];
  constructor(
    private readonly target: AttackTarget,
    private readonly onStep?: (line: string) => void,
  ) {}

  /**
   * POSTs an import with node:http, 64 KiB at a time, and stops sending once answered: a body the server refuses
   * unread (413 on its length) is answered before it has all arrived, and the server may then close the connection;
   * a client that kept writing (fetch) would report the broken pipe, not the answer.
   */
  post(body: string): Promise<Answer> {
    const token = this.target.tokens[this.turn++ % this.target.tokens.length];
    const bytes = Buffer.from(body);
    return new Promise((resolve, reject) => {
      let answered = false;
      const request = http.request(
        `${this.target.url}/api/games/import`,
        { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': bytes.length } },
        (response) => {
          answered = true;
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            resolve({ status: response.statusCode!, body: text, retryAfter: (response.headers['retry-after'] as string | undefined) ?? null });
            request.destroy();
          });
          response.on('error', reject);
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return;
        // Refused before it was read, the connection closed while this was still sending: the answer may be lost
        // with it (status 0). Only a body over the byte limit may be refused so.
        if (bytes.length > IMPORT_LIMITS.bodyBytes && (error.code === 'EPIPE' || error.code === 'ECONNRESET'))
          resolve({ status: 0, body: '', retryAfter: null });
        else reject(new Error(`POST of ${bytes.length} bytes: ${error.message}`));
      });
      void (async () => {
        for (let at = 0; at < bytes.length && !answered && !request.destroyed; at += 64 * 1024) {
          if (!request.write(bytes.subarray(at, at + 64 * 1024))) await new Promise((resume) => request.once('drain', resume).once('close', resume));
        }
        if (!answered && !request.destroyed) request.end();
      })();
    });
  }

  /** Expects one of `statuses`; a 503 must say `server_busy` and when to retry. */
  expect(what: string, answer: Answer, statuses: number[], message?: string): void {
    // A connection closed while sending (status 0) is a 413 whose answer was lost with it.
    const refusedUnread = answer.status === 0 && statuses.includes(413);
    const problem =
      !statuses.includes(answer.status) && !refusedUnread
        ? `status ${answer.status}, expected ${statuses.join(' or ')}`
        : answer.status === 503 && (!answer.retryAfter || !answer.body.includes('server_busy'))
          ? 'a 503 without server_busy and Retry-After'
          : answer.status !== 503 && !refusedUnread && message && !answer.body.includes(message)
            ? `the answer does not say "${message}"`
            : answer.body.length > 4096 && answer.status >= 400
              ? `an error of ${answer.body.length} characters (it should name the first problems only)`
              : null;
    if (problem) throw new Error(`${what}: ${problem}: ${answer.body.slice(0, 400)}`);
  }

  count(what: string, answers: Answer[]): string {
    const byStatus = new Map<number, number>();
    for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    const line = `${what}: ${[...byStatus].map(([status, n]) => `${status}×${n}`).join(' ')}`;
    this.lines.push(line);
    this.onStep?.(line);
    return line;
  }
}

const MiB = 1024 * 1024;

/** `{"export":[e,e,…]}` with exactly `items` values and keys (as the server counts them); each e counts 2 with its comma. */
function listBody(element: string, items: number): string {
  const perElement = scanJson(`[${element},${element}]`).items - scanJson(`[${element}]`).items;
  const fixed = scanJson(`{"export":[${element}]}`).items;
  const n = 1 + Math.floor((items - fixed) / perElement);
  const body = `{"export":[${`${element},`.repeat(n - 1)}${element}]}`;
  return body;
}

/** `{"export":{"k0":0,"k1":0,…}}`: an object of `keys` different keys (the most heap per value once parsed). */
function keysBody(keys: number): string {
  const entries: string[] = [];
  for (let i = 0; i < keys - 1; i++) entries.push(`"${i.toString(36)}":0`);
  return `{"export":{${entries.join(',')}}}`;
}

/** `{"export":["0","1",…]}`: different short strings up to `items` (each its own string once parsed). */
function stringsBody(items: number): string {
  const strings: string[] = [];
  for (let i = 0; i < items - 3; i++) strings.push(`"${i.toString(36)}"`);
  return `{"export":[${strings.join(',')}]}`;
}

/** `{"export":[{"k0":0},{"k1":0},…]}`: small objects of unique keys (each a hidden class of its own once parsed). */
function uniqueObjectsBody(items: number): string {
  const objects: string[] = [];
  for (let i = 0; i < Math.floor((items - 4) / 3); i++) objects.push(`{"${i.toString(36)}":0}`);
  return `{"export":[${objects.join(',')}]}`;
}

/** A body of exactly `bytes` bytes, one string field (its characters `char`, 1 or 2 bytes in UTF-8). */
function textBody(bytes: number, char = 'x'): string {
  const frame = '{"export":{"format":""}}';
  const per = Buffer.byteLength(char);
  const body = `{"export":{"format":"${char.repeat(Math.floor((bytes - frame.length) / per))}${'x'.repeat((bytes - frame.length) % per)}"}}`;
  return body;
}

/**
 * A valid export but for its phases: as many as allowed, each only a list of empty submissions, up to the value
 * limit. A validator that reported every problem would report millions (each phase's missing fields, each
 * submission's), gigabytes of issues.
 */
function issuesBomb(template: ExportedGame): string {
  const phases = IMPORT_LIMITS.phases;
  const perPhase = Math.floor((IMPORT_LIMITS.jsonItems - scanJson(JSON.stringify({ export: template })).items) / phases / 2) - 2;
  const phase = `{"submissions":[${'{},'.repeat(perPhase - 1)}{}]}`;
  const skeleton = JSON.stringify({ export: { ...template, phases: ['PHASES'] } });
  return skeleton.replace('"PHASES"', Array.from({ length: phases }, () => phase).join(','));
}

const longestOrderText = (chars: number) => 'A Par H\n'.repeat(Math.ceil(chars / 8)).slice(0, chars);

/** The largest game an import may create: every processed phase full of the longest submissions, up to the body limit. */
export function largestGame(): ExportedGame {
  const data = exportOf('standard', randomPlayed('standard', 11, 8), 'Largest');
  const text = longestOrderText(IMPORT_LIMITS.submissionTextChars);
  const submission = { power: data.players[0].power, text, orders: [], ready: false, byGameMaster: false, submittedAt: data.exportedAt };
  const each = JSON.stringify(submission).length + 1;
  const perPhase = Math.min(IMPORT_LIMITS.submissionsPerPhase, Math.floor(IMPORT_LIMITS.submissionCharsPerPhase / each) - 1);
  let room = Math.floor((IMPORT_LIMITS.bodyBytes - JSON.stringify({ export: data }).length - 64 * 1024) / each);
  for (const phase of data.phases.filter((p) => p.status === 'processed')) {
    const n = Math.min(perPhase, room);
    phase.submissions = Array.from({ length: n }, () => submission);
    room -= n;
  }
  return data;
}

async function readExport(url: string): Promise<Answer & { bytes: number; ends: string }> {
  const response = await fetch(url);
  if (response.status !== 200)
    return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after'), bytes: 0, ends: '' };
  // Read and let go, keeping the last characters: many of these at once must not fill this process either.
  let bytes = 0;
  let tail = '';
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    tail = (tail + decoder.decode(read.value, { stream: true })).slice(-64);
  }
  return { status: 200, body: '', retryAfter: null, bytes, ends: tail };
}

export async function memoryAttack(target: AttackTarget, options: AttackOptions): Promise<{ lines: string[] }> {
  const attacker = new Attacker(target, options.onStep);
  const L = IMPORT_LIMITS;

  // One at a time: each at its limit is refused for what it is (400), one value or byte more is too large (413).
  const cases: [string, string, number, string][] = [
    ['empty arrays at the value limit', listBody('[]', L.jsonItems), 400, 'body.export'],
    ['empty arrays past it', listBody('[]', L.jsonItems + 2), 413, `more than ${L.jsonItems} values and keys`],
    ['empty objects at the value limit', listBody('{}', L.jsonItems), 400, 'body.export'],
    ['arrays of arrays at the value limit', listBody('[[]]', L.jsonItems), 400, 'body.export'],
    ['different strings at the value limit', stringsBody(L.jsonItems), 400, 'body.export'],
    [`${L.jsonKeys} different keys`, keysBody(L.jsonKeys), 400, 'body.export'],
    ['different keys up to the value limit', keysBody((L.jsonItems - 3) / 2), 413, `more than ${L.jsonKeys} different keys`],
    ['objects of different keys up to the value limit', uniqueObjectsBody(L.jsonItems), 413, `more than ${L.jsonKeys} different keys`],
    ['a string at the byte limit', textBody(L.bodyBytes), 400, 'body.export.format'],
    ['a string of 2-byte characters at the byte limit', textBody(L.bodyBytes, 'ŝ'), 400, 'body.export.format'],
    ['a string past the byte limit', textBody(L.bodyBytes + 1), 413, 'payload_too_large'],
    ['arrays nested 4 MiB deep', `${'['.repeat(2 * MiB)}${']'.repeat(2 * MiB)}`, 400, 'nested deeper than'],
    ['objects nested 100,000 deep', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, 400, 'nested deeper than'],
    [
      'empty submissions in every phase (millions of schema problems)',
      issuesBomb(exportOf('standard', randomPlayed('standard', 3, 2))),
      400,
      'body.export.phases.0.index',
    ],
  ];
  for (const [what, body, status, message] of cases) {
    const scan = scanJson(body);
    if ((scan.items > L.jsonItems || scan.keys > L.jsonKeys) && status !== 413 && !message.includes('nested'))
      throw new Error(`${what}: the body is past the limits`);
    const answer = await attacker.post(body).catch((error: Error) => {
      throw new Error(`${what}: ${error.message}`);
    });
    attacker.expect(what, answer, [status], message);
    attacker.count(what, [answer]);
  }

  // The costliest bodies once parsed, six at once: one is read at a time, some wait, the rest are told to come back.
  const costly = [stringsBody(L.jsonItems), listBody('{}', L.jsonItems)];
  const many = await Promise.all(Array.from({ length: 6 }, (_, i) => attacker.post(costly[i % 2])));
  for (const answer of many) attacker.expect('the costliest bodies, six at once', answer, [400, 503], 'body.export');
  attacker.count('different strings and empty objects at the value limit, six at once', many);

  // A submission's text as long as the order route accepts, and one character more.
  const small = exportOf('standard', randomPlayed('standard', 3, 3), 'Submissions');
  const submission = { power: small.players[0].power, orders: [], ready: false, byGameMaster: false, submittedAt: small.exportedAt };
  small.phases[0].submissions = [{ ...submission, text: longestOrderText(L.submissionTextChars + 1) }];
  const oversized = await attacker.post(JSON.stringify({ export: small }));
  attacker.expect('a submission text one character too long', oversized, [400], 'body.export.phases.0.submissions.0.text');
  small.phases[0].submissions = [{ ...submission, text: longestOrderText(20 * MiB) }];
  const huge = await attacker.post(JSON.stringify({ export: small }));
  attacker.expect('a submission text of 20 MiB', huge, [413], 'payload_too_large');
  attacker.count('oversized submission texts', [oversized, huge]);

  // The largest game an import can create, three times at once, and a long game.
  const largest = JSON.stringify({ export: largestGame() });
  const largeImports = await Promise.all(Array.from({ length: 3 }, () => attacker.post(largest)));
  for (const answer of largeImports) attacker.expect('the largest import, three at once', answer, [201, 503]);
  attacker.count(`the largest import (${(largest.length / MiB).toFixed(1)} MiB), three at once`, largeImports);
  const largestId = (JSON.parse(largeImports.find((answer) => answer.status === 201)?.body ?? 'null') as { id: string } | null)?.id;
  if (!largestId) throw new Error('no largest import went through');
  const long = JSON.stringify({ export: exportOf('standard', randomPlayed('standard', 6, options.longGamePhases), 'Long') });
  const longImport = await attacker.post(long);
  attacker.expect(`a long game (${options.longGamePhases} phases)`, longImport, [201]);
  attacker.count(`a long game (${options.longGamePhases} phases, ${(long.length / MiB).toFixed(1)} MiB, ${scanJson(long).items} values and keys)`, [
    longImport,
  ]);
  const longId = (JSON.parse(longImport.body) as { id: string }).id;

  // Many logged-out readers of both at once, JSON and DATC: each gets the whole document, or is told to come back.
  // Taking turns, so that each kind is among the first to be served (exports are served in order of arrival).
  const kinds = [
    ['largest', `${target.url}/api/games/${largestId}/export`, options.exporters],
    ['long', `${target.url}/api/games/${longId}/export`, options.exporters],
    ['long datc', `${target.url}/api/games/${longId}/export/datc`, Math.ceil(options.exporters / 3)],
  ] as const;
  const reads = Array.from({ length: options.exporters }, (_, i) => kinds.filter(([, , n]) => i < n).map(([what, url]) => [what, url] as const)).flat();
  const answers = await Promise.all(reads.map(async ([what, url]) => [what, await readExport(url)] as const));
  for (const what of ['largest', 'long', 'long datc']) {
    const mine = answers.filter(([w]) => w === what).map(([, answer]) => answer);
    for (const answer of mine) attacker.expect(`${what} export`, answer, [200, 503]);
    const whole = mine.filter((answer) => answer.status === 200);
    if (whole.length === 0) throw new Error(`no ${what} export went through`);
    // Complete: all the same length, ending as the document does.
    if (new Set(whole.map((answer) => answer.bytes)).size !== 1)
      throw new Error(`${what} exports differ in length: ${whole.map((answer) => answer.bytes).join(', ')}`);
    if (what !== 'long datc' && !whole[0].ends.endsWith(']}')) throw new Error(`${what} export ends with ${whole[0].ends}`);
    attacker.count(`${what} export (${(whole[0].bytes / MiB).toFixed(1)} MiB), ${mine.length} logged-out readers at once`, mine);
  }
  return { lines: attacker.lines };
}

export type MemoryReport = {
  /** Resident memory once started and signed up to, and its highest while attacked (bytes, sampled every 20 ms). */
  rssBefore: number;
  rssPeak: number;
  /** Each step of each round, with the highest resident memory during it. */
  steps: string[];
  /** After the attacks: /api/health's status, whether the process had exited, the log lines about the heap. */
  health: number;
  exited: boolean;
  heapErrors: string[];
};

const MB = 1024 * 1024;

/** The whole process's resident memory, at most: server/README.md's target (as `npm run bench -- server` measures it). */
export const RSS_BUDGET = 300 * MB;

/**
 * The production build (`npm run build:server`) started as package.json's `start` starts it (its environment and
 * node flags: heap capped at 160 MB, the database client's WebAssembly on the baseline compiler, glibc's malloc
 * threshold fixed) on the database at `databaseUrl` (PostgreSQL: PGlite's memory is another matter),
 * attacked `rounds` times; it is stopped afterwards.
 */
export async function memoryScenario(options: {
  databaseUrl?: string;
  rounds: number;
  exporters: number;
  longGamePhases: number;
  log?: (line: string) => void;
}): Promise<MemoryReport> {
  execFileSync('npm', ['run', '-s', 'build:server'], { cwd: projectRoot, stdio: 'inherit' });
  const start = npmStart();
  const server = await startServer({
    port: await freePort(),
    databaseUrl: options.databaseUrl,
    entry: path.join(projectRoot, 'dist/server/main.mjs'),
    nodeFlags: start.flags,
    env: { ...start.env, AUTH_RATE_LIMIT_MAX: '100000', SCHEDULER_ENABLED: 'false' },
    logLevel: 'warn',
  });
  let rssPeak = 0;
  let stepPeak = 0;
  const sampler = setInterval(() => {
    try {
      const rss = server.rss();
      rssPeak = Math.max(rssPeak, rss);
      stepPeak = Math.max(stepPeak, rss);
    } catch {
      // gone: the report says so
    }
  }, 20);
  try {
    // Each user may import 30 times in 10 minutes; a round makes about 25 imports.
    const users = await Promise.all(Array.from({ length: 3 * options.rounds }, () => registerUser(server.url)));
    const rssBefore = server.rss();
    rssPeak = 0;
    const steps: string[] = [];
    for (let round = 0; round < options.rounds; round++) {
      stepPeak = 0;
      await memoryAttack(
        { url: server.url, tokens: users.slice(3 * round, 3 * round + 3).map((user) => user.token) },
        {
          exporters: options.exporters,
          longGamePhases: options.longGamePhases,
          onStep: (line) => {
            stepPeak = Math.max(stepPeak, server.rss());
            const step = `${options.rounds > 1 ? `round ${round + 1}: ` : ''}${line} (RSS peak ${(stepPeak / MB).toFixed(0)} MB)`;
            steps.push(step);
            options.log?.(step);
            stepPeak = 0;
          },
        },
      );
    }
    const health = await fetch(`${server.url}/api/health`).then(
      (response) => response.status,
      () => 0,
    );
    const heapErrors = [server.stderr(), ...server.logs.map((line) => JSON.stringify(line))].filter((text) =>
      /heap|allocation failed|out of memory/i.test(text),
    );
    return { rssBefore, rssPeak, steps, health, exited: server.child.exitCode !== null || server.child.signalCode !== null, heapErrors };
  } finally {
    clearInterval(sampler);
    await server.kill('SIGTERM');
  }
}
