import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixedDice } from '../../shared/naval/dice.ts';
import type { Action } from '../../shared/naval/diadochi-naval/actions.ts';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import type { State } from '../../shared/naval/diadochi-naval/state.ts';
import { contactOf, distanceBetween, overlapping } from '../../shared/naval/table/index.ts';
import { baseOf } from '../../shared/naval/diadochi-naval/state.ts';
import { arranged, deployed, ship, smallSetup } from './diadochi-naval-helpers.ts';

const fleet = () =>
  deployed(
    smallSetup([
      { id: 'a1', x: 10, y: 3 },
      { id: 'a2', x: 11, y: 3 },
      { id: 'a3', x: 12, y: 3 },
      { id: 'a4', x: 20, y: 3 },
      { id: 'b1', x: 10, y: 27 },
      { id: 'b2', x: 20, y: 27 },
    ]),
  );

const order = (ships: string[], formation: 'single' | 'abreast' | 'ahead', move: Extract<Action, { kind: 'order' }>['move']): Action => ({
  kind: 'order',
  ships,
  formation,
  move,
});
const go = (d: number) => ({ kind: 'legs' as const, legs: [{ kind: 'ahead' as const, distance: d }], charge: false });

function run(state: State, action: Action, dice: number[], side = 'a') {
  const r = diadochiNaval.apply(state, side, action, fixedDice(dice));
  if (!r.ok) throw new Error(r.error.message);
  return r;
}
const texts = (r: { log: { text: string }[] }) => r.log.map((l) => l.text).join('\n');

describe('single ships', () => {
  it('go up to 4 cables and turn up to 180°; back up to 2 cables straight', () => {
    const s = fleet();
    expect(ship(s, 'a4').y).toBe(3);
    const moved = run(s, order(['a4'], 'single', go(4)), [3]);
    expect(ship(moved.state, 'a4').y).toBeCloseTo(7, 9);
    expect(diadochiNaval.check(s, 'a', order(['a4'], 'single', go(4.5)))?.code).toBe('too_far');
    const turn = (deg: number) =>
      order(['a4'], 'single', {
        kind: 'legs',
        legs: [
          { kind: 'turn', degrees: deg },
          { kind: 'ahead', distance: 1 },
        ],
        charge: false,
      });
    expect(diadochiNaval.check(s, 'a', turn(180))).toBeNull();
    expect(diadochiNaval.check(s, 'a', turn(190))?.code).toBe('illegal_move');
    const back = (d: number) => order(['a4'], 'single', { kind: 'legs', legs: [{ kind: 'back', distance: d }], charge: false });
    expect(diadochiNaval.check(s, 'a', back(2))).toBeNull();
    expect(diadochiNaval.check(s, 'a', back(2.5))?.code).toBe('illegal_move');
    // Each ship has one order a turn.
    expect(diadochiNaval.check(moved.state, 'a', order(['a4'], 'single', go(1)))?.code).toBe('already_ordered');
  });

  it('may not pass through another ship', () => {
    const s = arranged(fleet(), { a4: { x: 11, y: 1.5 } });
    expect(diadochiNaval.check(s, 'a', order(['a4'], 'single', go(3)))?.code).toBe('blocked');
  });

  it('a charge stops on touching the enemy, bow on', () => {
    const s = arranged(fleet(), { b2: { x: 20, y: 7.5, heading: 180 } });
    const r = run(s, order(['a4'], 'single', { kind: 'legs', legs: [{ kind: 'ahead', distance: 4 }], charge: true }), [1]);
    const a4 = baseOf(ship(r.state, 'a4'));
    const b2 = baseOf(ship(r.state, 'b2'));
    expect(distanceBetween(a4, b2)).toBeLessThan(1e-6);
    expect(contactOf(a4, b2)?.bowToBow).toBe(true);
    expect(texts(r)).toMatch(/contacts B2/);
    // Without the charge the same move is refused.
    expect(diadochiNaval.check(s, 'a', order(['a4'], 'single', go(4)))?.code).toBe('blocked');
  });

  it('may not cross the front of an enemy within 2 cables except to contact it', () => {
    // b2 faces south at (20, 10); a4 at (17, 8.5) heading east would pass 1 cable below its bow.
    const s = arranged(fleet(), { b2: { x: 20, y: 10.5, heading: 180 }, a4: { x: 17, y: 8.5, heading: 90 } });
    expect(diadochiNaval.check(s, 'a', order(['a4'], 'single', go(4)))?.code).toBe('crosses_front');
    // Crippled enemies do not stop it.
    expect(diadochiNaval.check(arranged(s, { b2: { crippled: true } }), 'a', order(['a4'], 'single', go(4)))).toBeNull();
  });
});

