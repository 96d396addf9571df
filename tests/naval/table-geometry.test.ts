import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Base,
  type Table,
  TableSchema,
  aheadToAbreast,
  abreastToAhead,
  checkPath,
  columnBend,
  columnPath,
  contactOf,
  cornersOf,
  distanceBetween,
  inForwardArc,
  lineAbreast,
  lineAhead,
  lineOfSightBlocked,
  overlapping,
  placing,
  rigidPath,
  rotateAbout,
  selfOverlap,
  straightAhead,
  terrainUnder,
  touching,
} from '../../shared/naval/table/index.ts';

const square = (x: number, y: number, heading = 0): Base => ({ x, y, heading, width: 1, length: 1 });
const long = (x: number, y: number, heading = 0, length = 1.5): Base => ({ x, y, heading, width: 1, length });
const openTable: Table = TableSchema.parse({ unit: 'cable', width: 40, depth: 30 });

describe('distances and contact', () => {
  it('measures between the nearest points of two bases', () => {
    expect(distanceBetween(square(0, 0), square(3, 0))).toBeCloseTo(2, 12);
    // Corner to corner on the diagonal: (1,1) apart less the two half-diagonals' worth of corner.
    expect(distanceBetween(square(0, 0), square(2, 2))).toBeCloseTo(Math.SQRT2, 12);
    // Turned 45°, its corner reaches sqrt(0.5) towards the other.
    expect(distanceBetween(square(0, 0), square(3, 0, 45))).toBeCloseTo(3 - 0.5 - Math.SQRT1_2, 12);
    expect(distanceBetween(square(0, 0), square(0.5, 0))).toBe(0);
  });

  it('touching is contact, overlapping is interpenetration', () => {
    expect(touching(square(0, 0), square(1, 0))).toBe(true);
    expect(overlapping(square(0, 0), square(1, 0))).toBe(false);
    expect(overlapping(square(0, 0), square(0.99, 0))).toBe(true);
    expect(touching(square(0, 0), square(1.01, 0))).toBe(false);
  });

  it('names the sides that touch: bow to bow, a beam, a stern', () => {
    const a = square(0, 0, 0);
    expect(contactOf(a, square(0, 1, 180))).toEqual({ aSide: 'front', bSide: 'front', bowToBow: true });
    // a's bow against the starboard side of a ship heading east (its right faces south, towards a).
    expect(contactOf(a, square(0, 1, 90))).toEqual({ aSide: 'front', bSide: 'right', bowToBow: false });
    expect(contactOf(a, square(0, 1, 270))).toEqual({ aSide: 'front', bSide: 'left', bowToBow: false });
    expect(contactOf(a, square(0, 1, 0))).toEqual({ aSide: 'front', bSide: 'rear', bowToBow: false });
    expect(contactOf(a, square(1, 0.5, 0))).toEqual({ aSide: 'right', bSide: 'left', bowToBow: false });
    expect(contactOf(a, square(3, 0))).toBeNull();
  });

  it('a long base struck on its side far aft is struck on its beam, on its stern edge on its stern', () => {
    const big = long(0, 0, 0, 2);
    expect(contactOf(square(1, -0.5, 270), big)?.bSide).toBe('right');
    expect(contactOf(square(0, -1.5, 0), big)?.bSide).toBe('rear');
  });
});

describe('arcs and sight', () => {
  it('the forward arc is everything whose centre lies ahead of the rear edge line', () => {
    const a = square(0, 0, 0);
    expect(inForwardArc(a, square(5, 0))).toBe(true);
    expect(inForwardArc(a, square(5, -0.4))).toBe(true);
    expect(inForwardArc(a, square(5, -0.5))).toBe(false);
    expect(inForwardArc(a, square(0, -3))).toBe(false);
    expect(straightAhead(a, square(0.4, 2))).toBe(true);
    expect(straightAhead(a, square(0.6, 2))).toBe(false);
  });

  it('a base between two centres blocks the line; one beside it does not', () => {
    const a = square(0, 0);
    const b = square(0, 4);
    expect(lineOfSightBlocked(a, b, [square(0.3, 2)])).toBe(true);
    expect(lineOfSightBlocked(a, b, [square(0.5, 2)])).toBe(false);
    expect(lineOfSightBlocked(a, b, [square(2, 2)])).toBe(false);
  });
});

