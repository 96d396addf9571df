import { describe, expect, it } from 'vitest';
import { getVariant } from '../../shared/variants.ts';
import { initialState } from '../../shared/game/process.ts';
import { contestedSeas, type ContestedSea } from '../../shared/game/contested-seas.ts';
import type { GameState, Unit } from '../../shared/state/schema.ts';

// The contested seas of a Diadochi V movement phase: where fleets of two or
// more powers met once the phase is adjudicated.
const v = getVariant('diadochi-v')!;

function position(units: string[]): GameState {
  const parsed: Unit[] = units.map((line) => {
    const [power, type, at] = line.split(' ');
    return { power, type: type === 'A' ? 'army' : 'fleet', at };
  });
  return { ...initialState(v), units: parsed };
}

function seas(units: string[], orders: string[], decided?: Parameters<typeof contestedSeas>[3]): ContestedSea[] {
  const r = contestedSeas(
    v,
    position(units),
    orders.map((o) => {
      const [power, ...rest] = o.split(' ');
      return { power, order: rest.join(' ') };
    }),
    decided,
  );
  if (!r.ok) throw new Error(r.error.join('; '));
  return r.value;
}

describe('contested seas (Diadochi V)', () => {
  it('a fleet attacking a sea another power holds: both fleets, their orders and roles', () => {
    const found = seas(['Rome F Nea', 'Macedonia F ION'], ['Rome F Nea - ION', 'Macedonia F ION H']);
    expect(found).toEqual([
      {
        province: 'ION',
        name: 'Ionian Sea',
        powers: ['Macedonia', 'Rome'],
        units: [
          { power: 'Macedonia', unit: 'F ION', at: 'ION', order: 'F ION H', role: 'defender', success: true },
          { power: 'Rome', unit: 'F Nea', at: 'Nea', order: 'F Nea - ION', role: 'attacker', success: false },
        ],
        supports: [],
      },
    ]);
  });

  it('a fleet with no order still defends its sea', () => {
    const [ion] = seas(['Rome F Nea', 'Macedonia F ION'], ['Rome F Nea - ION']);
    expect(ion.units[0]).toMatchObject({ power: 'Macedonia', order: 'F ION H', role: 'defender' });
  });

  it('three powers moving into one empty sea', () => {
    const found = seas(['Rome F Nea', 'Macedonia F Kor', 'Carthage F SRT'], ['Rome F Nea - ION', 'Macedonia F Kor - ION', 'Carthage F SRT - ION']);
    expect(found.map((s) => s.province)).toEqual(['ION']);
    expect(found[0].powers).toEqual(['Carthage', 'Macedonia', 'Rome']);
    // Attackers in the variant's order of powers.
    expect(found[0].units.map((u) => [u.power, u.unit, u.role, u.success])).toEqual([
      ['Carthage', 'F SRT', 'attacker', false],
      ['Macedonia', 'F Kor', 'attacker', false],
      ['Rome', 'F Nea', 'attacker', false],
    ]);
  });

  it('a supported attack that wins: the support given, the defender dislodged', () => {
    const [iss, ...others] = seas(
      ['Egypt F LEV', 'Egypt F PAM', 'Syria F ISS', 'Syria A Ant'],
      ['Egypt F LEV - ISS', 'Egypt F PAM S F LEV - ISS', 'Syria F ISS C A Ant - Cyp', 'Syria A Ant - Cyp'],
    );
    expect(others).toEqual([]);
    expect(iss.units).toEqual([
      { power: 'Syria', unit: 'F ISS', at: 'ISS', order: 'F ISS C A Ant - Cyp', role: 'defender', success: false },
      { power: 'Egypt', unit: 'F LEV', at: 'LEV', order: 'F LEV - ISS', role: 'attacker', success: true },
    ]);
    expect(iss.supports).toEqual([{ power: 'Egypt', unit: 'F PAM', at: 'PAM', order: 'F PAM S F LEV - ISS', supports: 'LEV', given: true }]);
  });

  it('a support cut by an attack on the supporting fleet: listed as not given, and that sea contested too', () => {
    const found = seas(
      ['Egypt F LEV', 'Egypt F PAM', 'Syria F ISS', 'Syria A Ant', 'Syria F Cil'],
      ['Egypt F LEV - ISS', 'Egypt F PAM S F LEV - ISS', 'Syria F ISS C A Ant - Cyp', 'Syria A Ant - Cyp', 'Syria F Cil - PAM'],
    );
    expect(found.map((s) => s.province)).toEqual(['ISS', 'PAM']);
    const [iss, pam] = found;
    expect(iss.units.map((u) => [u.unit, u.success])).toEqual([
      ['F ISS', true],
      ['F LEV', false],
    ]);
    expect(iss.supports).toEqual([{ power: 'Egypt', unit: 'F PAM', at: 'PAM', order: 'F PAM S F LEV - ISS', supports: 'LEV', given: false }]);
    expect(pam.powers).toEqual(['Egypt', 'Syria']);
    expect(pam.units.map((u) => [u.unit, u.role])).toEqual([
      ['F PAM', 'defender'],
      ['F Cil', 'attacker'],
    ]);
  });

  it("a convoy fleet attacked in its sea is listed with its convoy order and the defender's supports", () => {
    const [iss] = seas(
      ['Egypt F LEV', 'Syria F ISS', 'Syria A Ant', 'Syria F Cyp'],
      ['Egypt F LEV - ISS', 'Syria F ISS C A Ant - Cil', 'Syria A Ant - Cil', 'Syria F Cyp S F ISS'],
    );
    expect(iss.units[0]).toMatchObject({ unit: 'F ISS', order: 'F ISS C A Ant - Cil', role: 'defender', success: true });
    expect(iss.supports).toEqual([{ power: 'Syria', unit: 'F Cyp', at: 'Cyp', order: 'F Cyp S F ISS', supports: 'ISS', given: true }]);
  });

  it('one power bouncing its own fleets is no contest', () => {
    expect(seas(['Rome F Nea', 'Rome F Syr'], ['Rome F Nea - ION', 'Rome F Syr - ION'])).toEqual([]);
  });

  it('a fleet that left before the attacker came met nobody; one whose move failed stayed to meet it', () => {
    expect(seas(['Rome F Nea', 'Macedonia F ION'], ['Rome F Nea - ION', 'Macedonia F ION - AEG'])).toEqual([]);
    const stayed = seas(
      ['Rome F Nea', 'Macedonia F ION', 'Macedonia F Kor', 'Egypt F BAR', 'Egypt F Cre'],
      ['Rome F Nea - ION', 'Macedonia F ION - AEG', 'Macedonia F Kor S F ION - AEG', 'Egypt F BAR - AEG', 'Egypt F Cre S F BAR - AEG'],
    );
    expect(stayed.map((s) => s.province)).toEqual(['AEG', 'ION']);
    expect(stayed[1].units[0]).toMatchObject({ unit: 'F ION', order: 'F ION - AEG', role: 'defender' });
    // The support for its move into the Aegean is listed there, not in the Ionian Sea.
    expect(stayed[1].supports).toEqual([]);
    expect(stayed[0].supports.map((x) => x.order)).toEqual(['F Cre S F BAR - AEG', 'F Kor S F ION - AEG']);
  });

  it('land and coastal provinces are never contested seas', () => {
    // Armies of two powers bounce in Armenia; fleets of two powers bounce in Syracuse.
    const found = seas(
      ['Syria A Arb', 'Macedonia A Pon', 'Rome F Nea', 'Carthage F MTA'],
      ['Syria A Arb - Arm', 'Macedonia A Pon - Arm', 'Rome F Nea - Syr', 'Carthage F MTA - Syr'],
    );
    expect(found).toEqual([]);
  });

  it('a decided sea is marked; a head-to-head decided at one end is one battle', () => {
    const units = ['Rome F ION', 'Macedonia F AEG', 'Macedonia F Kor'];
    const orders = ['Rome F ION - AEG', 'Macedonia F AEG - ION', 'Macedonia F Kor S F AEG - ION'];
    // Ordinarily Macedonia's supported fleet wins the head-to-head: the battle is at Rome's sea.
    expect(seas(units, orders).map((s) => s.province)).toEqual(['ION']);
    // Rome won it: both fleets stay, and the Aegean, where they met the same way, is not a second battle.
    const decided = seas(units, orders, { decided: [{ province: 'ION', outcome: { winner: 'Rome' } }] });
    expect(decided.map((s) => [s.province, s.decided])).toEqual([['ION', { winner: 'Rome' }]]);
  });

  it('a battle that a decision brings about is listed, undecided, to be fought next', () => {
    // Ordinarily Rome's supported fleet takes the Aegean from Egypt and Macedonia's follows it into the Ionian Sea.
    const units = ['Rome F ION', 'Rome F Ath', 'Egypt F AEG', 'Macedonia F Epi'];
    const orders = ['Rome F ION - AEG', 'Rome F Ath S F ION - AEG', 'Egypt F AEG H', 'Macedonia F Epi - ION'];
    expect(seas(units, orders).map((s) => s.province)).toEqual(['AEG']);
    const after = seas(units, orders, { decided: [{ province: 'AEG', outcome: { winner: 'Egypt' } }] });
    expect(after.map((s) => [s.province, s.decided])).toEqual([
      ['AEG', { winner: 'Egypt' }],
      ['ION', undefined],
    ]);
  });

  it('names bad input instead of throwing', () => {
    const state = position(['Rome F Nea', 'Macedonia F ION']);
    const orders = [{ power: 'Rome', order: 'F Nea - ION' }];
    const r = contestedSeas(v, state, orders, { decided: [{ province: 'ION', outcome: { winner: 'Persia' } }] });
    expect(r).toEqual({ ok: false, error: ['"Persia", decided the winner of Ionian Sea (ION), is not a power in this game.'] });
    const retreat = contestedSeas(v, { ...state, phase: { ...state.phase, type: 'retreat' } }, orders);
    expect(retreat).toEqual({ ok: false, error: ['Only a movement phase has contested seas.'] });
  });
});
