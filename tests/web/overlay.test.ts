import { describe, expect, it } from 'vitest';
import { computeOverlay, locationPoint, powerStyles, DISLODGED_OFFSET } from '../../shared/drawing/overlay.ts';
import { position, start, variant } from './positions.ts';

const province = (id: string) => variant.data.provinces.find((p) => p.id === id)!;

describe('map overlay', () => {
  it('fills owned centres and controlled build centres with their power', () => {
    const o = computeOverlay(variant, start);
    expect(Object.fromEntries(o.fills)).toEqual({ ...start.owners, ...start.control });
    expect(o.fills.get('Rom')).toBe('Rome');
    expect(o.fills.get('Arm')).toBeUndefined();
  });

  it('marks every centre with its kind: single, double, triple for Rome, special build, rebel, destroyed', () => {
    const state = { ...start, destroyed: ['Syr'], rebuilding: ['Syr'] };
    const o = computeOverlay(variant, state);
    const c = new Map(o.centres.map((m) => [m.province, m]));
    expect(o.centres.length).toBe(variant.data.provinces.filter((p) => p.centre || p.buildCentre).length);
    expect(c.get('Rom')).toMatchObject({ kind: 'triple', supply: 3, owner: 'Rome', indestructible: true, home: 'Rome' });
    expect(c.get('Alx')).toMatchObject({ kind: 'double', owner: 'Egypt' });
    expect(c.get('Nea')).toMatchObject({ kind: 'single', owner: 'Rome' });
    expect(c.get('Ath')).toMatchObject({ kind: 'build' });
    expect(c.get('Arm')).toMatchObject({ kind: 'single', rebel: true, owner: null });
    expect(c.get('Syr')).toMatchObject({ kind: 'double', destroyed: true, rebuilding: true });
    // Beside the label, so the unit point stays free for a counter.
    const rom = province('Rom');
    expect(c.get('Rom')!.at[1]).toBe(rom.draw!.label[1]);
    expect(c.get('Rom')!.at[0]).toBeGreaterThan(rom.draw!.label[0]);
  });

  it('puts each unit at its drawing point, a fleet on a named coast at the coast’s point', () => {
    const state = position([
      { power: 'Rome', type: 'army', at: 'Rom' },
      { power: 'Carthage', type: 'fleet', at: 'Aqu/sc' },
    ]);
    const o = computeOverlay(variant, state);
    expect(o.units).toHaveLength(2);
    expect(o.units[0]).toMatchObject({ power: 'Rome', type: 'army', province: 'Rom', dislodged: false, label: 'Roman army in Rome' });
    expect(o.units[0].at).toEqual(province('Rom').draw!.unit);
    expect(o.units[1]).toMatchObject({ province: 'Aqu', location: 'Aqu/sc', label: 'Carthaginian fleet in Aquitania (South Coast)' });
    expect(o.units[1].at).toEqual(province('Aqu').coasts!.sc.draw!.unit);
    expect(locationPoint(variant, 'Aqu/wc')).toEqual(province('Aqu').coasts!.wc.draw!.unit);
  });

  it('draws a dislodged unit beside the unit that took its place, and says so', () => {
    const state = position(
      [{ power: 'Carthage', type: 'army', at: 'Rav' }],
      { type: 'retreat' },
      { dislodged: [{ power: 'Rome', type: 'army', at: 'Rav', attackerFrom: 'Ven' }] },
    );
    const o = computeOverlay(variant, state);
    const d = o.units.find((u) => u.dislodged)!;
    const [x, y] = province('Rav').draw!.unit;
    expect(d.at).toEqual([x + DISLODGED_OFFSET[0], y + DISLODGED_OFFSET[1]]);
    expect(d.label).toBe('dislodged Roman army in Ravenna');
    expect(new Set(o.units.map((u) => u.key)).size).toBe(2);
  });

  it('gives each power its colour and a distinct initial', () => {
    const styles = powerStyles(variant);
    expect(styles.map((s) => s.colour)).toEqual(variant.data.powers.map((p) => p.colour));
    expect(new Set(styles.map((s) => s.initial)).size).toBe(styles.length);
  });

  it('every unit at the start has a drawing point', () => {
    expect(computeOverlay(variant, start).units).toHaveLength(start.units.length);
  });
});
