import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDatcText, variantByName } from '../../shared/datc/suite.ts';
import { formatDatcCase, parseDatcFile, type DatcCase } from '../../shared/datc/format.ts';
import { caseToState, runCase, type CaseReport } from '../../shared/datc/run.ts';
import { phaseToDatcCase } from '../../shared/datc/export.ts';
import { adjudicate } from '../../shared/game/process.ts';
import { phaseName } from '../../shared/state/phase.ts';
import { getVariant } from '../../shared/variants.ts';

// Decided provinces: every case of tests/datc/decided/*.txt must pass, and
// each case with a decision must come out differently without it (else it
// would not show the decision doing anything), except the few that show a
// decision agreeing with the ordinary rules. What the format cannot state is
// checked here per case id.
const dir = join(import.meta.dirname, 'decided');
const files = readdirSync(dir).filter((f) => f.endsWith('.txt')).sort();
const parsed = files.map((f) => {
  const p = parseDatcFile(readFileSync(join(dir, f), 'utf8'));
  if (!p.ok) throw new Error(`${f}: ${p.error.join('; ')}`);
  return { f, cases: p.value };
});

/** Cases whose decision agrees with what the ordinary rules give. */
const sameAsOrdinary = new Set(['S.8', 'S.11']);

const result = (r: CaseReport, power: string, order: string) => r.outcome?.results.find((x) => x.power === power && x.order === order);

/** Facts the format cannot state. */
const extras: Record<string, (r: CaseReport) => void> = {
  'S.1': (r) => {
    expect(result(r, 'Germany', 'F hol - nth')?.reason).toBe("Moved to North Sea, winning the battle for it, dislodging England's fleet in North Sea.");
    expect(result(r, 'England', 'F nth H')?.dislodgedBy).toEqual({ from: 'hol', unit: 'F hol' });
  },
  'S.2': (r) => expect(result(r, 'Germany', 'F hol - nth')?.reason).toBe('England won the battle for North Sea: the move fails.'),
  'S.3': (r) => {
    expect(result(r, 'Germany', 'F hol - nth')?.reason).toBe('The battle for North Sea was drawn: no move into it succeeds.');
    expect(result(r, 'Germany', 'F hol - nth')?.code).toBe('bounced');
  },
  // The drawn sea is closed to the French fleet's retreat.
  'S.4': (r) => {
    expect(r.outcome?.next.standoffs).toContain('nth');
    expect(r.outcome?.next.phase.type).toBe('retreat');
  },
  'S.5': (r) => expect(result(r, 'England', 'F nth C A lon - bel')?.code).toBe('convoyed'),
  'S.6': (r) => expect(result(r, 'England', 'F nth C A lon - bel')?.code).toBe('convoy-disrupted'),
  'S.7': (r) => expect(result(r, 'England', 'F nth S A bel - hol')?.code).toBe('support-cut'),
  'S.9': (r) =>
    expect(result(r, 'England', 'F nth - hol')?.reason).toBe(
      "Germany won the battle for North Sea: Germany's fleet in Holland came in head-to-head, so this unit could not leave. It was dislodged by Germany's fleet in Holland.",
    ),
  'S.11': (r) =>
    expect(result(r, 'England', 'F edi - nth')?.reason).toBe('England won the battle for North Sea, but its own units there or moving there kept this one out.'),
  'S.12': (r) => expect(result(r, 'England', 'F nrg - nth')?.reason).toBe("The battle for North Sea was won by England's fleet in Edinburgh, not by this unit."),
  'L.1': (r) => {
    expect(result(r, 'Rome', 'F Nea - ION')?.reason).toMatch(/The fleet was lost with all its ships in the battle for Ionian Sea\.$/);
    expect(r.outcome?.events).toEqual([{ kind: 'unit-lost', power: 'Rome', unit: 'F Nea', at: 'Nea', battle: 'ION' }]);
  },
  // Lost, the dislodged fleet has no retreat to make: the game goes on to the Fall.
  'L.2': (r) => {
    expect(result(r, 'Macedonia', 'F ION H')?.dislodgedBy).toEqual({ from: 'Nea', unit: 'F Nea' });
    expect(result(r, 'Macedonia', 'F ION H')?.reason).toMatch(/lost with all its ships in the battle for Ionian Sea/);
    expect(r.outcome?.next.dislodged).toEqual([]);
    expect(r.outcome && phaseName(getVariant('diadochi-v')!, r.outcome.next.phase)).toBe('Fall 240 BC Movement');
  },
  'L.3': (r) => expect(result(r, 'Rome', 'F Syr S F Nea - ION')?.code).toBe('supported'),
  'DV.9': (r) => {
    expect(r.outcome?.disbanded).toEqual([{ power: 'Syria', type: 'fleet', at: 'RED' }]);
    expect(r.outcome && phaseName(getVariant('diadochi-v')!, r.outcome.next.phase)).toBe('Fall 240 BC Movement');
  },
};

