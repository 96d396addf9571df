/**
 * The computer opponent. It writes signal 5 (engage) for every squadron and gives it when the squadrons bound by
 * it have attacks worth making, their contact then spared the manoeuvre test; it moves second when it wins the
 * initiative, so that enemies come into reach. Each attack is valued by the first round of melee it starts: a
 * flank, a rear or an unformed enemy fails at once and tests with Katastrophe, while a squadron of ours made
 * unformed by failing its contact test while disordered suffers the same; then the formation differential,
 * crews, disorder, and the diekplous or periplous by the chances of their four outcomes. A side the scenario's
 * clock favours strikes only where the enemy must fail and otherwise keeps its distance (opponent-posture.ts); a
 * side the clock is against takes no attack at a disadvantage while more than six turns are left, stops rallying from
 * disorder six turns from the end and in its last three takes any attack short of a Katastrophe of its own, and
 * sends each squadron to an enemy of its own (opponent-assign.ts);
 * where the turn limit counts the share of squadrons lost, the score sets the stance (opponent-posture.ts: ahead, as
 * the clock favours; level, only attacks with an edge until the last turns); the others close in epi pollon on the
 * enemy most worth it, rowing round the land (opponent-field.ts; freighters first, then squadrons at anchor, bows on
 * the beach and so open to an attack in the rear), rallying from disorder while no enemy is near. Freighters sail
 * downwind to their exit. In the Amphibious battle the invader's phalanx charges (the land battle's end is the
 * invader's goal) and the defender's holds. Only a short list of moves is planned per decision (opponent-moves.ts),
 * and the one chosen is checked as any action.
 */
import { distanceBetween, turnBetween } from '../table/index.ts';
import { aheadBy } from './contact.ts';
import type { Action, MoveAction } from './actions.ts';
import { bodyOf } from './layout.ts';
import { checkMove, endRefusal, legalActions, signalFor, signalRefusal, squadronMoves } from './legal.ts';
import { allowanceOf, canMove } from './movement.ts';
import { assignEnemies } from './opponent-assign.ts';
import { type Field, approachField } from './opponent-field.ts';
import { type Option, attackOptions, moveOptions } from './opponent-moves.ts';
import { SCORE_TURNS, type Stance, goalWeight, scoreLead, scoredStance, turnsLeft } from './opponent-posture.ts';
import { RULES } from './rules.ts';
import { type Squadron, type State, body, launchable, moraleMod, onTable, qualityMod, shipsMod, standCount } from './state.ts';
import type { Base } from '../table/index.ts';

const rank = (f: Squadron['formation']) => RULES.formations[f].meleeRank;

/** P(2d6 ≥ k). */
function atLeast(k: number): number {
  let n = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b >= k) n++;
  return n / 36;
}

/** The chance `q` passes a manoeuvre test (near: within 8" of an enemy afterwards). */
const manoeuvrePass = (q: Squadron, near: boolean): number =>
  atLeast(RULES.manoeuvreTest.passOn - qualityMod(q, true) - (near ? RULES.manoeuvreTest.nearEnemyModifier : 0));

/** The chance `q` passes a diekplous or periplous test. */
const specialPass = (q: Squadron, disordered = q.disordered): number =>
  atLeast(RULES.specialAttack.passOn - qualityMod(q) - shipsMod(q) + (disordered ? -RULES.battleTest.disorderedModifier : 0));

/** Whether `q` is disordered when its move's test is taken: a run across flotsam disorders it first (engine.ts). */
const disorderedAtTest = (q: Squadron, o: Option): boolean => q.disordered || o.plan.crossedFlotsam;

/** What a melee begun at an enemy's flank, rear or unformed body is worth beyond an even fight. */
const KATASTROPHE = 70;
/** Value per point of battle-test modifier in our favour. */
const EDGE = 15;

