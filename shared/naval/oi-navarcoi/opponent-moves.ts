/**
 * The computer opponent's short list of one squadron's moves, each planned by the engine's own `planMove`: the
 * attacks on every enemy within reach (straight, wheeled towards it, half wheeled; the diekplous or periplous
 * where its conditions hold), and for a squadron that does not attack a handful of useful moves (advance, wheel,
 * column turns, formations, holding still). Far fewer plans than the legal list (no "follow me!", no move an
 * opponent would never choose), so that a decision stays fast; the move chosen is checked again by `checkMove`.
 */
import { distanceBetween, headingOf, normalizeHeading, sub, turnBetween } from '../table/index.ts';
import type { MoveAction, Order } from './actions.ts';
import { type Plan, afterSignal, allowanceOf, planMove } from './movement.ts';
import { type Formation, RULES } from './rules.ts';
import { type Squadron, type State, body, onTable } from './state.ts';

export interface Option {
  readonly action: MoveAction;
  readonly plan: Plan;
}

/** The formation and place a squadron moves from once its signal's manoeuvre is made. */
function startOf(q: Squadron, signal: number | null): { formation: Formation; frame: { x: number; y: number; heading: number } } | null {
  if (signal === null) return { formation: q.formation, frame: q };
  const after = afterSignal(q, signal);
  return 'ok' in after ? null : after;
}

/** Whether the diekplous or periplous is open to `q` (in `formation`) against `e` before the move: the rules' conditions. */
function specialAllowed(q: Squadron, formation: Formation, e: Squadron, manoeuvre: 'diekplous' | 'periplous'): boolean {
  if (q.quality === 'green' || q.disordered) return false;
  if (manoeuvre === 'diekplous') return formation === 'epi-pollon' && e.formation === 'epi-mias' && e.engaged.length === 0;
  return formation === 'epi-mias' && (e.formation === 'epi-mias' || e.formation === 'epi-pollon') && e.status !== 'anchored';
}

function plannedOption(state: State, q: Squadron, action: MoveAction, signal: number | null): Option | null {
  let plan = planMove(state, q, action, signal);
  // Across flotsam only half the allowance may be used: the same move cut short (the remains of a melee lie
  // where the enemy is, so without this a squadron near them finds no move at all and stands still).
  const order = action.order;
  if (!plan.ok && plan.code === 'flotsam' && (order.type === 'advance' || order.type === 'follow-me'))
    for (const f of [0.5, 0.25]) {
      const shorter: MoveAction = { ...action, order: { ...order, distance: Math.floor(order.distance * f * 10) / 10 } };
      plan = planMove(state, q, shorter, signal);
      if (plan.ok) {
        action = shorter;
        break;
      }
    }
  if (!plan.ok) return null;
  if (action.attack?.manoeuvre === 'diekplous' && plan.contact?.side !== 'front') return null;
  return { action, plan };
}

