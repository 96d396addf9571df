import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commitmentOf, fixedDice, rollAt, streamDice } from '../../shared/naval/dice.ts';
import {
  type Facing,
  type Hex,
  aspectOf,
  directionTo,
  distance,
  fromColumnRow,
  line,
  lineOfSight,
  neighbour,
  toColumnRow,
  turn,
  turnDistance,
} from '../../shared/naval/hex.ts';
import { allHexes, impassable, onBoard } from '../../shared/naval/sea.ts';
import { checkDataFile, shippedDataFile } from '../../shared/naval/data-file.ts';

const hexArb = fc.record({ q: fc.integer({ min: -30, max: 30 }), r: fc.integer({ min: -30, max: 30 }) });
const facingArb = fc.integer({ min: 0, max: 5 }).map((f) => f as Facing);

describe('the hex sea', () => {
  it('names the six hexsides clockwise from north, and a hex across each is one away', () => {
    const h = { q: 3, r: 2 };
    expect(neighbour(h, 0)).toEqual({ q: 3, r: 1 });
    expect(neighbour(h, 3)).toEqual({ q: 3, r: 3 });
    for (const f of [0, 1, 2, 3, 4, 5] as Facing[]) {
      expect(distance(h, neighbour(h, f))).toBe(1);
      expect(directionTo(h, neighbour(h, f))).toBe(f);
    }
    expect(directionTo(h, { q: 5, r: 2 })).toBeNull();
  });

  it('turns wrap round the six hexsides, and the shorter way round is counted', () => {
    expect(turn(0, -1)).toBe(5);
    expect(turn(5, 2)).toBe(1);
    expect(turnDistance(0, 3)).toBe(3);
    expect(turnDistance(1, 5)).toBe(2);
    expect(turnDistance(4, 4)).toBe(0);
  });

  it('tells bow, bow beam, quarter beam and stern by the target hexside an attacker comes across', () => {
    const target = { q: 0, r: 0 };
    const facing: Facing = 0; // bow to the north
    expect(aspectOf(target, facing, neighbour(target, 0))).toBe('bow');
    expect(aspectOf(target, facing, neighbour(target, 1))).toBe('bow-beam');
    expect(aspectOf(target, facing, neighbour(target, 5))).toBe('bow-beam');
    expect(aspectOf(target, facing, neighbour(target, 2))).toBe('quarter-beam');
    expect(aspectOf(target, facing, neighbour(target, 4))).toBe('quarter-beam');
    expect(aspectOf(target, facing, neighbour(target, 3))).toBe('stern');
    expect(aspectOf(target, facing, { q: 2, r: 0 })).toBeNull();
    // The same, turned: a ship facing south-east is struck in the stern from the north-west.
    expect(aspectOf(target, 2, neighbour(target, 5))).toBe('stern');
  });

  it('numbers the board as printed maps do, and back', () => {
    expect(fromColumnRow(0, 0)).toEqual({ q: 0, r: 0 });
    expect(fromColumnRow(1, 0)).toEqual({ q: 1, r: 0 });
    expect(fromColumnRow(2, 0)).toEqual({ q: 2, r: -1 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 39 }), fc.integer({ min: 0, max: 29 }), (col, row) => {
        expect(toColumnRow(fromColumnRow(col, row))).toEqual({ col, row });
      }),
    );
    const sea = { columns: 14, rows: 12, land: [], reefs: [] };
    expect(allHexes(sea)).toHaveLength(168);
    expect(onBoard(sea, fromColumnRow(13, 11))).toBe(true);
    expect(onBoard(sea, fromColumnRow(14, 0))).toBe(false);
  });

  it('keeps land, reefs, wrecks and the edge of the board impassable', () => {
    const sea = { columns: 6, rows: 6, land: [fromColumnRow(2, 2)], reefs: [fromColumnRow(3, 3)] };
    const blocked = impassable(sea, [fromColumnRow(1, 1)]);
    expect(blocked(fromColumnRow(2, 2))).toBe(true);
    expect(blocked(fromColumnRow(3, 3))).toBe(true);
    expect(blocked(fromColumnRow(1, 1))).toBe(true);
    expect(blocked(fromColumnRow(0, 0))).toBe(false);
    expect(blocked(fromColumnRow(-1, 0))).toBe(true);
  });

  it('draws lines hex by hex, as long as the distance, and line of sight stops at what blocks it', () => {
    fc.assert(
      fc.property(hexArb, hexArb, (a, b) => {
        const path = line(a, b);
        expect(path).toHaveLength(distance(a, b) + 1);
        expect(path[0]).toEqual(a);
        expect(path[path.length - 1]).toEqual(b);
        for (let i = 1; i < path.length; i++) expect(distance(path[i - 1], path[i])).toBe(1);
      }),
    );
    const a: Hex = { q: 0, r: 0 };
    const b: Hex = { q: 0, r: 4 };
    expect(lineOfSight(a, b, () => false)).toBe(true);
    expect(lineOfSight(a, b, (h) => h.q === 0 && h.r === 2)).toBe(false);
    // The ends themselves never block: a ship sees the ship it aims at.
    expect(lineOfSight(a, b, (h) => h.r === 4 || h.r === 0)).toBe(true);
  });

  it('distance is a metric', () => {
    fc.assert(
      fc.property(hexArb, hexArb, hexArb, facingArb, (a, b, c, f) => {
        expect(distance(a, b)).toBe(distance(b, a));
        expect(distance(a, c)).toBeLessThanOrEqual(distance(a, b) + distance(b, c));
        expect(distance(a, neighbour(a, f, 3))).toBe(3);
      }),
    );
  });
});

