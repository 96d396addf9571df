import { describe, expect, it } from 'vitest';
import { fixedDice } from '../../shared/naval/dice.ts';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import { RESULT_COLUMNS, RULES, loadRules } from '../../shared/naval/diadochi-naval/rules.ts';
import type { State } from '../../shared/naval/diadochi-naval/state.ts';
import { arranged, deployed, ship, smallSetup } from './diadochi-naval-helpers.ts';

// Flagships sit far off in the corners; the fighting ships a2 and b2 are not flagships.
const base = () =>
  deployed(
    smallSetup([
      { id: 'a1', x: 1, y: 1 },
      { id: 'a2', x: 10, y: 3 },
      { id: 'a3', x: 14, y: 3 },
      { id: 'b1', x: 39, y: 29 },
      { id: 'b2', x: 10, y: 27 },
      { id: 'b3', x: 20, y: 27 },
    ]),
  );

/** a2 bow to bow with b2 (a2 heading north at y 10, b2 heading south just ahead), a's close combat. */
function bowToBow(types: { a2?: string; b2?: string } = {}, more: Record<string, object> = {}): State {
  return arranged(
    base(),
    {
      a2: { x: 10, y: 10, heading: 0, ...(types.a2 ? { type: types.a2 as never } : {}) },
      b2: { x: 10, y: 11, heading: 180, ...(types.b2 ? { type: types.b2 as never } : {}) },
      ...more,
    },
    'combat',
    'a',
  );
}

function attack(state: State, kind: 'ram' | 'rake' | 'board' | 'disengage', dice: number[], ship = 'a2', target = 'b2') {
  const r = diadochiNaval.apply(state, 'a', { kind: 'combat', attacks: [{ ship, target, attack: kind }] }, fixedDice(dice));
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

// Dice (attacker, defender) for each column with two trieres and no modifiers: differences −4, −3, −2, 0, +2, +3, +4.
const COLUMN_DICE: [number, number][] = [
  [1, 5],
  [1, 4],
  [1, 3],
  [3, 3],
  [3, 1],
  [4, 1],
  [5, 1],
];

describe('the rules data', () => {
  it('loads, and a typo is refused with its place named', () => {
    expect(RULES.shipTypes.trieres.combatValue).toBe(2);
    const bad = structuredClone(RULES) as unknown as { results: { ram: unknown[] } };
    bad.results.ram.pop();
    const loaded = loadRules(bad);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error).toMatch(/results\.ram/);
  });

  it('gives every type its combat value, trieres to tessarakonteres, and long bases from the okteres up', () => {
    const values = Object.fromEntries(Object.entries(RULES.shipTypes).map(([k, v]) => [k, v.combatValue]));
    expect(values).toMatchObject({
      trieres: 2,
      tetreres: 3,
      penteres: 4,
      hexeres: 5,
      hepteres: 5,
      okteres: 6,
      enneres: 6,
      dekeres: 6,
      hendekeres: 6,
      dodekeres: 7,
      triskaidekeres: 7,
      fourteen: 7,
      pentekaidekeres: 7,
      hekkaidekeres: 7,
      eikoseres: 8,
      triakonteres: 8,
      tessarakonteres: 8,
    });
    expect(RULES.shipTypes.hepteres.length).toBe(1);
    expect(RULES.shipTypes.okteres.length).toBeGreaterThan(1);
  });
});

