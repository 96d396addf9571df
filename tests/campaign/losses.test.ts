/**
 * The Diplomacy fleets a finished sea battle cost (shared/campaign/losses.ts), from battles played to their end by
 * each ruleset's own engine and computer opponents on seeded dice, and what the decision then does to the board.
 */
import { describe, expect, it } from 'vitest';
import { decisionFrom } from '../../shared/campaign/decision.ts';
import { defaultFleetLists } from '../../shared/campaign/fleets.ts';
import { forcesAtSea, type SeaForces } from '../../shared/campaign/forces.ts';
import { fleetsLost } from '../../shared/campaign/losses.ts';
import { battleFromSea } from '../../shared/campaign/setups/index.ts';
import { parseDatcFile } from '../../shared/datc/format.ts';
import { caseToState } from '../../shared/datc/run.ts';
import { contestedSeas } from '../../shared/game/contested-seas.ts';
import { adjudicate } from '../../shared/game/process.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import { playRuleset } from '../../shared/naval/play.ts';
import type { RulesetId } from '../../shared/naval/ruleset.ts';
import { getVariant } from '../../shared/variants.ts';

const variant = getVariant('diadochi-v')!;
const lists = defaultFleetLists(variant.powers);

/** Rome attacks the Ionian Sea with a supported fleet; Macedonia's one fleet holds it. */
function ionian() {
  const text = `VARIANT_ALL Diadochi V
CASE T.1 test
PRESTATE_SETPHASE Spring 240 BC, Movement
PRESTATE
Rome: F Nea
Rome: F Syr
Macedonia: F ION
ORDERS
Rome: F Nea - ION
Rome: F Syr S F Nea - ION
Macedonia: F ION H
END
`;
  const parsed = parseDatcFile(text);
  if (!parsed.ok) throw new Error(parsed.error.join('; '));
  const built = caseToState(variant, parsed.value[0]);
  if (!built.ok) throw new Error(built.error.join('; '));
  const seas = contestedSeas(variant, built.value.state, built.value.orders);
  if (!seas.ok) throw new Error(seas.error.join('; '));
  const forces = forcesAtSea(seas.value[0], lists);
  if (!forces.ok) throw new Error(forces.error.join('; '));
  return { ...built.value, forces: forces.value };
}

/** The battle of the sea played to its end by the computer on both sides. */
function played(ruleset: RulesetId, forces: SeaForces, seed: string) {
  const rules = RULESETS[ruleset];
  const setup = battleFromSea(ruleset, forces, 'Ionian Sea');
  if (!setup.ok) throw new Error(setup.error.join('; '));
  const read = rules.setupSchema.parse(setup.value);
  const players = Object.fromEntries(rules.sides(read).map((s) => [s.id, rules.opponent]));
  const { state } = playRuleset(rules, read, seed, 'losses', players, 7, 20_000);
  const outcome = rules.outcome(state);
  expect(outcome).not.toBeNull();
  return { state: state as never, winner: outcome!.winner };
}

const phase = ionian();

describe('the fleets a battle cost', () => {
  it('2007 rules: a fleet whose ships were all sunk or surrendered is lost, and leaves the board with no retreat', () => {
    const battle = played('ship-to-ship', phase.forces, 'a');
    const state = battle.state as { ships: { side: string; status: string }[] };
    // Macedonia's three ships all went down or struck; Rome kept some afloat.
    expect(state.ships.filter((s) => s.side === 'macedonia').map((s) => s.status)).not.toContain('afloat');
    expect(state.ships.some((s) => s.side === 'rome' && s.status === 'afloat')).toBe(true);
    const lost = fleetsLost('ship-to-ship', phase.forces, battle.state);
    expect(lost.ok && lost.value.map((f) => `${f.power} ${f.unit}`)).toEqual(['Macedonia F ION']);
    const decided = decisionFrom(phase.forces, battle.winner, lost.ok ? lost.value : []);
    expect(decided).toEqual({ ok: true, value: { province: 'ION', outcome: { winner: 'Rome', destroyed: ['ION'] } } });
    if (!decided.ok) return;
    const out = adjudicate(variant, phase.state, phase.orders, { decided: [decided.value] });
    if (!out.ok) throw new Error(out.error.join('; '));
    // Rome is in the sea; Macedonia's fleet is gone instead of waiting to retreat.
    expect(out.value.next.units).toEqual([
      { power: 'Rome', type: 'fleet', at: 'ION' },
      { power: 'Rome', type: 'fleet', at: 'Syr' },
    ]);
    expect(out.value.next.phase.type).toBe('movement');
    expect(out.value.events).toContainEqual({ kind: 'unit-lost', power: 'Macedonia', unit: 'F ION', at: 'ION', battle: 'ION' });
    expect(out.value.results.find((r) => r.power === 'Macedonia')?.reason).toMatch(/The fleet was lost with all its ships in the battle for Ionian Sea\.$/);
  });

  // Battles these rulesets' computers fight end on morale long before a whole squadron is gone: ships sunk, taken or
  // crippled, stands lost, squadrons routed, and every Diplomacy fleet still has a ship afloat.
  for (const ruleset of ['classis', 'diadochi-naval', 'oi-navarcoi'] as const)
    it(`${RULESETS[ruleset].title}: a battle lost on morale, with ships lost, costs no Diplomacy fleet`, { timeout: 120_000 }, () => {
      const battle = played(ruleset, phase.forces, 'a');
      // The battle was not bloodless: ships sunk, taken or crippled (Classis), stands lost (Oi Navarcoi!).
      const state = battle.state as {
        ships?: { sunk?: boolean; captured?: boolean; status?: string; crippled: boolean }[];
        squadrons?: { halves?: number; startHalves?: number }[];
      };
      if (ruleset === 'classis') expect(state.ships!.some((s) => s.sunk || s.captured || s.crippled)).toBe(true);
      else if (ruleset === 'diadochi-naval') expect(state.ships!.some((s) => s.status !== 'afloat' || s.crippled)).toBe(true);
      else expect(state.squadrons!.some((q) => q.halves! < q.startHalves!)).toBe(true);
      expect(fleetsLost(ruleset, phase.forces, battle.state)).toEqual({ ok: true, value: [] });
      const decided = decisionFrom(phase.forces, battle.winner, []);
      expect(decided.ok && decided.value.outcome).not.toHaveProperty('destroyed');
    });

  it('refuses a state that is not the ruleset’s, or not this battle’s', () => {
    const battle = played('ship-to-ship', phase.forces, 'a');
    expect(fleetsLost('classis', phase.forces, battle.state)).toMatchObject({
      ok: false,
      error: [expect.stringMatching(/^the battle's state is not one of Classis/)],
    });
    const other = ionian();
    const renamed = { ...other.forces, sides: [other.forces.sides[0], { ...other.forces.sides[1], id: 'carthage' }] as const };
    expect(fleetsLost('ship-to-ship', renamed as SeaForces, battle.state)).toMatchObject({
      ok: false,
      error: [expect.stringMatching(/it is not the battle of Ionian Sea/)],
    });
  });
});