describe('the dice', () => {
  const seed = 'a-secret-seed-of-enough-length';

  it('commits to the seed with its SHA-256, as any tool computes it', () => {
    // printf %s 'abc' | sha256sum
    expect(commitmentOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('gives the same roll for the same seed, salt and number, and a fair spread of faces', () => {
    expect(rollAt(seed, 'battle-1', 0, 6)).toBe(rollAt(seed, 'battle-1', 0, 6));
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 6000; i++) counts[rollAt(seed, 'battle-1', i, 6) - 1]++;
    for (const c of counts) expect(c).toBeGreaterThan(850), expect(c).toBeLessThan(1150);
    // Another salt (another battle) is another stream.
    const a = Array.from({ length: 20 }, (_, i) => rollAt(seed, 'battle-1', i, 12));
    const b = Array.from({ length: 20 }, (_, i) => rollAt(seed, 'battle-2', i, 12));
    expect(a).not.toEqual(b);
  });

  it('records each roll with its number, die and reason, and a stream can resume where it stopped', () => {
    const d = streamDice(seed, 'salt');
    const first = [d.roll(6, 'ram'), d.roll(12, 'crew')];
    const rolls = d.take();
    expect(rolls).toEqual([
      { index: 0, sides: 6, value: first[0], label: 'ram' },
      { index: 1, sides: 12, value: first[1], label: 'crew' },
    ]);
    expect(d.take()).toEqual([]);
    const resumed = streamDice(seed, 'salt', d.next);
    expect(resumed.roll(6, 'x')).toBe(d.roll(6, 'x'));
  });

  it('fixed dice hand out exactly what a test gives, and refuse a face the die does not have', () => {
    const d = fixedDice([4, 6]);
    expect(d.roll(6, 'a')).toBe(4);
    expect(() => d.roll(4, 'b')).toThrow(/not a face of a d4/);
    expect(() => fixedDice([]).roll(6, 'c')).toThrow(/no die left/);
  });
});

describe('a ruleset data file', () => {
  const schema = z.object({ ships: z.array(z.object({ name: z.string(), oars: z.number() })) }).strict();

  it('names the file, the place and what is wrong, one line per problem, at most five', () => {
    const broken = { ships: Array.from({ length: 8 }, (_, i) => ({ name: `ship ${i}`, oars: 'many' })) };
    const loaded = checkDataFile(schema, broken, 'test rules.json');
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const lines = loaded.error.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^test rules\.json: ships\[0\]\.oars: /);
    expect(checkDataFile(schema, 'nonsense', 'test rules.json')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^test rules\.json: \(the whole file\): /),
    });
  });

  it('gives the checked data back, and a shipped file that is broken fails at once', () => {
    expect(checkDataFile(schema, { ships: [{ name: 'Nike', oars: 170 }] }, 'f')).toEqual({ ok: true, value: { ships: [{ name: 'Nike', oars: 170 }] } });
    expect(() => shippedDataFile(schema, { ships: [{ name: 'Nike' }] }, 'shipped.json')).toThrow(/^shipped\.json: ships\[0\]\.oars: /);
  });
});