describe('command', () => {
  it('an order is obeyed on the rating or less; above it, the ships stay', () => {
    const s = fleet();
    const fail = run(s, order(['a4'], 'single', go(2)), [7]);
    expect(ship(fail.state, 'a4').y).toBe(3);
    expect(texts(fail)).toMatch(/rolled 7 against 6: the order is not obeyed/);
    expect(fail.log.find((l) => l.table)?.table).toEqual({ name: 'Command', row: '7 > 6: fails' });
  });

  it('−1 more than 12 cables from the flagship, −1 out of formation, −1 for each flagship lost', () => {
    const far = arranged(fleet(), { a4: { x: 30, y: 3 } });
    const r = run(far, order(['a4'], 'single', go(2)), [6]);
    expect(texts(r)).toMatch(/rolled 6 against 5 \(rating 6, −1 for 19 cables from the flagship\)/);
    const flagged = arranged(fleet(), { a4: { outOfFormation: true } });
    expect(texts(run(flagged, order(['a4'], 'single', go(2)), [6]))).toMatch(/against 5 \(rating 6, −1 out of formation\)/);
    // The flagship a1 sunk in close combat: a new flagship, and the squadron's rating drops to 5.
    const s = arranged(fleet(), { b1: { x: 10, y: 4, heading: 180 } }, 'combat', 'b');
    const sunk = run(s, { kind: 'combat', attacks: [{ ship: 'b1', target: 'a1', attack: 'ram' }] }, [6, 1], 'b');
    const squadron = sunk.state.squadrons.find((q) => q.id === 'sa');
    expect(squadron?.rating).toBe(5);
    expect(squadron?.flagship).not.toBe('a1');
    expect(texts(sunk)).toMatch(/loses its flagship/);
  });

  it('a 10 is a blunder, and each row of the blunder table does what it says', () => {
    const s = arranged(fleet(), { a4: { x: 20, y: 10 }, b2: { x: 26, y: 20, heading: 180 } });
    // 1: a single ship backs 2 cables.
    expect(ship(run(s, order(['a4'], 'single', go(1)), [10, 1]).state, 'a4').y).toBeCloseTo(8, 9);
    // 2: full movement straight ahead.
    expect(ship(run(s, order(['a4'], 'single', go(1)), [10, 2]).state, 'a4').y).toBeCloseTo(14, 9);
    // 3: full movement towards the nearest enemy (b2, up and to the right): it turns to it and goes 4.
    const towards = ship(run(s, order(['a4'], 'single', go(1)), [10, 3]).state, 'a4');
    expect(Math.hypot(towards.x - 20, towards.y - 10)).toBeCloseTo(4, 6);
    expect(towards.x).toBeGreaterThan(20);
    // 4: a single ship turns away from the nearest enemy.
    const away = ship(run(s, order(['a4'], 'single', go(1)), [10, 4]).state, 'a4');
    expect(away.y).toBe(10);
    expect(away.heading).toBeGreaterThan(180);
    // 5: the squadron may give no more orders this turn.
    const halted = run(s, order(['a4'], 'single', go(1)), [10, 5]);
    expect(halted.state.squadrons.find((q) => q.id === 'sa')?.halted).toBe(true);
    expect(texts(halted)).toMatch(/may issue no further orders this turn/);
    // With no ship left it may order, its movement ends at once: the turn passes to Beta.
    expect(halted.state.active).toBe('b');
    // 6: a group falls out of formation, and must reform (with −1) before it moves as a group again.
    const loose = run(s, order(['a1', 'a2', 'a3'], 'abreast', go(1)), [10, 6]).state;
    expect(ship(loose, 'a2').outOfFormation).toBe(true);
    const next = arranged(loose, { a1: { ordered: false }, a2: { ordered: false }, a3: { ordered: false } });
    expect(diadochiNaval.check(next, 'a', order(['a1', 'a2', 'a3'], 'abreast', go(1)))?.code).toBe('out_of_formation');
    const reformed = run(next, order(['a1', 'a2', 'a3'], 'abreast', { kind: 'reform' }), [5]);
    expect(texts(reformed)).toMatch(/against 5 .*out of formation.*form up again/);
    expect(ship(reformed.state, 'a2').outOfFormation).toBe(false);
  });
});

