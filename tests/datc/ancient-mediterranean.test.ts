import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDatcText } from '../../shared/datc/suite.ts';
import { parseDatcFile } from '../../shared/datc/format.ts';
import { caseToState, type CaseReport } from '../../shared/datc/run.ts';
import { getVariant } from '../../shared/variants.ts';
import { initialState } from '../../shared/game/process.ts';
import { phaseName } from '../../shared/state/phase.ts';

// The Ancient Mediterranean conformance suite: every case of
// tests/datc/ancient-mediterranean/*.txt must pass. Besides what the case
// format checks, two facts it cannot state are checked here per case id: the
// phase that follows the case (years counting up from 1 AD), and that orders
// across a border that does not exist for the unit's type were refused as
// illegal (not merely bounced).
const dir = join(import.meta.dirname, 'ancient-mediterranean');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort();
const variant = getVariant('ancient-mediterranean')!;

const nextPhase: Record<string, string> = {
  'AM.1.1': 'Fall 1 AD Movement',
  'AM.1.2': 'Winter 1 AD Adjustment',
  'AM.1.3': 'Spring 2 AD Movement',
};

/** Orders (as the engine writes them back) that must be refused as illegal. */
const illegal: Record<string, string[]> = {
  'AM.1.5': ['A cre - spa'],
  'AM.1.7': ['F sag - lus'],
  'AM.2.5': ['F bla - aeg'],
  'AM.2.13': ['A sic - car'],
  'AM.3.4': ['F mem - cyr'],
  'AM.3.6': ['F mem - gop', 'F bay - ree'],
  'AM.3.9': ['F ree - ale', 'F gop - ree'],
  'AM.3.13': ['Build F dam'],
  'AM.4.1': ['A tar - bal'],
  'AM.4.6': ['F bal C A tar - mau', 'A tar - mau'],
};

function checkExtras(r: CaseReport): void {
  if (nextPhase[r.id]) expect(r.outcome && phaseName(variant, r.outcome.next.phase)).toBe(nextPhase[r.id]);
  const refused = new Set(r.outcome?.results.filter((x) => x.code === 'illegal').map((x) => x.order));
  expect([...refused].sort()).toEqual([...(illegal[r.id] ?? [])].sort());
}

describe('Ancient Mediterranean conformance', () => {
  const all = files.map((f) => ({ f, suite: runDatcText(readFileSync(join(dir, f), 'utf8')) }));

  it('has a case for every special feature, with unique ids', () => {
    const ids = all.flatMap((x) => x.suite.reports.map((r) => r.id));
    expect(ids.length).toBeGreaterThanOrEqual(45);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [...Object.keys(nextPhase), ...Object.keys(illegal)]) expect(ids).toContain(id);
  });

  it('AM.1.1 starts from the engine initial position in Spring 1 AD', () => {
    const parsed = parseDatcFile(readFileSync(join(dir, '01-board.txt'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error.join('\n'));
    const c = parsed.value.find((x) => x.id === 'AM.1.1')!;
    const built = caseToState(variant, c);
    if (!built.ok) throw new Error(built.error.join('\n'));
    const start = initialState(variant);
    const key = (u: { power: string; type: string; at: string }) => `${u.power} ${u.type} ${u.at}`;
    expect(built.value.state.units.map(key).sort()).toEqual(start.units.map(key).sort());
    expect(built.value.state.owners).toEqual(start.owners);
    expect(phaseName(variant, start.phase)).toBe('Spring 1 AD Movement');
  });

  for (const { f, suite } of all) {
    describe(f, () => {
      it('parses', () => expect(suite.fileProblems).toEqual([]));
      for (const r of suite.reports) {
        it(`${r.id} ${r.title}`, () => {
          expect(r.problems).toEqual([]);
          expect(r.differences).toEqual([]);
          checkExtras(r);
        });
      }
    });
  }
});
