import { describe, expect, it } from 'vitest';
import { fixedDice } from '../../shared/naval/dice.ts';
import { oiNavarcoi } from '../../shared/naval/oi-navarcoi/engine.ts';
import { beaten, eventPhase, leavingFleet } from '../../shared/naval/oi-navarcoi/events.ts';
import { engage, battleTests, diekplous, periplous } from '../../shared/naval/oi-navarcoi/melee.ts';
import { moralePhase } from '../../shared/naval/oi-navarcoi/morale.ts';
import { allowanceOf, planMove } from '../../shared/naval/oi-navarcoi/movement.ts';
import rulesData from '../../shared/naval/oi-navarcoi/rules.json';
import { RULES, loadRules } from '../../shared/naval/oi-navarcoi/rules.ts';
import { type Squadron, type State, body } from '../../shared/naval/oi-navarcoi/state.ts';
import { manoeuvreTest, moraleTest } from '../../shared/naval/oi-navarcoi/tests.ts';
import { distanceBetween, overlapping } from '../../shared/naval/table/index.ts';
import { DEPTH, type Spec, battle, facing, logWith, sq } from './oi-navarcoi-helpers.ts';

/** a1 beats b1 in melee: b1 tests morale in the morale phase played on `dice`. */
function beatenInMelee(state: State, dice: number[]): { a: Squadron; b: Squadron } {
  const a = sq(state, 'a1');
  const b = sq(state, 'b1');
  engage(a, b);
  b.testMorale = true;
  moralePhase(state, logWith(dice).log);
  return { a, b };
}

describe('the rules data', () => {
  it('loads, and a typo fails with its place named', () => {
    expect(RULES.formations['epi-pollon'].move).toEqual({ inches: 8 });
    expect(RULES.formations['epi-mias'].move).toEqual({ averageDice: 1, plus: 0 });
    const bad = structuredClone(rulesData) as { battleTest: { results: { upTo: number }[] } };
    bad.battleTest.results[2].upTo = 7;
    const loaded = loadRules(bad);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error).toContain('battleTest.results');
  });

  it('reads the average die as 2, 3, 3, 4, 4, 5 (a 1 counts 3, a 6 counts 4)', () => {
    const { log } = logWith([1, 2, 3, 4, 5, 6]);
    expect([1, 2, 3, 4, 5, 6].map(() => log.averageDice(1, 'x').total)).toEqual([3, 2, 3, 4, 5, 4]);
  });
});

