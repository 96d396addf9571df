/**
 * Orders in the movement phase: who may be ordered, the command rating with its penalties, what a ship or a
 * group may do (the allowances, turns, formations, the front of an enemy), and the blunders' forced moves.
 */
import {
  type Base,
  type Clear,
  type ColumnLeg,
  type Leg,
  type Path,
  TOUCH,
  abreastToAhead,
  aheadToAbreast,
  checkPath,
  columnPath,
  distanceBetween,
  headingOf,
  joinPaths,
  lineAbreast,
  lineAhead,
  rigidPath,
  selfOverlap,
  slidePath,
  straightColumn,
  sub,
  turnBetween,
  headingVector,
  scale,
} from '../table/index.ts';
import type { DnLeg, Formation, Move } from './actions.ts';
import { crossedFront, nearestEnemy, obstacleIndex } from './positions.ts';
import { signed } from './log.ts';
import { RULES, type Rules } from './rules.ts';
import { type ShipState, type State, afloat, baseOf, squadronOf } from './state.ts';
import type { Refusal } from '../ruleset.ts';

export interface Plan {
  readonly ships: ShipState[];
  readonly formation: Formation;
  /** Where each ship ends, in the order of `ships`. */
  readonly end: Base[];
  readonly path: Path;
  /** The group falls out of formation (long bases turned into line ahead) or forms up again. */
  readonly outOfFormation?: boolean;
  readonly reform?: boolean;
  /** A charge stopped on touching this enemy. */
  readonly contact?: string;
}

const refuse = (code: string, message: string): { ok: false; refusal: Refusal } => ({ ok: false, refusal: { code, message } });

/** The rating a squadron's order is rolled against, with each penalty named. */
export function commandRating(state: State, ships: readonly ShipState[], rules: Rules = RULES): { rating: number; parts: string[] } {
  const squadron = squadronOf(state, ships[0]);
  const base = squadron?.rating ?? 0;
  const parts = [`rating ${base}`];
  let rating = base;
  const flagship = squadron?.flagship ? state.ships.find((s) => s.id === squadron.flagship) : undefined;
  if (flagship && !ships.some((s) => s.id === flagship.id)) {
    const at = (s: ShipState): Base => {
      const p = state.phaseStart[s.id];
      return baseOf(p ? { ...s, ...p } : s, rules);
    };
    const d = Math.min(...ships.map((s) => distanceBetween(at(s), at(flagship))));
    if (d > rules.command.flagshipDistance + TOUCH) {
      rating += rules.command.farFromFlagship;
      parts.push(`${signed(rules.command.farFromFlagship)} for ${Math.round(d * 10) / 10} cables from the flagship`);
    }
  }
  if (ships.some((s) => state.phaseStart[s.id]?.outOfFormation)) {
    rating += rules.command.outOfFormation;
    parts.push(`${signed(rules.command.outOfFormation)} out of formation`);
  }
  return { rating, parts };
}

/** The frames of a path up to (not including) its first blocked sample, and what blocked it. */
function clearPart(state: State, path: Path, movers: readonly ShipState[], except: ReadonlySet<string>): { path: Path; blocked: Clear } {
  const clear = checkPath(state.table, path, obstacleIndex(state), { names: movers.map((s) => s.name), except });
  if (clear.ok) return { path, blocked: clear };
  return { path: { ...path, frames: path.frames.slice(0, clear.frame) }, blocked: clear };
}

function lerpFrame(a: readonly Base[], b: readonly Base[], t: number): Base[] {
  return a.map((p, i) => ({
    ...p,
    x: p.x + (b[i].x - p.x) * t,
    y: p.y + (b[i].y - p.y) * t,
    heading: (((p.heading + turnBetween(p.heading, b[i].heading) * t) % 360) + 360) % 360,
  }));
}

/**
 * A path stopped where it first touches an enemy (or, for a blunder, where anything is in the way): the last
 * clear sample, then bisection towards the blocked one until the movers just touch.
 */
function stopAtContact(state: State, path: Path, movers: readonly ShipState[], anyBlock: boolean): { path: Path; contact?: string; refusal?: string } {
  const index = obstacleIndex(state);
  const except = new Set(movers.map((s) => s.id));
  const { path: clearPath, blocked } = clearPart(state, path, movers, except);
  if (blocked.ok) return { path };
  const enemy = state.ships.find((s) => s.id === blocked.blocker && s.side !== movers[0].side && afloat(s));
  if (!enemy && !anyBlock) return { path, refusal: blocked.reason };
  const from = clearPath.frames[clearPath.frames.length - 1];
  const to = path.frames[blocked.frame];
  let lo = 0;
  let hi = 1;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    const test: Path = { ...path, frames: [from, lerpFrame(from, to, mid)] };
    if (checkPath(state.table, test, index, { except }).ok) lo = mid;
    else hi = mid;
  }
  const frames = [...clearPath.frames, lerpFrame(from, to, lo)];
  return { path: { ...path, frames }, contact: enemy?.id };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Which legs each formation may use, and its limits. */
