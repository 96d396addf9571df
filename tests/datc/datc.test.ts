import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDatcText } from '../../shared/datc/suite.ts';

// The project's own DATC v3.0 section 6 suite: every case must pass.
const dir = join(import.meta.dirname, 'v3.0');
const files = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort();

describe('DATC v3.0', () => {
  it('has all 164 cases of section 6', () => {
    const ids = new Set<string>();
    for (const f of files)
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/^CASE (6\.[A-J]\.\d+)/gm)) ids.add(m[1]);
    expect(ids.size).toBe(164);
  });

  for (const f of files) {
    describe(f, () => {
      const suite = runDatcText(readFileSync(join(dir, f), 'utf8'));
      it('parses', () => expect(suite.fileProblems).toEqual([]));
      for (const r of suite.reports) {
        it(`${r.id} ${r.title}`, () => {
          expect(r.problems).toEqual([]);
          expect(r.differences).toEqual([]);
        });
      }
    });
  }
});