describe('movement allowances', () => {
  it('epi mias rolls one average die, epi pollon and epi keras 8", unformed the die − 1, disordered −1', () => {
    const state = battle(facing(20));
    const q = sq(state, 'a1');
    state.allowances.a1 = 4;
    expect(allowanceOf(state, q, 'epi-mias')).toBe(4);
    expect(allowanceOf(state, q, 'epi-pollon')).toBe(8);
    expect(allowanceOf(state, q, 'epi-keras')).toBe(8);
    expect(allowanceOf(state, q, 'unformed')).toBe(3);
    expect(allowanceOf(state, q, 'kyklos')).toBe(0);
    q.disordered = true;
    expect(allowanceOf(state, q, 'epi-pollon')).toBe(7);
  });

  it('refuses a move beyond the allowance, and a back water beyond 2"', () => {
    const state = battle(facing(20));
    state.allowances.a1 = 3;
    const q = sq(state, 'a1');
    const advance = (distance: number) =>
      planMove(state, q, { kind: 'move', squadron: 'a1', order: { type: 'advance', distance, wheel: 0, turnAfter: 0, turn: 0 } }, null);
    expect(advance(3).ok).toBe(true);
    expect(advance(3.5)).toMatchObject({ ok: false, code: 'too_far' });
    expect(planMove(state, q, { kind: 'move', squadron: 'a1', order: { type: 'back', distance: 2.5 } }, null)).toMatchObject({ ok: false, code: 'too_far' });
    const back = planMove(state, q, { kind: 'move', squadron: 'a1', order: { type: 'back', distance: 2 } }, null);
    expect(back).toMatchObject({ ok: true, test: true });
    if (back.ok) expect(back.frame.y).toBeCloseTo(18);
  });

  it('counts a wheel by the arc of its outside corner', () => {
    const state = battle(facing(30));
    state.allowances.a1 = 5;
    const q = sq(state, 'a1');
    // Epi mias is 4 × 5 cm wide: a 90° wheel's outside corner runs π/2 × 7.87" = 12.4", beyond 5".
    const wheel = (w: number) =>
      planMove(state, q, { kind: 'move', squadron: 'a1', order: { type: 'advance', distance: 0, wheel: w, turnAfter: 0, turn: 0 } }, null);
    expect(wheel(90)).toMatchObject({ ok: false, code: 'too_far' });
    const small = wheel(30);
    expect(small).toMatchObject({ ok: true, test: true });
  });

  it('turns a column in succession up to 90° at no cost, and no further', () => {
    const state = battle(facing(30, { formation: 'epi-keras' }));
    const q = sq(state, 'a1');
    const col = (turn: number) =>
      planMove(state, q, { kind: 'move', squadron: 'a1', order: { type: 'advance', distance: 8, wheel: 0, turnAfter: 2, turn } }, null);
    const ok = col(90);
    expect(ok).toMatchObject({ ok: true, test: false });
    if (ok.ok) expect(ok.frame.heading).toBeCloseTo(90);
    expect(col(120)).toMatchObject({ ok: false, code: 'column_turn' });
  });

  it('lets freighters sail downwind on 2 average dice or square across on 1, never into the wind', () => {
    const state = battle([...facing(30), { id: 'f1', side: 'a', x: 10, y: 10, heading: 0, formation: 'unformed', freighters: true }], {
      wind: 0,
      convoyExit: 'north',
    });
    state.allowances.f1 = 7;
    state.allowances['f1:across'] = 3;
    const q = sq(state, 'f1');
    expect(allowanceOf(state, q, 'unformed', 0)).toBe(7);
    expect(allowanceOf(state, q, 'unformed', 90)).toBe(3);
    expect(allowanceOf(state, q, 'unformed', 180)).toMatchObject({ ok: false, code: 'against_wind' });
  });

  it('halves the speed across flotsam and disorders', () => {
    const state = battle(facing(30, { formation: 'epi-pollon' }));
    state.flotsam.push({ x: 36, y: 26, heading: 0, width: 8, length: 1.4 });
    const q = sq(state, 'a1');
    const run = (distance: number) =>
      planMove(state, q, { kind: 'move', squadron: 'a1', order: { type: 'advance', distance, wheel: 0, turnAfter: 0, turn: 0 } }, null);
    expect(run(8)).toMatchObject({ ok: false, code: 'flotsam' });
    expect(run(4)).toMatchObject({ ok: true, crossedFlotsam: true });
  });
});

describe('the manoeuvre test', () => {
  it('passes on 6 or more; fails on 5 or less into disorder, and a disordered squadron into unformed', () => {
    const state = battle(facing(30));
    const q = sq(state, 'a1');
    const pass = logWith([3, 3]);
    expect(manoeuvreTest(state, q, 'x', pass.log)).toBe(true);
    expect(q.disordered).toBe(false);
    const fail = logWith([2, 3]);
    expect(manoeuvreTest(state, q, 'x', fail.log)).toBe(false);
    expect(q.disordered).toBe(true);
    expect(manoeuvreTest(state, q, 'x', logWith([1, 1]).log)).toBe(false);
    expect(q.formation).toBe('unformed');
    expect(fail.log.lines[0].table).toEqual({ name: 'Manoeuvre test', row: '5 or less: squadron disordered/unformed' });
  });

  it('adds crew quality and takes 2 within 8" of an enemy', () => {
    const state = battle(facing(7, { quality: 'well-trained' }, { quality: 'green' }));
    const a = logWith([3, 4]);
    expect(manoeuvreTest(state, sq(state, 'a1'), 'x', a.log)).toBe(true);
    expect(a.text()).toContain('2d6 3+4 = 7, well trained +1, within 8" of the enemy −2: 6');
    const b = logWith([4, 4]);
    expect(manoeuvreTest(state, sq(state, 'b1'), 'x', b.log)).toBe(false);
    expect(b.text()).toContain('green −1, within 8" of the enemy −2: 5');
  });
});

