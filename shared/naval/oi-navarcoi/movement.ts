/**
 * A squadron's move in the movement phase, planned and checked before anything is rolled: the signal's
 * manoeuvre (free, untested), then its order within its allowance (epi mias 1 average die, epi pollon and epi
 * keras 8", unformed 1 average die − 1, disordered −1, half speed across flotsam), along a path that stays on the
 * table, off the land and clear of other squadrons; an attack runs straight on until it touches its target and
 * conforms. The plan says where the squadron ends, whether it must take a manoeuvre test, and what it contacted.
 */
import {
  type Base,
  type Leg,
  type Obstacle,
  type Path,
  type Side,
  checkPath,
  columnPath,
  distanceBetween,
  fromLocal,
  normalizeHeading,
  overlapping,
  placing,
  rigidPath,
  turnBetween,
} from '../table/index.ts';
import type { MoveAction, Order } from './actions.ts';
import { aheadBy, conform, firstContact, sideMet } from './contact.ts';
import { type Frame, bodyOf, changedFrame, standsOf } from './layout.ts';
import { inches } from './log.ts';
import { type Formation, RULES } from './rules.ts';
import { type Squadron, type State, body, onTable, standCount, tableOf } from './state.ts';

export type Refused = { ok: false; code: string; message: string };
const refuse = (code: string, message: string): Refused => ({ ok: false, code, message });

export interface Plan {
  readonly ok: true;
  readonly formation: Formation;
  readonly frame: Frame;
  /** Wheeled, changed front or formation, about faced, backed water or contacted the enemy (not by a signal). */
  readonly test: boolean;
  readonly contact: { readonly target: string; readonly side: Side } | null;
  readonly crossedFlotsam: boolean;
  /** Did not move at all (a hold): rallies at the end of the turn. */
  readonly stationary: boolean;
  readonly words: string;
}

/** The squadrons a moving squadron must keep clear of: every other on the table (routing squadrons row round). */
export function obstaclesFor(state: State, moverId: string, except: readonly string[] = []): Obstacle[] {
  return state.squadrons.filter((o) => o.id !== moverId && onTable(o) && !except.includes(o.id)).map((o) => ({ id: o.name, base: body(o) }));
}

/** How far, and in which directions (ahead, right) of its heading, a squadron settling may shift to fit. */
const SETTLE_STEP = 0.25;
const SETTLE_MAX = 5;
const SETTLE_WAYS = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
  [-1, -1],
  [-1, 1],
  [1, -1],
  [1, 1],
].map(([a, r]) => [a / Math.hypot(a, r), r / Math.hypot(a, r)]);

/**
 * A squadron falls out of formation (a failed test, or caught at a flank or unformed): its stands become the
 * unformed two-rank block about the same centre, which may reach past the old outline (a line gains depth, a
 * column width) into a friend beside it or the shore; it settles where the block fits (its melee's enemies
 * excepted: they are already in contact).
 */
export function fallOutOfFormation(state: State, q: Squadron): void {
  q.formation = 'unformed';
  settle(state, q, q.engaged);
}

/**
 * Moves `q` to the nearest place within a few inches where it fits, clear of the land, the edges (unless
 * `offTable`) and every other squadron but `except`, as players would nudge a base, rather than leave it on another
 * squadron that then could not move; it stays where it is if no place is found.
 */
export function settle(state: State, q: Squadron, except: readonly string[], options: { offTable?: boolean } = {}): void {
  const table = tableOf(state);
  const others = obstaclesFor(state, q.id, except);
  const n = standCount(q);
  const fits = (x: number, y: number) => placing(table, bodyOf(q.formation, n, { x, y, heading: q.heading }), others, options).ok;
  if (fits(q.x, q.y)) return;
  const here = body(q);
  for (let d = SETTLE_STEP; d <= SETTLE_MAX + 1e-9; d += SETTLE_STEP)
    for (const [ahead, right] of SETTLE_WAYS) {
      const p = fromLocal(here, ahead * d, right * d);
      if (!fits(p.x, p.y)) continue;
      q.x = p.x;
      q.y = p.y;
      return;
    }
}

/** Whether a squadron may move this phase: afloat, not in melee, not yet moved. */
export const canMove = (q: Squadron): boolean => q.status === 'afloat' && q.engaged.length === 0 && !q.moved;

