import { describe, expect, it, vi } from 'vitest';

// Generous: these run many adjudications, and CI machines are shared.
vi.setConfig({ testTimeout: 60_000 });
import { getVariant } from '../../shared/variants.ts';
import { adjudicate } from '../../shared/game/process.ts';
import { phaseToDatcCase } from '../../shared/datc/export.ts';
import { runDatcText } from '../../shared/datc/suite.ts';
import { randomGame } from '../support/random-game.ts';
import { RULEBOOKS } from '../../shared/variant/options.ts';

// Any played phase, written as a DATC case, must re-check as passed: the export is how a GM re-verifies history.
describe('exporting played phases as DATC cases', () => {
  for (const id of ['standard', 'diadochi-v']) {
    it(`${id}: every phase of a random game re-checks`, () => {
      const v = getVariant(id)!;
      // Seeds whose random games have all three kinds of phase (retreats are rare in random Diadochi V play).
      const game = randomGame(v, id === 'standard' ? 7 : 6, 60);
      const text = game
        .map((p, i) => {
          const r = adjudicate(v, p.state, p.orders);
          if (!r.ok) throw new Error(r.error.join('; '));
          return phaseToDatcCase(v, `G.${i}`, `phase ${i}`, p.state, p.orders, r.value.next);
        })
        .join('\n');
      const suite = runDatcText(text);
      expect(suite.fileProblems).toEqual([]);
      expect(suite.reports.length).toBe(game.length);
      const failed = suite.reports.filter((r) => !r.passed).map((r) => `${r.id}: ${[...r.problems, ...r.differences].join('; ')}`);
      expect(failed).toEqual([]);
      expect(new Set(game.map((p) => p.state.phase.type)).size).toBe(3);
    });
  }
});

describe('a game played under the 1971 rulebook', () => {
  it('exports its phases with a RULES line, and they re-check under those rules (not under the DATC answers)', () => {
    const v = getVariant('diadochi-v', RULEBOOKS['1971'])!;
    const game = randomGame(v, 5, 12);
    const text = game
      .map((p, i) => {
        const r = adjudicate(v, p.state, p.orders);
        if (!r.ok) throw new Error(r.error.join('; '));
        return phaseToDatcCase(v, `G.${i}`, `phase ${i}`, p.state, p.orders, r.value.next);
      })
      .join('\n');
    expect(text.match(/^RULES 1971$/gm)?.length).toBe(game.length);
    const suite = runDatcText(text);
    expect(suite.fileProblems).toEqual([]);
    expect(suite.reports.filter((r) => !r.passed).map((r) => r.id)).toEqual([]);
    // Read as modern cases, the phases the two rule sets disagree on fail (seed 5: its second phase at least).
    const modern = runDatcText(text.replace(/^RULES 1971$/gm, ''));
    expect(modern.reports.filter((r) => !r.passed).map((r) => r.id)).toContain('G.1');
    // A rule set nobody knows is named as the problem.
    expect(runDatcText(text.replace(/^RULES 1971$/m, 'RULES 1982')).fileProblems).toEqual([
      expect.stringMatching(/^case G\.0 .*unknown rules "1982" \(known: datc, 1971\)$/),
    ]);
  });
});