describe('the battle test', () => {
  const fight = (a: Parameters<typeof facing>[1] = {}, b: Parameters<typeof facing>[2] = {}, fullSize = false) => {
    const state = battle(facing(0, a, b), { fullSize });
    engage(sq(state, 'a1'), sq(state, 'b1'));
    return state;
  };

  it.each([
    [[2, 3], 0, true],
    [[3, 3], 1, false],
    [[4, 4], 1, false],
    [[4, 5], 2, false],
    [[5, 5], 2, false],
    [[5, 6], 3, false],
    [[6, 6], 3, false],
  ])('2d6 %j: the enemy loses %i half stands (failed: %s)', (dice, halves, failed) => {
    const state = fight();
    const { log } = logWith([...dice, 1, 1]);
    battleTests(state, log);
    expect(sq(state, 'b1').halves).toBe(8 - halves);
    expect(sq(state, 'a1').testMorale).toBe(failed);
    expect(sq(state, 'a1').disordered).toBe(failed);
  });

  it('takes crew quality, disorder and the formation differential (epi keras against epi mias −3)', () => {
    const state = fight({ quality: 'well-trained', formation: 'epi-keras' });
    sq(state, 'a1').disordered = true;
    const { log, text } = logWith([6, 4, 1, 1]);
    battleTests(state, log);
    // 10 + 1 − 1 − 3 = 7: half a stand.
    expect(text()).toContain('2d6 6+4 = 10, well trained +1, disordered −1, formation differential (epi keras against epi mias) −3: 7');
    expect(sq(state, 'b1').halves).toBe(7);
  });

  it('doubles the losses in the full-size version', () => {
    const state = fight({}, {}, true);
    expect(sq(state, 'b1').halves).toBe(16);
    battleTests(state, logWith([6, 6, 1, 1]).log);
    expect(sq(state, 'b1').halves).toBe(10);
  });

  it('fails a flanked squadron without rolling; its attacker ignores the differential and its own failure', () => {
    const state = fight({ formation: 'epi-pollon' });
    const a = sq(state, 'a1');
    const b = sq(state, 'b1');
    b.autoFail = true;
    b.katastrophe = true;
    a.flankAttacker = true;
    const { log, text } = logWith([2, 2]);
    battleTests(state, log);
    expect(text()).toContain('fails its battle test without rolling');
    expect(text()).not.toContain('differential');
    expect(a.testMorale).toBe(false);
    expect(a.disordered).toBe(false);
    expect(b.testMorale).toBe(true);
  });

  it('routs a squadron down to one stand against three or more', () => {
    const state = fight();
    sq(state, 'b1').halves = 4;
    // a1 rolls 9: one stand off b1, down to one stand against four.
    battleTests(state, logWith([4, 5, 1, 1]).log);
    expect(sq(state, 'b1').status).toBe('routing');
  });

  it("shares a single squadron's losses between the two it fights", () => {
    const state = battle([...facing(0), { id: 'b2', side: 'b', x: 36 + 7.874, y: 20 + (2 * 1.378) / 2 + 1.378 / 2, heading: 180 }]);
    const a1 = sq(state, 'a1');
    engage(a1, sq(state, 'b1'));
    engage(a1, sq(state, 'b2'));
    // a1 rolls 11 (1½ stands), b1 and b2 roll 2 each.
    battleTests(state, logWith([5, 6, 1, 1, 1, 1]).log);
    expect(sq(state, 'b1').halves + sq(state, 'b2').halves).toBe(16 - 3);
  });
});

