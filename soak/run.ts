/**
 * `npm run soak [name…]`: the long versions of the robustness tests, too slow
 * for `npm test`. Each soak prints what it did and fails loudly.
 */
import { fuzzDatcParser, fuzzOrderParser } from '../tests/fuzz/parser-fuzz.ts';
import { soakApi, soakLive } from '../tests/server/fuzz-support/soak.ts';
import { killScenario } from '../tests/server/faults-support/kill-scenario.ts';
import { proxySoak } from '../tests/server/faults-support/proxy-scenario.ts';
import { memorySoak } from '../tests/server/fuzz-support/memory-soak.ts';
import { playthrough } from './playthrough.ts';

const soaks: Record<string, () => void | Promise<void>> = {
  'order-parser': () => fuzzOrderParser(300_000),
  'datc-parser': () => fuzzDatcParser(20_000),
  // Every API route, 1500 generated requests each (npm test: 60); SOAK_API_RUNS and SOAK_SEED to vary.
  api: () => soakApi(Number(process.env.SOAK_API_RUNS ?? 1500), process.env.SOAK_SEED ? Number(process.env.SOAK_SEED) : undefined),
  // 40 websocket clients, 1000 generated frames each, half of them flooding.
  live: () => soakLive(40, 1000),
  // The real server SIGKILLed 300 times while processing phases (npm test: 6); PostgreSQL with DATABASE_URL, else PGlite on disk.
  kill: async () => {
    const report = await killScenario({
      kills: 300,
      games: 8,
      submitters: 6,
      postgresUrl: process.env.DATABASE_URL || undefined,
      log: (line) => console.log(`kill: ${line}`),
    });
    console.log(`kill: ${JSON.stringify(report)}`);
  },
  // 6000 log-ins, sign-ups and password changes, each with a new forged X-Forwarded-For, through the real nginx of
  // docker-compose.yml and straight to the app; none may pass the limit. PostgreSQL with DATABASE_URL, else PGlite on disk.
  proxy: async () => {
    const report = await proxySoak({ attempts: 6000, postgresUrl: process.env.DATABASE_URL || undefined, log: (line) => console.log(`proxy: ${line}`) });
    console.log(`proxy: ${JSON.stringify(report)}`);
  },
  // The imports and exports of tests/server/import-memory.test.ts five times over, 40 readers of each export at once,
  // against the production build on PostgreSQL (DATABASE_URL): it survives, answers, and stays within its memory budget.
  memory: () => memorySoak({ rounds: 5, exporters: 40, log: (line) => console.log(`memory: ${line}`) }),
  // Issue 34's three game-years of Diadochi V at 375×812, 1024×768, 1400×900 and 1920×1080 in Debian's Chromium, with
  // screenshots of every phase in dist/playthrough-screenshots/ to look at; fails on a page's error or a map short of its frame.
  playthrough,
};

const wanted = process.argv.slice(2);
for (const name of wanted) if (!soaks[name]) throw new Error(`unknown soak "${name}"; known: ${Object.keys(soaks).join(', ')}`);
for (const [name, run] of Object.entries(soaks)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const t0 = performance.now();
  await run();
  console.log(`${name}: ok (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