describe('groups', () => {
  it('a line abreast moves up to 4 cables, at most 45° off its facing, wheels with the outside ship going at most 4', () => {
    const s = fleet();
    const line = ['a1', 'a2', 'a3'];
    expect(diadochiNaval.check(s, 'a', order(line, 'abreast', go(4)))).toBeNull();
    expect(diadochiNaval.check(s, 'a', order(line, 'abreast', go(4.1)))?.code).toBe('too_far');
    const slant = (deg: number) => order(line, 'abreast', { kind: 'legs', legs: [{ kind: 'oblique', degrees: deg, distance: 3 }], charge: false });
    expect(diadochiNaval.check(s, 'a', slant(45))).toBeNull();
    expect(diadochiNaval.check(s, 'a', slant(50))?.code).toBe('illegal_move');
    // Frontage 3: 76° of wheel is 3.98 cables for the outside ship, 77° is 4.03.
    const wheel = (deg: number) => order(line, 'abreast', { kind: 'legs', legs: [{ kind: 'wheel', degrees: deg }], charge: false });
    expect(diadochiNaval.check(s, 'a', wheel(76))).toBeNull();
    expect(diadochiNaval.check(s, 'a', wheel(77))?.code).toBe('too_far');
    const wheeled = run(s, wheel(76), [1]).state;
    expect(ship(wheeled, 'a3').heading).toBeCloseTo(76, 6);
    // Ships not side by side are no line abreast.
    expect(diadochiNaval.check(s, 'a', order(['a1', 'a4'], 'abreast', go(1)))?.code).toBe('not_in_formation');
  });

  it('a line ahead moves up to 8 cables and turns up to 90° in all, following its leader', () => {
    const column = arranged(fleet(), { a1: { x: 10, y: 8, heading: 0 }, a2: { x: 10, y: 7, heading: 0 }, a3: { x: 10, y: 6, heading: 0 } });
    const ids = ['a1', 'a2', 'a3'];
    const move = (m: Extract<Action, { kind: 'order' }>['move']) => order(ids, 'ahead', m);
    expect(diadochiNaval.check(column, 'a', move(go(8)))).toBeNull();
    expect(diadochiNaval.check(column, 'a', move(go(8.5)))?.code).toBe('too_far');
    const turning = (deg: number) =>
      move({
        kind: 'legs',
        legs: [
          { kind: 'ahead', distance: 2 },
          { kind: 'turn', degrees: deg },
          { kind: 'ahead', distance: 4 },
        ],
        charge: false,
      });
    expect(diadochiNaval.check(column, 'a', turning(100))?.code).toBe('illegal_move');
    const r = run(column, turning(90), [1]);
    // Ahead 2 to (10, 10), the turn pivoting on its rear-right corner to (11, 10), then 4 east.
    expect(ship(r.state, 'a1').x).toBeCloseTo(15, 9);
    expect(ship(r.state, 'a1').y).toBeCloseTo(10, 9);
    expect(ship(r.state, 'a1').heading).toBeCloseTo(90, 9);
    expect(diadochiNaval.check(column, 'a', order(['a3', 'a2', 'a1'], 'ahead', go(1)))?.code).toBe('not_in_formation');
    // Straight back is not for a column.
    expect(diadochiNaval.check(column, 'a', move({ kind: 'legs', legs: [{ kind: 'back', distance: 1 }], charge: false }))?.code).toBe('illegal_move');
  });

  it('changes formation by turning 90°; long ships fall out of formation going back to line ahead', () => {
    const s = fleet();
    const col = run(s, order(['a1', 'a2', 'a3'], 'abreast', { kind: 'change', degrees: 90 }), [1]).state;
    expect(ship(col, 'a3').heading).toBe(90);
    expect(ship(col, 'a1').outOfFormation).toBe(false);
    const longs = arranged(fleet(), { a1: { type: 'okteres', y: 2.75 }, a2: { type: 'okteres', y: 2.75 }, a3: { type: 'okteres', y: 2.75 } });
    const changed = run(longs, order(['a1', 'a2', 'a3'], 'abreast', { kind: 'change', degrees: 90 }), [1]);
    expect(ship(changed.state, 'a1').outOfFormation).toBe(true);
    expect(texts(changed)).toMatch(/fall out of formation/);
    // A bent column may not change to line abreast.
    const bent = arranged(fleet(), { a1: { x: 10, y: 8, heading: 20 }, a2: { x: 10, y: 7, heading: 0 } });
    expect(diadochiNaval.check(bent, 'a', order(['a1', 'a2'], 'ahead', { kind: 'change', degrees: 90 }))?.code).not.toBeNull();
  });
});