describe('the morale test', () => {
  it('holds on 6 or more, routs on 5 or less, with crew morale, Katastrophe −1 and pursuing −2', () => {
    const state = battle(facing(0, { morale: 'determined' }));
    const q = sq(state, 'a1');
    const { log, text } = logWith([3, 2, 4, 4]);
    expect(moraleTest(q, 'x', log, { katastrophe: true }).pass).toBe(false);
    expect(text()).toContain('2d6 3+2 = 5, determined +1, Katastrophe −1: 5');
    expect(moraleTest(q, 'x', log, { pursuing: true }).pass).toBe(true);
    expect(text()).toContain('2d6 4+4 = 8, determined +1, pursuing −2: 7');
  });

  it('routs the loser 2 average dice away, disorders whoever is within 6" behind it, and leaves flotsam', () => {
    const state = battle([...facing(0), { id: 'b2', side: 'b', x: 36, y: 27.5, heading: 180 }]);
    // b1's morale 1+1: routs; 2 average dice 5,5 → 10"; a1 then holds back from pursuit on 6+6.
    const { a, b } = beatenInMelee(state, [1, 1, 5, 5, 6, 6]);
    expect(b.status).toBe('routing');
    expect(b.y).toBeGreaterThan(20 + 1.378 + 9.9);
    expect(sq(state, 'b2').disordered).toBe(true);
    expect(state.flotsam).toHaveLength(1);
    expect(a.status).toBe('afloat');
  });

  it('sends a winner that fails its test in pursuit, unformed, and stops it when a later test passes', () => {
    const state = battle(facing(0));
    const { a, b } = beatenInMelee(state, [1, 1, 3, 3, 1, 1]);
    expect(a.status).toBe('pursuing');
    expect(a.formation).toBe('unformed');
    expect(distanceBetween(body(a), body(b))).toBeLessThan(0.01 + 1.4);
    // Next morale phase: the router runs 2 average dice, the pursuer tests at −2: 6+4−2 = 8 stops it.
    moralePhase(state, logWith([3, 3, 6, 4]).log);
    expect(a.status).toBe('afloat');
  });

  it('settles a squadron falling out of formation clear of the friend at its stern', () => {
    // a1 in line, disordered, a2 touching its stern: the unformed two-rank block is deeper than the line.
    const state = battle([
      { id: 'a1', side: 'a', x: 36, y: 20, heading: 0 },
      { id: 'a2', side: 'a', x: 36, y: 20 - DEPTH, heading: 0 },
      { id: 'b1', side: 'b', x: 36, y: 40, heading: 180 },
    ]);
    const a1 = sq(state, 'a1');
    a1.disordered = true;
    const { log, text } = logWith([1, 1]);
    expect(manoeuvreTest(state, a1, 'a wheel', log)).toBe(false);
    expect(text()).toContain('failed: unformed');
    expect(a1.formation).toBe('unformed');
    expect(overlapping(body(a1), body(sq(state, 'a2')))).toBe(false);
    // Nudged no farther than needed: half a stand's depth ahead, still touching a2.
    expect(a1.y).toBeCloseTo(20 + DEPTH / 2, 0);
    expect(a1.x).toBeCloseTo(36, 5);
    expect(distanceBetween(body(a1), body(sq(state, 'a2')))).toBeLessThan(0.3);
  });

  it('stops a pursuer short of a squadron in its way rather than on top of it', () => {
    // a2 lies where a1's pursuit would put it: 6" of rout (3, 3) north, then a stand's depth behind the router.
    const state = battle([...facing(0), { id: 'a2', side: 'a', x: 36, y: 25.4, heading: 0 }]);
    const { a } = beatenInMelee(state, [1, 1, 3, 3, 1, 1]);
    expect(a.status).toBe('pursuing');
    expect(a.formation).toBe('unformed');
    expect(overlapping(body(a), body(sq(state, 'a2')))).toBe(false);
    // As far along its run as there is room: its bows at a2's stern.
    expect(distanceBetween(body(a), body(sq(state, 'a2')))).toBeLessThan(0.3);
  });

  it('settles a pursuer with no room to set off clear of the friend at its stern, and it follows again later', () => {
    // a2 touches a1's stern: falling out of line into the deeper unformed block, a1 has no room even to set off
    // (the Convoy's bench seeds 19, 49, 73, 83: such a pursuer stayed where it was, its block on a friend).
    const state = battle([...facing(0), { id: 'a2', side: 'a', x: 36, y: 20 - DEPTH, heading: 0 }]);
    const a2 = sq(state, 'a2');
    const { a } = beatenInMelee(state, [1, 1, 3, 3, 1, 1]);
    expect(a.status).toBe('pursuing');
    expect(a.formation).toBe('unformed');
    expect(overlapping(body(a), body(a2))).toBe(false);
    // The next morale phase it fails to stop (1 + 1) and rows after its quarry, still clear of a2.
    moralePhase(state, logWith([3, 3, 1, 1]).log);
    expect(a.status).toBe('pursuing');
    expect(overlapping(body(a), body(a2))).toBe(false);
    expect(a.y).toBeGreaterThan(20 + DEPTH);
  });

  it('sends two pursuers of one router one behind the other, never on one spot', () => {
    const state = battle([
      { id: 'a1', side: 'a', x: 32, y: 20, heading: 0 },
      { id: 'a2', side: 'a', x: 40, y: 20, heading: 0 },
      { id: 'b1', side: 'b', x: 36, y: 20 + DEPTH, heading: 180 },
    ]);
    const b = sq(state, 'b1');
    engage(sq(state, 'a1'), b);
    engage(sq(state, 'a2'), b);
    b.testMorale = true;
    // b1 routs (1 + 1), runs 6" (3, 3); both winners fail to hold back (1 + 1 each).
    moralePhase(state, logWith([1, 1, 3, 3, 1, 1, 1, 1]).log);
    const [a1, a2] = [sq(state, 'a1'), sq(state, 'a2')];
    expect([a1.status, a2.status]).toEqual(['pursuing', 'pursuing']);
    expect(overlapping(body(a1), body(a2))).toBe(false);
    // And the next morale phase, both still pursuing (1 + 1 at −2), they follow again without meeting.
    moralePhase(state, logWith([3, 3, 1, 1, 1, 1]).log);
    expect([a1.status, a2.status]).toEqual(['pursuing', 'pursuing']);
    expect(overlapping(body(a1), body(a2))).toBe(false);
  });

  it('keeps one squadron in every melee: the higher morale roll stands when both would rout', () => {
    const state = battle(facing(0));
    engage(sq(state, 'a1'), sq(state, 'b1'));
    sq(state, 'a1').testMorale = true;
    sq(state, 'b1').testMorale = true;
    moralePhase(state, logWith([2, 2, 1, 1, 3, 3, 6, 6]).log);
    expect(sq(state, 'a1').status).toBe('afloat');
    expect(sq(state, 'b1').status).toBe('routing');
  });
});