describe('the results table, column by column', () => {
  const expected = {
    ram: ['a2 sinks', 'a2 crippled', 'a2 crippled', 'no effect', 'b2 crippled', 'b2 crippled', 'b2 sinks'],
    board: ['a2 captured', 'grappled', 'grappled', 'no effect', 'grappled', 'grappled', 'b2 captured'],
  } as const;
  const outcome = (s: State) => {
    const a = ship(s, 'a2');
    const b = ship(s, 'b2');
    if (a.status === 'sunk') return 'a2 sinks';
    if (b.status === 'sunk') return 'b2 sinks';
    if (a.status === 'captured') return 'a2 captured';
    if (b.status === 'captured') return 'b2 captured';
    if (a.crippled) return 'a2 crippled';
    if (b.crippled) return 'b2 crippled';
    if (a.grappledWith) return 'grappled';
    return 'no effect';
  };
  for (const kind of ['ram', 'board'] as const)
    COLUMN_DICE.forEach(([x, y], c) =>
      it(`${kind}, ${RESULT_COLUMNS[c]}: ${expected[kind][c]}`, () => {
        const r = attack(bowToBow(), kind, [x, y]);
        expect(outcome(r.state)).toBe(expected[kind][c]);
        expect(r.log.find((l) => l.table)?.table).toEqual({ name: `Results table, ${kind}`, row: RESULT_COLUMNS[c] });
      }),
    );

  it('rake: cripples the attacker low, passes in the middle, cripples the defender and passes high', () => {
    // From the beam so that the pass has somewhere to go: a2 heading east into b2's port side.
    const beam = (dice: [number, number]) =>
      attack(arranged(base(), { a2: { x: 9, y: 10, heading: 90 }, b2: { x: 10, y: 10, heading: 0 } }, 'combat', 'a'), 'rake', dice);
    // Beam: the defender has −1, so the dice shift by one.
    expect(ship(beam([1, 6]).state, 'a2').crippled).toBe(true);
    const passed = beam([1, 2]).state;
    expect(ship(passed, 'a2').crippled || ship(passed, 'b2').crippled).toBe(false);
    // They exchanged places and lie stern to stern: a2 beyond, b2 turned to face where the attack came from.
    expect(ship(passed, 'a2').x).toBeGreaterThan(ship(passed, 'b2').x);
    expect(ship(passed, 'b2').heading).toBe(270);
    const hit = beam([4, 1]).state;
    expect(ship(hit, 'b2').crippled).toBe(true);
    expect(ship(hit, 'b2').heading).toBe(270);
  });

  it('"unless smaller and not bow to bow": a smaller defender rammed on the beam at +2 is spared, bow to bow it is not', () => {
    // Attacker a penteres (4), defender a trieres (2): dice 1 and 2 give 5 against 4 −1 beam = 3, +2.
    const beam = arranged(base(), { a2: { x: 9, y: 10, heading: 90, type: 'penteres' }, b2: { x: 10, y: 10, heading: 0 } }, 'combat', 'a');
    const spared = attack(beam, 'ram', [1, 2]);
    expect(ship(spared.state, 'b2').crippled).toBe(false);
    expect(spared.log.map((l) => l.text).join(' ')).toMatch(/smaller ship/);
    const head = attack(bowToBow({ a2: 'penteres' }), 'ram', [1, 1]);
    expect(ship(head.state, 'b2').crippled).toBe(true);
    // A crippled smaller ship is not spared.
    const crippled = arranged(beam, { b2: { crippled: true } });
    expect(ship(attack(crippled, 'ram', [1, 4]).state, 'b2').status).toBe('sunk');
  });

  it('disengage: capture of the attacker at −4 or worse, ungrapple at +2 or better', () => {
    const grappled = bowToBow({}, { a2: { x: 10, y: 10, heading: 0, grappledWith: 'b2' }, b2: { x: 10, y: 11, heading: 180, grappledWith: 'a2' } });
    expect(ship(attack(grappled, 'disengage', [1, 5]).state, 'a2').status).toBe('captured');
    expect(ship(attack(grappled, 'disengage', [1, 4]).state, 'a2').grappledWith).toBe('b2');
    expect(ship(attack(grappled, 'disengage', [3, 1]).state, 'a2').grappledWith).toBeNull();
    // Boarding a ship already grappled to it captures instead of grappling.
    expect(ship(attack(grappled, 'board', [1, 3]).state, 'a2').status).toBe('captured');
    expect(ship(attack(grappled, 'board', [3, 1]).state, 'b2').status).toBe('captured');
  });

  it('a second cripple sinks', () => {
    const s = bowToBow({}, { b2: { x: 10, y: 11, heading: 180, crippled: true } });
    // Crippled −2: dice 1 and 1 give 3 against 1 → +2: cripple, so sinks.
    expect(ship(attack(s, 'ram', [1, 1]).state, 'b2').status).toBe('sunk');
  });
});