const withoutDecisions = (c: DatcCase): DatcCase => ({ ...c, blocks: { ...c.blocks, DECIDED: undefined } });
/** The same decisions with the losses left out. */
const withoutLosses = (c: DatcCase): DatcCase => ({
  ...c,
  blocks: { ...c.blocks, DECIDED: c.blocks.DECIDED?.map((l) => ({ ...l, text: l.text.replace(/\s+lost\s.*$/i, '') })) },
});

describe('decided provinces (DATC text format)', () => {
  it('has cases on the Standard map and on Diadochi V, with unique ids', () => {
    const all = parsed.flatMap((x) => x.cases);
    expect(new Set(all.map((c) => c.variant))).toEqual(new Set(['Standard', 'Diadochi V']));
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    for (const id of Object.keys(extras)) expect(all.map((c) => c.id)).toContain(id);
  });

  for (const { f, cases } of parsed) {
    describe(f, () => {
      const suite = runDatcText(readFileSync(join(dir, f), 'utf8'));
      it('parses', () => expect(suite.fileProblems).toEqual([]));
      for (const r of suite.reports) {
        const c = cases.find((x) => x.id === r.id)!;
        it(`${r.id} ${r.title}`, () => {
          expect(r.problems).toEqual([]);
          expect(r.differences).toEqual([]);
          extras[r.id]?.(r);
          if (!c.blocks.DECIDED || c.blocks.POSTSTATE_ERROR) return;
          // Without its decisions the case comes out otherwise (or, for the few marked, the same).
          const ordinary = runCase(variantByName(c.variant)!, withoutDecisions(c));
          expect(ordinary.problems).toEqual([]);
          expect(ordinary.passed).toBe(sameAsOrdinary.has(r.id));
          // A case with losses comes out otherwise without them: the losses did something.
          if (c.blocks.DECIDED.some((l) => /\slost\s/i.test(l.text)))
            expect(runCase(variantByName(c.variant)!, withoutLosses(c)).outcome?.next).not.toEqual(r.outcome?.next);
        });
      }
    });
  }
});