describe('the event table', () => {
  const cases: [number, number, string][] = [
    [1, 1, 'watch for the wind'],
    [2, 2, 'good omen for Alpha'],
    [2, 3, 'navarch of Alpha'],
    [3, 3, 'no fleet has lost half'],
    [4, 5, 'navarch of Beta'],
    [5, 5, 'good omen for Beta'],
    [6, 6, 'watch for the wind'],
  ];
  it.each(cases)('%i + %i reads "%s"', (x, y, words) => {
    const state = battle(facing(30));
    const { log, text } = logWith([x, y, 3, 3, 3, 3]);
    eventPhase(state, log);
    expect(text()).toContain(words);
  });

  it("raises and drops morale one level, the strategos killed with his squadron's navarch", () => {
    const state = battle(facing(0, { strategos: true }));
    engage(sq(state, 'a1'), sq(state, 'b1'));
    eventPhase(state, logWith([2, 2]).log);
    expect(sq(state, 'a1').morale).toBe('determined');
    eventPhase(state, logWith([2, 3]).log);
    eventPhase(state, logWith([2, 3]).log);
    expect(sq(state, 'a1').morale).toBe('poorly-motivated');
    expect(state.sides[0].admiralKilled).toBe(true);
  });

  it('sends a fleet that lost half its squadrons (rounded up) off the field; both beaten roll off', () => {
    const state = battle([...facing(0), { id: 'a2', side: 'a', x: 10, y: 10, heading: 0 }, { id: 'b2', side: 'b', x: 60, y: 40, heading: 180 }]);
    sq(state, 'a1').status = 'routing';
    expect(beaten(state, 'a')).toBe(true);
    expect(beaten(state, 'b')).toBe(false);
    const { log } = logWith([3, 4]);
    expect(eventPhase(state, log)).toBe('a');
    sq(state, 'b1').status = 'destroyed';
    // Both beaten: Beta is the defender +1; Alpha rolls 3, Beta 3 + 1 = 4: Alpha leaves.
    const roll = logWith([3, 3]);
    expect(leavingFleet(state, roll.log)).toBe('a');
    expect(roll.text()).toContain('defending fleet +1');
  });
});