/** How much an attack is worth: the first round of the melee it starts, and the scenario's goals. */
function attackValue(state: State, q: Squadron, o: Option): number {
  const attack = o.action.attack!;
  const t = state.squadrons.find((x) => x.id === attack.target)!;
  const side = o.plan.contact!.side;
  const pass = o.plan.test ? manoeuvrePass(q, true) : 1;
  // A disordered squadron failing its contact test goes unformed and fights as if flanked.
  const disordered = disorderedAtTest(q, o);
  const usUnformed = o.plan.formation === 'unformed' ? 1 : disordered ? 1 - pass : 0;
  const column = o.plan.formation === 'epi-keras';
  const usDisordered = disordered || column ? 1 : 1 - pass;
  const plain = (ourRank: number, flank: boolean, disorder: number): number => {
    const caught = flank || t.formation === 'unformed';
    let edge = qualityMod(q) - (t.freighters ? -1 : qualityMod(t)) - disorder + (t.disordered ? 1 : 0);
    edge += 0.5 * (moraleMod(q) - moraleMod(t));
    if (!caught) edge += Math.min(0, rank(t.formation) - ourRank) - Math.min(0, ourRank - rank(t.formation));
    let v = EDGE * edge;
    if (caught) v += KATASTROPHE * (1 - usUnformed);
    v -= KATASTROPHE * usUnformed;
    return v;
  };
  const flank = side !== 'front' && t.formation !== 'kyklos';
  const asMelee = plain(rank(o.plan.formation), flank, usDisordered);
  let v = asMelee;
  if (attack.manoeuvre !== 'melee' && !disordered) {
    // The special attack is made only by a squadron still in order at contact (disordered, it attacks plainly).
    const a = specialPass(q, false);
    const d = specialPass(t);
    const failedAlone = plain(rank(o.plan.formation), false, 1) - 5;
    const bothFail = plain(rank('epi-mias'), false, 1);
    const special =
      attack.manoeuvre === 'diekplous'
        ? a * (1 - d) * plain(rank('epi-mias'), true, 0) + (1 - a) * d * failedAlone + (1 - a) * (1 - d) * bothFail
        : a * (1 - d) * plain(rank('epi-mias'), true, 0) + (1 - a) * d * failedAlone - (a * d + (1 - a) * (1 - d)) * 10;
    v = pass * special + (1 - pass) * plain(rank(o.plan.formation), flank, 1);
  }
  v += 2 * goalWeight(t);
  // Freighters routed towards their exit edge get away: strike those near it from the exit's side.
  if (t.freighters && state.convoyExit === 'north' && t.y > state.table.depth - 16 && q.y < t.y) v -= 50;
  return v;
}

/** The nearest enemy warship's distance from body `b` (any enemy if none is left). */
function nearestEnemy(state: State, side: string, b: Base): number {
  let best = Number.POSITIVE_INFINITY;
  for (const o of state.squadrons) if (o.side !== side && onTable(o) && !o.freighters) best = Math.min(best, distanceBetween(b, body(o)));
  if (best === Number.POSITIVE_INFINITY) for (const o of state.squadrons) if (o.side !== side && onTable(o)) best = Math.min(best, distanceBetween(b, body(o)));
  return best;
}

/** About how far each formation rows in a move (epi mias and unformed by the average die). */
const SPEED: Record<Squadron['formation'], number> = { 'epi-mias': 3.5, 'epi-pollon': 8, 'epi-keras': 8, kyklos: 0, unformed: 2.5 };

/** What reaching enemy `e` is worth, in inches of rowing: its goal, and a soft target's weakness. */
const worthOf = (e: Squadron) => goalWeight(e) + (e.formation === 'unformed' || e.disordered ? 4 : 0);

/**
 * What a squadron whose every advance and wheel is refused (bows on a cape's tip, a friend or the table's edge)
 * loses by holding still or re-forming where it lies, facing the same way (inches of rowing): another move lost.
 */
const STUCK_COST = 20;