/** Every attack `q` can make this move, planned (with `specials`, the diekplous and periplous too). */
export function attackOptions(state: State, q: Squadron, signal: number | null, specials = true): Option[] {
  if (q.freighters) return [];
  const start = startOf(q, signal);
  if (!start || start.formation === 'kyklos') return [];
  const formation = start.formation;
  const allowance = allowanceOf(state, q, formation);
  if (typeof allowance !== 'number' || allowance <= 0) return [];
  const mine = body(q);
  const out: Option[] = [];
  for (const e of state.squadrons) {
    if (e.side === q.side || !onTable(e)) continue;
    const eb = body(e);
    // Out of reach whatever the wheel: the gap between the bodies is more than the allowance.
    if (distanceBetween(mine, eb) > allowance + 1e-6) continue;
    const bearing = headingOf(sub(eb, start.frame));
    const off = turnBetween(start.frame.heading, bearing);
    const orders: Order[] = [];
    if (formation === 'unformed') orders.push({ type: 'follow-me', heading: normalizeHeading(bearing), distance: allowance });
    else {
      orders.push({ type: 'advance', distance: allowance, wheel: 0, turnAfter: 0, turn: 0 });
      if (!RULES.formations[formation].column) {
        const wheel = Math.max(-90, Math.min(90, Math.round(off)));
        if (Math.abs(wheel) >= 1) orders.push({ type: 'advance', distance: allowance, wheel, turnAfter: 0, turn: 0 });
        if (Math.abs(wheel) >= 10) orders.push({ type: 'advance', distance: allowance, wheel: Math.round(wheel / 2), turnAfter: 0, turn: 0 });
      }
    }
    const manoeuvres: ('melee' | 'diekplous' | 'periplous')[] = ['melee'];
    if (specials && specialAllowed(q, formation, e, 'diekplous')) manoeuvres.push('diekplous');
    if (specials && specialAllowed(q, formation, e, 'periplous')) manoeuvres.push('periplous');
    for (const order of orders) {
      const melee = plannedOption(state, q, { kind: 'move', squadron: q.id, order, attack: { target: e.id, manoeuvre: 'melee' } }, signal);
      if (!melee) continue;
      out.push(melee);
      // The same run with the diekplous or periplous declared touches the same side: only its front is checked again.
      for (const m of manoeuvres.slice(1))
        if (m !== 'diekplous' || melee.plan.contact?.side === 'front')
          out.push({ action: { ...melee.action, attack: { target: e.id, manoeuvre: m } }, plan: melee.plan });
    }
  }
  return out;
}

/** The moves of `q` that make no attack, planned: a short list of what a player would consider. */
export function moveOptions(state: State, q: Squadron, signal: number | null, kyklos: boolean): Option[] {
  const start = startOf(q, signal);
  if (!start) return [];
  const formation = start.formation;
  const rules = RULES.formations[formation];
  const move = (order: Order): MoveAction => ({ kind: 'move', squadron: q.id, order });
  const orders: MoveAction[] = [move({ type: 'hold' })];
  const allowance = allowanceOf(state, q, formation);
  if (typeof allowance === 'number' && allowance > 0 && formation !== 'kyklos' && formation !== 'unformed') {
    for (const d of [allowance, allowance / 2]) orders.push(move({ type: 'advance', distance: d, wheel: 0, turnAfter: 0, turn: 0 }));
    if (rules.column) {
      for (const t of [-90, -45, 45, 90]) orders.push(move({ type: 'advance', distance: allowance, wheel: 0, turnAfter: 0, turn: t }));
    } else {
      const width = body(q).width;
      for (const w of [-90, -45, -20, 20, 45, 90]) {
        const arc = (Math.abs(w) * Math.PI * width) / 180;
        const left = Math.floor((allowance - arc) * 10) / 10;
        if (left >= 0)
          for (const d of left > 1 ? [left, Math.floor(left * 5) / 10] : [left])
            orders.push(move({ type: 'advance', distance: d, wheel: w, turnAfter: 0, turn: 0 }));
      }
    }
  }
  if (rules.backWater) orders.push(move({ type: 'back', distance: RULES.movement.backWaterInches }));
  if (rules.aboutFace) orders.push(move({ type: 'about-face' }));
  if (rules.changeFront) for (const t of ['left', 'right'] as const) orders.push(move({ type: 'change-front', toward: t }));
  const forms: Formation[] = formation === 'unformed' ? ['epi-pollon', 'epi-mias'] : ['epi-pollon', 'epi-mias'];
  if (kyklos) forms.push('kyklos');
  for (const f of forms) {
    if (f === formation) continue;
    for (const toward of ['right', 'left'] as const) orders.push(move({ type: 'form', formation: f, toward, method: 'deploy' }));
  }
  const out: Option[] = [];
  for (const action of orders) {
    const o = plannedOption(state, q, action, signal);
    if (o) out.push(o);
  }
  return out;
}