function legsAllowed(formation: Formation, legs: readonly DnLeg[], rules: Rules): string | null {
  const m = rules.movement;
  const backs = legs.filter((l) => l.kind === 'back');
  if (backs.length && formation === 'ahead') return 'a line ahead may not move backward';
  if (backs.length && legs.length > 1) return 'moving backward is a move of its own, straight back';
  if (backs.length) {
    const limit = formation === 'single' ? m.single.back : m.lineAbreast.back;
    if (backs[0].distance > limit + 1e-9) return `${formation === 'single' ? 'a ship' : 'a line abreast'} may back at most ${limit} cables`;
    return null;
  }
  for (const l of legs) {
    if (l.kind === 'oblique' && formation !== 'abreast') return 'only a line abreast moves at a slant';
    if (l.kind === 'wheel' && formation !== 'abreast') return 'only a line abreast wheels (a ship turns in place; a line ahead turns in succession)';
    if (l.kind === 'turn' && formation === 'abreast') return 'a line abreast turns by wheeling or by changing formation';
    if (l.kind === 'oblique' && Math.abs(l.degrees) > m.lineAbreast.slant + 1e-9)
      return `a line abreast may move at most ${m.lineAbreast.slant}° off its facing`;
  }
  const turned = sum(legs.map((l) => (l.kind === 'turn' ? Math.abs(l.degrees) : 0)));
  if (formation === 'single' && turned > m.single.turn + 1e-9) return `a single ship may turn at most ${m.single.turn}° in a move`;
  if (formation === 'ahead' && turned > m.lineAhead.turn + 1e-9) return `a line ahead may turn at most ${m.lineAhead.turn}° in total`;
  return null;
}

const asLeg = (l: DnLeg): Leg => l as Leg;

/** The ships of an order: the side's own, able to move now, of one squadron. */
function orderShips(state: State, side: string, ids: readonly string[]): ShipState[] | Refusal {
  const ships: ShipState[] = [];
  for (const id of ids) {
    const s = state.ships.find((x) => x.id === id);
    if (!s || s.side !== side) return { code: 'not_your_ship', message: `${id} is not a ship of this side.` };
    if (ships.includes(s)) return { code: 'named_twice', message: `${s.name} is named twice in the order.` };
    if (!afloat(s)) return { code: 'not_afloat', message: `${s.name} is ${s.status}.` };
    if (s.crippled) return { code: 'crippled', message: `${s.name} is crippled and may not move.` };
    if (s.grappledWith) return { code: 'grappled', message: `${s.name} is grappled and locked in place.` };
    if (s.ordered) return { code: 'already_ordered', message: `${s.name} has already had its order this turn.` };
    ships.push(s);
  }
  if (new Set(ships.map((s) => s.squadron)).size > 1) return { code: 'mixed_squadrons', message: 'A group is of one squadron.' };
  const squadron = squadronOf(state, ships[0]);
  if (squadron?.halted) return { code: 'squadron_halted', message: `${squadron.name} may issue no further orders this turn (a blunder).` };
  return ships;
}