/** How much a move that makes no attack is worth. */
function moveValue(state: State, q: Squadron, o: Option, stance: Stance, nearNow: number, field: Field | null): number {
  const after = bodyOf(o.plan.formation, standCount(q), o.plan.frame);
  const near = nearestEnemy(state, q.side, after);
  const f = o.plan.formation;
  let v: number;
  if (stance === 'hold') {
    v = Math.min(near, 18);
    v += f === 'epi-mias' || f === 'epi-pollon' ? 4 : f === 'kyklos' ? (near < 10 ? 8 : -20) : f === 'epi-keras' ? (near < 12 ? -8 : 0) : -30;
  } else {
    // How far it has to row from where it ends and from where its next full move ahead would take it: facing the
    // way counts (round the land, by the field; straight when the field has no way).
    const here = field ? field.at(after) : Number.POSITIVE_INFINITY;
    const cost = Number.isFinite(here) ? here : nearestEnemy(state, q.side, after);
    const next = field ? field.at(aheadBy(after, SPEED[f])) : Number.POSITIVE_INFINITY;
    v = -cost - (Number.isFinite(next) ? Math.min(next, cost) : cost);
    // Squadrons bunched together block each other's wheels and runs.
    for (const o of state.squadrons) if (o.side === q.side && o.id !== q.id && onTable(o) && distanceBetween(after, body(o)) < 2) v -= 4;
    // Epi pollon is the working formation: 8" a move, wheels, changes front, one rank below epi mias in melee.
    if (near < 10) v += f === 'epi-pollon' ? 6 : f === 'epi-mias' ? (near < 3 ? 6 : 0) : f === 'epi-keras' ? -8 : f === 'kyklos' ? -40 : -25;
    else v += f === 'epi-pollon' ? 6 : f === 'epi-keras' ? 4 : f === 'epi-mias' ? -2 : f === 'kyklos' ? -40 : -25;
  }
  // Failing the test disordered leaves it unformed.
  if (o.plan.test) v -= (1 - manoeuvrePass(q, near <= RULES.manoeuvreTest.nearEnemyInches)) * (disorderedAtTest(q, o) ? 35 : 12);
  if (o.plan.crossedFlotsam) v -= 10;
  // Unformed and disordered, an average crew re-forms near the enemy at 42 % a try and stays unformed on a failure;
  // holding still rallies it, and its next try cannot leave it unformed: it holds while a turn is left to use it.
  if (q.formation === 'unformed' && q.disordered && o.plan.stationary && turnsLeft(state) >= REFORM_TURNS) v += REFORM_RALLY;
  // Rallying costs a whole move: a side the clock is against rallies only while it has turns to spare.
  if (q.disordered && o.plan.stationary && nearNow > 9 && !(stance === 'hurry' && turnsLeft(state) <= RALLY_TURNS)) v += 14;
  return v;
}

/**
 * A move that makes no attack is also worth a share of the best attack it leaves open next turn (counted as if the
 * enemy stood still): turning to face an unformed enemy off the beam, or closing to a run's length of it, is then
 * worth more than holding beside it for turns. A side the clock is against does not count an enemy held in melee
 * by another of its squadrons (opponent-assign.ts sends each to its own), or they would pile onto it again.
 */
const NEXT_ATTACK_SHARE = 0.5;

function nextAttackValue(state: State, q: Squadron, o: Option, worth: number, own?: string): number {
  if (o.plan.formation === 'kyklos') return 0;
  const moved: Squadron = { ...q, ...o.plan.frame, formation: o.plan.formation, moved: false };
  const after: State = { ...state, squadrons: state.squadrons.map((x) => (x.id === q.id ? moved : x)) };
  let best = 0;
  for (const a of attackOptions(after, moved, null, false)) {
    const target = a.action.attack!.target;
    if (own && target !== own && after.squadrons.some((x) => x.id === target && x.engaged.length > 0)) continue;
    best = Math.max(best, attackValue(after, moved, a));
  }
  return best >= worth ? NEXT_ATTACK_SHARE * best : 0;
}

