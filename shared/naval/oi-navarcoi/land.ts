/**
 * The Amphibious battle's land war: each side's phalanx (a stand of hoplites and its euzonoi) on the land, with
 * a standing order (charge an enemy, move to a position and fight for it, change formation, recover from
 * disorder, hold, or send out a stand of euzonoi), moving and fighting before the ships in each phase. Two
 * bodies that meet both roll 2d6 for 6+; one passing alone pushes the other back 1"; pushed back twice in a row
 * is destroyed. A phalanx meeting euzonoi alone walks over them. The land battle is over when a phalanx is gone.
 */
import { type Point, distance, headingOf, insideSimple, normalizeHeading, sub } from '../table/index.ts';
import { type BattleLog, type Modifier, inches, testText } from './log.ts';
import { RULES } from './rules.ts';
import type { Phalanx, PositionState, State } from './state.ts';

/** Bodies this close on land are in contact (a stand's frontage). */
export const LAND_CONTACT = 2;

const onLand = (state: State, p: Point): boolean => state.table.terrain.some((t) => insideSimple(t.outline, p));

/** Moves a body up to `reach` towards `to` over land, stopping at the shore or at contact range. */
function march(state: State, from: Point, to: Point, reach: number, stopShort: number): Point {
  const d = distance(from, to);
  const go = Math.max(0, Math.min(reach, d - stopShort));
  let best = from;
  for (let k = 1; k <= 20; k++) {
    const t = (go * k) / 20 / (d || 1);
    const p = { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t };
    if (!onLand(state, p)) break;
    best = p;
  }
  return best;
}

function targetPoint(state: State, id: string | null): { point: Point; name: string } | null {
  if (!id) return null;
  const ph = state.phalanxes.find((p) => p.id === id && !p.destroyed);
  if (ph) return { point: ph, name: ph.name };
  const pos = state.positions.find((p) => p.id === id);
  if (pos) return { point: pos, name: pos.name };
  return null;
}

/** A phalanx carries out its order for this movement phase (once a turn). */
export function carryOut(state: State, p: Phalanx, log: BattleLog): void {
  if (p.destroyed || p.engaged) return;
  const order = p.order;
  if (order.kind === 'form') {
    p.formation = p.formation === 'line' ? 'column' : 'line';
    p.order = { kind: 'hold', target: null, x: null, y: null };
    log.line(`${p.name} spends the turn forming ${p.formation}.`);
    return;
  }
  if (order.kind === 'recover') {
    p.disordered = false;
    p.order = { kind: 'hold', target: null, x: null, y: null };
    log.line(`${p.name} spends the turn recovering from disorder.`);
    return;
  }
  if (order.kind === 'hold') return;
  const target = targetPoint(state, order.target);
  if (!target) {
    p.order = { kind: 'hold', target: null, x: null, y: null };
    return;
  }
  const h = RULES.land.hoplites;
  const { total, text } = log.averageDice(h.lineAverageDice, `${p.name} march`);
  const reach = total + (p.formation === 'column' ? h.columnPlus : 0);
  const pos = state.positions.find((x) => x.id === order.target);
  const stop = pos ? 0 : LAND_CONTACT;
  const to = march(state, p, target.point, reach, stop);
  const moved = distance(p, to);
  p.heading = normalizeHeading(headingOf(sub(target.point, p)));
  p.x = to.x;
  p.y = to.y;
  const arrived = distance(p, target.point) <= (pos ? pos.radius : LAND_CONTACT) + 1e-6;
  if (arrived && (!pos || pos.side !== p.side)) p.engaged = order.target;
  if (arrived && pos && pos.side === p.side) pos.heldBy = p.side;
  log.line(
    `${p.name} (${p.formation}) ${order.kind === 'charge' ? 'charges' : 'marches on'} ${target.name}: ${text}${p.formation === 'column' ? ` +${h.columnPlus}` : ''}, ${inches(moved)}${arrived ? (p.engaged ? ', and meets it' : ', and holds it') : ''}.`,
  );
}

/** Detached euzonoi move 2 average dice + 2 towards their target, fighting whatever they reach. */
function euzonoiMove(state: State, p: Phalanx, log: BattleLog): void {
  for (const [i, e] of p.detached.entries()) {
    const target = targetPoint(state, e.target);
    if (!target) continue;
    const { total, text } = log.averageDice(RULES.land.euzonoiAlone.averageDice, `${p.name} euzonoi ${i + 1}`);
    const reach = total + RULES.land.euzonoiAlone.plus;
    const to = march(state, e, target.point, reach, 0);
    e.x = to.x;
    e.y = to.y;
    log.line(`${p.name}'s euzonoi (${i + 1}) run ${text} + ${RULES.land.euzonoiAlone.plus} towards ${target.name}.`);
  }
}