/** The formation and frame after a signal's manoeuvre (1, 2: every stand turns 90°; 3, 4: a column deploys into line). */
export function afterSignal(q: Squadron, signal: number): { formation: Formation; frame: Frame } | Refused {
  const n = standCount(q);
  if (signal === 5) return { formation: q.formation, frame: q };
  if (signal === 1 || signal === 2) {
    const toward = signal === 1 ? 'right' : 'left';
    if (q.formation === 'epi-pollon') return { formation: q.formation, frame: { ...q, heading: normalizeHeading(q.heading + (signal === 1 ? 90 : -90)) } };
    if (q.formation === 'epi-mias') return { formation: 'epi-keras', frame: changedFrame('epi-mias', 'epi-keras', n, q, toward) };
    if (q.formation === 'epi-keras') return { formation: 'epi-mias', frame: changedFrame('epi-keras', 'epi-mias', n, q, toward, 'turn') };
    return refuse('signal_formation', `${q.name} is ${RULES.formations[q.formation].name}: it cannot turn by signal ${signal}.`);
  }
  if (q.formation !== 'epi-keras') return refuse('signal_formation', `Signal ${signal} deploys a column into line: ${q.name} is not in epi keras.`);
  return { formation: 'epi-mias', frame: changedFrame('epi-keras', 'epi-mias', n, q, signal === 3 ? 'right' : 'left', 'deploy') };
}

/** Whether the formation a signal gives `q` fits where it would lie (clear of other bases, the land and the edges). */
export function signalPlacing(state: State, q: Squadron, after: { formation: Formation; frame: Frame }): ReturnType<typeof placing> {
  return placing(tableOf(state), bodyOf(after.formation, standCount(q), after.frame), obstaclesFor(state, q.id));
}

/** The squadron's allowance in inches for this move, in a formation (freighters: by their heading to the wind). */
export function allowanceOf(state: State, q: Squadron, formation: Formation, headingTo?: number): number | Refused {
  let base: number;
  if (q.freighters) {
    const wind = state.wind ?? 0;
    const off = Math.abs(turnBetween(wind, headingTo ?? q.heading));
    if (off < 1e-6) base = state.allowances[q.id] ?? 0;
    else if (Math.abs(off - 90) < 1e-6) base = state.allowances[`${q.id}:across`] ?? 0;
    else return refuse('against_wind', `${q.name} sails: only straight downwind (${Math.round(wind)}°) or square across it.`);
  } else {
    const move = RULES.formations[formation].move;
    base = 'inches' in move ? move.inches : (state.allowances[q.id] ?? 0) + move.plus;
  }
  if (q.disordered) base += RULES.movement.disorderedModifier;
  return Math.max(0, base);
}

const sweepOrRefuse = (state: State, q: Squadron, path: Path, obstacles: Obstacle[]): Refused | null => {
  const clear = checkPath(tableOf(state), path, obstacles, {
    names: path.frames[0].map((_, i) => (path.frames[0].length > 1 ? `${q.name} stand ${i + 1}` : q.name)),
  });
  return clear.ok ? null : refuse('blocked', `${clear.reason}.`);
};

const endOf = (path: Path): Base[] => path.frames[path.frames.length - 1] as Base[];

function crossesFlotsam(state: State, path: Path): boolean {
  if (state.flotsam.length === 0) return false;
  return path.frames.some((frame) => frame.some((b) => state.flotsam.some((f) => overlapping(b, f))));
}

/** The frame a body is in after a rigid path (the body itself moved). */
const frameOfBody = (b: Base): Frame => ({ x: b.x, y: b.y, heading: normalizeHeading(b.heading) });

/**
 * Plans `action` for its squadron from `from` (the squadron after its signal's manoeuvre, if any). Refuses with
 * the reason when the order breaks a rule.
 */