describe('prizes and victory', () => {
  it('a captured ship drifts 2 cables a turn towards the captor\u2019s edge', () => {
    const s = arranged(fleet(), { a4: { status: 'captured', capturedBy: 'b', x: 20, y: 15 } }, 'orders', 'a');
    const r = run(s, { kind: 'end-movement' }, []);
    // Side a's turn ends with nothing to fire or fight: b's player turn begins and tows its prize north.
    expect(ship(r.state, 'a4').y).toBeCloseTo(17, 6);
    expect(texts(r)).toMatch(/drifts 2 cables towards the north edge/);
  });

  it('a side that loses a third of its combat value, flagships double, is beaten', () => {
    // Side b: b1 (flagship, 2 × 2) and b2 (2): 6; a third is 2. Sinking b2 ends it.
    const s = arranged(fleet(), { a4: { x: 20, y: 25 }, b2: { x: 20, y: 26, heading: 180 } }, 'combat', 'a');
    const r = run(s, { kind: 'combat', attacks: [{ ship: 'a4', target: 'b2', attack: 'ram' }] }, [6, 1]);
    expect(r.state.outcome?.winner).toBe('a');
    expect(diadochiNaval.turn(r.state)).toEqual({ kind: 'over' });
  });
});

describe('any order', () => {
  it('is either refused with a reason or carried out without any ship overlapping another', () => {
    const legArb = fc.oneof(
      fc.record({ kind: fc.constant('ahead' as const), distance: fc.double({ min: 0, max: 9, noNaN: true }) }),
      fc.record({ kind: fc.constant('back' as const), distance: fc.double({ min: 0, max: 3, noNaN: true }) }),
      fc.record({ kind: fc.constant('turn' as const), degrees: fc.double({ min: -200, max: 200, noNaN: true }) }),
      fc.record({ kind: fc.constant('wheel' as const), degrees: fc.double({ min: -100, max: 100, noNaN: true }) }),
      fc.record({
        kind: fc.constant('oblique' as const),
        degrees: fc.double({ min: -60, max: 60, noNaN: true }),
        distance: fc.double({ min: 0, max: 5, noNaN: true }),
      }),
    );
    const orderArb = fc.record({
      ships: fc.subarray(['a1', 'a2', 'a3', 'a4', 'b1'], { minLength: 1, maxLength: 4 }),
      formation: fc.constantFrom('single' as const, 'abreast' as const, 'ahead' as const),
      legs: fc.array(legArb, { minLength: 1, maxLength: 3 }),
      charge: fc.boolean(),
    });
    const s = arranged(fleet(), { b1: { x: 11, y: 6, heading: 180 }, a4: { x: 14, y: 5, heading: 300 } });
    fc.assert(
      fc.property(orderArb, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 6 }), (o, roll, blunder) => {
        const action = order(o.ships, o.formation, { kind: 'legs', legs: o.legs, charge: o.charge });
        const refusal = diadochiNaval.check(s, 'a', action);
        const r = diadochiNaval.apply(s, 'a', action, fixedDice([roll, blunder]));
        if (refusal) {
          expect(r.ok).toBe(false);
          expect(refusal.message.length).toBeGreaterThan(5);
          return;
        }
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const on = r.state.ships.filter((x) => x.status !== 'sunk');
        for (let i = 0; i < on.length; i++) for (let j = i + 1; j < on.length; j++) expect(overlapping(baseOf(on[i]), baseOf(on[j]))).toBe(false);
      }),
      { numRuns: 150 },
    );
  });
});
