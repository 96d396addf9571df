/**
 * Squadrons at anchor (Bottled up) in melee. The rules give them no exemption: every squadron that failed a battle
 * test tests morale and routs on a failure, and a melee's contact lasts until a side routs or is destroyed.
 */
import { describe, expect, it } from 'vitest';
import { fixedDice } from '../../shared/naval/dice.ts';
import { oiNavarcoi } from '../../shared/naval/oi-navarcoi/engine.ts';
import { endMovement } from '../../shared/naval/oi-navarcoi/flow.ts';
import { BattleLog } from '../../shared/naval/oi-navarcoi/log.ts';
import { engage } from '../../shared/naval/oi-navarcoi/melee.ts';
import { moralePhase } from '../../shared/naval/oi-navarcoi/morale.ts';
import { battle, facing, logWith, sq } from './oi-navarcoi-helpers.ts';

describe('a squadron at anchor in melee', () => {
  it('tests morale after a failed battle test and routs on a failure, as any squadron does', () => {
    // The morale phase: whoever failed a battle test rolls 2d6 for 6+, and a failure routs it.
    const state = battle(facing(0, {}, { anchored: true }));
    const a = sq(state, 'a1');
    const b = sq(state, 'b1');
    expect(b.status).toBe('anchored');
    engage(a, b);
    b.testMorale = true;
    // b1's morale 1+1 = 2: it routs and runs 2 average dice (5, 5); a1 holds back from pursuit on 6+6.
    const { log, text } = logWith([1, 1, 5, 5, 6, 6]);
    moralePhase(state, log);
    expect(text()).toContain('B1 morale');
    expect(b.status).toBe('routing');
    expect(b.engaged).toEqual([]);
    expect(a.status).toBe('afloat');
  });

  it('stays at anchor when it is the one kept in a melee where both would rout', () => {
    // One squadron must survive any melee: the higher morale roll stands, here the one at anchor.
    const state = battle(facing(0, {}, { anchored: true }));
    engage(sq(state, 'a1'), sq(state, 'b1'));
    sq(state, 'a1').testMorale = true;
    sq(state, 'b1').testMorale = true;
    moralePhase(state, logWith([1, 1, 2, 2, 3, 3, 6, 6]).log);
    expect(sq(state, 'a1').status).toBe('routing');
    expect(sq(state, 'b1').status).toBe('anchored');
  });

  it('stays in its melee at the end of the turn, and is not launched while it fights', () => {
    // Contact lasts until a side routs or is destroyed; nothing in the rules ends a melee because a side is beached.
    const state = battle(facing(0, {}, { anchored: true }));
    const a = sq(state, 'a1');
    const b = sq(state, 'b1');
    engage(a, b);
    a.moved = true;
    state.acting = 'b';
    state.second = null;
    // Battle tests: a1 3+3 and b1 3+3 (each takes half a stand, neither fails); the next turn's event 3+3 and
    // initiative 6, 1.
    const log = new BattleLog(fixedDice([3, 3, 3, 3, 3, 3, 6, 1]), 0);
    endMovement(state, log);
    expect(state.turn).toBe(2);
    expect([a.halves, b.halves]).toEqual([7, 7]);
    expect(a.engaged).toEqual(['b1']);
    expect(b.engaged).toEqual(['a1']);
    state.phase = 'launch';
    state.acting = 'b';
    expect(oiNavarcoi.check(state, 'b', { kind: 'launch', squadron: 'b1' })?.code).toBe('in_melee');
    expect(oiNavarcoi.legalActions(state, 'b')).toEqual([{ kind: 'launch', squadron: null }]);
  });

  it('refuses a periplous against it: beached bows on, it has no way on to race offshore', () => {
    const state = battle([
      { id: 'a1', side: 'a', x: 36, y: 20, heading: 0, formation: 'epi-mias' },
      { id: 'b1', side: 'b', x: 36, y: 24, heading: 0, formation: 'epi-pollon', anchored: true },
    ]);
    state.allowances = { a1: 4 };
    const refusal = oiNavarcoi.check(state, 'a', {
      kind: 'move',
      squadron: 'a1',
      order: { type: 'advance', distance: 4, wheel: 0, turnAfter: 0, turn: 0 },
      attack: { target: 'b1', manoeuvre: 'periplous' },
    });
    expect(refusal?.code).toBe('periplous_anchored');
  });
});
