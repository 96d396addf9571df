import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitmentOf, fixedDice, streamDice } from '../../shared/naval/dice.ts';
import { hexKey } from '../../shared/naval/hex.ts';
import { BattleRecordSchema, verify } from '../../shared/naval/record.ts';
import { StateSchema, shipToShip } from '../../shared/naval/ship-to-ship/index.ts';
import { BattleLog } from '../../shared/naval/battle-log.ts';
import { opponent } from '../../shared/naval/ship-to-ship/opponent.ts';
import { mulberry32 } from '../../shared/random.ts';
import { playBattle, randomPlayer } from '../../shared/naval/ship-to-ship/play.ts';
import { legalPlots } from '../../shared/naval/ship-to-ship/plot.ts';
import { resolveTurn } from '../../shared/naval/ship-to-ship/resolve.ts';
import { scenarios } from '../../shared/naval/ship-to-ship/scenarios.ts';
import type { Action } from '../../shared/naval/ship-to-ship/actions.ts';
import { type ShipPlot, type ShipState, type State, statsOf } from '../../shared/naval/ship-to-ship/state.ts';

const scenario = (id: string) => {
  const s = scenarios.find((x) => x.id === id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s.setup;
};
const sideIds = (id: string) => scenario(id).sides.map((s) => s.id);

describe('the shipped scenarios', () => {
  it('load, name their source, and start with every ship where the file puts it', () => {
    expect(scenarios.map((s) => s.id)).toEqual(['duel', 'corvus', 'ptolemy-246', 'tyre-314']);
    for (const { setup } of scenarios) {
      expect(setup.source).toMatch(/reference seed 00[03]/);
      const { state } = shipToShip.start(setup, fixedDice([]));
      expect(state.ships).toHaveLength(setup.ships.length);
      expect(StateSchema.safeParse(state).success).toBe(true);
    }
    expect(scenario('ptolemy-246').ships.filter((s) => s.type === 'heptere')).toHaveLength(2);
  });
});

describe('battles between random legal players', () => {
  it('always end, within the turn limit, and keep every state valid', () => {
    fc.assert(
      fc.property(fc.constantFrom(...scenarios.map((s) => s.id)), fc.integer({ min: 1, max: 1_000_000 }), (id, seed) => {
        const [a, b] = sideIds(id);
        const battle = playBattle(scenario(id), `random-battle-seed-${seed}`, 'salt', { [a]: randomPlayer, [b]: randomPlayer }, seed);
        expect(battle.state.outcome).not.toBeNull();
        expect(battle.state.turn).toBeLessThanOrEqual(scenario(id).turnLimit);
        expect(StateSchema.safeParse(battle.state).success).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  it('never leave two ships in one hex at the end of a phase', () => {
    fc.assert(
      fc.property(fc.constantFrom('ptolemy-246', 'tyre-314', 'corvus'), fc.integer({ min: 1, max: 1_000_000 }), (id, seed) => {
        const dice = streamDice(`phase-seed-${seed}`, 'salt');
        const random = mulberry32(seed);
        let state = shipToShip.start(scenario(id), dice).state;
        const check = (s: State, phase: number) => {
          const keys = s.ships.filter((x) => x.status !== 'sunk').map((x) => hexKey(x.hex));
          expect(new Set(keys).size, `turn ${s.turn} phase ${phase}`).toBe(keys.length);
          for (const w of s.wrecks) expect(keys).not.toContain(hexKey(w));
        };
        for (let n = 0; n < 200 && state.stage !== 'over'; n++) {
          if (state.stage === 'repulse') {
            const t = shipToShip.turn(state);
            const side = t.kind === 'side' ? t.side : '';
            const applied = shipToShip.apply(state, side, randomPlayer(state, side, random), dice);
            if (!applied.ok) throw new Error(applied.error.message);
            state = applied.state;
            continue;
          }
          const plots: Record<string, ShipPlot[]> = {};
          for (const side of state.sides.map((s) => s.id)) {
            if (!state.ships.some((s) => s.side === side && s.status === 'afloat')) continue;
            const action = randomPlayer(state, side, random);
            expect(shipToShip.check(state, side, action)).toBeNull();
            if (action.kind === 'plot') plots[side] = action.plots;
          }
          state = resolveTurn({ ...state, plots, plotted: Object.keys(plots) }, new BattleLog(dice, state.rolls), check);
        }
      }),
      { numRuns: 6 },
    );
  });
});

describe('legal actions', () => {
  it('accepts a ship plot exactly when it is among that ship’s listed plots', () => {
    // States from a few turns of a random battle, so that rams, wrecks and backing off turn up.
    const states: State[] = [];
    for (const seed of [3, 5]) {
      const [a, b] = sideIds('tyre-314');
      const played = playBattle(scenario('tyre-314'), `legal-seed-${seed}`, 'salt', { [a]: randomPlayer, [b]: randomPlayer }, seed, 24);
      const dice = streamDice(`legal-seed-${seed}`, 'salt');
      let s = shipToShip.start(scenario('tyre-314'), dice).state;
      for (const act of played.actions) {
        const applied = shipToShip.apply(s, act.side, act.action, dice);
        if (!applied.ok) throw new Error(applied.error.message);
        s = applied.state;
        if (s.stage === 'plot' && s.plotted.length === 0) states.push(s);
      }
    }
    expect(states.length).toBeGreaterThan(3);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: states.length - 1 }),
        fc.nat(),
        fc.oneof(fc.constant('B'), fc.string({ unit: fc.constantFrom('F', 'L', 'R'), maxLength: 6 })),
        fc.integer({ min: -2, max: 3 }),
        (si, pick, steps, pivot) => {
          const state = states[si];
          const side = state.sides.find((s) => state.ships.some((x) => x.side === s.id && x.status === 'afloat'))?.id ?? '';
          const mine = state.ships.filter((x) => x.side === side && x.status === 'afloat');
          const subject = mine[pick % mine.length];
          const listed = shipToShip
            .legalActions(state, side)
            .flatMap((a) => (a.kind === 'plot' ? a.plots : []))
            .filter((p) => p.ship === subject.id);
          const plots = mine.map((m) => (m === subject ? { ...listed[0], steps, pivot } : legalPlots(state, m)[0]));
          const accepted = shipToShip.check(state, side, { kind: 'plot', plots }) === null;
          expect(accepted).toBe(listed.some((p) => p.steps === steps && p.pivot === pivot));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses an action of a side whose turn it is not, and a repulse choice while plotting', () => {
    const { state } = shipToShip.start(scenario('duel'), fixedDice([]));
    expect(shipToShip.check(state, 'nobody', { kind: 'plot', plots: [] as unknown as ShipPlot[] })?.code).toBe('no_such_side');
    expect(shipToShip.check(state, 'rhodes', { kind: 'repulse', ship: 'nike', choice: 'cut' })?.code).toBe('not_now');
    const refused = shipToShip.apply(
      state,
      'rhodes',
      { kind: 'plot', plots: [{ ship: 'leon', steps: '', pivot: 0, fire: 'first', targets: [], board: false, rake: false }] },
      fixedDice([]),
    );
    expect(refused.ok).toBe(false);
    expect(shipToShip.actionSchema.safeParse({ kind: 'plot', plots: [{ ship: 'nike', steps: 'FFFFFFF' }] }).success).toBe(false);
    expect(shipToShip.actionSchema.safeParse({ kind: 'plot', plots: [{ ship: 'nike', steps: 'FB' }] }).success).toBe(false);
  });
});

describe('a battle replays from its seed and actions', () => {
  it('verifies a whole battle, and names a tampered die', () => {
    const seed = 'the-replay-seed-of-this-battle';
    const [a, b] = sideIds('corvus');
    const played = playBattle(scenario('corvus'), seed, 'battle-7', { [a]: opponent, [b]: randomPlayer }, 7);
    // As an export holds it: parsed by the record's own schema.
    const record = BattleRecordSchema.parse({
      format: 'naval-battle/1',
      ruleset: 'ship-to-ship',
      setup: scenario('corvus'),
      salt: 'battle-7',
      commitment: commitmentOf(seed),
      seed,
      start: played.start,
      actions: played.actions,
    });
    const v = verify(shipToShip, record);
    expect(v.problems).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.rolls).toBeGreaterThan(20);
    const tampered = structuredClone(record);
    const line = tampered.actions.flatMap((x) => x.log).find((l) => l.rolls.length > 0);
    if (!line) throw new Error('no rolls');
    const roll = line.rolls[0] as { value: number; sides: number };
    roll.value = (roll.value % roll.sides) + 1;
    expect(verify(shipToShip, tampered).ok).toBe(false);
  });
});

describe('the computer opponent', () => {
  // How often it wins, scenario by scenario, is ship-to-ship-opponent.test.ts's (and the naval-strength bench's).

  /** A state of the corvus battle with some ships moved (the rest far off at the map's edges). */
  const placed = (moves: Record<string, Partial<ShipState>>): State => {
    const { state } = shipToShip.start(scenario('corvus'), fixedDice([]));
    // Romans along the west edge, Carthaginians along the east (ships in the file's order).
    const corners = [
      { q: 0, r: 0 },
      { q: 0, r: 10 },
      { q: 1, r: 0 },
      { q: 1, r: 9 },
      { q: 16, r: -8 },
      { q: 16, r: 2 },
      { q: 15, r: -7 },
      { q: 15, r: 2 },
      { q: 16, r: -4 },
    ];
    state.ships = state.ships.map((s, i) => ({ ...s, hex: corners[i], speed: 0, ...(moves[s.id] ?? {}) }));
    return state;
  };
  const plotOf = (action: Action, ship: string) => {
    if (action.kind !== 'plot') throw new Error('not a plot');
    const p = action.plots.find((x) => x.ship === ship);
    if (!p) throw new Error(`no plot for ${ship}`);
    return p;
  };

  it('plays only legal plots, the same ones for the same random source, and holds its fire for short range', () => {
    const { state } = shipToShip.start(scenario('corvus'), fixedDice([]));
    for (const side of ['rome', 'carthage']) {
      const action = opponent(state, side, mulberry32(1));
      expect(shipToShip.check(state, side, action)).toBeNull();
      expect(opponent(state, side, mulberry32(1))).toEqual(action);
      if (action.kind === 'plot') for (const p of action.plots) expect(p.fire).toBe('close');
    }
  });

  it('does not spend a maximum-speed turn while the enemy is far off', () => {
    const { state } = shipToShip.start(scenario('duel'), fixedDice([]));
    for (const side of ['rhodes', 'macedon']) {
      const action = opponent(state, side, mulberry32(3));
      if (action.kind !== 'plot') throw new Error('not a plot');
      const ship = state.ships.find((s) => s.id === action.plots[0].ship);
      expect(action.plots[0].steps.length).toBeLessThanOrEqual(ship ? statsOf(ship).cruisingSpeed : 0);
    }
  });

  it('rams a ship held in a boarding fight from the beam, and boards it when its marines are the stronger', () => {
    // Tanit (a trireme, 2 marines) is grappled by Mars and lies still facing north; Duilius (10 heavy marines)
    // is two hexes off its beam, bow on.
    const state = placed({
      tanit: { hex: { q: 8, r: 2 }, facing: 0 },
      mars: { hex: { q: 8, r: 1 }, facing: 3 },
      duilius: { hex: { q: 6, r: 3 }, facing: 1, speed: 2 },
    });
    state.fights = [{ attacker: 'mars', defender: 'tanit', rounds: 1 }];
    const action = opponent(state, 'rome', mulberry32(5));
    expect(shipToShip.check(state, 'rome', action)).toBeNull();
    const duilius = plotOf(action, 'duilius');
    expect(duilius.board).toBe(true);
    // Played out: Duilius's move ends in a ram on Tanit's beam.
    const hold = (s: State, side: string): Action => ({
      kind: 'plot',
      plots: s.ships.filter((x) => x.side === side && x.status === 'afloat').map((x) => ({ ...legalPlots(s, x)[0], steps: '', pivot: 0 })),
    });
    const dice = streamDice('beam-ram-seed-of-this-test', 'salt');
    const first = shipToShip.apply(state, 'rome', action, dice);
    if (!first.ok) throw new Error(first.error.message);
    const second = shipToShip.apply(first.state, 'carthage', hold(first.state, 'carthage'), dice);
    if (!second.ok) throw new Error(second.error.message);
    expect(second.log.map((l) => l.text).join('\n')).toMatch(/Duilius rams Trireme Tanit on the (bow beam|quarter)/);
  });

  it('boards an enemy whose marines its own would beat, and not one whose marines would win', () => {
    // Victoria (a poor Roman quinquereme, 10 heavy marines) closes on Melqart (8 medium): it boards. Mars (a
    // quadrireme, 5 heavy) has Melqart and Hannibal (8 medium each) within reach: it does not.
    const state = placed({
      melqart: { hex: { q: 8, r: 2 }, facing: 5, speed: 1 },
      victoria: { hex: { q: 5, r: 3 }, facing: 1, speed: 1 },
      hannibal: { hex: { q: 10, r: 6 }, facing: 5, speed: 1 },
      mars: { hex: { q: 7, r: 7 }, facing: 1, speed: 1 },
    });
    const action = opponent(state, 'rome', mulberry32(2));
    expect(shipToShip.check(state, 'rome', action)).toBeNull();
    expect(plotOf(action, 'victoria').board).toBe(true);
    expect(plotOf(action, 'mars').board).toBe(false);
    // Hannibal's marines beat Mars's: it boards.
    expect(plotOf(opponent(state, 'carthage', mulberry32(2)), 'hannibal').board).toBe(true);
  });

  it('counter-boards repulsed boarders when its marines are the stronger, and cuts the grapples when not', () => {
    const { state } = shipToShip.start(scenario('corvus'), fixedDice([]));
    const repulse: State = { ...state, stage: 'repulse', repulses: [{ attacker: 'hannibal', defender: 'duilius', rounds: 1 }] };
    expect(opponent(repulse, 'rome', mulberry32(1))).toEqual({ kind: 'repulse', ship: 'duilius', choice: 'counter-board' });
    const emptied: State = {
      ...repulse,
      ships: repulse.ships.map((s) => (s.id === 'duilius' ? { ...s, marines: { light: 0, medium: 0, heavy: 0 } } : s)),
    };
    expect(opponent(emptied, 'rome', mulberry32(1))).toEqual({ kind: 'repulse', ship: 'duilius', choice: 'cut' });
  });
});
