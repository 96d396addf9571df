/**
 * Oi Navarcoi!'s movers for the table board: in one's movement each squadron still free to move, with the moves
 * its formation has (after the signal it must obey): a line's wheel then advance, a column's advance with its
 * lead's turn, back water, "follow me!". A run that meets an enemy squadron becomes an attack on it (the engine
 * decides whether it is one): the first enemy for which the engine accepts the move; made as a plain melee, a
 * diekplous or a periplous, each checked by the engine, the manoeuvre's way round drawn. A click on an enemy
 * aims at it: the engine's own legal attack on it sets the numbers.
 */
import type { Action, MoveAction, Order } from '../../../shared/naval/oi-navarcoi/actions.ts';
import { oiNavarcoi } from '../../../shared/naval/oi-navarcoi/engine.ts';
import { conform } from '../../../shared/naval/oi-navarcoi/contact.ts';
import { type Frame, bodyOf, standsOf } from '../../../shared/naval/oi-navarcoi/layout.ts';
import { offshoreFlank } from '../../../shared/naval/oi-navarcoi/melee.ts';
import { signalFor } from '../../../shared/naval/oi-navarcoi/legal.ts';
import { afterSignal, allowanceOf, canMove, planMove } from '../../../shared/naval/oi-navarcoi/movement.ts';
import { type Formation, RULES } from '../../../shared/naval/oi-navarcoi/rules.ts';
import { type Squadron, type State, body, onTable, standCount, stands } from '../../../shared/naval/oi-navarcoi/state.ts';
import { type Base, type ColumnLeg, type Leg, columnPath, fromLocal, normalizeHeading, rigidPath, turnBetween } from '../../../shared/naval/table/index.ts';
import { middleOf } from './table-picture.ts';
import type { Manoeuvre, MoveField, MoveKind, MoveNumbers, Mover, Planned } from './table-moves.ts';

const run = (max: number, label = 'Distance (inches)'): MoveField => ({ key: 'distance', label, min: 0, max, step: 0.1 });

/** The formation the squadron moves in: its own, or the one its signal's manoeuvre leaves it in. */
function formationNow(state: State, q: Squadron): Formation | null {
  const signal = signalFor(state, q);
  if (signal === null) return q.formation;
  const after = afterSignal(q, signal);
  return 'ok' in after ? null : after.formation;
}

function kindsOf(state: State, q: Squadron): MoveKind[] {
  const formation = formationNow(state, q);
  if (formation === null) return [];
  const rules = RULES.formations[formation];
  const kinds: MoveKind[] = [];
  const allowance = allowanceOf(state, q, formation);
  if (!q.freighters && typeof allowance === 'number' && allowance > 0 && formation !== 'unformed' && formation !== 'kyklos') {
    if (rules.column)
      kinds.push({
        id: 'advance',
        label: 'Advance, the lead turning',
        fields: [
          { key: 'after', label: 'Lead turns after (inches)', min: 0, max: allowance, step: 0.1 },
          { key: 'turn', label: 'Lead turns (°, + right)', min: -RULES.movement.columnMaxTurnDegrees, max: RULES.movement.columnMaxTurnDegrees, step: 1 },
          run(allowance, 'Distance in all (inches)'),
        ],
        drag: 'toward',
        handle: 'turn',
        allowance,
      });
    else
      kinds.push({
        id: 'advance',
        label: rules.wheel ? 'Wheel, then advance' : 'Advance',
        fields: [
          ...(rules.wheel
            ? [{ key: 'turn' as const, label: 'Wheel (°, + right)', min: -RULES.movement.wheelMaxDegrees, max: RULES.movement.wheelMaxDegrees, step: 1 }]
            : []),
          run(allowance, 'Advance after the wheel (inches)'),
        ],
        drag: 'toward',
        handle: rules.wheel ? 'turn' : null,
        allowance,
      });
  }
  if (rules.backWater && !q.freighters)
    kinds.push({
      id: 'back',
      label: 'Back water',
      fields: [run(RULES.movement.backWaterInches)],
      drag: 'back',
      handle: null,
      allowance: RULES.movement.backWaterInches,
    });
  const unformed = allowanceOf(state, q, 'unformed');
  if (formation !== 'kyklos' && (q.freighters || (typeof unformed === 'number' && unformed > 0)))
    kinds.push({
      id: 'follow-me',
      label: q.freighters ? 'Sail' : formation === 'unformed' ? 'Move unformed' : '"Follow me!" (go unformed)',
      fields: [
        { key: 'turn', label: 'New heading off the present (°, + right)', min: -180, max: 180, step: 1 },
        run(typeof unformed === 'number' ? Math.max(unformed, 0) : 0),
      ],
      drag: 'toward',
      handle: 'turn',
      allowance: typeof unformed === 'number' ? unformed : 0,
    });
  return kinds;
}