describe('modifiers', () => {
  const totals = (text: string) => {
    const m = text.match(/= (-?\d+) against .* = (-?\d+);/);
    return m ? [Number(m[1]), Number(m[2])] : null;
  };
  const line = (r: ReturnType<typeof attack>) => r.log.find((l) => l.table)?.text ?? '';

  it('beam −1 and stern −2 for a ram or rake, none for boarding', () => {
    const beam = arranged(base(), { a2: { x: 9, y: 10, heading: 90 }, b2: { x: 10, y: 10, heading: 0 } }, 'combat', 'a');
    expect(totals(line(attack(beam, 'ram', [3, 3])))).toEqual([5, 4]);
    expect(line(attack(beam, 'ram', [3, 3]))).toMatch(/−1 \(rammed from the beam\)/);
    expect(totals(line(attack(beam, 'board', [3, 3])))).toEqual([5, 5]);
    const stern = arranged(base(), { a2: { x: 10, y: 9, heading: 0 }, b2: { x: 10, y: 10, heading: 0 } }, 'combat', 'a');
    expect(totals(line(attack(stern, 'rake', [3, 3])))).toEqual([5, 3]);
  });

  it('flagship +1, crippled −2, grappled target of a ram −2, each close supporter +2', () => {
    const flag = arranged(base(), { a1: { x: 10, y: 10, heading: 0 }, a2: { x: 1, y: 1 }, b2: { x: 10, y: 11, heading: 180 } }, 'combat', 'a');
    expect(totals(line(attack(flag, 'ram', [3, 3], 'a1')))).toEqual([6, 5]);
    const crippledDefender = bowToBow({}, { b2: { x: 10, y: 11, heading: 180, crippled: true } });
    expect(totals(line(attack(crippledDefender, 'ram', [3, 3])))).toEqual([5, 3]);
    // b2 grappled to a3 (crippled, so it need not board) on its far side; a2 rams it bow to bow.
    const grappledTarget = bowToBow(
      {},
      { a3: { x: 10, y: 12, heading: 180, grappledWith: 'b2', crippled: true }, b2: { x: 10, y: 11, heading: 180, grappledWith: 'a3' } },
    );
    const g = attack(grappledTarget, 'ram', [3, 3]);
    expect(line(g)).toMatch(/−2 \(grappled\)/);
    // a3 supports a2's ram on b2: both bows on b2's port side.
    const support = arranged(
      base(),
      { a2: { x: 9, y: 10, heading: 90 }, a3: { x: 9, y: 11, heading: 90 }, b2: { x: 10, y: 10.5, heading: 0, type: 'tetreres' } },
      'combat',
      'a',
    );
    const s = attack(support, 'ram', [3, 3]);
    expect(line(s)).toMatch(/supported by A3/);
    expect(totals(line(s))).toEqual([7, 5]);
  });
});

