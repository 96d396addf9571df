/**
 * The computer opponent: it writes signal 5 (engage) for every squadron and gives it when a squadron it was
 * written for can reach an enemy (the others are excused, and the contact is spared its manoeuvre test); moves
 * second when it wins the initiative (so that enemies close into reach); closes in epi pollon (8" a turn) and
 * attacks from it, preferring a flank or rear, a disordered enemy and freighters, and avoiding a frontal attack
 * in a worse formation; rallies a disordered squadron while no enemy is near; moves its warships before its
 * freighters, which sail downwind towards their exit; in the Amphibious battle the invader's phalanx charges
 * (the land battle's end is the invader's goal) and the defender's holds. Its own random numbers break ties.
 */
import { distanceBetween } from '../table/index.ts';
import type { Action, MoveAction } from './actions.ts';
import { bodyOf } from './layout.ts';
import { endRefusal, hasAttack, legalActions, signalRefusal, squadronMoves } from './legal.ts';
import { type Plan, canMove } from './movement.ts';
import { RULES } from './rules.ts';
import { type Squadron, type State, body, onTable, standCount } from './state.ts';

const rank = (f: Squadron['formation']) => RULES.formations[f].meleeRank;

function nearestEnemyFrom(state: State, q: Squadron, b = body(q)): number {
  let best = Number.POSITIVE_INFINITY;
  for (const o of state.squadrons) if (o.side !== q.side && onTable(o) && !o.freighters) best = Math.min(best, distanceBetween(b, body(o)));
  if (best === Number.POSITIVE_INFINITY)
    for (const o of state.squadrons) if (o.side !== q.side && onTable(o)) best = Math.min(best, distanceBetween(b, body(o)));
  return best;
}

/** How much the opponent likes a move. */
function score(state: State, q: Squadron, a: MoveAction, plan: Plan): number {
  const after = bodyOf(plan.formation, standCount(q), plan.frame);
  if (q.freighters) {
    const exit = state.convoyExit;
    const progress = exit === 'north' ? after.y : exit === 'south' ? -after.y : exit === 'east' ? after.x : -after.x;
    return progress - 0.5 * Math.max(0, 10 - nearestEnemyFrom(state, q, after));
  }
  if (plan.contact) {
    const target = state.squadrons.find((o) => o.id === plan.contact!.target)!;
    let s = 100 + (target.freighters ? 40 : 0);
    if (plan.contact.side !== 'front') s += 40;
    s += 15 * (rank(target.formation) - rank(plan.formation));
    if (target.disordered) s += 10;
    if (q.disordered) s -= 15;
    if (a.attack?.manoeuvre !== 'melee') s -= 25;
    if (rank(plan.formation) > rank(target.formation) && plan.contact.side === 'front') s -= 30;
    return s;
  }
  const d = nearestEnemyFrom(state, q, after);
  let s = -2 * d;
  // Epi pollon closes 8" a turn and fights one rank below epi mias: the opponent's working formation.
  if (d < 10) s += plan.formation === 'epi-pollon' ? 20 : plan.formation === 'epi-mias' ? 12 : plan.formation === 'kyklos' ? -40 : -30;
  else if (plan.formation === 'epi-pollon') s += 10;
  else if (plan.formation === 'epi-keras') s += 4;
  if (plan.formation === 'unformed') s -= 30;
  if (plan.test) s -= d < 8 ? 4 : 1;
  if (q.disordered && plan.stationary && nearestEnemyFrom(state, q) > 9) s += 12;
  return s;
}

export function opponent(state: State, side: string, random: () => number): Action {
  const legal = (): Action[] => legalActions(state, side);
  if (state.phase === 'deploy') {
    const options = legal();
    return options[options.length - 1];
  }
  if (state.phase === 'initiative') return { kind: 'initiative', first: false };
  if (state.phase === 'launch') {
    const anchored = state.squadrons.find((q) => q.side === side && q.status === 'anchored');
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
  const movers = state.squadrons.filter((q) => q.side === side && canMove(q));
  const engage = movers.filter((q) => q.signals.includes(5) && q.signalled === null);
  // Signal 5 binds only squadrons that can reach an enemy, and spares their contact the manoeuvre test.
  if (engage.length && !signalRefusal(state, side, 5) && engage.some((q) => hasAttack(state, q))) return { kind: 'signal', signal: 5 };
  let best: { action: Action; value: number } | null = null;
  // Warships first, so that escorts clear the way; then the freighters.
  const warships = movers.filter((q) => !q.freighters);
  for (const q of warships.length ? warships : movers) {
    for (const { action, plan } of squadronMoves(state, q)) {
      const value = score(state, q, action, plan) + random() * 0.01;
      if (!best || value > best.value) best = { action, value };
    }
  }
  if (best) return best.action;
  if (!endRefusal(state, side)) return { kind: 'end-movement' };
  const options = legal();
  return options[Math.floor(random() * options.length)];
}