describe('diekplous and periplous', () => {
  const pair = (attacker: 'epi-pollon' | 'epi-mias', others: Spec[] = []) => {
    const state = battle([...facing(0, { formation: attacker }), ...others]);
    const a = sq(state, 'a1');
    // Put the attacker flush against the target's front.
    const b = sq(state, 'b1');
    a.y = b.y - 1.378 / 2 - (attacker === 'epi-pollon' ? 1.378 : 1.378 / 2);
    return { state, a, b };
  };

  it('diekplous, both succeed: the attacker aborts 6" back', () => {
    const { state, a, b } = pair('epi-pollon');
    const y = a.y;
    diekplous(state, a, b, logWith([3, 3, 3, 3]).log);
    expect(a.y).toBeCloseTo(y - 6);
    expect(a.engaged).toEqual([]);
  });

  it('diekplous, both fail: both disordered, the attacker in epi mias in melee', () => {
    const { state, a, b } = pair('epi-pollon');
    diekplous(state, a, b, logWith([1, 1, 1, 1]).log);
    expect([a.disordered, b.disordered, a.formation, a.engaged]).toEqual([true, true, 'epi-mias', ['b1']]);
  });

  it("diekplous, the attacker alone: in epi mias at the target's rear, Katastrophe", () => {
    const { state, a, b } = pair('epi-pollon');
    diekplous(state, a, b, logWith([4, 4, 1, 1]).log);
    expect(a.formation).toBe('epi-mias');
    expect(a.y).toBeGreaterThan(b.y);
    expect([b.formation, b.autoFail, b.katastrophe, a.flankAttacker]).toEqual(['unformed', true, true, true]);
  });

  it('diekplous, the defender alone: the attacker disordered, in epi pollon at the front', () => {
    const { state, a, b } = pair('epi-pollon');
    diekplous(state, a, b, logWith([1, 1, 4, 4]).log);
    expect([a.disordered, a.formation, a.engaged, b.katastrophe]).toEqual([true, 'epi-pollon', ['b1'], false]);
  });

  it('periplous, both succeed: both race offshore in epi keras 2 average dice, testing again next turn', () => {
    const { state, a, b } = pair('epi-mias');
    periplous(state, a, b, logWith([3, 3, 3, 3, 5, 5]).log);
    expect([a.status, b.status, a.formation, b.formation, a.raceTest]).toEqual(['racing', 'racing', 'epi-keras', 'epi-keras', true]);
  });

  it('periplous race: columns ending on a squadron in their way are set down clear of it and of each other', () => {
    const alone = pair('epi-mias');
    periplous(alone.state, alone.a, alone.b, logWith([3, 3, 3, 3, 5, 5]).log);
    // A friend of the attacker lies where the target's column ends.
    const { state, a, b } = pair('epi-mias', [{ id: 'a2', side: 'a', x: alone.b.x, y: alone.b.y, heading: 0, formation: 'epi-pollon' }]);
    periplous(state, a, b, logWith([3, 3, 3, 3, 5, 5]).log);
    expect([a.status, b.status]).toEqual(['racing', 'racing']);
    const bodies = state.squadrons.map(body);
    for (const [i, x] of bodies.entries()) for (const y of bodies.slice(i + 1)) expect(overlapping(x, y)).toBe(false);
    expect(Math.hypot(b.x - alone.b.x, b.y - alone.b.y)).toBeLessThan(5);
  });

  it('periplous, both fail: both disordered and race 1 average die', () => {
    const { state, a, b } = pair('epi-mias');
    periplous(state, a, b, logWith([1, 1, 1, 1, 2]).log);
    expect([a.disordered, b.disordered, a.status]).toEqual([true, true, 'racing']);
  });

  it('periplous, the attacker alone: square on the offshore flank in epi mias, Katastrophe', () => {
    const { state, a, b } = pair('epi-mias');
    periplous(state, a, b, logWith([4, 4, 1, 1]).log);
    expect([a.formation, b.katastrophe, a.engaged]).toEqual(['epi-mias', true, ['b1']]);
    expect(Math.abs(((a.heading - b.heading + 360) % 180) - 90)).toBeLessThan(1e-6);
  });

  it('periplous, the defender alone: the attacker disordered, melee at the front', () => {
    const { state, a, b } = pair('epi-mias');
    periplous(state, a, b, logWith([1, 1, 4, 4]).log);
    expect([a.disordered, a.engaged, b.katastrophe]).toEqual([true, ['b1'], false]);
  });

  it('refuses both to green crews and disordered squadrons', () => {
    const state = battle(facing(2, { formation: 'epi-pollon', quality: 'green' }));
    state.allowances.a1 = 4;
    const refusal = oiNavarcoi.check(state, 'a', {
      kind: 'move',
      squadron: 'a1',
      order: { type: 'advance', distance: 8, wheel: 0, turnAfter: 0, turn: 0 },
      attack: { target: 'b1', manoeuvre: 'diekplous' },
    });
    expect(refusal?.code).toBe('green_crew');
  });
});

