import { describe, expect, it } from 'vitest';
import { adjudicate } from '../../shared/index.ts';
import { SHARED_PATH_GAP, drawnResults, glyphsFor } from '../../shared/drawing/glyphs.ts';
import { locationPoint } from '../../shared/drawing/overlay.ts';
import { position, start, variant } from './positions.ts';

describe('orders drawn on the map', () => {
  it('draws adjudicated moves with their outcome: a bounce fails, a supported attack dislodges', () => {
    const state = position([
      { power: 'Rome', type: 'army', at: 'Rav' },
      { power: 'Rome', type: 'army', at: 'Rom' },
      { power: 'Carthage', type: 'army', at: 'Ete' },
      { power: 'Carthage', type: 'army', at: 'Cis' },
      { power: 'Macedonia', type: 'army', at: 'Ill' },
    ]);
    const r = adjudicate(variant, state, [
      { power: 'Rome', order: 'A Rav - Ete' },
      { power: 'Rome', order: 'A Rom S A Rav - Ete' },
      { power: 'Macedonia', order: 'A Ill - Ven' },
      { power: 'Carthage', order: 'A Cis - Ven' },
    ]);
    if (!r.ok) throw new Error(r.error.join());
    const drawn = drawnResults(variant, 'movement', r.value.results);
    // The unordered Carthaginian army in Ete is drawn only because it was dislodged.
    expect(drawn.map((d) => d.result!.order).sort()).toEqual(['A Cis - Ven', 'A Ete H', 'A Ill - Ven', 'A Rav - Ete', 'A Rom S A Rav - Ete'].sort());
    const glyphs = glyphsFor(variant, drawn);
    const arrows = glyphs.filter((g) => g.kind === 'arrow');
    expect(arrows.map((g) => g.outcome).sort()).toEqual(['failure', 'failure', 'success']);
    const support = glyphs.find((g) => g.kind === 'support')!;
    expect(support).toMatchObject({ outcome: 'success', hold: false, power: 'Rome' });
    const dislodged = glyphs.find((g) => g.kind === 'mark' && g.symbol === 'dislodged');
    expect(dislodged).toMatchObject({ power: 'Carthage' });
    expect(dislodged && 'at' in dislodged && dislodged.at).toEqual(locationPoint(variant, 'Ete'));
  });

  it('leaves illegal orders and plain unordered holds off the map', () => {
    const r = adjudicate(variant, start, [{ power: 'Carthage', order: 'A Gad - Rom' }]);
    if (!r.ok) throw new Error(r.error.join());
    expect(drawnResults(variant, 'movement', r.value.results)).toEqual([]);
  });

  it('draws planned orders (no result yet) as planned', () => {
    const glyphs = glyphsFor(variant, [
      { power: 'Rome', order: { kind: 'move', unit: { type: 'army', at: 'Rav' }, to: 'Cis', viaConvoy: false }, ref: 0 },
      { power: 'Rome', order: { kind: 'hold', unit: { type: 'fleet', at: 'Rom' } }, ref: 1 },
      { power: 'Rome', order: { kind: 'destroy', unit: { type: 'army', at: 'Bru' } }, ref: 2 },
    ]);
    expect(glyphs.map((g) => [g.kind, g.outcome, g.ref])).toEqual([
      ['arrow', 'planned', 0],
      ['mark', 'planned', 1],
      ['mark', 'planned', 2],
    ]);
  });
});

describe('arrow ends', () => {
  const move = { power: 'Rome', order: { kind: 'move' as const, unit: { type: 'army' as const, at: 'Bru' }, to: 'Ben', viaConvoy: false }, ref: 0 };
  const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

  it('reach almost to an empty destination, and stop at the counter of an occupied one', () => {
    const ben = locationPoint(variant, 'Ben')!;
    const [empty] = glyphsFor(variant, [move]);
    const [full] = glyphsFor(variant, [move], new Set(['Ben']));
    if (empty.kind !== 'arrow' || full.kind !== 'arrow') throw new Error('not arrows');
    expect(dist(empty.to, ben)).toBeCloseTo(2);
    expect(dist(full.to, ben)).toBeCloseTo(11);
    // Both leave from the edge of the moving counter, not its centre.
    expect(dist(empty.from, locationPoint(variant, 'Bru')!)).toBeGreaterThan(5);
  });
});

describe('lines that share a path', () => {
  /** Distance of point p from the line through a and b. */
  const offLine = (p: readonly [number, number], a: readonly [number, number], b: readonly [number, number]) =>
    Math.abs((p[0] - a[0]) * (b[1] - a[1]) - (p[1] - a[1]) * (b[0] - a[0])) / Math.hypot(b[0] - a[0], b[1] - a[1]);

  it('draws a head-to-head as two arrows side by side, each beside the line between the units, the loser not hidden', () => {
    const state = position([
      { power: 'Rome', type: 'army', at: 'Rav' },
      { power: 'Carthage', type: 'army', at: 'Ete' },
    ]);
    const r = adjudicate(variant, state, [
      { power: 'Rome', order: 'A Rav - Ete' },
      { power: 'Carthage', order: 'A Ete - Rav' },
    ]);
    if (!r.ok) throw new Error(r.error.join());
    const arrows = glyphsFor(variant, drawnResults(variant, 'movement', r.value.results), new Set(['Rav', 'Ete'])).filter((g) => g.kind === 'arrow');
    expect(arrows).toHaveLength(2);
    const rav = locationPoint(variant, 'Rav')!;
    const ete = locationPoint(variant, 'Ete')!;
    for (const a of arrows) {
      expect(offLine(a.from, rav, ete)).toBeCloseTo(SHARED_PATH_GAP / 2);
      expect(offLine(a.to, rav, ete)).toBeCloseTo(SHARED_PATH_GAP / 2);
    }
    // On opposite sides of that line: apart by the whole gap.
    const [a, b] = arrows;
    expect(offLine(a.from, b.from, b.to)).toBeCloseTo(SHARED_PATH_GAP);
  });

  it('leaves alone arrows that share no path', () => {
    const arrows = glyphsFor(variant, [
      { power: 'Rome', order: { kind: 'move', unit: { type: 'army', at: 'Rav' }, to: 'Cis', viaConvoy: false }, ref: 0 },
      { power: 'Rome', order: { kind: 'move', unit: { type: 'army', at: 'Rom' }, to: 'Ete', viaConvoy: false }, ref: 1 },
    ]).filter((g) => g.kind === 'arrow');
    const rav = locationPoint(variant, 'Rav')!;
    const cis = locationPoint(variant, 'Cis')!;
    expect(offLine(arrows[0].from, rav, cis)).toBeCloseTo(0);
  });
});
