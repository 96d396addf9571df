/**
 * A contested sea of a Diadochi V campaign turned into a naval battle under each of the four rulesets: who fights,
 * with what ships, the set-up the ruleset accepts and can start and play, and what its outcome decides.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { battleFromSea } from '../../shared/campaign/setups/index.ts';
import { decisionFrom } from '../../shared/campaign/decision.ts';
import { DIADOCHI_V_FLEETS, SHIP_CLASSES, type FleetList, checkFleetLists, defaultFleetLists, shipsOfFleet } from '../../shared/campaign/fleets.ts';
import { forcesAtSea } from '../../shared/campaign/forces.ts';
import { battleOdds } from '../../shared/campaign/odds.ts';
import { parseDatcFile } from '../../shared/datc/format.ts';
import { caseToState } from '../../shared/datc/run.ts';
import { contestedSeas } from '../../shared/game/contested-seas.ts';
import { adjudicate } from '../../shared/game/process.ts';
import { RULESETS, RULESET_IDS } from '../../shared/naval/index.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import { getVariant } from '../../shared/variants.ts';

const variant = getVariant('diadochi-v')!;
const lists = defaultFleetLists(variant.powers);

/** A Diadochi V movement phase from DATC-format lines, and its contested seas. */
function seasOf(prestate: string, orders: string) {
  const text = `VARIANT_ALL Diadochi V\nCASE T.1 test\nPRESTATE_SETPHASE Spring 240 BC, Movement\nPRESTATE\n${prestate}\nORDERS\n${orders}\nEND\n`;
  const parsed = parseDatcFile(text);
  if (!parsed.ok) throw new Error(parsed.error.join('; '));
  const built = caseToState(variant, parsed.value[0]);
  if (!built.ok) throw new Error(built.error.join('; '));
  const seas = contestedSeas(variant, built.value.state, built.value.orders);
  if (!seas.ok) throw new Error(seas.error.join('; '));
  return { ...built.value, seas: seas.value };
}

const duel = seasOf(
  'Rome: F Nea\nRome: F Syr\nMacedonia: F ION\nMacedonia: F Kor',
  'Rome: F Nea - ION\nRome: F Syr S F Nea - ION\nMacedonia: F ION H\nMacedonia: F Kor S F ION',
);

describe('who fights a contested sea', () => {
  it('the fleets that met, and the fleets whose support there was given, each on the side it supports', () => {
    expect(duel.seas.map((s) => s.province)).toEqual(['ION']);
    const forces = forcesAtSea(duel.seas[0], lists);
    expect(forces.ok && forces.value.sides.map((s) => [s.name, s.fleets.map((f) => `${f.unit} ${f.role}`)])).toEqual([
      ['Macedonia', ['F ION defender', 'F Kor support']],
      ['Rome', ['F Nea attacker', 'F Syr support']],
    ]);
  });

  it('three powers in one sea wait for the game master to set the sides, and a wrong grouping is named', () => {
    const three = seasOf('Rome: F Nea\nMacedonia: F ION\nCarthage: F SRT', 'Rome: F Nea - ION\nMacedonia: F ION H\nCarthage: F SRT - ION');
    const sea = three.seas[0];
    expect(sea.powers).toHaveLength(3);
    const unset = forcesAtSea(sea, lists);
    expect(!unset.ok && unset.error[0]).toMatch(/with 3 powers, the game master sets the two sides/);
    const wrong = forcesAtSea(sea, lists, [['Rome', 'Syria'], ['Macedonia']]);
    expect(!wrong.ok && wrong.error).toEqual(['Carthage met in Ionian Sea but is on neither side', 'Syria has no fleet in Ionian Sea']);
    const allied = forcesAtSea(sea, lists, [['Rome', 'Carthage'], ['Macedonia']]);
    expect(allied.ok && allied.value.sides[0]).toMatchObject({ id: 'rome-carthage', name: 'Rome and Carthage' });
  });

  it('a power without a fleet list is named', () => {
    const { Rome: _, ...noRome } = lists;
    const forces = forcesAtSea(duel.seas[0], noRome);
    expect(!forces.ok && forces.error).toEqual(['Rome has no fleet list']);
    expect(checkFleetLists(['Rome', 'Egypt'], { Rome: lists.Rome, Gaul: lists.Rome })).toEqual({
      ok: false,
      error: ['Egypt has no fleet list', 'Gaul is not a power of this game'],
    });
  });
});

describe('a fleet list at a ruleset’s scale', () => {
  it('keeps its proportions, heaviest first', () => {
    expect(shipsOfFleet(DIADOCHI_V_FLEETS.Rome, 8)).toEqual([...Array(6).fill('penteres'), 'trieres', 'trieres']);
    expect(shipsOfFleet(DIADOCHI_V_FLEETS.Rome, 4)).toEqual(['penteres', 'penteres', 'penteres', 'trieres']);
    expect(shipsOfFleet(DIADOCHI_V_FLEETS.Egypt, 3)).toEqual(['hendekeres', 'hepteres', 'trieres']);
  });

  it('always gives exactly the ships asked for, from the list’s classes', () => {
    const entry = fc.record({ class: fc.constantFrom(...SHIP_CLASSES), count: fc.integer({ min: 1, max: 10 }) });
    const list = fc.uniqueArray(entry, { minLength: 1, maxLength: 6, selector: (e) => e.class });
    fc.assert(
      fc.property(list, fc.integer({ min: 1, max: 12 }), (l: FleetList, n) => {
        const ships = shipsOfFleet(l, n);
        expect(ships).toHaveLength(n);
        for (const c of ships) expect(l.some((e) => e.class === c)).toBe(true);
      }),
    );
  });
});