function orderOf(q: Squadron, formation: Formation | null, kind: string, n: MoveNumbers): Order {
  if (kind === 'back') return { type: 'back', distance: n.distance };
  if (kind === 'follow-me') return { type: 'follow-me', heading: normalizeHeading(q.heading + n.turn), distance: n.distance };
  if (formation && RULES.formations[formation].column)
    return { type: 'advance', distance: n.distance, wheel: 0, turnAfter: n.turn ? n.after : 0, turn: n.turn };
  return { type: 'advance', distance: n.distance, wheel: n.turn, turnAfter: 0, turn: 0 };
}

/** Where the numbers put the stands by plain geometry (shown while the engine refuses the move). */
function plainEnd(q: Squadron, formation: Formation | null, order: Order): { bases: readonly Base[]; used: number } {
  const from = stands(q);
  const end = (legs: Leg[]) => {
    const path = rigidPath(from, legs);
    return { bases: path.frames[path.frames.length - 1], used: path.measured.travelled };
  };
  if (order.type === 'back') return end([{ kind: 'back', distance: order.distance }]);
  if (order.type === 'follow-me')
    return end([
      { kind: 'turn', degrees: order.heading - q.heading },
      { kind: 'ahead', distance: order.distance },
    ]);
  if (order.type !== 'advance') return { bases: from, used: 0 };
  if (formation && RULES.formations[formation].column) {
    const legs: ColumnLeg[] = order.turn
      ? [
          { kind: 'ahead', distance: order.turnAfter },
          { kind: 'turn', degrees: order.turn },
          { kind: 'ahead', distance: order.distance - order.turnAfter },
        ]
      : [{ kind: 'ahead', distance: order.distance }];
    const path = columnPath(
      from,
      legs.filter((l) => l.kind === 'turn' || l.distance > 0),
    );
    return { bases: path.frames[path.frames.length - 1], used: order.distance };
  }
  return end([...(order.wheel ? [{ kind: 'wheel' as const, degrees: order.wheel }] : []), { kind: 'ahead', distance: order.distance }]);
}

/** The four outcomes of each manoeuvre, in short (the engine rolls them: 2d6 each side, 6 or more passes). */
const OUTCOMES: Record<'diekplous' | 'periplous', string> = {
  diekplous:
    'Diekplous: each side tests (2d6, 6 or more). The attacker alone passing breaks through to the rear in epi mias (dashed); both passing, it is thrown back 6"; the defender alone, it is disordered at the front; both failing, both are disordered and fight front to front.',
  periplous:
    'Periplous: each side tests (2d6, 6 or more). The attacker alone passing comes in on the offshore flank in epi mias (dashed); both passing, both form column and race offshore; the defender alone, the attacker is disordered; both failing, a short race and both disordered.',
};

/** Where a diekplous or periplous ends if only the attacker passes, and its way there from the contact. */
function manoeuvreOutcome(state: State, q: Squadron, manoeuvre: 'diekplous' | 'periplous', at: { formation: Formation; frame: Frame }, target: Squadron) {
  const n = standCount(q);
  const mine = bodyOf(at.formation, n, at.frame);
  const theirs = body(target);
  if (manoeuvre === 'diekplous') {
    const end = conform(mine, 'epi-mias', n, theirs, 'rear');
    return { bases: standsOf('epi-mias', n, end), path: [mine, theirs, end].map(({ x, y }) => ({ x, y })), words: OUTCOMES.diekplous };
  }
  const flank = offshoreFlank(state, target);
  const sign = flank === 'right' ? 1 : -1;
  const end = conform(mine, 'epi-mias', n, theirs, flank);
  // Round the front corner on the offshore side, a stand's depth clear of it.
  const corner = fromLocal(theirs, theirs.length / 2 + 1.5, sign * (theirs.width / 2 + 1.5));
  return { bases: standsOf('epi-mias', n, end), path: [{ x: mine.x, y: mine.y }, corner, { x: end.x, y: end.y }], words: OUTCOMES.periplous };
}

