import { describe, expect, it, vi } from 'vitest';

// Generous: these run many adjudications, and CI machines are shared.
vi.setConfig({ testTimeout: 60_000 });
import { getVariant } from '../../shared/variants.ts';
import { adjudicate } from '../../shared/game/process.ts';
import { phaseToDatcCase } from '../../shared/datc/export.ts';
import { runDatcText } from '../../shared/datc/suite.ts';
import { randomGame } from '../support/random-game.ts';

// Any played phase, written as a DATC case, must re-check as passed: the export is how a GM re-verifies history.
describe('exporting played phases as DATC cases', () => {
  for (const id of ['standard', 'diadochi-v']) {
    it(`${id}: every phase of a random game re-checks`, () => {
      const v = getVariant(id)!;
      const game = randomGame(v, 7, 60);
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
