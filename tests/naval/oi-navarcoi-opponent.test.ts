/** The Oi Navarcoi! computer opponent: every choice legal, the attack it prefers, the way round the land, and battles won. */
import { describe, expect, it } from 'vitest';
import { fixedDice } from '../../shared/naval/dice.ts';
import { oiNavarcoi } from '../../shared/naval/oi-navarcoi/engine.ts';
import { approachField } from '../../shared/naval/oi-navarcoi/opponent-field.ts';
import { attackOptions, moveOptions } from '../../shared/naval/oi-navarcoi/opponent-moves.ts';
import { planMove } from '../../shared/naval/oi-navarcoi/movement.ts';
import { opponent } from '../../shared/naval/oi-navarcoi/opponent.ts';
import { type Player, playBattle, randomPlayer } from '../../shared/naval/oi-navarcoi/play.ts';
import { scenarios } from '../../shared/naval/oi-navarcoi/scenarios.ts';
import { DEPTH, battle, sq } from './oi-navarcoi-helpers.ts';

const setupOf = (id: string) => scenarios.find((s) => s.id === id)!.setup;

/** The opponent, each of its choices checked by the engine before it is applied. */
const checked: Player = (state, side, random) => {
  const action = opponent(state, side, random);
  const refusal = oiNavarcoi.check(state, side, action);
  if (refusal) throw new Error(`the opponent chose an illegal action (${refusal.code}: ${refusal.message}): ${JSON.stringify(action)}`);
  return action;
};

/** Whether a choice starts a fight: signal 5 (engage) or a move with an attack. */
const fights = (action: ReturnType<typeof opponent>) => action.kind === 'signal' || (action.kind === 'move' && action.attack !== undefined);

