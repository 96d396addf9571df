/**
 * The computer opponent for Classis. It weighs each legal action by what it is expected to do, counting the
 * dice exactly (36 pairs of d6): rams, follow-up rams and rakes by the ships they are expected to sink or
 * cripple on either side, grapples and boarding by the captures, repairs by the ship saved. Moves are weighed
 * by where they leave the ship: closing on the enemy, engaging a beam or a stern rather than a bow, keeping
 * its own beam away from enemy bows, staying within its commander's radius; a crippled ship keeps away. Ships
 * in command move together when that is worth more than a single ship's move. It never touches the battle's
 * dice: `random` only breaks ties.
 */
import { type Hex, aspectOf, distance, hexKey, line } from '../hex.ts';
import type { Action, ShipMove } from './actions.ts';
import { aspectBetween, check, legalActions } from './legal.ts';
import { RULES, ramResultFor } from './rules.ts';
import {
  type ShipState,
  type State,
  boardingOf,
  crewEdge,
  enginePointsOf,
  heldByEnemy,
  inCommand,
  shipById,
  speedOf,
  squadronById,
  towerPointsOf,
  typeOf,
} from './state.ts';

/** What a ship is worth to its side: its ramming factor counts towards defeat, and a ship counts itself. */
const worth = (ship: ShipState): number => typeOf(ship).ram + 4 + boardingOf(ship) / 8;
/** The cost of a cripple: a crippled ship's next cripple sinks it. */
const crippleCost = (ship: ShipState): number => (ship.crippled ? worth(ship) : worth(ship) / 2);

/** Each d6 pair's difference (first minus second) and how many of the 36 give it. */
const DIFFERENCES: readonly (readonly [number, number])[] = (() => {
  const m = new Map<number, number>();
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) m.set(a - b, (m.get(a - b) ?? 0) + 1);
  return [...m];
})();

function ramTotal(ship: ShipState, other: ShipState, aspect: ReturnType<typeof aspectBetween> | null): number {
  const ram = typeOf(ship).ram;
  return ram + crewEdge(ship, other) - (ship.crippled ? Math.floor(ram / 2) : 0) + (aspect ? RULES.aspectBonus[aspect] : 0);
}

/** The harm a ram result does to a ship, by its own difference. */
function ramHarm(ship: ShipState, diff: number): number {
  const r = ramResultFor(diff).result;
  if (r === 'sunk') return worth(ship);
  if (r === 'crippled') return crippleCost(ship);
  if (r === 'roll') return (crippleCost(ship) * RULES.closeCallCrippledUpTo) / 6;
  return 0;
}

/** Expected value of a ram for `side`: harm to the enemy ship less harm to its own. */
export function ramValue(side: string, rammer: ShipState, target: ShipState, aspect: ReturnType<typeof aspectBetween>): number {
  const base = ramTotal(rammer, target, aspect) - ramTotal(target, rammer, null);
  let v = 0;
  for (const [dice, n] of DIFFERENCES) {
    const diff = base + dice;
    const harmTarget = ramHarm(target, -diff);
    const harmRammer = ramHarm(rammer, diff);
    v += n * (rammer.side === side ? harmTarget - harmRammer : harmRammer - harmTarget);
  }
  return v / 36;
}

/** Chance that a d6 plus `edge` beats another d6 (strictly). */
function beats(edge: number): number {
  let n = 0;
  for (const [dice, count] of DIFFERENCES) if (dice + edge > 0) n += count;
  return n / 36;
}

function rakeValue(attacker: ShipState, defender: ShipState): number {
  const edge = typeOf(attacker).ram + crewEdge(attacker, defender) - typeOf(defender).ram - crewEdge(defender, attacker);
  return beats(edge) * crippleCost(defender);
}

const boardingBase = (ship: ShipState, other: ShipState) => Math.max(0, boardingOf(ship) - enginePointsOf(other)) + towerPointsOf(ship);