/** The kind and numbers of the engine's own order (a legal attack), as the board sets them. */
function numbersOf(q: Squadron, formation: Formation | null, order: Order): { kind: string; numbers: MoveNumbers } | null {
  if (order.type === 'follow-me') return { kind: 'follow-me', numbers: { turn: turnBetween(q.heading, order.heading), distance: order.distance, after: 0 } };
  if (order.type !== 'advance') return null;
  if (formation && RULES.formations[formation].column)
    return { kind: 'advance', numbers: { turn: order.turn, distance: order.distance, after: order.turnAfter } };
  return { kind: 'advance', numbers: { turn: order.wheel, distance: order.distance, after: 0 } };
}

function mover(state: State, side: string, q: Squadron, legal: readonly Action[]): Mover {
  const bases = stands(q);
  const enemies = state.squadrons.filter((e) => e.side !== side && onTable(e));
  const formation = formationNow(state, q);
  const attacks = legal.filter((a): a is MoveAction & { attack: NonNullable<MoveAction['attack']> } => a.kind === 'move' && a.squadron === q.id && !!a.attack);
  return {
    key: q.id,
    name: q.name,
    pieces: [q.id],
    bases,
    anchor: middleOf(bases),
    heading: q.heading,
    kinds: kindsOf(state, q),
    targets: [...new Set(attacks.map((a) => a.attack.target))],
    aim(target: string, manoeuvre: Manoeuvre) {
      const at = (m: Manoeuvre) => attacks.find((a) => a.attack.target === target && a.attack.manoeuvre === m);
      const chosen = at(manoeuvre) ?? at('melee');
      const aimed = chosen ? numbersOf(q, formation, chosen.order) : null;
      if (!aimed) return null;
      // The engine's attack runs its whole allowance, stopping at contact: the run shown is the shortest that still
      // reaches the enemy (to a tenth), so the allowance used is what the move takes.
      const m = chosen?.attack.manoeuvre ?? 'melee';
      const reaches = (distance: number) => this.plan(aimed.kind, { ...aimed.numbers, distance }, m).target?.id === target;
      let lo = 0;
      let hi = aimed.numbers.distance;
      if (!reaches(hi)) return aimed;
      for (let k = 0; k < 12 && hi - lo > 0.05; k++) {
        const mid = (lo + hi) / 2;
        if (reaches(mid)) hi = mid;
        else lo = mid;
      }
      return { kind: aimed.kind, numbers: { ...aimed.numbers, distance: Math.min(aimed.numbers.distance, Math.ceil(hi * 10) / 10) } };
    },
    plan(kind: string, n: MoveNumbers, manoeuvre: Manoeuvre = 'melee'): Planned {
      const order = orderOf(q, formation, kind, n);
      const plain = plainEnd(q, formation, order);
      let action: MoveAction = { kind: 'move', squadron: q.id, order };
      let refusal = oiNavarcoi.check(state, side, action);
      let target: Squadron | null = null;
      // A run into an enemy is an attack on it, if the engine takes it as one; then made as the manoeuvre chosen.
      if (refusal && kind !== 'back')
        for (const e of enemies) {
          const attack: MoveAction = { ...action, attack: { target: e.id, manoeuvre: 'melee' } };
          if (oiNavarcoi.check(state, side, attack as Action) === null) {
            target = e;
            action = manoeuvre === 'melee' ? attack : { ...action, attack: { target: e.id, manoeuvre } };
            refusal = manoeuvre === 'melee' ? null : oiNavarcoi.check(state, side, action as Action);
            break;
          }
        }
      const aimed = target ? { id: target.id, name: target.name } : null;
      if (refusal) return { action, bases: plain.bases, refusal: refusal.message, used: plain.used, target: aimed };
      const planned = planMove(state, q, action, signalFor(state, q));
      if (!planned.ok) return { action, bases: plain.bases, refusal: planned.message, used: plain.used, target: aimed };
      const outcome = target && manoeuvre !== 'melee' ? manoeuvreOutcome(state, q, manoeuvre, planned, target) : null;
      return { action, bases: standsOf(planned.formation, standCount(q), planned.frame), refusal: null, used: plain.used, target: aimed, outcome };
    },
  };
}

/** One's movers now: none outside one's movement. */
export function oiMovers(state: State, side: string, legal: readonly unknown[] = []): Mover[] {
  if (state.phase !== 'move' || state.acting !== side) return [];
  return state.squadrons.filter((q) => q.side === side && canMove(q)).map((q) => mover(state, side, q, legal as Action[]));
}