/** Checks an order and works out where it takes the ships (before the command roll). */
export function planOrder(
  state: State,
  side: string,
  shipIds: readonly string[],
  formation: Formation,
  move: Move,
  rules: Rules = RULES,
): { ok: true; plan: Plan } | { ok: false; refusal: Refusal } {
  const got = orderShips(state, side, shipIds);
  if (!Array.isArray(got)) return { ok: false, refusal: got };
  const ships = got;
  const { min, max } = rules.movement.groupSize;
  if (formation === 'single' && ships.length !== 1) return refuse('group_size', 'A single ship order names one ship.');
  if (formation !== 'single' && (ships.length < min || ships.length > max)) return refuse('group_size', `A group is of ${min} to ${max} ships.`);
  const bases = ships.map((s) => baseOf(s, rules));
  let ordered = bases;
  let order = ships;
  if (formation === 'abreast') {
    const f = lineAbreast(bases);
    if (!f.ok) return refuse('not_in_formation', `Not a line abreast: ${f.reason}.`);
    ordered = f.order;
    order = f.indices.map((i) => ships[i]);
  } else if (formation === 'ahead') {
    const f = lineAhead(bases, rules.movement.lineAhead.bend);
    if (!f.ok) return refuse('not_in_formation', `Not a line ahead (leader first): ${f.reason}.`);
  }
  const flagged = order.filter((s) => s.outOfFormation);
  if (move.kind === 'reform') {
    if (formation === 'single') return refuse('reform_single', 'A single ship has no formation to reform.');
    if (flagged.length === 0) return refuse('in_formation', 'The group is already in formation.');
    return { ok: true, plan: { ships: order, formation, end: ordered, path: { frames: [ordered], measured: zeroMeasure }, reform: true } };
  }
  if (formation !== 'single' && flagged.length)
    return refuse(
      'out_of_formation',
      `${flagged.map((s) => s.name).join(', ')} ${flagged.length === 1 ? 'is' : 'are'} out of formation: reform the group first, or move the ships singly.`,
    );

  if (move.kind === 'change') {
    if (formation === 'single') return refuse('change_single', 'Only a group changes formation.');
    return planChange(state, order, ordered, formation, move.degrees);
  }

  const refusal = legsAllowed(formation, move.legs, rules);
  if (refusal) return refuse('illegal_move', `${refusal[0].toUpperCase()}${refusal.slice(1)}.`);
  let path: Path;
  if (formation === 'ahead') path = columnPath(ordered, move.legs as ColumnLeg[]);
  else path = rigidPath(ordered, move.legs.map(asLeg));
  const m = rules.movement;
  const limit = formation === 'single' ? m.single.distance : formation === 'abreast' ? m.lineAbreast.distance : m.lineAhead.distance;
  const run = path.measured.ahead + path.measured.wheeled;
  if (path.measured.back === 0 && run > limit + 1e-9)
    return refuse(
      'too_far',
      `${formation === 'single' ? 'A single ship' : formation === 'abreast' ? 'A line abreast' : 'A line ahead'} moves at most ${limit} cables; this move is ${Math.round(run * 100) / 100}${path.measured.wheeled ? ` (the outside ship wheels ${Math.round(path.measured.wheeled * 100) / 100})` : ''}.`,
    );
  const stopped = stopAtContact(state, path, order, false);
  if (stopped.refusal) return refuse('blocked', `The move is blocked: ${stopped.refusal}.`);
  if (!move.charge && stopped.contact) {
    const enemy = state.ships.find((s) => s.id === stopped.contact);
    return refuse('blocked', `The move runs into ${enemy?.name ?? stopped.contact}: charge to stop on contact.`);
  }
  const end = [...stopped.path.frames[stopped.path.frames.length - 1]];
  if (formation === 'ahead') {
    const f = lineAhead(end, rules.movement.lineAhead.bend);
    if (!f.ok) return refuse('bend', `After the move ${f.reason}.`);
  }
  const movers = new Set(order.map((s) => s.id));
  for (const [i, s] of order.entries()) {
    const crossed = crossedFront(
      state,
      s,
      stopped.path.frames.map((f) => f[i]),
      movers,
      rules,
    );
    if (crossed)
      return refuse('crosses_front', `${s.name} would cross the front of ${crossed.name} within ${rules.movement.crossingFront} cables without contacting it.`);
  }
  return { ok: true, plan: { ships: order, formation, end, path: stopped.path, ...(stopped.contact ? { contact: stopped.contact } : {}) } };
}

const zeroMeasure = { ahead: 0, back: 0, wheeled: 0, turned: 0, slant: 0, travelled: 0 };

function planChange(
  state: State,
  order: ShipState[],
  bases: Base[],
  formation: Formation,
  degrees: 90 | -90,
): { ok: true; plan: Plan } | { ok: false; refusal: Refusal } {
  let path: Path;
  let outOfFormation = false;
  if (formation === 'abreast') {
    const { path: turned, column } = abreastToAhead(bases, degrees);
    path = turned;
    if (selfOverlap(column)) {
      // Long bases overlap once turned: they spread out astern of the new leader and fall out of formation.
      const end = turned.frames[turned.frames.length - 1];
      const lineIndex = (k: number) => (degrees > 0 ? end.length - 1 - k : k);
      const offsets = end.map(() => ({ x: 0, y: 0 }));
      let back = 0;
      for (let k = 1; k < column.length; k++) {
        back += (column[k].length + column[k - 1].length) / 2 - distanceBetweenCentres(column[k], column[k - 1]);
        offsets[lineIndex(k)] = scale(headingVector(column[k].heading), -back);
      }
      path = joinPaths(turned, slidePath(end, offsets));
      outOfFormation = true;
    }
    const check = clearTurning(state, path, order);
    if (check) return refuse('blocked', `The formation change is blocked: ${check}.`);
    return { ok: true, plan: { ships: order, formation, end: [...path.frames[path.frames.length - 1]], path, outOfFormation } };
  }
  if (!straightColumn(bases)) return refuse('not_straight', 'A line ahead must be straight to change to line abreast.');
  const { path: p } = aheadToAbreast(bases, degrees);
  path = p;
  const check = clearTurning(state, path, order);
  if (check) return refuse('blocked', `The formation change is blocked: ${check}.`);
  return { ok: true, plan: { ships: order, formation, end: [...path.frames[path.frames.length - 1]], path, outOfFormation } };
}

