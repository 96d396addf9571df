/**
 * What a side may do now, and the check of any action: the phase, whose turn, the squadron able to move, the
 * signal it must obey, and the plan of its move. The legal list offers each squadron a spread of moves (full and
 * half runs, wheels, turns, formation changes, "follow me!" in eight directions, and every attack it can reach);
 * `check` accepts any measured move the rules allow, not only those listed.
 */
import { headingOf, normalizeHeading, sub, turnBetween } from '../table/index.ts';
import type { Action, MoveAction, Order } from './actions.ts';
import { type Plan, afterSignal, allowanceOf, canMove, planMove, signalPlacing } from './movement.ts';
import { FORMATIONS, RULES } from './rules.ts';
import { type Squadron, type State, body, launchable, onTable, sideOf } from './state.ts';
import { checkDeploy } from './start.ts';
import { giveOrder } from './land.ts';
import { aheadBy } from './contact.ts';

export interface Refusal {
  readonly code: string;
  readonly message: string;
}

/** The signal a squadron must obey in its move, if its signal was given and it can carry it out. */
export function signalFor(state: State, q: Squadron): number | null {
  if (q.signalled === null) return null;
  const after = afterSignal(q, q.signalled);
  if ('ok' in after) return null;
  // No room for the new formation (a friend, the land or the edge where it would lie): excused, as the wrong
  // formation is; bound to it, the squadron would have no move the engine accepts and the turn could not end.
  if (!signalPlacing(state, q, after).ok) return null;
  // Signal 5 binds only a squadron that can reach an enemy.
  if (q.signalled === 5 && !attackMoves(state, q, 5).some((a) => planMove(state, q, a, 5).ok)) return null;
  return q.signalled;
}

/** The diekplous and periplous conditions, before the move. */
function specialRefusal(state: State, q: Squadron, action: MoveAction, formation: string): Refusal | null {
  const attack = action.attack;
  if (!attack || attack.manoeuvre === 'melee') return null;
  const target = state.squadrons.find((o) => o.id === attack.target);
  if (!target) return { code: 'no_target', message: `${attack.target} is not a squadron.` };
  if (q.quality === 'green') return { code: 'green_crew', message: `Green crews cannot attempt the ${attack.manoeuvre}.` };
  if (q.disordered) return { code: 'disordered', message: `A disordered squadron cannot attempt the ${attack.manoeuvre}.` };
  if (attack.manoeuvre === 'diekplous') {
    if (formation !== 'epi-pollon') return { code: 'diekplous_formation', message: 'The diekplous is made from epi pollon.' };
    if (target.formation !== 'epi-mias')
      return { code: 'diekplous_target', message: `The diekplous is made against epi mias; ${target.name} is in ${RULES.formations[target.formation].name}.` };
    if (target.engaged.length) return { code: 'diekplous_engaged', message: `${target.name} is already in melee.` };
  } else {
    if (formation !== 'epi-mias') return { code: 'periplous_formation', message: 'The periplous is made from epi mias.' };
    // Beached bows on, it has no way on to race offshore: attacked from the sea it is taken in the rear anyway.
    if (target.status === 'anchored') return { code: 'periplous_anchored', message: `${target.name} is at anchor: there is no periplous to make against it.` };
    if (target.formation !== 'epi-mias' && target.formation !== 'epi-pollon')
      return {
        code: 'periplous_target',
        message: `The periplous is made against epi mias or epi pollon; ${target.name} is in ${RULES.formations[target.formation].name}.`,
      };
  }
  return null;
}

export function checkMove(state: State, side: string, action: MoveAction): Refusal | null {
  const q = state.squadrons.find((x) => x.id === action.squadron);
  if (!q || q.side !== side) return { code: 'not_your_squadron', message: `${action.squadron} is not a squadron of this side.` };
  if (!canMove(q))
    return {
      code: 'cannot_move',
      message: q.moved ? `${q.name} has already moved this turn.` : q.engaged.length ? `${q.name} is in melee.` : `${q.name} is ${q.status}.`,
    };
  const signal = signalFor(state, q);
  const formation = signal !== null ? (afterSignal(q, signal) as { formation: string }).formation : q.formation;
  const special = specialRefusal(state, q, action, formation);
  if (special) return special;
  const plan = planMove(state, q, action, signal);
  if (!plan.ok) return { code: plan.code, message: plan.message };
  if (action.attack && plan.contact?.side !== 'front' && action.attack.manoeuvre === 'diekplous')
    return { code: 'diekplous_front', message: 'The diekplous contacts the target frontally.' };
  return null;
}