describe('terrain and the table', () => {
  const table = TableSchema.parse({
    unit: 'cable',
    width: 20,
    depth: 20,
    terrain: [
      {
        id: 'island',
        kind: 'island',
        name: 'the island',
        outline: [
          { x: 8, y: 8 },
          { x: 12, y: 8 },
          { x: 10, y: 12 },
        ],
      },
    ],
  });

  it('refuses a base off the table, on land, or on another base, and allows one along the shore', () => {
    expect(placing(table, square(0.5, 0.5), [])).toEqual({ ok: true });
    expect(placing(table, square(0.4, 5), [])).toEqual({ ok: false, reason: 'it would be off the table' });
    expect(placing(table, square(10, 9), [])).toEqual({ ok: false, reason: 'it would run onto the island' });
    expect(placing(table, square(10, 7.5), [])).toEqual({ ok: true });
    expect(placing(table, square(5, 5), [{ id: 'nike', base: square(5.5, 5) }])).toEqual({ ok: false, reason: 'it would overlap nike' });
    expect(placing(table, square(5, 5), [{ id: 'nike', name: 'Nike', base: square(5.5, 5) }])).toEqual({ ok: false, reason: 'it would overlap Nike' });
  });

  it('a move that crosses the island or another ship on its way is refused, and names what is in the way', () => {
    const path = rigidPath([square(10, 5)], [{ kind: 'ahead', distance: 10 }]);
    const r = checkPath(table, path, [], { names: ['Nike'] });
    expect(r).toMatchObject({ ok: false, reason: 'Nike would run onto the island' });
    const past = rigidPath([square(3, 2)], [{ kind: 'ahead', distance: 6 }]);
    expect(checkPath(table, past, [{ id: 'leon', base: square(3.2, 5) }], { names: ['Nike'] })).toMatchObject({
      ok: false,
      reason: 'Nike would run into leon',
    });
    // A ship in the way is called by its name, and still known by its id.
    expect(checkPath(table, past, [{ id: 'leon', name: 'Leon', base: square(3.2, 5) }], { names: ['Nike'] })).toMatchObject({
      ok: false,
      reason: 'Nike would run into Leon',
      blocker: 'leon',
    });
    expect(checkPath(table, past, [{ id: 'leon', base: square(4, 5) }])).toEqual({ ok: true });
  });

  it('rejects a terrain outline that crosses itself', () => {
    const bad = TableSchema.safeParse({
      unit: 'inch',
      width: 72,
      depth: 48,
      terrain: [
        {
          id: 'bow-tie',
          kind: 'land',
          outline: [
            { x: 0, y: 0 },
            { x: 4, y: 4 },
            { x: 4, y: 0 },
            { x: 0, y: 4 },
          ],
        },
      ],
    });
    expect(bad.success).toBe(false);
    expect(terrainUnder(table, square(2, 2))).toEqual([]);
  });
});