describe('missile fire', () => {
  const fireState = (places: Record<string, object>) => arranged(base(), places, 'fire', 'a');

  it('shoots the closest enemy within 2 cables and forward of the stern line, with +1 for each supporter', () => {
    const s = fireState({ a2: { x: 10, y: 10 }, a3: { x: 11.5, y: 10 }, b2: { x: 10.5, y: 12.5, heading: 180 }, b3: { x: 20, y: 12 } });
    const r = diadochiNaval.apply(s, 'a', { kind: 'fire', attacks: [{ ship: 'a2', target: 'b2' }] }, fixedDice([5, 1]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const text = r.log.find((l) => l.table)?.text ?? '';
    expect(text).toMatch(/supported by A3/);
    expect(text).toMatch(/= 8 against 1 \+ 2 = 3/);
    expect(ship(r.state, 'b2').crippled).toBe(true);
    // Two ships may not fire on one target.
    const twice = diadochiNaval.check(s, 'a', {
      kind: 'fire',
      attacks: [
        { ship: 'a2', target: 'b2' },
        { ship: 'a3', target: 'b2' },
      ],
    });
    expect(twice?.code).toBe('target_twice');
  });

  it('refuses a target out of range, behind the stern line, screened by another ship, or not the closest', () => {
    const far = fireState({ a2: { x: 10, y: 10 }, b2: { x: 10, y: 13.1, heading: 180 } });
    expect(diadochiNaval.check(far, 'a', { kind: 'fire', attacks: [{ ship: 'a2', target: 'b2' }] })?.code).toBe('cannot_fire');
    const behind = fireState({ a2: { x: 10, y: 10 }, b2: { x: 12, y: 9.4, heading: 180 } });
    expect(diadochiNaval.check(behind, 'a', { kind: 'fire', attacks: [{ ship: 'a2', target: 'b2' }] })?.code).toBe('cannot_fire');
    const screened = fireState({ a2: { x: 10, y: 10 }, a3: { x: 10, y: 11.6, heading: 90 }, b2: { x: 10, y: 13, heading: 180 } });
    expect(diadochiNaval.check(screened, 'a', { kind: 'fire', attacks: [{ ship: 'a2', target: 'b2' }] })?.code).toBe('cannot_fire');
    const closer = fireState({ a2: { x: 10, y: 10 }, b2: { x: 10, y: 12.5, heading: 180 }, b3: { x: 11.2, y: 11.3, heading: 180 } });
    expect(diadochiNaval.check(closer, 'a', { kind: 'fire', attacks: [{ ship: 'a2', target: 'b2' }] })?.code).toBe('not_closest');
  });

  it('the defender can hurt only an attacker in its arc', () => {
    // b2 faces away (north): a2 below it is behind its stern line, so a −4 does nothing to a2.
    const s = fireState({ a2: { x: 10, y: 10 }, b2: { x: 10, y: 12, heading: 0 } });
    const r = diadochiNaval.apply(s, 'a', { kind: 'fire', attacks: [{ ship: 'a2', target: 'b2' }] }, fixedDice([1, 5]));
    expect(r.ok && ship(r.state, 'a2').crippled).toBe(false);
    const facing = fireState({ a2: { x: 10, y: 10 }, b2: { x: 10, y: 12, heading: 180 } });
    const r2 = diadochiNaval.apply(facing, 'a', { kind: 'fire', attacks: [{ ship: 'a2', target: 'b2' }] }, fixedDice([1, 5]));
    expect(r2.ok && ship(r2.state, 'a2').crippled).toBe(true);
  });
});

describe('close combat obligations', () => {
  it('a ship with a non-crippled enemy at its bow must attack or support; a crippled one is optional', () => {
    const s = bowToBow();
    expect(diadochiNaval.check(s, 'a', { kind: 'combat', attacks: [] })?.code).toBe('must_attack');
    const optional = bowToBow({}, { b2: { x: 10, y: 11, heading: 180, crippled: true } });
    expect(diadochiNaval.check(optional, 'a', { kind: 'combat', attacks: [] })).toBeNull();
    const grappled = bowToBow({}, { a2: { x: 10, y: 10, heading: 0, grappledWith: 'b2' }, b2: { x: 10, y: 11, heading: 180, grappledWith: 'a2' } });
    expect(diadochiNaval.check(grappled, 'a', { kind: 'combat', attacks: [{ ship: 'a2', target: 'b2', attack: 'ram' }] })?.code).toBe('grappled');
    expect(diadochiNaval.check(s, 'a', { kind: 'combat', attacks: [{ ship: 'a2', target: 'b2', attack: 'disengage' }] })?.code).toBe('not_grappled');
  });
});