describe('the Oi Navarcoi! computer opponent', () => {
  it('attacks the enemy caught unformed rather than the one in line', () => {
    const state = battle([
      { id: 'a1', side: 'a', x: 36, y: 20, heading: 0, formation: 'epi-pollon' },
      { id: 'b1', side: 'b', x: 30, y: 25, heading: 180, formation: 'epi-mias' },
      { id: 'b2', side: 'b', x: 42, y: 25, heading: 180, formation: 'unformed' },
    ]);
    state.allowances = { a1: 4 };
    const action = opponent(state, 'a', () => 0.5);
    expect(action).toMatchObject({ kind: 'move', squadron: 'a1', attack: { target: 'b2' } });
    expect(oiNavarcoi.check(state, 'a', action)).toBeNull();
  });

  it('considers the moves cut to half speed across flotsam, which the full moves are refused', () => {
    // Crossing the wreckage of a melee a squadron may use only half its allowance (epi pollon: 4" of its 8").
    const state = battle([
      { id: 'a1', side: 'a', x: 36, y: 10, heading: 0, formation: 'epi-pollon' },
      { id: 'b1', side: 'b', x: 36, y: 40, heading: 180, formation: 'epi-mias' },
    ]);
    state.flotsam.push({ x: 36, y: 14, heading: 0, width: 40, length: 1 });
    const full = { kind: 'move', squadron: 'a1', order: { type: 'advance', distance: 8, wheel: 0, turnAfter: 0, turn: 0 } } as const;
    expect(oiNavarcoi.check(state, 'a', full)?.code).toBe('flotsam');
    const ahead = moveOptions(state, sq(state, 'a1'), null, false).filter((o) => o.action.order.type === 'advance' && o.plan.crossedFlotsam);
    expect(ahead.length).toBeGreaterThan(0);
    for (const o of ahead) {
      expect(oiNavarcoi.check(state, 'a', o.action)).toBeNull();
      if (o.action.order.type === 'advance') expect(o.action.order.distance).toBeLessThanOrEqual(4);
    }
  });

  it('measures the way to an enemy round the land, not straight across it', () => {
    const setup = setupOf('ambush');
    const state = oiNavarcoi.start(setup, fixedDice([])).state;
    // The raiders' van lies at (46, 22), just beyond the cape (x 36-72, y 0-18); from the Corcyraeans' lee at
    // (30, 10) the straight line crosses the cape, and the way runs north round its tip.
    const field = approachField(state, 'corcyra', () => 0);
    const straight = Math.hypot(46 - 30, 22 - 10);
    expect(field.at({ x: 30, y: 10 })).toBeGreaterThan(straight + 3);
    expect(field.at({ x: 30, y: 10 })).toBeLessThan(straight + 12);
    // On the cape itself there is no way at all.
    expect(field.at({ x: 54, y: 6 })).toBe(Number.POSITIVE_INFINITY);
  });

  it('measures the way to one enemy round a squadron of ours held in melee, not through it', () => {
    // b1's line abreast (8" wide) lies between b2 and a2, fighting a1: until its melee ends it does not move.
    const state = battle([
      { id: 'a1', side: 'a', x: 20, y: 30, heading: 90, formation: 'epi-mias' },
      { id: 'b1', side: 'b', x: 36, y: 30, heading: 0, formation: 'epi-mias' },
      { id: 'a2', side: 'a', x: 36, y: 44, heading: 180, formation: 'epi-mias' },
      { id: 'b2', side: 'b', x: 36, y: 16, heading: 0, formation: 'epi-pollon' },
    ]);
    const from = { x: 36, y: 16 };
    const straight = 44 - 16;
    const free = approachField(state, 'b', () => 0, 'a2').at(from);
    expect(free).toBeLessThan(straight + 2);
    sq(state, 'a1').engaged = ['b1'];
    sq(state, 'b1').engaged = ['a1'];
    expect(approachField(state, 'b', () => 0, 'a2').at(from)).toBeGreaterThan(free + 2);
    // The field every squadron shares (all enemies at once) is not changed by it.
    expect(approachField(state, 'b', () => 0).at(from)).toBeLessThan(straight + 2);
  });

  it('sends a squadron of a side the clock is against to an enemy nobody fights, not the one held in melee', () => {
    // Bottled up's Mytilene must beat every Athenian squadron before the turns run out: b2 rows for a2, which
    // nobody fights, rather than for a1, nearer but already held in melee by b1.
    const state = battle(
      [
        { id: 'a1', side: 'a', x: 30, y: 24, heading: 0, formation: 'epi-mias' },
        { id: 'b1', side: 'b', x: 30, y: 24 + DEPTH, heading: 180, formation: 'epi-mias' },
        { id: 'a2', side: 'a', x: 62, y: 24, heading: 0, formation: 'epi-mias' },
        { id: 'b2', side: 'b', x: 40, y: 12, heading: 0, formation: 'epi-pollon' },
      ],
      { scenario: 'bottled-up' },
    );
    sq(state, 'a1').engaged = ['b1'];
    sq(state, 'b1').engaged = ['a1'];
    state.acting = 'b';
    state.allowances = { b2: 8 };
    const action = opponent(state, 'b', () => 0.5);
    expect(action).toMatchObject({ kind: 'move', squadron: 'b2' });
    expect(oiNavarcoi.check(state, 'b', action)).toBeNull();
    if (action.kind !== 'move') return;
    const plan = planMove(state, sq(state, 'b2'), action, null);
    if (!plan.ok) throw new Error(plan.message);
    const after = plan.frame;
    const to = (id: string, q: { x: number; y: number }) => Math.hypot(sq(state, id).x - q.x, sq(state, id).y - q.y);
    // Closer to a2 by more than it came to a1, and turned towards it (east of north).
    expect(to('a2', sq(state, 'b2')) - to('a2', after)).toBeGreaterThan(to('a1', sq(state, 'b2')) - to('a1', after));
    expect(after.x).toBeGreaterThan(40);
  });

  it('turns a squadron away whose bows lie on the cape, rather than holding it there to the end', () => {
    // The Ambush: Corcyra's line abreast has rowed up to the cape's western face (x 36). Every advance and wheel is
    // refused, so holding still would score as well as anything; it turns away (about face or change of front).
    const state = oiNavarcoi.start(setupOf('ambush'), fixedDice([])).state;
    for (const s of state.sides) s.deployed = true;
    Object.assign(state, { phase: 'move', turn: 3, acting: 'corcyra' });
    Object.assign(sq(state, 'cor-1'), { x: 20, y: 30 });
    Object.assign(sq(state, 'cor-3'), { x: 12, y: 40 });
    Object.assign(sq(state, 'cor-2'), { x: 35, y: 9, heading: 90, formation: 'epi-pollon' });
    state.allowances = { 'cor-2': 8 };
    const stuck = sq(state, 'cor-2');
    expect(moveOptions(state, stuck, null, false).some((o) => o.action.order.type === 'advance')).toBe(false);
    const action = opponent(state, 'corcyra', () => 0.5);
    expect(action).toMatchObject({ kind: 'move', squadron: 'cor-2' });
    expect(oiNavarcoi.check(state, 'corcyra', action)).toBeNull();
    if (action.kind !== 'move') return;
    const plan = planMove(state, stuck, action, null);
    if (!plan.ok) throw new Error(plan.message);
    expect(Math.abs(((plan.frame.heading - 90 + 540) % 360) - 180)).toBeGreaterThan(45);
  });

  it('holds an unformed, disordered squadron near the enemy still to rally before re-forming, unless time is short', () => {
    // Within 8" of the enemy an average crew passes its manoeuvre test at 42 %, and an unformed squadron still
    // disordered that fails stays unformed; one that held still has rallied, and its next try re-forms it for sure.
    const state = battle(
      [
        { id: 'a1', side: 'a', x: 36, y: 28, heading: 180, formation: 'epi-pollon' },
        { id: 'b1', side: 'b', x: 36, y: 20, heading: 0, formation: 'unformed' },
      ],
      { scenario: 'bottled-up' },
    );
    sq(state, 'b1').disordered = true;
    state.acting = 'b';
    state.turn = 3;
    state.allowances = { b1: 2 };
    const early = opponent(state, 'b', () => 0.5);
    expect(early).toMatchObject({ kind: 'move', squadron: 'b1', order: { type: 'hold' } });
    expect(oiNavarcoi.check(state, 'b', early)).toBeNull();
    // With the last two turns to play, no turn would be left to use the rally: it tries to re-form at once.
    state.turn = state.turnLimit - 1;
    const late = opponent(state, 'b', () => 0.5);
    expect(late).toMatchObject({ kind: 'move', squadron: 'b1', order: { type: 'form' } });
    expect(oiNavarcoi.check(state, 'b', late)).toBeNull();
  });

  it('takes an even fight bow to bow only when the score at the turn limit needs it', () => {
    // The Clash goes at the limit to the fleet that lost the smaller share of its squadrons. Ahead, a fleet keeps what
    // it has; level with turns to spare, an even fight is a coin tossed for the battle; behind, it must fight.
    const state = battle([
      { id: 'a1', side: 'a', x: 36, y: 20, heading: 0, formation: 'epi-pollon' },
      { id: 'a2', side: 'a', x: 8, y: 6, heading: 0, formation: 'epi-pollon' },
      { id: 'b1', side: 'b', x: 36, y: 20 + 2 * DEPTH + 3, heading: 180, formation: 'epi-pollon' },
      { id: 'b2', side: 'b', x: 64, y: 42, heading: 180, formation: 'epi-pollon' },
    ]);
    state.turn = 2;
    state.allowances = { a1: 8, a2: 8 };
    const level = opponent(state, 'a', () => 0.5);
    expect(fights(level), JSON.stringify(level)).toBe(false);
    expect(oiNavarcoi.check(state, 'a', level)).toBeNull();
    sq(state, 'b2').status = 'gone';
    const ahead = opponent(state, 'a', () => 0.5);
    expect(fights(ahead), JSON.stringify(ahead)).toBe(false);
    expect(oiNavarcoi.check(state, 'a', ahead)).toBeNull();
    sq(state, 'b2').status = 'afloat';
    sq(state, 'a2').status = 'gone';
    const behind = opponent(state, 'a', () => 0.5);
    expect(fights(behind), JSON.stringify(behind)).toBe(true);
    expect(oiNavarcoi.check(state, 'a', behind)).toBeNull();
  });

  it('fights on in the last turns once its fleet has lost half its squadrons, though its scenario would have it hold', () => {
    // Bottled up's invaders win at nightfall for surviving, so they strike only where the enemy must fail; but night
    // sends a fleet that lost half its squadrons away (flow.ts), and only beating the enemy as badly can save it.
    const state = battle(
      [
        { id: 'a1', side: 'a', x: 36, y: 20, heading: 0, formation: 'epi-pollon' },
        { id: 'a2', side: 'a', x: 8, y: 6, heading: 0, formation: 'epi-pollon' },
        { id: 'b1', side: 'b', x: 36, y: 27, heading: 180, formation: 'kyklos' },
        { id: 'b2', side: 'b', x: 64, y: 42, heading: 180, formation: 'epi-pollon' },
      ],
      { scenario: 'bottled-up' },
    );
    state.allowances = { a1: 8, a2: 8 };
    state.turn = state.turnLimit - 1;
    const whole = opponent(state, 'a', () => 0.5);
    expect(fights(whole), JSON.stringify(whole)).toBe(false);
    expect(oiNavarcoi.check(state, 'a', whole)).toBeNull();
    sq(state, 'a2').status = 'destroyed';
    const beaten = opponent(state, 'a', () => 0.5);
    expect(fights(beaten), JSON.stringify(beaten)).toBe(true);
    expect(oiNavarcoi.check(state, 'a', beaten)).toBeNull();
  });

  it('holds off an attack at a disadvantage while the clock leaves time, and makes it when time runs short', () => {
    // Defending the land: the invader must beat the defender before the turn limit. Epi pollon into a kyklos (one
    // rank worse, no flank to take) starts a long melee it tends to lose; early on it waits for a better chance.
    const state = battle(
      [
        { id: 'a1', side: 'a', x: 36, y: 20, heading: 0, formation: 'epi-pollon' },
        { id: 'b1', side: 'b', x: 36, y: 27, heading: 180, formation: 'kyklos' },
      ],
      { scenario: 'defending-land' },
    );
    state.allowances = { a1: 8 };
    state.turn = 2;
    const early = opponent(state, 'a', () => 0.5);
    expect(fights(early), JSON.stringify(early)).toBe(false);
    expect(oiNavarcoi.check(state, 'a', early)).toBeNull();
    // Five turns from the end it must press: the same attack is made.
    state.turn = state.turnLimit - 4;
    const late = opponent(state, 'a', () => 0.5);
    expect(fights(late), JSON.stringify(late)).toBe(true);
    expect(oiNavarcoi.check(state, 'a', late)).toBeNull();
  });

  it('turns to face an enemy behind it that it could attack next turn, rather than hold with its stern to it', () => {
    // a1 in line faces south; a disordered column lies 6" off its port quarter, beyond this move's reach.
    const state = battle([
      { id: 'a1', side: 'a', x: 36, y: 20, heading: 180, formation: 'epi-mias' },
      { id: 'b1', side: 'b', x: 40.5, y: 24.1, heading: 250, formation: 'epi-keras' },
      { id: 'b2', side: 'b', x: 50, y: 44, heading: 180, formation: 'epi-mias' },
    ]);
    sq(state, 'b1').disordered = true;
    state.allowances = { a1: 3 };
    state.turn = 6;
    const action = opponent(state, 'a', () => 0.5);
    expect(action).toEqual({ kind: 'move', squadron: 'a1', order: { type: 'about-face' } });
    expect(oiNavarcoi.check(state, 'a', action)).toBeNull();
  });

  it('counts a run across flotsam as made disordered: it declines the attack whose failed test would leave it unformed', () => {
    // Flotsam lies across a1's bows: crossing it disorders a1 before its contact test, and a disordered squadron
    // failing that test (an average crew near the enemy fails 72 % of the time) goes unformed and is caught as if flanked.
    const state = battle([
      { id: 'a1', side: 'a', x: 36, y: 20, heading: 0, formation: 'epi-pollon' },
      { id: 'b1', side: 'b', x: 32.5, y: 25, heading: 180, formation: 'epi-pollon' },
      { id: 'b2', side: 'b', x: 39.5, y: 25, heading: 180, formation: 'epi-pollon' },
    ]);
    sq(state, 'b1').disordered = true;
    state.flotsam.push({ x: 34, y: 22.3, heading: 0, width: 1, length: 1 });
    state.turn = 11;
    state.allowances = { a1: 8 };
    const attacks = attackOptions(state, sq(state, 'a1'), null);
    expect(attacks.length).toBeGreaterThan(0);
    expect(attacks.every((o) => o.plan.crossedFlotsam && o.plan.test)).toBe(true);
    const action = opponent(state, 'a', () => 0.5);
    expect(action.kind === 'move' && action.attack, JSON.stringify(action)).toBeFalsy();
    expect(oiNavarcoi.check(state, 'a', action)).toBeNull();
  });

  it('chooses only legal actions and wins a fixed set of battles against random legal play', () => {
    // One battle per scenario, the computer on the side its scenario's goal favours it to win most often.
    const set: [string, string, number][] = [
      ['clash', 'athens', 1],
      ['defending-land', 'syracuse', 2],
      ['meeting', 'athens', 3],
      ['ambush', 'raiders', 4],
      ['bottled-up', 'athens', 5],
      ['convoy', 'syracuse', 6],
      ['amphibious', 'athens', 7],
    ];
    let won = 0;
    for (const [id, computer, seed] of set) {
      const setup = setupOf(id);
      const other = setup.sides.find((s) => s.id !== computer)!.id;
      const played = playBattle(setup, `opponent-test-${seed}-padding`, `salt-${id}`, { [computer]: checked, [other]: randomPlayer }, seed);
      expect(played.state.outcome, id).not.toBeNull();
      if (played.state.outcome?.winner === computer) won++;
    }
    expect(won / set.length).toBeGreaterThanOrEqual(0.85);
  }, 60_000);
});