describe('moves', () => {
  it('a wheel pivots on the inside front corner and the outside corner travels the arc', () => {
    const line = [square(0.5, 0.5), square(1.5, 0.5), square(2.5, 0.5)];
    const path = rigidPath(line, [{ kind: 'wheel', degrees: 90 }]);
    // Frontage 3: the outside corner goes a quarter circle of radius 3.
    expect(path.measured.wheeled).toBeCloseTo((3 * Math.PI) / 2, 10);
    const end = path.frames[path.frames.length - 1];
    expect(end.every((b) => Math.abs(b.heading - 90) < 1e-9)).toBe(true);
    // The pivot (the right front corner, at (3,1)) stays put.
    expect(cornersOf(end[2])[1].x).toBeCloseTo(3, 9);
    expect(cornersOf(end[2])[1].y).toBeCloseTo(1, 9);
    expect(lineAbreast(end).ok).toBe(true);
  });

  it('a slant and backing water keep the heading', () => {
    const p = rigidPath(
      [square(5, 5)],
      [
        { kind: 'oblique', degrees: 45, distance: 2 },
        { kind: 'back', distance: 1 },
      ],
    );
    const end = p.frames[p.frames.length - 1][0];
    expect(end.heading).toBe(0);
    expect(end.x).toBeCloseTo(5 + Math.SQRT2, 9);
    expect(end.y).toBeCloseTo(5 + Math.SQRT2 - 1, 9);
    expect(p.measured).toMatchObject({ ahead: 2, back: 1, slant: 45, travelled: 3 });
  });

  it('a column follows its leader round a 90° turn without interpenetrating, and stays in line ahead', () => {
    const column = [square(5, 4), square(5, 3), square(5, 2), square(5, 1)];
    expect(lineAhead(column).ok).toBe(true);
    const path = columnPath(column, [
      { kind: 'ahead', distance: 2 },
      { kind: 'turn', degrees: 90 },
      { kind: 'ahead', distance: 4 },
    ]);
    for (const frame of path.frames) expect(selfOverlap(frame)).toBeNull();
    const end = path.frames[path.frames.length - 1];
    // The turn pivots on the leader's inside rear corner (5.5, 5.5), putting its centre at (6, 6) before the run east.
    expect(end[0].x).toBeCloseTo(10, 9);
    expect(end[0].y).toBeCloseTo(6, 9);
    expect(end[0].heading).toBeCloseTo(90, 9);
    expect(columnBend(end)).toBeLessThanOrEqual(90 + 1e-6);
    expect(lineAhead(end).ok).toBe(true);
    expect(path.measured.travelled).toBe(6);
  });

  it('a line abreast of squares turns into a column and back; long bases close up to reform a line', () => {
    const line = [square(0.5, 0.5), square(1.5, 0.5), square(2.5, 0.5)];
    const { column } = abreastToAhead(line, 90);
    expect(column[0].x).toBeCloseTo(2.5, 9);
    expect(lineAhead(column).ok).toBe(true);
    const longs = [long(10, 10, 90), long(8.5, 10, 90), long(7, 10, 90)];
    expect(lineAhead(longs).ok).toBe(true);
    const { line: reformed } = aheadToAbreast(longs, -90);
    expect(lineAbreast(reformed).ok).toBe(true);
    // The leader stays where it was.
    expect(reformed.some((b) => Math.abs(b.x - 10) < 1e-9 && Math.abs(b.y - 10) < 1e-9)).toBe(true);
    // Back again they would overlap: why the rules make them fall out of formation first.
    expect(selfOverlap(abreastToAhead(reformed, 90).column)).not.toBeNull();
  });
});

// Property tests: the whole table turned and shifted changes nothing that is measured.
const baseArb = fc.record({
  x: fc.double({ min: -20, max: 20, noNaN: true }),
  y: fc.double({ min: -20, max: 20, noNaN: true }),
  heading: fc.double({ min: 0, max: 359.99, noNaN: true }),
  width: fc.constantFrom(1, 1.25),
  length: fc.constantFrom(1, 1.5, 2),
});
const motionArb = fc.record({
  degrees: fc.double({ min: -180, max: 180, noNaN: true }),
  dx: fc.double({ min: -50, max: 50, noNaN: true }),
  dy: fc.double({ min: -50, max: 50, noNaN: true }),
});
function moved(b: Base, m: { degrees: number; dx: number; dy: number }): Base {
  const c = rotateAbout({ x: b.x, y: b.y }, { x: 0, y: 0 }, m.degrees);
  return { ...b, x: c.x + m.dx, y: c.y + m.dy, heading: (((b.heading + m.degrees) % 360) + 360) % 360 };
}