/** The land forces of `side` carry out their orders (once, before its ships move). */
export function landMoves(state: State, side: string, log: BattleLog): void {
  for (const p of state.phalanxes)
    if (p.side === side && !p.marched && !p.destroyed) {
      p.marched = true;
      carryOut(state, p, log);
      euzonoiMove(state, p, log);
    }
}

function landTest(name: string, mods: Modifier[], log: BattleLog): { pass: boolean; text: string } {
  const faces = log.d6s(RULES.land.testDice, `${name} land melee`);
  const { total, text } = testText(faces, mods);
  return { pass: total >= RULES.land.passOn, text: `${name} ${text}` };
}

function pushBack(state: State, p: Phalanx, from: Point, log: BattleLog): void {
  p.pushedBack++;
  if (p.pushedBack >= RULES.land.pushesToDestroy) {
    p.destroyed = true;
    p.engaged = null;
    log.line(`${p.name} is pushed back a second time in a row: destroyed.`);
    return;
  }
  const away = headingOf(sub(p, from));
  const rad = (away * Math.PI) / 180;
  const to = { x: p.x + Math.sin(rad) * RULES.land.pushBackInches, y: p.y + Math.cos(rad) * RULES.land.pushBackInches };
  if (onLand(state, to)) Object.assign(p, to);
  log.line(`${p.name} is pushed back ${RULES.land.pushBackInches}".`);
}

/** The land melee phase, before the ships': phalanx against phalanx, against positions, and over euzonoi. */
export function landMelee(state: State, log: BattleLog): void {
  const m = RULES.land.modifiers;
  const done = new Set<string>();
  for (const p of state.phalanxes) {
    if (p.destroyed || !p.engaged || done.has(p.id)) continue;
    const enemy = state.phalanxes.find((x) => x.id === p.engaged && !x.destroyed);
    const pos = state.positions.find((x) => x.id === p.engaged);
    if (enemy) {
      done.add(p.id);
      done.add(enemy.id);
      const mods = (a: Phalanx, b: Phalanx): Modifier[] => {
        const out: Modifier[] = [];
        if (a.disordered) out.push({ name: 'disordered', value: m.disordered });
        if (a.euzonoi === 0 && b.euzonoi > 0) out.push({ name: 'no euzonoi against a protected phalanx', value: m.unprotectedAgainstEuzonoi });
        return out;
      };
      const a = landTest(p.name, mods(p, enemy), log);
      const b = landTest(enemy.name, mods(enemy, p), log);
      log.line(`Land melee: ${a.text}, ${a.pass ? 'passes' : 'fails'}; ${b.text}, ${b.pass ? 'passes' : 'fails'}.`, {
        name: 'Land melee',
        row: a.pass === b.pass ? 'both pass or both fail: nothing happens' : 'one passes: the other is pushed back',
      });
      if (a.pass === b.pass) {
        p.pushedBack = 0;
        enemy.pushedBack = 0;
        continue;
      }
      const loser = a.pass ? enemy : p;
      const winner = a.pass ? p : enemy;
      winner.pushedBack = 0;
      pushBack(state, loser, winner, log);
      if (loser.destroyed) winner.engaged = null;
      else {
        loser.engaged = winner.id;
        winner.engaged = loser.id;
      }
      continue;
    }
    if (pos) fightForPosition(state, p, pos, log);
    else p.engaged = null;
  }
  // Detached euzonoi that reached an enemy phalanx are walked over.
  for (const p of state.phalanxes) {
    if (p.destroyed) continue;
    p.detached = p.detached.filter((e) => {
      const enemy = state.phalanxes.find((x) => x.id === e.target && !x.destroyed && x.side !== p.side);
      if (!enemy || distance(e, enemy) > LAND_CONTACT + 1e-6) return true;
      const faces = log.d6s(RULES.land.overrun.dice, `${p.name} euzonoi overrun`);
      const mods: Modifier[] = enemy.euzonoi === 0 ? [{ name: 'phalanx without euzonoi', value: RULES.land.overrun.unprotectedModifier }] : [];
      const { total, text } = testText(faces, mods);
      const o = RULES.land.overrun;
      if (total <= o.disorderPhalanxUpTo) enemy.disordered = true;
      const routed = total >= o.routEuzonoiFrom;
      log.line(
        `${enemy.name} walks over ${p.name}'s euzonoi: ${text}: ${total <= o.disorderPhalanxUpTo ? `${enemy.name} is disordered` : routed ? 'the euzonoi are routed' : 'they are pushed away'}.`,
        {
          name: 'Overrun',
          row:
            total <= o.disorderPhalanxUpTo
              ? `${o.disorderPhalanxUpTo} or less: phalanx disordered`
              : routed
                ? `${o.routEuzonoiFrom}+: euzonoi routed`
                : 'pushed away',
        },
      );
      if (routed) return false;
      const push = faces[0] + faces[1];
      const away = headingOf(sub(e, enemy));
      const rad = (away * Math.PI) / 180;
      const to = { x: e.x + Math.sin(rad) * push, y: e.y + Math.cos(rad) * push };
      if (onLand(state, to)) Object.assign(e, to);
      return true;
    });
  }
}