const distanceBetweenCentres = (a: Base, b: Base): number => Math.hypot(a.x - b.x, a.y - b.y);

/** A change of formation checked against everything but the group itself (its ships turn through each other's corners). */
function clearTurning(state: State, path: Path, movers: readonly ShipState[]): string | null {
  const clear = checkPath(state.table, path, obstacleIndex(state), { names: movers.map((s) => s.name), except: new Set(movers.map((s) => s.id)) });
  return clear.ok ? null : clear.reason;
}

/** Moves the plan's ships to where it ends. */
export function carryOut(state: State, plan: Plan): void {
  plan.ships.forEach((s, i) => {
    const ship = state.ships.find((x) => x.id === s.id);
    if (!ship) return;
    const b = plan.end[i];
    ship.x = b.x;
    ship.y = b.y;
    ship.heading = ((b.heading % 360) + 360) % 360;
    if (ship.heading >= 360) ship.heading = 0;
    if (plan.outOfFormation) ship.outOfFormation = true;
    if (plan.reform) ship.outOfFormation = false;
  });
}

/**
 * A blunder's forced move, done as far as it can go: it stops short of anything in the way, and on touching an
 * enemy. Returns the plan and words for it, or null when the blunder moves nothing.
 */
export function forcedMove(state: State, ships: ShipState[], formation: Formation, effect: string, rules: Rules = RULES): Plan | null {
  const bases = ships.map((s) => baseOf(s, rules));
  const m = rules.movement;
  const lead = bases[0];
  const enemy = nearestEnemy(state, ships[0].side, formation === 'abreast' ? bases[Math.floor(bases.length / 2)] : lead);
  const bearing = enemy ? headingOf(sub({ x: enemy.x, y: enemy.y }, { x: lead.x, y: lead.y })) : lead.heading;
  const off = turnBetween(lead.heading, bearing);
  let path: Path | null = null;
  const clamp = (v: number, lim: number) => Math.max(-lim, Math.min(lim, v));
  if (effect === 'back') path = rigidPath(bases, [{ kind: 'back', distance: formation === 'single' ? m.single.back : m.lineAbreast.back }]);
  else if (effect === 'full-ahead') {
    if (formation === 'ahead') path = columnPath(bases, [{ kind: 'ahead', distance: m.lineAhead.distance }]);
    else path = rigidPath(bases, [{ kind: 'ahead', distance: formation === 'single' ? m.single.distance : m.lineAbreast.distance }]);
  } else if (effect === 'towards-enemy') {
    if (!enemy) return null;
    if (formation === 'ahead')
      path = columnPath(bases, [
        { kind: 'turn', degrees: clamp(off, m.lineAhead.turn) },
        { kind: 'ahead', distance: m.lineAhead.distance },
      ]);
    else if (formation === 'abreast')
      path = rigidPath(bases, [{ kind: 'oblique', degrees: clamp(off, m.lineAbreast.slant), distance: m.lineAbreast.distance }]);
    else
      path = rigidPath(bases, [
        { kind: 'turn', degrees: off },
        { kind: 'ahead', distance: m.single.distance },
      ]);
  } else if (effect === 'turn-away') {
    if (!enemy) return null;
    // Away: the turn that puts the enemy astern, the shorter way round (a column's leader at most 90°).
    const away = turnBetween(lead.heading, (bearing + 180) % 360);
    if (formation === 'ahead') path = columnPath(bases, [{ kind: 'turn', degrees: clamp(away, m.lineAhead.turn) }]);
    else path = rigidPath(bases, [{ kind: 'turn', degrees: away }]);
  }
  if (!path) return null;
  const stopped = stopAtContact(state, path, ships, true);
  let end: Base[] = [...stopped.path.frames[stopped.path.frames.length - 1]];
  // A column whose leader turned alone may bend past the limit: then it keeps the last position within it.
  if (formation === 'ahead' && !lineAhead(end, m.lineAhead.bend).ok) {
    const fine = stopped.path.frames.filter((f) => lineAhead(f, m.lineAhead.bend).ok);
    end = fine.length ? [...fine[fine.length - 1]] : bases;
  }
  return { ships, formation, end, path: stopped.path, ...(stopped.contact ? { contact: stopped.contact } : {}) };
}