/** Whether any attack is open to a squadron this move. */
export function hasAttack(state: State, q: Squadron): boolean {
  const signal = signalFor(state, q);
  return attackMoves(state, q, signal).some((a) => planMove(state, q, a, signal).ok);
}

/** The straight or wheeled runs at each enemy within reach. */
function attackMoves(state: State, q: Squadron, signal: number | null): MoveAction[] {
  const out: MoveAction[] = [];
  if (q.freighters) return out;
  const mine = body(q);
  const after = signal !== null ? afterSignal(q, signal) : { formation: q.formation, frame: q };
  if ('ok' in after) return out;
  const formation = after.formation;
  if (formation === 'kyklos') return out;
  const allowance = allowanceOf(state, q, formation === 'unformed' ? 'unformed' : formation);
  if (typeof allowance !== 'number') return out;
  for (const e of state.squadrons) {
    if (e.side === q.side || !onTable(e)) continue;
    const eb = body(e);
    const dx = eb.x - after.frame.x;
    const dy = eb.y - after.frame.y;
    if (Math.hypot(dx, dy) > allowance + mine.length + eb.length + mine.width + eb.width) continue;
    const bearing = headingOf(sub(eb, after.frame));
    const off = turnBetween(after.frame.heading, bearing);
    const manoeuvres: ('melee' | 'diekplous' | 'periplous')[] = ['melee'];
    if (formation === 'epi-pollon' && e.formation === 'epi-mias' && e.engaged.length === 0) manoeuvres.push('diekplous');
    if (formation === 'epi-mias' && (e.formation === 'epi-mias' || e.formation === 'epi-pollon') && e.status !== 'anchored') manoeuvres.push('periplous');
    const orders: Order[] = [];
    if (formation === 'unformed') orders.push({ type: 'follow-me', heading: normalizeHeading(bearing), distance: allowance });
    else if (RULES.formations[formation].column) orders.push({ type: 'advance', distance: allowance, wheel: 0, turnAfter: 0, turn: 0 });
    else {
      orders.push({ type: 'advance', distance: allowance, wheel: 0, turnAfter: 0, turn: 0 });
      const wheel = Math.max(-90, Math.min(90, Math.round(off)));
      if (Math.abs(wheel) >= 1) orders.push({ type: 'advance', distance: allowance, wheel, turnAfter: 0, turn: 0 });
      if (Math.abs(wheel) >= 10) orders.push({ type: 'advance', distance: allowance, wheel: Math.round(wheel / 2), turnAfter: 0, turn: 0 });
    }
    for (const order of orders) for (const m of manoeuvres) out.push({ kind: 'move', squadron: q.id, order, attack: { target: e.id, manoeuvre: m } });
  }
  return out;
}