describe('geometry properties', () => {
  it('distance is symmetric and unchanged by turning and shifting the whole table', () => {
    fc.assert(
      fc.property(baseArb, baseArb, motionArb, (a, b, m) => {
        const d = distanceBetween(a, b);
        expect(distanceBetween(b, a)).toBeCloseTo(d, 9);
        expect(distanceBetween(moved(a, m), moved(b, m))).toBeCloseTo(d, 7);
      }),
    );
  });

  it('contact is symmetric and survives turning and shifting the table', () => {
    // Two bases put in contact: b against a side of a, at an offset along it, at some angle.
    const contactArb = fc.record({
      a: baseArb,
      side: fc.constantFrom(0, 1, 2, 3),
      along: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
      facing: fc.constantFrom(0, 90, 180, 270),
      m: motionArb,
    });
    fc.assert(
      fc.property(contactArb, ({ a, side, along, facing, m }) => {
        const b0: Base = { x: 0, y: 0, heading: 0, width: 1, length: 1 };
        // b square, placed so its outline touches a's `side` at `along`.
        const half = side % 2 === 0 ? a.length / 2 + 0.5 : a.width / 2 + 0.5;
        const ahead = side === 0 ? half : side === 2 ? -half : along * a.length;
        const right = side === 1 ? half : side === 3 ? -half : along * a.width;
        const rad = (a.heading * Math.PI) / 180;
        const b: Base = {
          ...b0,
          x: a.x + Math.sin(rad) * ahead + Math.cos(rad) * right,
          y: a.y + Math.cos(rad) * ahead - Math.sin(rad) * right,
          heading: (a.heading + facing) % 360,
        };
        const c = contactOf(a, b, 1e-6);
        expect(c).not.toBeNull();
        if (!c) return;
        expect(c.aSide).toBe(['front', 'right', 'rear', 'left'][side]);
        const back = contactOf(b, a, 1e-6);
        expect(back).toEqual({ aSide: c.bSide, bSide: c.aSide, bowToBow: c.bowToBow });
        expect(contactOf(moved(a, m), moved(b, m), 1e-6)).toEqual(c);
        expect(overlapping(a, b)).toBe(false);
      }),
    );
  });

  it('arcs and lines of sight are unchanged by turning and shifting the table', () => {
    fc.assert(
      fc.property(baseArb, baseArb, baseArb, motionArb, (a, b, o, m) => {
        fc.pre(Math.abs(distanceBetween(a, b)) > 1e-3);
        const arc = inForwardArc(a, b);
        const moredArc = inForwardArc(moved(a, m), moved(b, m));
        // Only a centre within rounding of the rear edge line could flip.
        const margin = Math.abs((b.x - a.x) * Math.sin((a.heading * Math.PI) / 180) + (b.y - a.y) * Math.cos((a.heading * Math.PI) / 180) + a.length / 2);
        if (margin > 1e-6) expect(moredArc).toBe(arc);
        const blocked = lineOfSightBlocked(a, b, [o]);
        const blocked2 = lineOfSightBlocked(moved(a, m), moved(b, m), [moved(o, m)], 1e-6);
        expect(blocked2).toBe(lineOfSightBlocked(a, b, [o], 1e-6));
        expect(lineOfSightBlocked(b, a, [o])).toBe(blocked);
      }),
    );
  });

  it('a path that ends clear of every obstacle never passes through one it was checked against', () => {
    fc.assert(
      fc.property(fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: 0.5, max: 4, noNaN: true }), baseArb, (turn, run, o) => {
        const start = square(20, 15);
        fc.pre(!overlapping(start, o));
        const path = rigidPath(
          [start],
          [
            { kind: 'turn', degrees: turn },
            { kind: 'ahead', distance: run },
          ],
        );
        const clear = checkPath(openTable, path, [{ id: 'o', base: o }]).ok;
        if (clear) for (const frame of path.frames) expect(overlapping(frame[0], o)).toBe(false);
      }),
    );
  });
});

describe('move properties', () => {
  it('a column following any legal turns never runs into itself and stays in line ahead', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: 0.5, max: 5, noNaN: true }),
        fc.constantFrom(1, 1.5),
        (first, turn, then, len) => {
          const column: Base[] = [0, 1, 2, 3].map((k) => ({ x: 20, y: 10 - k * len, heading: 0, width: 1, length: len }));
          const path = columnPath(column, [
            { kind: 'ahead', distance: first },
            { kind: 'turn', degrees: turn },
            { kind: 'ahead', distance: then },
          ]);
          for (const frame of path.frames) expect(selfOverlap(frame)).toBeNull();
          const end = path.frames[path.frames.length - 1];
          expect(columnBend(end)).toBeLessThanOrEqual(90 + 1e-6);
          expect(lineAhead(end).ok).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a wheel measures the arc its outside corner actually travels', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.double({ min: -90, max: 90, noNaN: true }), (ships, degrees) => {
        fc.pre(Math.abs(degrees) > 1);
        const line = Array.from({ length: ships }, (_, k) => square(10 + k, 10));
        const path = rigidPath(line, [{ kind: 'wheel', degrees }]);
        // The outside corner: the far front corner from the pivot (front-left of the leftmost when wheeling right).
        const outside = (frame: readonly Base[]) => (degrees > 0 ? cornersOf(frame[0])[0] : cornersOf(frame[frame.length - 1])[1]);
        let travelled = 0;
        for (let k = 1; k < path.frames.length; k++) {
          const a = outside(path.frames[k - 1]);
          const b = outside(path.frames[k]);
          travelled += Math.hypot(b.x - a.x, b.y - a.y);
        }
        expect(travelled).toBeCloseTo(path.measured.wheeled, 2);
        expect(lineAbreast(path.frames[path.frames.length - 1]).ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