describe('signals', () => {
  it("gives each side half its squadron count rounded up, one a turn, and the signal's manoeuvre untested", () => {
    const state = battle([
      ...facing(30, { formation: 'epi-keras' }),
      { id: 'a2', side: 'a', x: 10, y: 10, heading: 0 },
      { id: 'a3', side: 'a', x: 60, y: 10, heading: 0 },
    ]);
    expect(state.sides[0].signalsLeft).toBe(2);
    sq(state, 'a1').signals = [3];
    state.allowances = { a1: 3, a2: 3, a3: 3 };
    const given = oiNavarcoi.apply(state, 'a', { kind: 'signal', signal: 3 }, fixedDice([]));
    if (!given.ok) throw new Error(given.error.message);
    expect(oiNavarcoi.check(given.state, 'a', { kind: 'signal', signal: 3 })?.code).toBe('one_signal_a_turn');
    expect(oiNavarcoi.check(given.state, 'a', { kind: 'end-movement' })?.code).toBe('signal_owed');
    const moved = oiNavarcoi.apply(
      given.state,
      'a',
      { kind: 'move', squadron: 'a1', order: { type: 'advance', distance: 3, wheel: 0, turnAfter: 0, turn: 0 } },
      fixedDice([]),
    );
    if (!moved.ok) throw new Error(moved.error.message);
    expect(sq(moved.state, 'a1').formation).toBe('epi-mias');
    expect(moved.log.map((l) => l.text).join('\n')).toContain('obeys signal 3');
    expect(moved.log.flatMap((l) => l.rolls)).toHaveLength(0);
  });

  it('excuses a column with no room to deploy into line, so that the turn can still end', () => {
    // Friends lie across both sides of a1's lead stand, where signal 3 or 4 would put its line.
    const state = battle([
      { id: 'a1', side: 'a', x: 36, y: 20, heading: 0, formation: 'epi-keras' },
      { id: 'a2', side: 'a', x: 31, y: 23.2, heading: 0, formation: 'epi-mias' },
      { id: 'a3', side: 'a', x: 41, y: 23.2, heading: 0, formation: 'epi-mias' },
      { id: 'b1', side: 'b', x: 36, y: 44, heading: 180 },
    ]);
    sq(state, 'a1').signals = [3];
    state.allowances = { a1: 3, a2: 3, a3: 3 };
    const given = oiNavarcoi.apply(state, 'a', { kind: 'signal', signal: 3 }, fixedDice([]));
    if (!given.ok) throw new Error(given.error.message);
    expect(oiNavarcoi.check(given.state, 'a', { kind: 'end-movement' })).toBeNull();
    const moves = oiNavarcoi.legalActions(given.state, 'a').filter((a) => a.kind === 'move' && a.squadron === 'a1');
    expect(moves.length).toBeGreaterThan(0);
    const advance = { kind: 'move', squadron: 'a1', order: { type: 'advance', distance: 3, wheel: 0, turnAfter: 0, turn: 0 } } as const;
    const moved = oiNavarcoi.apply(given.state, 'a', advance, fixedDice([]));
    if (!moved.ok) throw new Error(moved.error.message);
    expect(sq(moved.state, 'a1').formation).toBe('epi-keras');
    expect(moved.log.map((l) => l.text).join('\n')).not.toContain('obeys signal');
  });
});