/** What holding still to rally is worth to an unformed, disordered squadron (inches), and the turns left it needs. */
const REFORM_RALLY = 20;
const REFORM_TURNS = 3;

/** Freighters sail towards their exit, away from enemy warships. */
function freighterValue(state: State, q: Squadron, o: Option): number {
  const after = bodyOf(o.plan.formation, standCount(q), o.plan.frame);
  const exit = state.convoyExit;
  const progress = exit === 'north' ? after.y : exit === 'south' ? -after.y : exit === 'east' ? after.x : -after.x;
  return progress - 0.5 * Math.max(0, 10 - nearestEnemy(state, q.side, after));
}

/** The lowest value of an attack worth making, by stance: a side the clock is against takes worse odds. */
const WORTH = { attack: -25, hurry: -40, hold: 45 } as const;
/** In its last turns a side the clock is against takes any attack short of a Katastrophe of its own. */
const LAST_TURNS = 3;
const WORTH_LAST = -65;
/** Level on the score, a side asks this of an attack until its last turns (then it must press for a result). */
const WORTH_LEVEL = 40;
/**
 * With more than this many turns left a side the clock is against takes only attacks worth `WORTH_EARLY` or more:
 * an attack at a disadvantage (epi pollon into a kyklos, a tested wheel into a front) started long melees it lost,
 * while waiting a turn or two found the enemy unformed or disordered.
 */
const EARLY_TURNS = 6;
const WORTH_EARLY = 0;
/** A side the clock is against stops rallying from disorder this many turns before the end. */
const RALLY_TURNS = 6;

/** The lowest value of an attack worth making now (the same for the whole decision: reckon it once). */
function worthNow(state: State, side: string, stance: Stance): number {
  if (stance === 'hurry' && turnsLeft(state) <= LAST_TURNS) return WORTH_LAST;
  if (stance === 'hurry' && turnsLeft(state) > EARLY_TURNS) return WORTH_EARLY;
  // Level on the score with turns to spare, an even fight is a coin tossed for the battle: only an edge is taken.
  if (stance === 'attack' && turnsLeft(state) > SCORE_TURNS && scoreLead(state, side) === 0) return WORTH_LEVEL;
  return WORTH[stance];
}

/** The first of `options` by value that the engine accepts. */
function bestChecked(state: State, side: string, scored: { action: MoveAction; value: number }[]): MoveAction | null {
  scored.sort((a, b) => b.value - a.value);
  for (const s of scored) if (!checkMove(state, side, s.action)) return s.action;
  return null;
}

/** Whether signal 5 is worth giving now: every squadron it binds has an attack worth making, untested. */
function engageNow(state: State, side: string, worth: number, movers: Squadron[]): boolean {
  if (signalRefusal(state, side, 5)) return false;
  let good = 0;
  for (const q of movers) {
    if (!q.signals.includes(5) || q.freighters) continue;
    const options = attackOptions(state, q, 5);
    if (options.length === 0) continue;
    const best = Math.max(...options.map((o) => attackValue(state, q, o)));
    if (best < worth) return false;
    good++;
  }
  return good > 0;
}

