import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitmentOf, fixedDice, streamDice } from '../../shared/naval/dice.ts';
import { RULESETS, SCENARIOS } from '../../shared/naval/index.ts';
import type { Action } from '../../shared/naval/oi-navarcoi/actions.ts';
import { oiNavarcoi } from '../../shared/naval/oi-navarcoi/engine.ts';
import { endMovement } from '../../shared/naval/oi-navarcoi/flow.ts';
import { BattleLog } from '../../shared/naval/oi-navarcoi/log.ts';
import { opponent } from '../../shared/naval/oi-navarcoi/opponent.ts';
import { playBattle, randomPlayer } from '../../shared/naval/oi-navarcoi/play.ts';
import { scenarios } from '../../shared/naval/oi-navarcoi/scenarios.ts';
import { type State, StateSchema, body, onTable } from '../../shared/naval/oi-navarcoi/state.ts';
import { overlapping } from '../../shared/naval/table/index.ts';
import { mulberry32 } from '../../shared/random.ts';
import { BattleRecordSchema, verify } from '../../shared/naval/record.ts';
import { sq } from './oi-navarcoi-helpers.ts';

const setupOf = (id: string) => {
  const s = scenarios.find((x) => x.id === id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s.setup;
};

function act(state: State, side: string, action: Action, dice: number[] | ReturnType<typeof streamDice>) {
  const applied = oiNavarcoi.apply(state, side, action, Array.isArray(dice) ? fixedDice(dice) : dice);
  if (!applied.ok) throw new Error(applied.error.message);
  return { state: applied.state, text: applied.log.map((l) => l.text).join('\n') };
}

/** Both sides hand in the scenario's deployment; the first turn's event (3 + 3: nothing) and initiative (6, 1). */
function deployed(id: string): State {
  let state = oiNavarcoi.start(setupOf(id), fixedDice([])).state;
  const [a, b] = state.sides.map((s) => s.id);
  state = act(state, a, { kind: 'deploy', placements: [], signals: [] }, []).state;
  return act(state, b, { kind: 'deploy', placements: [], signals: [] }, [3, 3, 6, 1]).state;
}

describe('the shipped scenarios', () => {
  it('are registered, load, name their section of the rules, and start valid', () => {
    expect(RULESETS['oi-navarcoi']).toBe(oiNavarcoi);
    expect(SCENARIOS['oi-navarcoi'].map((s) => s.id)).toEqual(['clash', 'defending-land', 'meeting', 'ambush', 'bottled-up', 'convoy', 'amphibious']);
    for (const { setup } of scenarios) {
      expect(setup.source).toMatch(/reference seed 002.*Scenarios, \d\./);
      const { state } = oiNavarcoi.start(setup, fixedDice([]));
      expect(StateSchema.safeParse(state).success).toBe(true);
      expect(oiNavarcoi.turn(state)).toMatchObject({ kind: 'simultaneous' });
    }
  });
});

describe('the deployment as the buttons name it', () => {
  it('says how many squadrons are re-placed and carry signals, in the singular for one and plainly for none', () => {
    const { state } = oiNavarcoi.start(setupOf('bottled-up'), fixedDice([]));
    const names = oiNavarcoi.legalActions(state, 'athens').map((action) => oiNavarcoi.describe(state, action));
    expect(names).toEqual(['hand in the deployment, with no signals written', "hand in the deployment and 4 squadrons' signals"]);
    const squadron = state.squadrons.find((q) => q.side === 'athens')!;
    const placement = { squadron: squadron.id, x: 14, y: 10.5, heading: 0, formation: 'epi-keras' as const };
    const one = { kind: 'deploy' as const, placements: [placement], signals: [{ squadron: squadron.id, signals: [1] }] };
    expect(oiNavarcoi.describe(state, one)).toBe("hand in the deployment (1 squadron re-placed) and 1 squadron's signals");
  });
});

describe('one battle per scenario, each with its own rules', () => {
  it('clash: a re-placement inside the zone is taken, one outside refused; the deployment is secret until both are in', () => {
    let state = oiNavarcoi.start(setupOf('clash'), fixedDice([])).state;
    const outside = oiNavarcoi.check(state, 'athens', {
      kind: 'deploy',
      placements: [{ squadron: 'ath-1', x: 18, y: 20, heading: 0, formation: 'epi-mias' }],
      signals: [],
    });
    expect(outside?.message).toContain('deployment zone');
    state = act(
      state,
      'athens',
      {
        kind: 'deploy',
        placements: [{ squadron: 'ath-1', x: 18, y: 10, heading: 0, formation: 'epi-pollon' }],
        signals: [{ squadron: 'ath-2', signals: [1, 5] }],
      },
      [],
    ).state;
    expect(oiNavarcoi.redact(state, 'corinth').pending).toEqual({});
    expect(sq(state, 'ath-1').y).toBe(12);
    const done = act(state, 'corinth', { kind: 'deploy', placements: [], signals: [] }, [3, 3, 6, 1]);
    expect(sq(done.state, 'ath-1')).toMatchObject({ y: 10, formation: 'epi-pollon' });
    expect(done.text).toContain('Event phase, turn 1: Athens 3 + Corinth 3 = 6: no fleet has lost half its squadrons, nothing happens');
    expect(done.text).toContain('Initiative: Athens 6, Corinth 1');
    expect(oiNavarcoi.turn(done.state)).toMatchObject({ kind: 'side', side: 'athens' });
  });

  it('defending the land: the defender anchored on the headland stands its ground when the turns run out', () => {
    const state = deployed('defending-land');
    expect(state.table.terrain[0].standing).toEqual({ syracuse: 'friendly', athens: 'enemy' });
    state.turn = state.turnLimit;
    const dice = streamDice('defending', 'salt');
    let s = act(state, 'athens', { kind: 'initiative', first: true }, dice).state;
    s = act(s, 'athens', { kind: 'end-movement' }, dice).state;
    const end = act(s, 'syracuse', { kind: 'end-movement' }, dice);
    expect(end.state.outcome).toEqual({ winner: 'syracuse', reason: 'Syracuse stood its ground' });
    expect(end.text).toContain('Post-battle count for Athens');
  });

  it('bottled up: at nightfall an invader that lost half its squadrons leaves the field instead of surviving', () => {
    const state = deployed('bottled-up');
    for (const id of ['ath-3', 'ath-4']) Object.assign(sq(state, id), { status: 'destroyed', halves: 0 });
    state.turn = state.turnLimit;
    const dice = streamDice('bottled-night', 'salt');
    let s = act(state, 'athens', { kind: 'initiative', first: false }, dice).state;
    s = act(s, 'mytilene', { kind: 'end-movement' }, dice).state;
    s = act(s, 'athens', { kind: 'launch', squadron: 'ath-1' }, dice).state;
    expect(s.outcome).toBeNull();
    const night = act(s, 'athens', { kind: 'end-movement' }, dice);
    expect(night.state.outcome).toEqual({ winner: 'mytilene', reason: 'Athens left the field to Mytilene' });
    expect(night.text).toContain('Night falls after turn 10: Athens has lost half its squadrons or more and leaves the field.');
    // Players are told from the start.
    expect(oiNavarcoi.start(setupOf('bottled-up'), fixedDice([])).log[0].text).toContain(
      '10 turns at most (then night falls: a fleet that has lost half its squadrons or more leaves the field)',
    );
  });

  it('at nightfall with both fleets beaten the roll-off sends one away, as the 6-8 event would', () => {
    const state = deployed('clash');
    for (const side of ['athens', 'corinth']) {
      const fleet = state.squadrons.filter((q) => q.side === side);
      for (const q of fleet.slice(0, Math.ceil(fleet.length / 2))) Object.assign(q, { status: 'destroyed', halves: 0 });
    }
    state.turn = state.turnLimit;
    const dice = streamDice('clash-night', 'salt');
    let s = act(state, 'athens', { kind: 'initiative', first: true }, dice).state;
    s = act(s, 'athens', { kind: 'end-movement' }, dice).state;
    const end = act(s, 'corinth', { kind: 'end-movement' }, dice);
    const lower = /(Athens|Corinth) rolls lower\./.exec(end.text)?.[1];
    expect(lower).toBeDefined();
    const stays = lower === 'Athens' ? 'corinth' : 'athens';
    expect(end.state.outcome).toEqual({ winner: stays, reason: `${lower} left the field to ${lower === 'Athens' ? 'Corinth' : 'Athens'}` });
    expect(end.text).toContain(`Night falls after turn ${state.turnLimit}: ${lower} has lost half its squadrons or more`);
  });

  it('meeting engagement: squadrons deploy only in epi keras, and a column turns in succession', () => {
    const fresh = oiNavarcoi.start(setupOf('meeting'), fixedDice([])).state;
    expect(
      oiNavarcoi.check(fresh, 'sparta', {
        kind: 'deploy',
        placements: [{ squadron: 'spa-1', x: 34, y: 10.5, heading: 90, formation: 'epi-mias' }],
        signals: [],
      })?.code,
    ).toBe('bad_deployment');
    let state = deployed('meeting');
    state = act(state, 'sparta', { kind: 'initiative', first: true }, [1, 1, 1, 1]).state;
    const turned = act(state, 'sparta', { kind: 'move', squadron: 'spa-1', order: { type: 'advance', distance: 8, wheel: 0, turnAfter: 3, turn: 90 } }, []);
    expect(sq(turned.state, 'spa-1').heading).toBeCloseTo(180);
    expect(turned.text).toContain('its lead turning 90° right after 3"');
  });

  it('ambush: the raiders may not use signals; the defenders wait behind the cape', () => {
    const fresh = oiNavarcoi.start(setupOf('ambush'), fixedDice([])).state;
    expect(fresh.sides.find((s) => s.id === 'raiders')?.signalsLeft).toBe(0);
    expect(oiNavarcoi.check(fresh, 'raiders', { kind: 'deploy', placements: [], signals: [{ squadron: 'rai-1', signals: [5] }] })?.message).toContain(
      'may not use signals',
    );
    const cape = fresh.table.terrain[0];
    for (const q of fresh.squadrons.filter((x) => x.side === 'corcyra')) expect(q.x).toBeLessThan(36);
    expect(cape.outline).toContainEqual({ x: 36, y: 18 });
  });

  it('bottled up: one squadron launched by choice, the rest on 10+, launched disordered in epi pollon and moving straight offshore', () => {
    let state = deployed('bottled-up');
    expect(state.squadrons.filter((q) => q.side === 'athens').every((q) => q.status === 'anchored')).toBe(true);
    state = act(state, 'athens', { kind: 'initiative', first: true }, []).state;
    expect(oiNavarcoi.turn(state)).toMatchObject({ side: 'athens' });
    expect(state.phase).toBe('launch');
    // ath-1 by choice; ath-2 rolls 6+4 = 10 (launched), ath-3 3+3, ath-4 6+3.
    const launched = act(state, 'athens', { kind: 'launch', squadron: 'ath-1' }, [6, 4, 3, 3, 6, 3]);
    expect(launched.text).toContain('launching roll 2d6 6+4 = 10: launched');
    const a1 = sq(launched.state, 'ath-1');
    expect([a1.status, a1.formation, a1.disordered, a1.heading]).toEqual(['afloat', 'epi-pollon', true, 180]);
    expect(sq(launched.state, 'ath-3').status).toBe('anchored');
    const wheel = oiNavarcoi.check(launched.state, 'athens', {
      kind: 'move',
      squadron: 'ath-1',
      order: { type: 'advance', distance: 5, wheel: 20, turnAfter: 0, turn: 0 },
    });
    expect(wheel).toBeNull();
    const form = oiNavarcoi.check(launched.state, 'athens', { kind: 'move', squadron: 'ath-1', order: { type: 'about-face' } });
    expect(form?.code).toBe('launch_move');
    // 8" less 1 for disorder: 7".
    expect(
      oiNavarcoi.check(launched.state, 'athens', {
        kind: 'move',
        squadron: 'ath-1',
        order: { type: 'advance', distance: 7.5, wheel: 0, turnAfter: 0, turn: 0 },
      })?.code,
    ).toBe('too_far');
    const moved = act(
      launched.state,
      'athens',
      { kind: 'move', squadron: 'ath-1', order: { type: 'advance', distance: 7, wheel: 0, turnAfter: 0, turn: 0 } },
      [],
    );
    expect(sq(moved.state, 'ath-1').y).toBeLessThan(a1.y - 6.9);
  });

  it('convoy: freighters sail before the wind and get away by the far edge; all away wins it for the convoy', () => {
    let state = deployed('convoy');
    expect(state.wind).toBe(0);
    state = act(state, 'syracuse', { kind: 'initiative', first: true }, [6, 6, 6, 5, 4, 3, 3]).state;
    expect([state.allowances['frt-1'], state.allowances['frt-1:across']]).toEqual([9, 5]);
    expect(oiNavarcoi.check(state, 'syracuse', { kind: 'move', squadron: 'frt-1', order: { type: 'follow-me', heading: 180, distance: 3 } })?.code).toBe(
      'against_wind',
    );
    // Carry both freighters to the north edge and let them sail off.
    for (const id of ['frt-1', 'frt-2']) {
      const f = sq(state, id);
      f.y = 48 - 1.378 - 4;
      f.x = id === 'frt-1' ? 20 : 56;
    }
    for (const id of ['frt-1', 'frt-2'])
      state = act(state, 'syracuse', { kind: 'move', squadron: id, order: { type: 'follow-me', heading: 0, distance: 4 } }, []).state;
    expect(sq(state, 'frt-1')).toMatchObject({ status: 'gone', exit: 'north' });
    const log = new BattleLog(streamDice('convoy', 'salt'), state.rolls);
    state.second = null;
    endMovement(state, log);
    expect(state.outcome?.winner).toBe('syracuse');
    expect(state.outcome?.reason).toContain('freighters got away');
  });

  it('amphibious: the phalanxes charge, a phalanx pushed back twice in a row is destroyed, and the invaders win for standing by', () => {
    let state = deployed('amphibious');
    expect(state.phalanxes.map((p) => p.euzonoi)).toEqual([2, 2]);
    expect(state.positions.map((p) => p.heldBy)).toEqual(['athens', 'thebes']);
    const boeotians = state.phalanxes.find((p) => p.id === 'the-phalanx')!;
    boeotians.y = 15;
    state = act(state, 'athens', { kind: 'initiative', first: true }, [3, 3, 3]).state;
    const charged = act(state, 'athens', { kind: 'phalanx', phalanx: 'ath-phalanx', order: 'charge', target: 'the-phalanx' }, [6]);
    expect(charged.text).toContain('and meets it');
    state = act(charged.state, 'athens', { kind: 'end-movement' }, [3, 3, 3, 3]).state;
    // Land melee: Athens 5+5 passes, Boeotians 1+1 fail: pushed back once (then the ships' morale phase, the next turn's event 3+3 and initiative 6,1).
    const first = act(state, 'thebes', { kind: 'end-movement' }, [5, 5, 1, 1, 3, 3, 6, 1]);
    expect(first.text).toContain('Boeotian phalanx is pushed back 1"');
    state = act(first.state, 'athens', { kind: 'initiative', first: true }, [3, 3, 3]).state;
    state = act(state, 'athens', { kind: 'end-movement' }, [3, 3, 3, 3]).state;
    const second = act(state, 'thebes', { kind: 'end-movement' }, [5, 5, 1, 1]);
    expect(second.text).toContain('pushed back a second time in a row: destroyed');
    expect(second.state.outcome?.winner).toBe('athens');
  });
});

describe('whole battles', () => {
  it('between random legal players always end, keep every state valid, and verify from the record', () => {
    fc.assert(
      fc.property(fc.constantFrom(...scenarios.map((s) => s.id)), fc.integer({ min: 1, max: 1_000_000 }), (id, seed) => {
        const setup = setupOf(id);
        const [a, b] = setup.sides.map((s) => s.id);
        const battle = playBattle(setup, `random-battle-seed-${seed}`, 'salt', { [a]: randomPlayer, [b]: randomPlayer }, seed);
        expect(battle.state.outcome).not.toBeNull();
        expect(StateSchema.safeParse(battle.state).success).toBe(true);
        const record = BattleRecordSchema.parse({
          format: 'naval-battle/1',
          ruleset: 'oi-navarcoi',
          setup,
          salt: 'salt',
          commitment: commitmentOf(`random-battle-seed-${seed}`),
          seed: `random-battle-seed-${seed}`,
          start: battle.start,
          actions: battle.actions,
        });
        const checked = verify(oiNavarcoi, record);
        expect(checked.problems).toEqual([]);
        // A changed die is caught.
        const tampered = structuredClone(record);
        const line = tampered.actions.flatMap((x) => x.log).find((l) => l.rolls.length);
        if (line) {
          line.rolls[0].value = (line.rolls[0].value % line.rolls[0].sides) + 1;
          expect(verify(oiNavarcoi, tampered).ok).toBe(false);
        }
      }),
      { numRuns: 3 },
    );
  }, 240_000);

  it('never leaves two squadrons on top of each other: pursuits, rallies and falls out of formation all fit', () => {
    // Four battles a scenario, the computer against random play, each state after every action looked at: bases
    // touch, and overlap only where one squadron is locked in a melee (caught at a flank in a crowd, its unformed
    // block may find no clear place within 5"; it stays in its melee until it routs or wins).
    const overlaps: string[] = [];
    for (const { id, setup } of scenarios)
      for (let n = 0; n < 4; n++) {
        const sides = setup.sides.map((s) => s.id);
        const dice = streamDice(`o-${n}`, `ov:${id}:${n}`);
        let state = oiNavarcoi.start(setup, dice).state;
        const randoms = sides.map((_, i) => mulberry32(n * 7 + i + 1));
        for (let k = 0; k < 3_000; k++) {
          const turn = oiNavarcoi.turn(state);
          if (turn.kind === 'over') break;
          const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
          const i = sides.indexOf(side);
          const player = i === n % 2 ? opponent : randomPlayer;
          const applied = oiNavarcoi.apply(state, side, player(oiNavarcoi.redact(state, side), side, randoms[i]), dice);
          if (!applied.ok) throw new Error(applied.error.message);
          state = applied.state;
          const afloat = state.squadrons.filter(onTable);
          for (const [j, q] of afloat.entries())
            for (const o of afloat.slice(j + 1))
              if (q.engaged.length === 0 && o.engaged.length === 0 && overlapping(body(q), body(o)))
                overlaps.push(`${id} ${n}, turn ${state.turn}: ${q.name} on ${o.name}`);
        }
        expect(state.outcome, `${id} ${n}`).not.toBeNull();
      }
    expect(overlaps).toEqual([]);
  }, 120_000);

  it('never accepts an action outside the rules: a second move of one squadron, a move out of turn', () => {
    let state = deployed('clash');
    state = act(state, 'athens', { kind: 'initiative', first: true }, [3, 3, 3, 3]).state;
    expect(oiNavarcoi.check(state, 'corinth', { kind: 'end-movement' })?.code).toBe('not_your_turn');
    state = act(state, 'athens', { kind: 'move', squadron: 'ath-1', order: { type: 'hold' } }, []).state;
    expect(oiNavarcoi.check(state, 'athens', { kind: 'move', squadron: 'ath-1', order: { type: 'hold' } })?.code).toBe('cannot_move');
    expect(oiNavarcoi.apply(state, 'athens', { kind: 'move', squadron: 'ath-1', order: { type: 'hold' } }, fixedDice([])).ok).toBe(false);
  });

  it('the computer opponent picks only legal actions', () => {
    const setup = setupOf('clash');
    const battle = playBattle(setup, 'opponent-legal', 'salt', { athens: opponent, corinth: randomPlayer }, 7);
    expect(battle.state.outcome).not.toBeNull();
  }, 120_000);
});

describe('what each side sees', () => {
  it('hides the signals the other side wrote down', () => {
    let state = oiNavarcoi.start(setupOf('clash'), fixedDice([])).state;
    state = act(state, 'athens', { kind: 'deploy', placements: [], signals: [{ squadron: 'ath-1', signals: [2, 5] }] }, []).state;
    state = act(state, 'corinth', { kind: 'deploy', placements: [], signals: [{ squadron: 'cor-1', signals: [5] }] }, [3, 3, 6, 1]).state;
    expect(sq(oiNavarcoi.redact(state, 'athens'), 'ath-1').signals).toEqual([2, 5]);
    expect(sq(oiNavarcoi.redact(state, 'athens'), 'cor-1').signals).toEqual([]);
    expect(sq(oiNavarcoi.redact(state, 'corinth'), 'cor-1').signals).toEqual([5]);
  });
});