describe('contact', () => {
  it('a flank attack by an unformed squadron: both fail their first test, neither is spared its failure', async () => {
    const { contactMade } = await import('../../shared/naval/oi-navarcoi/melee.ts');
    const state = battle(facing(0, { formation: 'unformed' }));
    const a = sq(state, 'a1');
    const b = sq(state, 'b1');
    contactMade(state, a, b, 'left', logWith([]).log);
    expect([a.autoFail, b.autoFail, a.flankAttacker, b.flankAttacker]).toEqual([true, true, false, false]);
    battleTests(state, logWith([]).log);
    expect([a.testMorale, b.testMorale]).toEqual([true, true]);
  });

  it('a column met in front is disordered and forms line next movement', async () => {
    const { contactMade } = await import('../../shared/naval/oi-navarcoi/melee.ts');
    const state = battle(facing(0, {}, { formation: 'epi-keras' }));
    contactMade(state, sq(state, 'a1'), sq(state, 'b1'), 'front', logWith([]).log);
    expect([sq(state, 'b1').disordered, sq(state, 'b1').mustFormLine]).toEqual([true, true]);
  });
});

describe('formations and their changes (Annex I)', () => {
  it('lays out 4 stands of 5 × 3.5 cm: a line, two ranks, a column, a ring', async () => {
    const { bodyOf, standsOf } = await import('../../shared/naval/oi-navarcoi/layout.ts');
    const frame = { x: 30, y: 20, heading: 0 };
    const cm = 1 / 2.54;
    expect(bodyOf('epi-mias', 4, frame)).toMatchObject({ width: expect.closeTo(20 * cm, 9), length: expect.closeTo(3.5 * cm, 9) });
    expect(bodyOf('epi-pollon', 4, frame)).toMatchObject({ width: expect.closeTo(10 * cm, 9), length: expect.closeTo(7 * cm, 9) });
    expect(bodyOf('epi-keras', 4, frame)).toMatchObject({ width: expect.closeTo(3.5 * cm, 9), length: expect.closeTo(20 * cm, 9) });
    const ring = standsOf('kyklos', 4, frame);
    expect(new Set(ring.map((s) => Math.round(s.heading)))).toEqual(new Set([0, 90, 180, 270]));
    for (let i = 0; i < ring.length; i++) for (let j = i + 1; j < ring.length; j++) expect(overlapping(ring[i], ring[j])).toBe(false);
  });

  it('epi mias to epi pollon keeps the front edge; epi keras deploys into line beside its lead stand; turning keeps the centre', async () => {
    const { bodyOf, changedFrame, standsOf } = await import('../../shared/naval/oi-navarcoi/layout.ts');
    const frame = { x: 30, y: 20, heading: 0 };
    const line = bodyOf('epi-mias', 4, frame);
    const pollon = changedFrame('epi-mias', 'epi-pollon', 4, frame, 'right');
    const block = bodyOf('epi-pollon', 4, pollon);
    expect(block.y + block.length / 2).toBeCloseTo(line.y + line.length / 2);
    // The right-hand pair fell in behind: the block keeps the left end.
    expect(block.x - block.width / 2).toBeCloseTo(line.x - line.width / 2);
    const column = { x: 30, y: 20, heading: 90 };
    const lead = standsOf('epi-keras', 4, column)[0];
    const deployed = changedFrame('epi-keras', 'epi-mias', 4, column, 'right', 'deploy');
    const stands = standsOf('epi-mias', 4, deployed);
    expect(deployed.heading).toBe(90);
    // The lead stand's front edge is the new front; the line runs to its right (south, heading east).
    expect(stands[0].x + stands[0].length / 2).toBeCloseTo(lead.x + lead.length / 2);
    expect(stands[0].y).toBeCloseTo(lead.y);
    expect(stands[3].y).toBeLessThan(lead.y);
    const turned = changedFrame('epi-mias', 'epi-keras', 4, frame, 'left');
    expect([turned.x, turned.y, turned.heading]).toEqual([30, 20, 270]);
  });
});