export function planMove(state: State, q: Squadron, action: MoveAction, signal: number | null): Plan | Refused {
  let formation = q.formation;
  let frame: Frame = q;
  if (signal !== null) {
    const after = afterSignal(q, signal);
    if ('ok' in after) return after;
    formation = after.formation;
    frame = after.frame;
    const placed = signalPlacing(state, q, after);
    if (!placed.ok) return refuse('signal_blocked', `${q.name} cannot obey signal ${signal}: ${placed.reason}.`);
  }
  const order: Order = action.order;
  const n = standCount(q);
  const rules = RULES.formations[formation];
  const start = bodyOf(formation, n, frame);
  const obstacles = obstaclesFor(state, q.id);
  const attack = action.attack ?? null;
  if (attack && order.type !== 'advance' && order.type !== 'follow-me')
    return refuse('attack_needs_run', 'An attack is made by a straight run ahead (or, unformed, in any direction).');
  if (q.freighters && attack) return refuse('freighters_attack', 'Freighters never attack.');
  if (q.freighters && order.type !== 'follow-me' && order.type !== 'hold')
    return refuse('freighters_sail', 'Freighters only sail: downwind or square across the wind.');
  if (q.launched && order.type !== 'advance' && order.type !== 'hold')
    return refuse('launch_move', 'A squadron launched this turn makes one straight move offshore.');
  if (signal === 5 && !attack && order.type !== 'hold') return refuse('signal_engage', `${q.name} obeys signal 5: it must contact the enemy this turn.`);
  const hold = (words: string, test: boolean, f: Frame, fm: Formation, stationary = false): Plan => ({
    ok: true,
    formation: fm,
    frame: f,
    test,
    contact: null,
    crossedFlotsam: false,
    stationary,
    words,
  });
  switch (order.type) {
    case 'hold':
      if (signal === 5) return refuse('signal_engage', `${q.name} obeys signal 5: it must contact the enemy this turn.`);
      return hold(signal !== null ? `${q.name} obeys signal ${signal} and stays there` : `${q.name} stays still`, false, frame, formation, signal === null);
    case 'about-face': {
      if (!rules.aboutFace) return refuse('no_about_face', `A squadron in ${rules.name} cannot about face.`);
      const f = { ...frame, heading: normalizeHeading(frame.heading + 180) };
      return hold(`${q.name} about faces`, true, f, formation);
    }
    case 'change-front': {
      if (!rules.changeFront) return refuse('no_change_front', `Only epi pollon changes front by turning every stand; ${q.name} is in ${rules.name}.`);
      const f = { ...frame, heading: normalizeHeading(frame.heading + (order.toward === 'right' ? 90 : -90)) };
      const placed = placing(tableOf(state), bodyOf(formation, n, f), obstacles);
      if (!placed.ok) return refuse('blocked', `${q.name} cannot change front: ${placed.reason}.`);
      return hold(`${q.name} changes front to the ${order.toward}`, true, f, formation);
    }
    case 'form': {
      if (order.formation === formation) return refuse('same_formation', `${q.name} is already in ${rules.name}.`);
      if (order.formation === 'unformed') return refuse('form_unformed', 'A squadron goes unformed by "follow me!", not by forming.');
      const f = changedFrame(formation, order.formation, n, frame, order.toward, order.method);
      const placed = placing(tableOf(state), bodyOf(order.formation, n, f), obstacles);
      if (!placed.ok) return refuse('blocked', `${q.name} cannot form ${RULES.formations[order.formation].name}: ${placed.reason}.`);
      return hold(`${q.name} forms ${RULES.formations[order.formation].name} (to the ${order.toward})`, true, f, order.formation);
    }
    case 'back': {
      if (!rules.backWater) return refuse('no_back_water', `Only epi mias backs water; ${q.name} is in ${rules.name}.`);
      if (order.distance <= 0 || order.distance > RULES.movement.backWaterInches + 1e-9)
        return refuse('too_far', `Backing water is up to ${RULES.movement.backWaterInches}" a turn.`);
      const path = rigidPath([start], [{ kind: 'back', distance: order.distance }]);
      const blocked = sweepOrRefuse(state, q, path, obstacles);
      if (blocked) return blocked;
      return {
        ...hold(`${q.name} backs water ${inches(order.distance)}`, true, frameOfBody(endOf(path)[0]), formation),
        crossedFlotsam: crossesFlotsam(state, path),
      };
    }
    case 'follow-me': {
      if (formation === 'kyklos') return refuse('kyklos_still', 'A kyklos cannot move.');
      const allowance = allowanceOf(state, q, 'unformed', order.heading);
      if (typeof allowance !== 'number') return allowance;
      const unformed = bodyOf('unformed', n, frame);
      const turn = turnBetween(frame.heading, order.heading);
      const turned: Base = { ...unformed, heading: normalizeHeading(order.heading) };
      const placed = placing(tableOf(state), turned, obstacles);
      if (!placed.ok) return refuse('blocked', `${q.name} cannot go unformed there: ${placed.reason}.`);
      return runStraight(state, q, turned, 'unformed', allowance, order.distance, attack, obstacles, [{ kind: 'turn', degrees: turn }], unformed, signal, {
        words: `${q.name} ${q.freighters ? 'sails' : formation === 'unformed' ? 'moves unformed' : 'cries "follow me!" and goes unformed'}, heading ${Math.round(order.heading)}°`,
        test: false,
      });
    }
    case 'advance': {
      if (formation === 'kyklos') return refuse('kyklos_still', 'A kyklos cannot move.');
      if (formation === 'unformed') return refuse('unformed_moves', 'An unformed squadron moves only in a straight line ("follow me!").');
      const allowance = allowanceOf(state, q, formation);
      if (typeof allowance !== 'number') return allowance;
      if (rules.column) {
        if (Math.abs(order.wheel) > 1e-9) return refuse('column_wheel', 'A column does not wheel: it turns in succession after its lead.');
        if (Math.abs(order.turn) > RULES.movement.columnMaxTurnDegrees + 1e-9)
          return refuse('column_turn', `A column turns at most ${RULES.movement.columnMaxTurnDegrees}° in a move.`);
        if (attack && Math.abs(order.turn) > 1e-9)
          return refuse('column_attack_turn', 'A column attacks along a straight run (decision: no turn in the same move).');
        if (!attack) {
          if (order.distance > allowance + 1e-9) return refuse('too_far', `${q.name} has ${inches(allowance)}; ${inches(order.distance)} is too far.`);
          if (order.turnAfter > order.distance + 1e-9) return refuse('turn_after', 'The lead turns within the distance it moves.');
          const legs: ({ kind: 'ahead'; distance: number } | { kind: 'turn'; degrees: number })[] = [];
          if (order.turn !== 0)
            legs.push(
              { kind: 'ahead', distance: order.turnAfter },
              { kind: 'turn', degrees: order.turn },
              { kind: 'ahead', distance: order.distance - order.turnAfter },
            );
          else legs.push({ kind: 'ahead', distance: order.distance });
          const column = standsOf(formation, n, frame);
          const path = columnPath(
            column,
            legs.filter((l) => l.kind === 'turn' || l.distance > 0),
          );
          const blocked = sweepOrRefuse(state, q, path, obstacles);
          if (blocked) return blocked;
          const lead = endOf(path)[0];
          // The column ends straightened behind its lead (decision: the squadron is one body between moves).
          const heading = normalizeHeading(lead.heading);
          const rad = (heading * Math.PI) / 180;
          const half = bodyOf(formation, n, frame).length / 2 - lead.length / 2;
          const end: Frame = { x: lead.x - Math.sin(rad) * half, y: lead.y - Math.cos(rad) * half, heading };
          const placed = placing(tableOf(state), bodyOf(formation, n, end), obstacles);
          if (!placed.ok) return refuse('blocked', `${q.name}'s column would not fit where it ends: ${placed.reason}.`);
          const flotsam = crossesFlotsam(state, path);
          if (flotsam && order.distance > allowance * RULES.movement.flotsamSpeedFactor + 1e-9)
            return refuse('flotsam', `${q.name} crosses flotsam: half speed, ${inches(allowance * RULES.movement.flotsamSpeedFactor)} at most.`);
          const turnWords = order.turn
            ? `, its lead turning ${Math.abs(Math.round(order.turn))}° ${order.turn > 0 ? 'right' : 'left'} after ${inches(order.turnAfter)}`
            : '';
          return { ...hold(`${q.name} rows ${inches(order.distance)} in column${turnWords}`, false, end, formation), crossedFlotsam: flotsam };
        }
        return runStraight(state, q, start, formation, allowance, order.distance, attack, obstacles, [], start, signal, {
          words: `${q.name} rows in column`,
          test: false,
        });
      }
      if (Math.abs(order.wheel) > 1e-9 && !rules.wheel) return refuse('no_wheel', `A squadron in ${rules.name} does not wheel.`);
      if (Math.abs(order.wheel) > RULES.movement.wheelMaxDegrees + 1e-9)
        return refuse('wheel_too_far', `A wheel is at most ${RULES.movement.wheelMaxDegrees}°.`);
      if (Math.abs(order.turn) > 1e-9) return refuse('line_turn', `A squadron in ${rules.name} turns by wheeling.`);
      const legs: Leg[] = order.wheel ? [{ kind: 'wheel', degrees: order.wheel }] : [];
      const wheelPath = rigidPath([start], legs);
      const afterWheel = endOf(wheelPath)[0];
      const wheeled = wheelPath.measured.wheeled;
      if (wheeled > allowance + 1e-9) return refuse('too_far', `The wheel alone takes ${inches(wheeled)} of ${q.name}'s ${inches(allowance)}.`);
      const words = order.wheel
        ? `${q.name} wheels ${Math.abs(Math.round(order.wheel))}° ${order.wheel > 0 ? 'right' : 'left'} (${inches(wheeled)})`
        : `${q.name} advances`;
      return runStraight(state, q, afterWheel, formation, allowance - wheeled, order.distance, attack, obstacles, legs, start, signal, {
        words,
        test: Math.abs(order.wheel) > 1e-9,
        used: wheeled,
        allowance,
      });
    }
  }
}