function fightForPosition(state: State, p: Phalanx, pos: PositionState, log: BattleLog): void {
  const m = RULES.land.modifiers;
  const holder = state.phalanxes.find((x) => !x.destroyed && x.side === pos.side && distance(x, pos) <= pos.radius + 1e-6);
  if (!pos.manned && !holder) {
    pos.heldBy = p.side;
    p.engaged = null;
    log.line(`${p.name} takes ${pos.name}, unmanned.`);
    return;
  }
  const mods: Modifier[] = [];
  if (p.disordered) mods.push({ name: 'disordered', value: m.disordered });
  if (holder) mods.push({ name: 'position defended', value: m.positionDefended });
  const a = landTest(p.name, mods, log);
  const d = landTest(`${pos.name} (${holder ? 'defended' : 'manned'})`, [], log);
  log.line(`Fight for ${pos.name}: ${a.text}, ${a.pass ? 'passes' : 'fails'}; ${d.text}, ${d.pass ? 'passes' : 'fails'}.`, {
    name: 'Land melee',
    row: a.pass === d.pass ? 'both pass or both fail: nothing happens' : 'one passes: the other is pushed back',
  });
  if (a.pass === d.pass) {
    p.pushedBack = 0;
    pos.pushedBack = 0;
    return;
  }
  if (a.pass) {
    pos.pushedBack++;
    p.pushedBack = 0;
    if (pos.pushedBack >= RULES.land.pushesToDestroy) {
      pos.heldBy = p.side;
      pos.manned = false;
      p.engaged = null;
      if (holder) holder.destroyed = true;
      log.line(`${pos.name} falls to ${p.name}${holder ? `; ${holder.name} is destroyed` : ''}.`);
    } else log.line(`${pos.name}'s defenders are pushed back.`);
    return;
  }
  pos.pushedBack = 0;
  pushBack(state, p, pos, log);
  if (p.destroyed) p.engaged = null;
}

/** Whether the land battle is over, and how. */
export function landBattleOver(state: State): string | null {
  const gone = state.phalanxes.find((p) => p.destroyed);
  return gone ? `${gone.name} destroyed` : null;
}

/** A phalanx's new order; sending euzonoi detaches one stand. Returns the refusal in words, or null. */
export function giveOrder(state: State, p: Phalanx, order: string, target: string | null): string | null {
  if (p.destroyed) return `${p.name} is destroyed.`;
  const enemyPhalanx = state.phalanxes.find((x) => x.id === target && x.side !== p.side && !x.destroyed);
  const position = state.positions.find((x) => x.id === target);
  switch (order) {
    case 'charge':
      if (!enemyPhalanx) return 'A charge needs an enemy phalanx.';
      break;
    case 'move':
      if (!position) return 'A move order names a position.';
      break;
    case 'send-euzonoi':
      if (p.euzonoi === 0) return `${p.name} has no euzonoi left to send.`;
      if (!enemyPhalanx && !position) return 'Euzonoi are sent against an enemy phalanx or a position.';
      p.euzonoi--;
      p.detached.push({ x: p.x, y: p.y, target });
      return null;
    case 'recover':
      if (!p.disordered) return `${p.name} is not disordered.`;
      break;
    case 'form':
    case 'hold':
      break;
    default:
      return `No order ${order}.`;
  }
  if (p.engaged && order !== 'hold') return `${p.name} is in melee.`;
  p.order = { kind: order as Phalanx['order']['kind'], target: order === 'charge' || order === 'move' ? target : null, x: null, y: null };
  return null;
}