describe('the DECIDED block', () => {
  const standard = getVariant('standard')!;
  const text = (decided: string) => `VARIANT_ALL Standard
CASE X.1 test
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	England: F nth
	Germany: F hol
ORDERS
	Germany: F hol - nth
${decided}
POSTSTATE
	Germany: F nth
POSTSTATE_DISLODGED
	England: F nth
END
`;
  const only = (t: string) => {
    const p = parseDatcFile(t);
    if (!p.ok) throw new Error(p.error.join('; '));
    return p.value[0];
  };

  it('reads the block form and the one-line form alike', () => {
    const block = only(text('DECIDED\n\tnth Germany'));
    const line = only(text('DECIDED nth Germany'));
    expect(block.blocks.DECIDED?.map((l) => l.text)).toEqual(['nth Germany']);
    expect(line.blocks.DECIDED?.map((l) => l.text)).toEqual(['nth Germany']);
    expect(runCase(standard, block).passed).toBe(true);
    expect(runCase(standard, line).passed).toBe(true);
  });

  it('reads a winner with its unit, and a standoff', () => {
    const c = only(text('DECIDED\n\tnth Germany F hol\n\tbel standoff'));
    const built = caseToState(standard, c);
    expect(built.ok && built.value.decided).toEqual([
      { province: 'nth', outcome: { winner: 'Germany', unit: 'hol' } },
      { province: 'bel', outcome: { standoff: true } },
    ]);
  });

  it('names a line it cannot read', () => {
    const r = runCase(standard, only(text('DECIDED\n\tnth')));
    expect(r.passed).toBe(false);
    expect(r.problems.join()).toMatch(/line 10: a decided province is "Province Winner"/);
  });

  it('an expected error that does not come is a failure, named', () => {
    const c = only(text('DECIDED nth Germany\nPOSTSTATE_ERROR\n\tis not contested'));
    const r = runCase(standard, c);
    expect(r.passed).toBe(false);
    expect(r.differences).toEqual(['expected an error containing "is not contested", but the phase was adjudicated']);
  });

  it('a case written with its decisions reads back the same', () => {
    const c = only(text('DECIDED\n\tnth Germany'));
    const written = formatDatcCase({
      id: c.id,
      variant: c.variant,
      phase: c.phase!.text,
      blocks: Object.fromEntries(Object.entries(c.blocks).map(([k, ls]) => [k, ls!.map((l) => l.text)])),
    });
    expect(written).toContain('DECIDED\n\tnth Germany\n');
    expect(runCase(standard, only(written)).passed).toBe(true);
  });

  it("a phase exported with its decisions re-checks, and fails without them", () => {
    const c = only(text('DECIDED nth Germany'));
    const built = caseToState(standard, c);
    if (!built.ok) throw new Error(built.error.join('; '));
    const { state, orders, decided } = built.value;
    const out = adjudicate(standard, state, orders, { decided });
    if (!out.ok) throw new Error(out.error.join('; '));
    const exported = phaseToDatcCase(standard, 'G.1', 'a battle', state, orders, out.value.next, decided);
    expect(exported).toContain('DECIDED\n\tnth Germany\n');
    expect(runCase(standard, only(exported)).passed).toBe(true);
    const bare = phaseToDatcCase(standard, 'G.1', 'a battle', state, orders, out.value.next);
    expect(bare).not.toContain('DECIDED');
    expect(runCase(standard, only(bare)).passed).toBe(false);
  });

  it('reads the units lost in a battle, and a phase exported with them re-checks (and fails without them)', () => {
    const c = only(text('DECIDED\n\tnth Germany lost F nth').replace('POSTSTATE_DISLODGED\n\tEngland: F nth\n', ''));
    const built = caseToState(standard, c);
    if (!built.ok) throw new Error(built.error.join('; '));
    const { state, orders, decided } = built.value;
    expect(decided).toEqual([{ province: 'nth', outcome: { winner: 'Germany', destroyed: ['nth'] } }]);
    const out = adjudicate(standard, state, orders, { decided });
    if (!out.ok) throw new Error(out.error.join('; '));
    expect(out.value.next.units).toEqual([{ power: 'Germany', type: 'fleet', at: 'nth' }]);
    expect(out.value.next.phase.type).toBe('movement');
    const exported = phaseToDatcCase(standard, 'G.2', 'a fleet lost', state, orders, out.value.next, decided);
    expect(exported).toContain('DECIDED\n\tnth Germany lost nth\n');
    expect(runCase(standard, only(exported)).passed).toBe(true);
    const kept = phaseToDatcCase(standard, 'G.2', 'a fleet lost', state, orders, out.value.next, [{ province: 'nth', outcome: { winner: 'Germany' } }]);
    expect(runCase(standard, only(kept)).passed).toBe(false);
  });

  it('names a "lost" with no units after it', () => {
    const r = runCase(standard, only(text('DECIDED\n\tnth Germany lost')));
    expect(r.passed).toBe(false);
    expect(r.problems.join()).toMatch(/line 10: a decided province is .* then optionally "lost" and units/);
  });
});