/** Expected value of a boarding for the boarder's side: captures either way. */
function boardValue(boarder: ShipState, defender: ShipState): number {
  const base = boardingBase(boarder, defender) - boardingBase(defender, boarder);
  let v = 0;
  for (const [dice, n] of DIFFERENCES) {
    const diff = base + dice;
    if (diff >= RULES.captureMargin) v += n * worth(defender);
    else if (-diff >= RULES.captureMargin) v -= n * worth(boarder);
  }
  return v / 36;
}

function grappleValue(ship: ShipState, target: ShipState): number {
  const chance = beats(crewEdge(ship, target) - crewEdge(target, ship) + (ship.ironHands ? RULES.ironHandsBonus : 0));
  if (target.originalSide === ship.side) return chance * worth(target);
  // A grapple is worth what the boarding after it is expected to bring, if that is a gain.
  return chance * Math.max(0, boardValue(ship, target)) * 0.9;
}

function actionValue(s: State, side: string, a: Action): number {
  if (a.kind === 'end' || a.kind === 'move' || a.kind === 'command-move') return 0;
  if (a.kind === 'repair') {
    const ship = shipById(s, a.ship)!;
    // A crippled ship is half a ship, and the next cripple sinks it: mending it is worth the risk.
    return worth(ship) * (2 / 6) - worth(ship) * (1 / 6) + 1;
  }
  if (a.kind === 'backwater' || a.kind === 'command-backwater') {
    const ids = a.kind === 'backwater' ? [a.ship] : a.ships;
    let v = 0;
    for (const id of ids) {
      const ship = shipById(s, id)!;
      // Backing out of a ram that is going badly, or out of reach of a bow when crippled.
      for (const c of s.contacts) {
        if (c.attacker !== id && c.target !== id) continue;
        const other = shipById(s, c.attacker === id ? c.target : c.attacker)!;
        if (other.side === ship.side) continue;
        if (c.ram) v += Math.max(0, -ramValue(side, shipById(s, c.attacker)!, shipById(s, c.target)!, c.ram.aspect));
        else if (c.attacker === other.id) v += Math.max(0, -ramValue(side, other, ship, aspectBetween(other, ship))) * 0.8;
      }
    }
    return v - 0.2;
  }
  const ship = shipById(s, a.ship)!;
  const target = shipById(s, a.target)!;
  switch (a.kind) {
    case 'ram':
      return ramValue(side, ship, target, aspectBetween(ship, target));
    case 'follow-up-ram': {
      const c = s.contacts.find((x) => x.ram && [x.attacker, x.target].includes(ship.id) && [x.attacker, x.target].includes(target.id))!;
      return ramValue(side, shipById(s, c.attacker)!, shipById(s, c.target)!, c.ram!.aspect);
    }
    case 'rake':
      return rakeValue(ship, target);
    case 'grapple':
      return grappleValue(ship, target);
    case 'board':
      return boardValue(ship, target);
    case 'degrapple':
      if (target.side === ship.side) return 2;
      return Math.max(0, boardValue(target, ship)) * beats(crewEdge(ship, target) - crewEdge(target, ship)) - 0.1;
  }
}

/** Where a ship would stand, for weighing a move. */
interface Place {
  hex: Hex;
  facing: ShipState['facing'];
  engage: ShipState | null;
}