/** A spread of each squadron's moves, then the attacks it can reach. */
export function squadronMoves(state: State, q: Squadron): MoveOption[] {
  const move = (order: Order): MoveAction => ({ kind: 'move', squadron: q.id, order });
  const out: MoveAction[] = [move({ type: 'hold' })];
  const signal = signalFor(state, q);
  const after = signal !== null ? afterSignal(q, signal) : { formation: q.formation, frame: q };
  if ('ok' in after) return [];
  const formation = after.formation;
  const rules = RULES.formations[formation];
  const width = body(q).width;
  if (q.freighters) {
    const wind = state.wind ?? 0;
    for (const h of [wind, wind + 90, wind - 90]) {
      const allowance = allowanceOf(state, q, 'unformed', normalizeHeading(h));
      if (typeof allowance !== 'number') continue;
      for (const d of [allowance, allowance / 2])
        out.push(move({ type: 'follow-me', heading: normalizeHeading(h), distance: edgeLimited(state, q, normalizeHeading(h), d) }));
    }
    return out.map((action) => ({ action, plan: planned(state, q, action, null, 'unformed') })).filter((o): o is MoveOption => o.plan !== null);
  }
  const allowance = allowanceOf(state, q, formation);
  if (typeof allowance === 'number' && formation !== 'kyklos' && formation !== 'unformed') {
    if (rules.column) {
      for (const d of [allowance, allowance / 2]) out.push(move({ type: 'advance', distance: d, wheel: 0, turnAfter: 0, turn: 0 }));
      for (const t of [-90, -45, 45, 90]) out.push(move({ type: 'advance', distance: allowance, wheel: 0, turnAfter: 0, turn: t }));
    } else {
      for (const d of [allowance, allowance / 2]) out.push(move({ type: 'advance', distance: d, wheel: 0, turnAfter: 0, turn: 0 }));
      for (const w of [-90, -45, -20, 20, 45, 90]) {
        const arc = (Math.abs(w) * Math.PI * width) / 180;
        if (arc <= allowance) out.push(move({ type: 'advance', distance: Math.floor((allowance - arc) * 10) / 10, wheel: w, turnAfter: 0, turn: 0 }));
      }
    }
  }
  if (rules.backWater) out.push(move({ type: 'back', distance: RULES.movement.backWaterInches }));
  if (rules.aboutFace) out.push(move({ type: 'about-face' }));
  if (rules.changeFront) for (const t of ['left', 'right'] as const) out.push(move({ type: 'change-front', toward: t }));
  for (const f of FORMATIONS) {
    if (f === formation || f === 'unformed') continue;
    out.push(move({ type: 'form', formation: f, toward: 'right', method: 'deploy' }));
    if (formation === 'epi-keras' && f === 'epi-mias') {
      out.push(move({ type: 'form', formation: f, toward: 'left', method: 'deploy' }));
      out.push(move({ type: 'form', formation: f, toward: 'right', method: 'turn' }));
      out.push(move({ type: 'form', formation: f, toward: 'left', method: 'turn' }));
    }
    if (formation === 'epi-mias' && f !== 'kyklos') out.push(move({ type: 'form', formation: f, toward: 'left', method: 'deploy' }));
  }
  if (formation !== 'kyklos') {
    const unformed = allowanceOf(state, q, 'unformed');
    if (typeof unformed === 'number' && unformed > 0)
      for (let h = 0; h < 360; h += 45) out.push(move({ type: 'follow-me', heading: normalizeHeading(q.heading + h), distance: unformed }));
  }
  return [...out, ...attackMoves(state, q, signal)]
    .map((action) => ({ action, plan: planned(state, q, action, signal, formation) }))
    .filter((o): o is MoveOption => o.plan !== null);
}

/** A move with its plan, as the legal list and the opponent see it. */
export interface MoveOption {
  readonly action: MoveAction;
  readonly plan: Plan;
}

/** The plan of a move that keeps every rule, or null. */
function planned(state: State, q: Squadron, action: MoveAction, signal: number | null, formation: string): Plan | null {
  if (specialRefusal(state, q, action, formation)) return null;
  const plan = planMove(state, q, action, signal);
  if (!plan.ok) return null;
  if (action.attack?.manoeuvre === 'diekplous' && plan.contact?.side !== 'front') return null;
  return plan;
}

/** A freighter's run, cut to where it reaches the edge it sails off by. */
function edgeLimited(state: State, q: Squadron, heading: number, d: number): number {
  const b = { ...body(q), heading };
  let lo = 0;
  let hi = d;
  const fits = (run: number) => {
    const m = aheadBy(b, run);
    const half = Math.hypot(m.width, m.length) / 2;
    return m.x - half >= 0 && m.y - half >= 0 && m.x + half <= state.table.width && m.y + half <= state.table.depth;
  };
  if (fits(d)) return d;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return Math.floor(lo * 100) / 100;
}

