/**
 * Moving a galley (3.2.1, 3.2.2): up to its speed in speed points; with each point it may turn up to its
 * turning capability in hexsides and then row one hex ahead, or only turn. No ship enters another's hex, nor
 * land, a reef or the edge of the board; rowing ahead into an enemy's hex from the hex beside it is engaging
 * (3.1.4): the bow goes into contact and the ship stays where it is, facing its target. Backing water is one
 * hex straight astern.
 */
import { type Facing, type Hex, directionTo, hexKey, neighbour, sameHex, turn, turnDistance } from '../hex.ts';
import { impassable } from '../sea.ts';
import type { Refusal } from '../ruleset.ts';
import { type ShipState, type State, enemies, speedOf, turningOf } from './state.ts';

export interface Destination {
  readonly hex: Hex;
  readonly facing: Facing;
  /** The enemy ship engaged at the end of the move, or null. */
  readonly engage: string | null;
  /** The hexes entered one after the other; when engaging, the last is the target's. */
  readonly path: Hex[];
}

export interface Surroundings {
  readonly occupied: Map<string, ShipState>;
  readonly blocked: (h: Hex) => boolean;
}

export function surroundings(s: State): Surroundings {
  const occupied = new Map<string, ShipState>();
  for (const ship of s.ships) if (!ship.sunk) occupied.set(hexKey(ship.hex), ship);
  return { occupied, blocked: impassable(s.sea) };
}

/** The turns allowed with one speed point: up to `turning` hexsides either way (3 either way is the same). */
function turnsFor(turning: number): number[] {
  const out = [0];
  for (let t = 1; t <= Math.min(turning, 3); t++) {
    out.push(t);
    if (t < 3) out.push(-t);
  }
  return out;
}

/** Speed points to turn `d` hexsides and then row one hex: the row's point turns up to `turning` hexsides. */
export const pointsToEnter = (d: number, turning: number): number => Math.max(1, Math.ceil(d / turning));
export const pointsToTurn = (d: number, turning: number): number => Math.ceil(d / turning);

/**
 * Every place the ship can end a move, each with one shortest path: breadth first over (hex, facing) by
 * speed points spent, so each is found with the fewest points.
 */
export function destinations(s: State, ship: ShipState, around: Surroundings = surroundings(s)): Destination[] {
  const speed = speedOf(ship);
  const turns = turnsFor(turningOf(ship));
  const start = `${hexKey(ship.hex)}:${ship.facing}`;
  const seen = new Set<string>([start]);
  const engaged = new Set<string>();
  const out: Destination[] = [];
  let layer: { hex: Hex; facing: Facing; path: Hex[] }[] = [{ hex: ship.hex, facing: ship.facing, path: [] }];
  for (let point = 0; point < speed && layer.length > 0; point++) {
    const next: typeof layer = [];
    for (const at of layer)
      for (const t of turns) {
        const facing = turn(at.facing, t);
        if (t !== 0) {
          const key = `${hexKey(at.hex)}:${facing}`;
          if (!seen.has(key)) {
            seen.add(key);
            const place = { hex: at.hex, facing, path: at.path };
            next.push(place);
            out.push({ ...place, engage: null });
          }
        }
        const ahead = neighbour(at.hex, facing);
        if (around.blocked(ahead)) continue;
        const there = around.occupied.get(hexKey(ahead));
        if (there) {
          if (there.id === ship.id || !enemies(ship, there)) continue;
          const key = `${there.id}|${hexKey(at.hex)}`;
          if (!engaged.has(key) && !alreadyEngaged(s, ship, there.id, at.hex)) {
            engaged.add(key);
            out.push({ hex: at.hex, facing, engage: there.id, path: [...at.path, ahead] });
          }
          continue;
        }
        const key = `${hexKey(ahead)}:${facing}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const place = { hex: ahead, facing, path: [...at.path, ahead] };
        next.push(place);
        out.push({ ...place, engage: null });
      }
    layer = next;
  }
  return out;
}

/** Engaging a ship again from the hex where its bow already is in contact with it would change nothing. */
function alreadyEngaged(s: State, ship: ShipState, target: string, from: Hex): boolean {
  return sameHex(from, ship.hex) && s.contacts.some((c) => c.attacker === ship.id && c.target === target);
}

/** Follows a path a player gave: where it ends, or why the ship cannot row it. */
export function followPath(
  s: State,
  ship: ShipState,
  path: readonly Hex[],
  finalFacing: Facing,
  around: Surroundings = surroundings(s),
): { ok: true; destination: Destination } | { ok: false; error: Refusal } {
  const refuse = (code: string, message: string) => ({ ok: false as const, error: { code, message } });
  const speed = speedOf(ship);
  const turning = turningOf(ship);
  let points = 0;
  let at = ship.hex;
  let facing = ship.facing;
  for (const [i, hex] of path.entries()) {
    const dir = directionTo(at, hex);
    if (dir === null) return refuse('path_not_adjacent', `hex ${i + 1} of the path is not next to the hex before it`);
    points += pointsToEnter(turnDistance(facing, dir), turning);
    facing = dir;
    if (around.blocked(hex)) return refuse('path_blocked', `hex ${i + 1} of the path is land, a reef or off the board`);
    const there = around.occupied.get(hexKey(hex));
    if (there && there.id !== ship.id) {
      if (!enemies(ship, there)) return refuse('path_blocked', `hex ${i + 1} of the path holds ${there.name}, a friendly ship`);
      if (i !== path.length - 1) return refuse('path_blocked', `hex ${i + 1} of the path holds ${there.name}: engaging it must end the move`);
      if (finalFacing !== facing) return refuse('bad_facing', `a ship engaging ${there.name} faces it`);
      if (points > speed) return refuse('too_far', `the move needs ${points} speed points; ${ship.name} has ${speed}`);
      if (alreadyEngaged(s, ship, there.id, at)) return refuse('no_move', `${ship.name} is already in contact with ${there.name} from there`);
      return { ok: true, destination: { hex: at, facing, engage: there.id, path: [...path] } };
    }
    at = hex;
  }
  points += pointsToTurn(turnDistance(facing, finalFacing), turning);
  if (points > speed) return refuse('too_far', `the move needs ${points} speed points; ${ship.name} has ${speed}`);
  if (sameHex(at, ship.hex) && finalFacing === ship.facing) return refuse('no_move', 'the move ends where it began');
  return { ok: true, destination: { hex: at, facing: finalFacing, engage: null, path: [...path] } };
}

/** The hex a ship backs water into, if it can: straight astern, free and open water. */
export function backwaterHex(ship: ShipState, around: Surroundings): Hex | null {
  const astern = neighbour(ship.hex, turn(ship.facing, 3));
  if (around.blocked(astern) || around.occupied.has(hexKey(astern))) return null;
  return astern;
}
