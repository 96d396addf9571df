import { describe, expect, it } from 'vitest';
import { fixedDice, streamDice } from '../../shared/naval/dice.ts';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import { opponent } from '../../shared/naval/diadochi-naval/opponent.ts';
import { playBattle, randomPlayer } from '../../shared/naval/diadochi-naval/play.ts';
import { scenarios } from '../../shared/naval/diadochi-naval/scenarios.ts';
import { baseOf } from '../../shared/naval/diadochi-naval/state.ts';
import { contactOf } from '../../shared/naval/table/index.ts';
import { arranged, deployed, ship, smallSetup } from './diadochi-naval-helpers.ts';

const clash = scenarios.find((s) => s.id === 'squadron-clash')?.setup;
if (!clash) throw new Error('no squadron-clash scenario');

/** Eight seeded battles of the learning scenario, the computer taking each side in turn. */
const seeds = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({
  n,
  seed: `diadochi-vs-random-${n}-0123456789`,
  salt: `test:vs:${n}`,
  computer: n % 2 ? 'antigonids' : 'ptolemies',
  other: n % 2 ? 'ptolemies' : 'antigonids',
}));

describe('the Diadochi Naval Rules computer opponent', () => {
  const battles = seeds.map((b) => ({ ...b, played: playBattle(clash, b.seed, b.salt, { [b.computer]: opponent, [b.other]: randomPlayer }, b.n) }));

  it('chooses only legal actions: each accepted by the engine’s check in the state it was chosen in', () => {
    for (const { seed, salt, computer, played } of battles) {
      const dice = streamDice(seed, salt);
      let state = diadochiNaval.start(clash, dice).state;
      for (const { side, action } of played.actions) {
        if (side === computer) expect(diadochiNaval.check(state, side, action), JSON.stringify(action)).toBeNull();
        const applied = diadochiNaval.apply(state, side, action, dice);
        if (!applied.ok) throw new Error(applied.error.message);
        state = applied.state;
      }
      expect(state.outcome).not.toBeNull();
    }
  }, 60_000);

  it('deploys each squadron’s flagship astern of its line, where the scenario put it in the line', () => {
    const state = diadochiNaval.start(clash, streamDice('deploy', 'test')).state;
    const action = opponent(state, 'antigonids', () => 0.5);
    if (action.kind !== 'deploy') throw new Error('expected a deployment');
    expect(diadochiNaval.check(state, 'antigonids', action)).toBeNull();
    const flag = action.placements.find((p) => p.ship === 'demetrius-5');
    const others = action.placements.filter((p) => p.ship !== 'demetrius-5');
    expect(others.every((p) => p.y === others[0].y)).toBe(true);
    expect(flag?.y).toBeLessThan(others[0].y);
  });

  it('beats a random legal player in most battles, on either side', () => {
    // Measured over 40 battles of this scenario it wins about four in five; these eight are a fixed sample of them.
    const won = battles.filter(({ computer, played }) => played.state.outcome?.winner === computer).length;
    expect(won).toBeGreaterThanOrEqual(6);
  });

  it('picks each ship’s own kind of close attack: the big ship rams, the small one rakes rather than break its ram', () => {
    // Each ship with an enemy at its bow attacks it by ram, rake or board, its own choice: a trieres ramming a
    // hepteres bow to bow is likely sunk, while its rake costs it far less on average.
    const state = arranged(
      deployed(
        smallSetup([
          { id: 'a1', x: 1, y: 1 },
          { id: 'a2', type: 'hepteres' },
          { id: 'a3' },
          { id: 'b1', x: 39, y: 29 },
          { id: 'b2' },
          { id: 'b3', type: 'hepteres' },
        ]),
      ),
      {
        a2: { x: 10, y: 10, heading: 0 },
        b2: { x: 10, y: 11, heading: 180 },
        a3: { x: 20, y: 10, heading: 0 },
        b3: { x: 20, y: 11, heading: 180 },
      },
      'combat',
      'a',
    );
    const action = opponent(state, 'a', () => 0.5);
    expect(diadochiNaval.check(state, 'a', action)).toBeNull();
    if (action.kind !== 'combat') throw new Error('expected close combat');
    expect(action.attacks).toEqual(
      expect.arrayContaining([
        { ship: 'a2', target: 'b2', attack: 'ram' },
        { ship: 'a3', target: 'b3', attack: 'rake' },
      ]),
    );
  });

  it('strikes the stern an enemy leaves open at an angle between the listed turns', () => {
    // B2 lies 45° off A2's bow, heading east with its stern towards A2: the listed turns (30° and 60°) run past
    // it, a charge aimed at its stern strikes it there (−2 to its defence).
    const state = arranged(
      deployed(
        smallSetup([
          { id: 'a1', x: 1, y: 1 },
          { id: 'a2', type: 'penteres' },
          { id: 'b1', x: 39, y: 29 },
          { id: 'b2', type: 'tetreres' },
        ]),
      ),
      { a1: { ordered: true }, a2: { x: 10, y: 10, heading: 0 }, b2: { x: 13, y: 13, heading: 90 } },
      'orders',
      'a',
    );
    const action = opponent(state, 'a', () => 0.5);
    expect(diadochiNaval.check(state, 'a', action)).toBeNull();
    const applied = diadochiNaval.apply(state, 'a', action, fixedDice([1]));
    if (!applied.ok) throw new Error(applied.error.message);
    expect(contactOf(baseOf(ship(applied.state, 'a2')), baseOf(ship(applied.state, 'b2')))).toMatchObject({ aSide: 'front', bSide: 'rear' });
  });

  it('waits outside an enemy’s reach rather than ending a move where that enemy may strike or shoot first', () => {
    // B2 lies 8 cables ahead, bow on: going ahead would leave A2 within B2's move and shot and strike nothing.
    const state = arranged(
      deployed(
        smallSetup([
          { id: 'a1', x: 1, y: 1 },
          { id: 'a2', type: 'penteres' },
          { id: 'b1', x: 39, y: 29 },
          { id: 'b2', type: 'penteres' },
        ]),
      ),
      { a1: { ordered: true }, a2: { x: 10, y: 10, heading: 0 }, b2: { x: 10, y: 18, heading: 180 } },
      'orders',
      'a',
    );
    expect(opponent(state, 'a', () => 0.5)).toEqual({ kind: 'end-movement' });
    // With the turn limit near, a draw is no win: it closes.
    const late = { ...state, turn: state.turnLimit - 2 };
    const action = opponent(late, 'a', () => 0.5);
    expect(action.kind).toBe('order');
  });
});
