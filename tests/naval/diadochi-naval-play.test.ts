import { describe, expect, it } from 'vitest';
import { commitmentOf } from '../../shared/naval/dice.ts';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import { playBattle, randomPlayer } from '../../shared/naval/diadochi-naval/play.ts';
import { scenarios } from '../../shared/naval/diadochi-naval/scenarios.ts';
import { type State, StateSchema } from '../../shared/naval/diadochi-naval/state.ts';
import { RULESETS, SCENARIOS } from '../../shared/naval/index.ts';
import { BattleRecordSchema, verify } from '../../shared/naval/record.ts';
import { overlapping } from '../../shared/naval/table/index.ts';
import { baseOf } from '../../shared/naval/diadochi-naval/state.ts';

const clash = scenarios.find((s) => s.id === 'squadron-clash')?.setup;
if (!clash) throw new Error('no squadron-clash scenario');

/** No two ships on the table overlap, ever. */
function noOverlap(state: State): void {
  const on = state.ships.filter((s) => s.status !== 'sunk');
  for (let i = 0; i < on.length; i++)
    for (let j = i + 1; j < on.length; j++) expect(overlapping(baseOf(on[i]), baseOf(on[j]), 1e-6), `${on[i].name} overlaps ${on[j].name}`).toBe(false);
}

describe('whole battles', () => {
  it('is registered with its scenarios, each loading under the set-up schema', () => {
    expect(RULESETS['diadochi-naval']).toBe(diadochiNaval);
    expect(SCENARIOS['diadochi-naval'].map((s) => s.id)).toEqual(['squadron-clash', 'salamis-306', 'tyre-314', 'andros-246']);
    for (const s of scenarios) {
      const state = diadochiNaval.start(s.setup, { roll: () => 1 }).state;
      expect(StateSchema.safeParse(state).success).toBe(true);
      noOverlap(state);
    }
  });

  it('random legal battles end, never overlap, and replay to the same log from seed and actions', { timeout: 240_000 }, () => {
    for (const n of [1, 2]) {
      const seed = `diadochi-random-${n}-0123456789`;
      const salt = `test:diadochi:${n}`;
      const played = playBattle(clash, seed, salt, { antigonids: randomPlayer, ptolemies: randomPlayer }, n);
      expect(played.state.outcome).not.toBeNull();
      noOverlap(played.state);
      expect(StateSchema.safeParse(played.state).success).toBe(true);
      const record = BattleRecordSchema.parse({
        format: 'naval-battle/1',
        ruleset: 'diadochi-naval',
        setup: clash,
        salt,
        commitment: commitmentOf(seed),
        seed,
        start: played.start,
        actions: played.actions,
      });
      const v = verify(diadochiNaval, record);
      expect(v.problems).toEqual([]);
      expect(v.rolls).toBeGreaterThan(10);
      // A changed die is caught.
      const tampered = structuredClone(record);
      const line = tampered.actions.flatMap((a) => a.log).find((l) => l.rolls.length);
      if (line) line.rolls[0].value = line.rolls[0].value === 1 ? 2 : 1;
      expect(verify(diadochiNaval, tampered).ok).toBe(false);
    }
  });

  it('the other side\u2019s plot stays secret until both are in', () => {
    const state = diadochiNaval.start(clash, { roll: () => 1 }).state;
    const placed = diadochiNaval.apply(state, 'antigonids', diadochiNaval.legalActions(state, 'antigonids')[0], { roll: () => 1 });
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    expect(diadochiNaval.redact(placed.state, 'ptolemies').deployments).toEqual({});
    expect(diadochiNaval.redact(placed.state, 'antigonids').deployments.antigonids).toHaveLength(8);
    expect(diadochiNaval.turn(placed.state)).toMatchObject({ kind: 'simultaneous', waiting: ['ptolemies'] });
  });
});