/**
 * The straight part of a move from `from` (the body after any wheel or turn): `distance` ahead, or with an
 * attack as far as the first touch of the target. `legsBefore` from `origin` make the whole path checked.
 */
function runStraight(
  state: State,
  q: Squadron,
  from: Base,
  formation: Formation,
  left: number,
  distance: number,
  attack: MoveAction['attack'] | null,
  obstacles: Obstacle[],
  legsBefore: Leg[],
  origin: Base,
  signal: number | null,
  how: { words: string; test: boolean; used?: number; allowance?: number },
): Plan | Refused {
  const n = standCount(q);
  const used = how.used ?? 0;
  const total = how.allowance ?? left;
  if (!attack) {
    if (distance > left + 1e-9) return refuse('too_far', `${q.name} has ${inches(total)}; ${inches(used + distance)} is too far.`);
    const path = rigidPath([origin], [...legsBefore, { kind: 'ahead', distance }]);
    const blocked = sweepOrRefuse(state, q, path, obstacles);
    if (blocked) return blocked;
    const end = endOf(path)[0];
    const enemies = state.squadrons.filter((o) => o.side !== q.side && onTable(o));
    const touched = enemies.find((o) => distanceBetween(end, body(o)) <= 1e-6);
    if (touched) return refuse('undeclared_attack', `${q.name} would touch ${touched.name}: declare the attack.`);
    const flotsam = crossesFlotsam(state, path);
    if (flotsam && used + distance > total * RULES.movement.flotsamSpeedFactor + 1e-9)
      return refuse('flotsam', `${q.name} crosses flotsam: half speed, ${inches(total * RULES.movement.flotsamSpeedFactor)} at most.`);
    return {
      ok: true,
      formation,
      frame: frameOfBody(end),
      test: how.test,
      contact: null,
      crossedFlotsam: flotsam,
      stationary: false,
      words: `${how.words} ${inches(distance)}`,
    };
  }
  const target = state.squadrons.find((o) => o.id === attack.target);
  if (!target || target.side === q.side || !onTable(target)) return refuse('no_target', `${attack.target} is not an enemy squadron on the table.`);
  const targetBody = body(target);
  if (distanceBetween(from, targetBody) <= 1e-6 && legsBefore.some((l) => l.kind === 'wheel'))
    return refuse('wheel_contact', 'Contact cannot be made by wheeling.');
  const run = firstContact(from, targetBody, left);
  if (run === null) return refuse('out_of_reach', `${q.name} cannot reach ${target.name} straight ahead within ${inches(left)}.`);
  const path = rigidPath([origin], [...legsBefore, { kind: 'ahead', distance: run }]);
  const blocked = sweepOrRefuse(state, q, path, obstacles);
  if (blocked) return blocked;
  const flotsam = crossesFlotsam(state, path);
  if (flotsam && used + run > total * RULES.movement.flotsamSpeedFactor + 1e-9)
    return refuse('flotsam', `${q.name} crosses flotsam: half speed, ${inches(total * RULES.movement.flotsamSpeedFactor)} at most.`);
  const atContact = aheadBy(from, run);
  const side = sideMet(origin, atContact, targetBody, target.formation);
  const others = obstacles.filter((o) => o.id !== target.name);
  // Conform: slide along the side met until the squadron fits beside any other attacker already there.
  for (const slide of [0, 1, -1, 2, -2, 3, -3, 4, -4, 6, -6, 8, -8]) {
    const frame = conform(atContact, formation, n, targetBody, side, slide);
    const placed = placing(tableOf(state), bodyOf(formation, n, frame), others);
    if (placed.ok && !overlapping(bodyOf(formation, n, frame), targetBody))
      return {
        ok: true,
        formation,
        frame,
        test: signal !== 5,
        contact: { target: target.id, side },
        crossedFlotsam: flotsam,
        stationary: false,
        words: `${how.words} ${inches(run)} into ${target.name}'s ${side === 'front' ? 'front' : side === 'rear' ? 'rear' : `${side} flank`}`,
      };
  }
  return refuse('no_room', `${q.name} has no room to conform to ${target.name}.`);
}
