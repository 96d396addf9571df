/**
 * `npm run -s datc -- FILE…`: run case files in the jDip/godip DATC text
 * format (with the Diadochi V extensions) and print every failing case with
 * its expected and actual positions. The last line is `N passed, N failed`;
 * the exit status is non-zero when any case failed.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { runDatcText } from '../shared/datc/suite.ts';
import { knownDeviations } from '../tests/datc/known-deviations.ts';

const files = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const verbose = process.argv.includes('--verbose');
if (files.length === 0) {
  console.error('usage: npm run -s datc -- FILE…  (case files in the DATC text format)');
  process.exit(2);
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    console.log(`${file}: cannot read: ${(e as Error).message}`);
    failed++;
    continue;
  }
  const suite = runDatcText(text, knownDeviations(basename(file)));
  for (const problem of suite.fileProblems) {
    console.log(`${file}: ${problem}`);
    failed++;
  }
  for (const r of suite.reports) {
    if (r.skipped) {
      skipped++;
      if (verbose) console.log(`SKIP ${r.id}: ${r.skipped}`);
      continue;
    }
    if (r.passed) {
      passed++;
      if (verbose) console.log(`ok   ${r.id}`);
      continue;
    }
    failed++;
    console.log(`FAIL ${basename(file)} ${r.id}${r.title ? ` (${r.title})` : ''}`);
    for (const p of r.problems) console.log(`     problem: ${p}`);
    for (const d of r.differences) console.log(`     ${d}`);
    for (const n of r.notes) console.log(`     note: ${n}`);
    if (r.outcome) for (const res of r.outcome.results) console.log(`       ${res.power}: ${res.order} → ${res.code}: ${res.reason}`);
  }
}
if (skipped > 0) console.log(`${skipped} skipped (known deviations, see tests/datc/known-deviations.ts)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