/** Whether the side may end its movement: no squadron still owes a signal it can obey. */
export function endRefusal(state: State, side: string): Refusal | null {
  const owing = state.squadrons.find((q) => q.side === side && canMove(q) && signalFor(state, q) !== null);
  if (owing) return { code: 'signal_owed', message: `${owing.name} must obey signal ${owing.signalled} this turn.` };
  return null;
}

export function signalRefusal(state: State, side: string, signal: number): Refusal | null {
  const s = sideOf(state, side);
  if (!s.signals) return { code: 'no_signals', message: `${s.name} may not use signals in this battle.` };
  if (s.signalsLeft <= 0) return { code: 'no_signals_left', message: `${s.name} has used all its signals.` };
  if (s.signalTurn === state.turn) return { code: 'one_signal_a_turn', message: 'One signal a turn.' };
  const assigned = state.squadrons.filter((q) => q.side === side && q.signals.includes(signal) && q.status === 'afloat');
  if (assigned.some((q) => q.moved)) return { code: 'signal_late', message: `Signal ${signal} is given before moving the squadrons it was written for.` };
  if (!assigned.some((q) => canMove(q))) return { code: 'signal_nobody', message: `No squadron able to move has signal ${signal} written down.` };
  return null;
}

export function phalanxRefusal(state: State, side: string, a: Extract<Action, { kind: 'phalanx' }>): Refusal | null {
  const p = state.phalanxes.find((x) => x.id === a.phalanx);
  if (!p || p.side !== side) return { code: 'not_your_phalanx', message: `${a.phalanx} is not a phalanx of this side.` };
  if (p.marched) return { code: 'phalanx_done', message: `${p.name} has had its order this turn.` };
  if (state.squadrons.some((q) => q.side === side && q.moved)) return { code: 'land_first', message: "Land troops move before their side's ships." };
  const copy = structuredClone(state);
  const refused = giveOrder(copy, copy.phalanxes.find((x) => x.id === p.id)!, a.order, a.target);
  return refused ? { code: 'phalanx_order', message: refused } : null;
}

/** Every action `side` may take now (moves as a spread; see the module note). */
export function legalActions(state: State, side: string): Action[] {
  if (state.phase === 'over') return [];
  if (state.phase === 'deploy') {
    const s = sideOf(state, side);
    if (s.deployed) return [];
    const mine = state.squadrons.filter((q) => q.side === side && !q.freighters);
    const plans: Action[] = [{ kind: 'deploy', placements: [], signals: [] }];
    if (s.signals) plans.push({ kind: 'deploy', placements: [], signals: mine.map((q) => ({ squadron: q.id, signals: [5] })) });
    return plans.filter((a) => a.kind === 'deploy' && checkDeploy(state, side, a) === null);
  }
  if (state.acting !== side) return [];
  if (state.phase === 'initiative')
    return [
      { kind: 'initiative', first: true },
      { kind: 'initiative', first: false },
    ];
  if (state.phase === 'launch')
    return [
      { kind: 'launch', squadron: null },
      ...state.squadrons.filter((q) => q.side === side && launchable(q)).map((q): Action => ({ kind: 'launch', squadron: q.id })),
    ];
  const out: Action[] = [];
  if (!endRefusal(state, side)) out.push({ kind: 'end-movement' });
  for (let k = 1; k <= 5; k++) if (!signalRefusal(state, side, k)) out.push({ kind: 'signal', signal: k });
  for (const p of state.phalanxes)
    if (p.side === side)
      for (const order of ['charge', 'move', 'form', 'recover', 'hold', 'send-euzonoi'] as const)
        for (const target of [
          null,
          ...state.phalanxes.filter((x) => x.side !== side).map((x) => x.id),
          ...state.positions.filter((x) => x.side !== side).map((x) => x.id),
        ]) {
          const a: Action = { kind: 'phalanx', phalanx: p.id, order, target };
          if (!phalanxRefusal(state, side, a)) out.push(a);
        }
  for (const q of state.squadrons) if (q.side === side && canMove(q)) out.push(...squadronMoves(state, q).map((o) => o.action));
  return out;
}
