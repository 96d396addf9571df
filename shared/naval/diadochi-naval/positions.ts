/**
 * The table as the Diadochi Naval Rules read it: which ships are in the way of a move, who is in contact
 * forward, the closest target a ship may fire at, the nearest enemy, and the restriction on crossing the front
 * of an enemy.
 */
import {
  type Base,
  type Point,
  type Obstacle,
  ObstacleIndex,
  TOUCH,
  bowPoint,
  centreOf,
  contactOf,
  cornersOf,
  distanceBetween,
  inForwardArc,
  lengthInsideConvex,
  lineOfSightBlocked,
  overlapDepth,
  toLocal,
} from '../table/index.ts';
import { RULES, type Rules } from './rules.ts';
import { type ShipState, type State, afloat, baseOf, onTable } from './state.ts';

/** Every ship on the table but `except`, as obstacles to a move. */
export const obstaclesFor = (state: State, except: ReadonlySet<string>): Obstacle[] =>
  state.ships.filter((s) => onTable(s) && !except.has(s.id)).map((s) => ({ id: s.id, name: s.name, base: baseOf(s) }));

/** Where the ships stand and whether they are on the table, in a few numbers: what an index of them depends on. */
const placesOf = (ships: readonly ShipState[]): string => ships.map((s) => (onTable(s) ? `${s.x},${s.y},${s.heading}` : '-')).join(';');

const indexes = new WeakMap<readonly ShipState[], { places: string; index: ObstacleIndex }>();

/**
 * Every ship on the table as one spatial index, built once for a state's ships and reused by every move checked
 * in it (the movers are left out at each check by `except`); rebuilt if the ships have moved since.
 */
export function obstacleIndex(state: State): ObstacleIndex {
  const places = placesOf(state.ships);
  const cached = indexes.get(state.ships);
  if (cached?.places === places) return cached.index;
  const index = new ObstacleIndex(obstaclesFor(state, new Set()));
  indexes.set(state.ships, { places, index });
  return index;
}

/** The enemy ships (afloat, not taken) of a side. */
export const enemiesOf = (state: State, side: string): ShipState[] => state.ships.filter((s) => s.side !== side && afloat(s));

/** Whether `ship`'s bow touches `other`. */
export function contactForward(ship: ShipState, other: ShipState): boolean {
  return contactOf(baseOf(ship), baseOf(other))?.aSide === 'front';
}

/** The enemies in contact with a ship's bow. */
export const enemiesInContactForward = (state: State, ship: ShipState): ShipState[] => enemiesOf(state, ship.side).filter((e) => contactForward(ship, e));

/** The nearest enemy to a base (by the nearest points of the bases), or null. */
export function nearestEnemy(state: State, side: string, base: Base): ShipState | null {
  let best: ShipState | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const e of enemiesOf(state, side)) {
    const d = distanceBetween(base, baseOf(e));
    if (d < bestD) {
      bestD = d;
      best = e;
    }
  }
  return best;
}

/** A ship may fire: afloat, not crippled, not grappled, and no enemy in contact with its bow. */
export function mayFire(state: State, ship: ShipState): boolean {
  return afloat(ship) && !ship.crippled && ship.grappledWith === null && enemiesInContactForward(state, ship).length === 0;
}

/**
 * The enemy ships `ship` may fire on, each with its distance: within range (nearest points), centre forward of
 * the firer's stern edge line, no other ship's base across the line between the centres, and not in contact
 * with a friendly ship other than the firer.
 */
export function fireTargets(state: State, ship: ShipState, rules: Rules = RULES): { target: ShipState; distance: number }[] {
  const me = baseOf(ship);
  const out: { target: ShipState; distance: number }[] = [];
  for (const e of enemiesOf(state, ship.side)) {
    const eb = baseOf(e);
    const d = distanceBetween(me, eb);
    if (d > rules.missileRange + TOUCH || !inForwardArc(me, eb)) continue;
    const others = state.ships.filter((s) => onTable(s) && s.id !== ship.id && s.id !== e.id).map((s) => baseOf(s));
    if (lineOfSightBlocked(me, eb, others)) continue;
    const heldByFriend = state.ships.some((f) => f.side === ship.side && f.id !== ship.id && afloat(f) && contactOf(baseOf(f), eb) !== null);
    if (heldByFriend) continue;
    out.push({ target: e, distance: d });
  }
  return out.sort((a, b) => a.distance - b.distance);
}

/** The closest of the targets a ship may fire on (several when equally close). */
export function closestTargets(state: State, ship: ShipState, rules: Rules = RULES): ShipState[] {
  if (!mayFire(state, ship)) return [];
  const all = fireTargets(state, ship, rules);
  if (all.length === 0) return [];
  return all.filter((t) => t.distance <= all[0].distance + 1e-9).map((t) => t.target);
}

/**
 * Whether a mover's positions (one per sample) cross the front of a non-crippled enemy within the given
 * distance, not screened by another ship, without ending in contact with it. Crossing: its centre passes from
 * one side of the enemy's centre line to the other while its base is in the strip ahead of the enemy's bow
 * (the bow's width, `within` deep).
 */
export function crossedFront(state: State, mover: ShipState, positions: readonly Base[], movers: ReadonlySet<string>, rules: Rules = RULES): ShipState | null {
  const within = rules.movement.crossingFront;
  const end = positions[positions.length - 1];
  // The ground the mover covers, as a box: enemies whose strip lies wholly outside it are passed over at once.
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const p of positions) {
    const reach = Math.hypot(p.width, p.length) / 2;
    x0 = Math.min(x0, p.x - reach);
    y0 = Math.min(y0, p.y - reach);
    x1 = Math.max(x1, p.x + reach);
    y1 = Math.max(y1, p.y + reach);
  }
  let screens: { id: string; c: Point[] }[] | null = null;
  for (const e of enemiesOf(state, mover.side)) {
    if (e.crippled) continue;
    const eb = baseOf(e, rules);
    // The strip ahead of the bow: the enemy's width, `within` deep, set just ahead of its bow.
    const bow = bowPoint(eb);
    const heading = (eb.heading * Math.PI) / 180;
    const stripCorners = cornersOf({ ...eb, length: within, x: bow.x + Math.sin(heading) * (within / 2), y: bow.y + Math.cos(heading) * (within / 2) });
    if (
      stripCorners.every((c) => c.x < x0) ||
      stripCorners.every((c) => c.x > x1) ||
      stripCorners.every((c) => c.y < y0) ||
      stripCorners.every((c) => c.y > y1)
    )
      continue;
    if (contactOf(end, eb) !== null) continue;
    let lastSide = 0;
    for (const p of positions) {
      if (overlapDepth(cornersOf(p), stripCorners) <= TOUCH) {
        lastSide = 0;
        continue;
      }
      screens ??= state.ships.filter((s) => onTable(s) && s.id !== mover.id && !movers.has(s.id)).map((s) => ({ id: s.id, c: cornersOf(baseOf(s, rules)) }));
      const screened = screens.some((s) => s.id !== e.id && lengthInsideConvex(s.c, bow, centreOf(p)) > TOUCH);
      if (screened) {
        lastSide = 0;
        continue;
      }
      const right = toLocal(eb, centreOf(p)).right;
      const side = right > TOUCH ? 1 : right < -TOUCH ? -1 : 0;
      if (side !== 0 && lastSide !== 0 && side !== lastSide) return e;
      if (side !== 0) lastSide = side;
    }
  }
  return null;
}