export function opponent(state: State, side: string, random: () => number): Action {
  if (state.phase === 'deploy') {
    const options = legalActions(state, side);
    return options[options.length - 1];
  }
  if (state.phase === 'initiative') return { kind: 'initiative', first: false };
  if (state.phase === 'launch') {
    const anchored = state.squadrons.find((q) => q.side === side && launchable(q));
    return { kind: 'launch', squadron: anchored?.id ?? null };
  }
  // Land troops first: the invader, who wins once the land battle is over, charges the enemy phalanx once and
  // lets the order stand; the defender keeps its phalanx out of it while its fleet fights.
  const noneMoved = !state.squadrons.some((q) => q.side === side && q.moved);
  const invader = state.sides.find((s) => s.id === side)?.role === 'invader';
  if (noneMoved && invader)
    for (const p of state.phalanxes) {
      if (p.side !== side || p.marched || p.destroyed || p.engaged) continue;
      const enemy = state.phalanxes.find((x) => x.side !== side && !x.destroyed);
      if (p.disordered && p.order.kind !== 'recover') return { kind: 'phalanx', phalanx: p.id, order: 'recover', target: null };
      if (enemy && p.order.kind !== 'charge') return { kind: 'phalanx', phalanx: p.id, order: 'charge', target: enemy.id };
    }
  const stance = scoredStance(state, side);
  const movers = state.squadrons.filter((q) => q.side === side && canMove(q));
  const worth = worthNow(state, side, stance);
  if (movers.length && engageNow(state, side, worth, movers)) return { kind: 'signal', signal: 5 };
  const warships = movers.filter((q) => !q.freighters);
  // Attacks first: a squadron bound by signal 5 must make one; any other makes one only if it is worth it.
  const attacks: { action: MoveAction; value: number }[] = [];
  for (const q of warships) {
    const signal = signalFor(state, q);
    for (const o of attackOptions(state, q, signal)) {
      const value = attackValue(state, q, o) + random() * 0.01;
      if (signal === 5 || value >= worth) attacks.push({ action: o.action, value: value + (signal === 5 ? 1000 : 0) });
    }
  }
  const attack = bestChecked(state, side, attacks);
  if (attack) return attack;
  // Then one squadron at a time, the nearest to the enemy first (so that it is not blocked by those behind).
  const order = [...warships].sort((a, b) => nearestEnemy(state, side, body(a)) - nearestEnemy(state, side, body(b)));
  // A side the clock is against needs every enemy fought before the end: each squadron is sent to its own
  // (opponent-assign.ts). Elsewhere each makes for the enemy nearest or most worth it (spreading out lost there).
  const assigned = order.length && stance === 'hurry' ? assignEnemies(state, side, order, worthOf) : null;
  const shared = order.length && stance === 'attack' ? approachField(state, side, worthOf) : null;
  for (const q of order) {
    const own = assigned?.get(q.id);
    const field = own?.field ?? shared;
    const nearNow = nearestEnemy(state, side, body(q));
    const signal = signalFor(state, q);
    const kyklos = stance === 'hold' && nearNow < 10;
    const options = moveOptions(state, q, signal, kyklos);
    // Every advance and wheel refused (bows on a cape, a friend or the edge): staying so loses every move to the
    // end, so a turn away (about face, change of front) is preferred to holding still or re-forming on the spot.
    const allowance = allowanceOf(state, q, q.formation);
    const stuck =
      stance !== 'hold' &&
      (q.formation === 'epi-mias' || q.formation === 'epi-pollon') &&
      typeof allowance === 'number' &&
      allowance > 0 &&
      !options.some((o) => o.action.order.type === 'advance');
    const scored = options.map((o) => ({
      action: o.action,
      value:
        moveValue(state, q, o, stance, nearNow, field) +
        (stuck && Math.abs(turnBetween(q.heading, o.plan.frame.heading)) < 1 ? -STUCK_COST : 0) +
        (stance === 'hold' || turnsLeft(state) <= 1 ? 0 : nextAttackValue(state, q, o, worth, own?.enemy)) +
        random() * 0.01,
    }));
    const chosen = bestChecked(state, side, scored);
    if (chosen) return chosen;
  }
  // Freighters last, so that escorts clear the way.
  for (const q of movers.filter((x) => x.freighters)) {
    const scored = squadronMoves(state, q).map((o) => ({ action: o.action, value: freighterValue(state, q, o) + random() * 0.01 }));
    const chosen = bestChecked(state, side, scored);
    if (chosen) return chosen;
  }
  if (!endRefusal(state, side)) return { kind: 'end-movement' };
  const options = legalActions(state, side);
  return options[Math.floor(random() * options.length)];
}