/** How good a place is for a ship: engagement, closing, exposure, command. */
function placeValue(s: State, ship: ShipState, place: Place, enemies: readonly ShipState[], pointsAfter: number): number {
  const moved = { ...ship, hex: place.hex, facing: place.facing };
  let v = 0;
  if (place.engage) {
    const t = place.engage;
    const aspect = aspectOf(t.hex, t.facing, place.hex) ?? 'bow';
    const best = Math.max(ramValue(ship.side, moved, t, aspect), RULES.rakeAspects.includes(aspect) ? rakeValue(moved, t) : 0, grappleValue(moved, t));
    // The attack itself needs a point left; otherwise the engagement is an invitation to the enemy.
    v += pointsAfter > 0 ? best : best * 0.3 - 0.5;
  }
  let nearest = Number.POSITIVE_INFINITY;
  for (const e of enemies) {
    const d = distance(place.hex, e.hex);
    if (heldByEnemy(e) && e.originalSide === ship.side) v -= d * 0.05; // our captured ships: worth retaking
    if (d < nearest) nearest = d;
    // An enemy whose bow can reach us next turn strikes where we show it.
    if (d <= speedOf(e) + 1 && e !== place.engage) {
      const shown = aspectOf(place.hex, place.facing, stepToward(place.hex, e.hex)) ?? 'bow';
      v -= RULES.aspectBonus[shown] * 0.25 * (ship.crippled ? 2 : 1);
    }
  }
  if (Number.isFinite(nearest)) v += (ship.crippled ? 0.25 : -0.35) * nearest;
  const sq = squadronById(s, ship.squadron);
  if (sq && sq.flagship !== ship.id) {
    const flag = shipById(s, sq.flagship);
    if (flag && !flag.sunk && distance(flag.hex, place.hex) > sq.rating) v -= 0.6;
  }
  return v;
}

/** The hex next to `from` on the way to `to`. */
function stepToward(from: Hex, to: Hex): Hex {
  return distance(from, to) <= 1 ? to : line(from, to)[1];
}

export function classisOpponent(s: State, side: string, random: () => number): Action {
  const legal = legalActions(s, side);
  if (legal.length <= 1) return legal[0] ?? { kind: 'end' };
  const pointsAfter = s.activation!.points - 1;
  const enemies = s.ships.filter((x) => !x.sunk && x.side !== side);
  const occupiedBy = new Map(s.ships.filter((x) => !x.sunk).map((x) => [hexKey(x.hex), x]));

  let best: Action = { kind: 'end' };
  let bestValue = 0.15;
  const consider = (a: Action, v: number) => {
    const jittered = v + random() * 0.01;
    if (jittered > bestValue) (best = a), (bestValue = jittered);
  };

  // The best single move of each ship, and what it gains over staying put.
  const bestMove = new Map<string, { action: Action & { kind: 'move' }; gain: number }>();
  const here = new Map<string, number>();
  for (const a of legal) {
    if (a.kind !== 'move') {
      if (a.kind !== 'command-move') consider(a, actionValue(s, side, a));
      continue;
    }
    const ship = shipById(s, a.ship)!;
    if (!here.has(ship.id)) {
      // Staying put keeps the contact the ship's bow already has.
      const bow = s.contacts.find((c) => c.attacker === ship.id);
      const engaged = bow ? shipById(s, bow.target)! : null;
      here.set(
        ship.id,
        placeValue(s, ship, { hex: ship.hex, facing: ship.facing, engage: engaged && engaged.side !== side ? engaged : null }, enemies, pointsAfter + 1),
      );
    }
    const last = a.path[a.path.length - 1];
    const there = last ? occupiedBy.get(hexKey(last)) : undefined;
    const engage = there && there.side !== side ? there : null;
    const hex = engage ? (a.path[a.path.length - 2] ?? ship.hex) : (last ?? ship.hex);
    const gain = placeValue(s, ship, { hex, facing: a.facing as ShipState['facing'], engage }, enemies, pointsAfter) - here.get(ship.id)!;
    const known = bestMove.get(ship.id);
    if (!known || gain > known.gain) bestMove.set(ship.id, { action: a, gain });
  }
  for (const { action, gain } of bestMove.values()) consider(action, gain);

  // Ships in command moving together for one point, if more than one gains.
  const together = [...bestMove.values()].filter((m) => m.gain > 0.15 && inCommand(s, shipById(s, m.action.ship)!)).sort((x, y) => y.gain - x.gain);
  if (together.length > 1) {
    const moves: ShipMove[] = [];
    let gain = 0;
    for (const m of together) {
      const tried = [...moves, { ship: m.action.ship, path: m.action.path, facing: m.action.facing }];
      if (check(s, side, { kind: 'command-move', moves: tried }) === null) moves.push(tried[tried.length - 1]), (gain += m.gain);
    }
    if (moves.length > 1) consider({ kind: 'command-move', moves }, gain);
  }
  return best;
}