describe.each(RULESET_IDS)('the battle under %s', (id) => {
  const forces = forcesAtSea(duel.seas[0], lists);
  if (!forces.ok) throw new Error(forces.error.join('; '));
  const setup = battleFromSea(id, forces.value, 'The battle for the Ionian Sea');

  it('is a set-up the ruleset accepts, with the two sides and their fleets', () => {
    expect(setup.ok ? null : setup.error).toBeNull();
    if (!setup.ok) return;
    const rules = RULESETS[id];
    expect(rules.sides(setup.value)).toEqual([
      { id: 'macedonia', name: 'Macedonia' },
      { id: 'rome', name: 'Rome' },
    ]);
    const start = rules.start(setup.value, streamDice('campaign-test-seed', 'ionian'));
    const board = rules.board(start.state);
    const bySide = (side: string) => board.counters.filter((c) => c.side === side).length;
    expect(bySide('macedonia')).toBeGreaterThan(0);
    expect(bySide('macedonia')).toBe(bySide('rome'));
  });

  it('can be fought: the computer opponents take legal actions from its first state', () => {
    if (!setup.ok) return;
    const rules = RULESETS[id];
    const dice = streamDice('campaign-test-seed', 'ionian-play');
    let state = rules.start(setup.value, dice).state;
    for (let n = 0; n < 6; n++) {
      const turn = rules.turn(state);
      if (turn.kind === 'over') break;
      const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
      const applied = rules.apply(
        state,
        side,
        rules.opponent(state, side, () => 0.5),
        dice,
      );
      expect(applied.ok).toBe(true);
      if (applied.ok) state = applied.state;
    }
  });
});

describe('a crowded sea', () => {
  const many = Array.from({ length: 30 }, (_, i) => ({
    power: i % 2 ? 'Rome' : 'Macedonia',
    unit: `F X${i}`,
    at: `x${i}`,
    role: i < 2 ? ('attacker' as const) : ('support' as const),
    list: lists.Rome,
  }));
  const forces = {
    sea: 'ION',
    seaName: 'Ionian Sea',
    sides: [
      { id: 'macedonia', name: 'Macedonia', powers: ['Macedonia'], fleets: many.filter((f) => f.power === 'Macedonia') },
      { id: 'rome', name: 'Rome', powers: ['Rome'], fleets: many.filter((f) => f.power === 'Rome') },
    ] as const,
  };
  it('is refused with the reason where a ruleset cannot hold it', () => {
    const classis = battleFromSea('classis', forces, 'Too many');
    expect(!classis.ok && classis.error[0]).toBe('Macedonia brings 15 fleets; this ruleset takes at most 8 a side');
    const s2s = battleFromSea('ship-to-ship', forces, 'Too many');
    expect(!s2s.ok && s2s.error[0]).toBe('Macedonia brings 15 fleets; this ruleset takes at most 12 a side');
  });
});

describe('what the battle decides', () => {
  const forces = forcesAtSea(duel.seas[0], lists);
  if (!forces.ok) throw new Error(forces.error.join('; '));
  it('the attacker’s win moves it in; the defender’s holds; nobody’s is a standoff; the engine re-adjudicates with it', () => {
    const rome = decisionFrom(forces.value, 'rome');
    expect(rome).toEqual({ ok: true, value: { province: 'ION', outcome: { winner: 'Rome' } } });
    expect(decisionFrom(forces.value, 'macedonia')).toEqual({ ok: true, value: { province: 'ION', outcome: { winner: 'Macedonia' } } });
    expect(decisionFrom(forces.value, null)).toEqual({ ok: true, value: { province: 'ION', outcome: { standoff: true } } });
    expect(decisionFrom(forces.value, 'carthage')).toEqual({ ok: false, error: 'no side "carthage" fought in Ionian Sea' });
    if (!rome.ok) return;
    const out = adjudicate(variant, duel.state, duel.orders, { decided: [rome.value] });
    expect(out.ok && out.value.results.find((r) => r.power === 'Rome' && r.order.includes('- ION'))?.success).toBe(true);
    const held = decisionFrom(forces.value, 'macedonia');
    if (!held.ok) return;
    const out2 = adjudicate(variant, duel.state, duel.orders, { decided: [held.value] });
    expect(out2.ok && out2.value.results.find((r) => r.power === 'Rome' && r.order.includes('- ION'))?.success).toBe(false);
  });
});

describe('the odds before auto-resolving', () => {
  it('counts every battle once, and the same seed gives the same odds', () => {
    const forces = forcesAtSea(duel.seas[0], lists);
    if (!forces.ok) throw new Error(forces.error.join('; '));
    const setup = battleFromSea('classis', forces.value, 'Odds');
    if (!setup.ok) throw new Error(setup.error.join('; '));
    const odds = battleOdds('classis', setup.value, 3, 'odds-seed');
    expect(odds.battles).toBe(3);
    expect(odds.won.rome + odds.won.macedonia + odds.drawn).toBe(3);
    expect(battleOdds('classis', setup.value, 3, 'odds-seed')).toEqual(odds);
    expect(() => battleOdds('classis', setup.value, 0, 'x')).toThrow(/battles must be 1 to 1000/);
  }, 60_000);
});
