/**
 * The computer opponent. It looks one turn ahead: for each enemy ship it forecasts where that ship may be in
 * every movement phase (opponent-forecast.ts), and for each legal plot of its own ship it adds up, phase by
 * phase, the chance of each meeting and what the meeting is worth on average over the dice (opponent-values.ts):
 * its ram into a side or stern, a bow-to-bow meeting by the head-on odds, a race for one hex as the rules settle it (the
 * faster ship, then the better crew, is there first and is rammed by the other), an enemy's ram into its side, and the
 * boarding fights that may follow. Where the plot meets nobody, it weighs the ship's place for the next turn:
 * the hexes of way it still needs (over as many turns as it takes) to lie pointed at the beam or stern of the enemy it
 * can hurt most, on average over the enemy's likeliest ends of the turn (its turning circle and the board's edges
 * counted: opponent-chase.ts), no enemy within reach on its beam or stern (half the worry with a friend ending the turn
 * close by, to ram the rammer), a beam offered to it, out of the reach of enemy stone throwers (the only fire that holes
 * a hull) and an enemy within its own, no maximum-speed turn spent and no going astern for nothing, open water ahead, and no
 * friend in its way. For a ship with a turning circle, the places its 12 best plots leave it at are then looked at
 * from the next turn: from each of the 6 likeliest ends of this turn of the enemy it goes for, its best plot of the
 * next turn against that enemy's moves from there, averaged and added by the chance it meets nobody this turn
 * (opponent-lookahead.ts). Its own losses weigh more while it is ahead on the hull kept (twice that when no enemy
 * has stone throwers to whittle that lead away), less as the turns run out while it is not. Ships are plotted one
 * after another, nearest the enemy first, each keeping clear of the paths already chosen.
 *
 * Each ship is scored with and without a boarding order and takes the better (the order holds for every ram it
 * makes or takes, so it boards where its marines would win the fights it may meet), holds its fire for short range
 * at the ship it goes for, and counter-boards repulsed boarders when its marines are the stronger. A better crew rakes
 * the oars of an enemy whose marines could take it, once, so that its later rams run no risk of being boarded. On
 * the battle's last turn only that turn's meetings count. Holes are plugged by the rules themselves, every turn.
 */
import { type Facing, type Hex, distance, neighbour, sameHex, turnDistance } from '../hex.ts';
import type { Opponent } from '../ruleset.ts';
import { impassable } from '../sea.ts';
import type { Action } from './actions.ts';
import { type Forecast, PHASES, RACER_SPEEDS, type Track, crossKey, distanceTo, forecast, keyOf, sinceAfter, trackOf } from './opponent-forecast.ts';
import { type Scale, boardingOdds, fullSpeedBonus, headOnValue, ramEffect, sideRamValue } from './opponent-values.ts';
import { firingRow } from './combat.ts';
import { type ChaseMap, type SeaGrid, chaseMap, seaGrid } from './opponent-chase.ts';
import { type EnemyEnd, type RateNext, enemyEnds, nextTurnValue, placeKey, shipAfter } from './opponent-lookahead.ts';
import { legalPlots } from './plot.ts';
import { RULES } from './rules.ts';
import { type ShipPlot, type ShipState, type State, active, fightOf, marineCount, statsOf } from './state.ts';
import { hullShare } from './victory.ts';

/**
 * The weights of the opponent's judgement of a place. Those marked "units" are in tenths of what a ram into an
 * enemy's side is worth on average to the ship (a duel's single ship is the whole fleet, a fleet's one ship of
 * many: the same hex of way or turn of maximum speed must weigh alike against the rams it may buy).
 */
export const WEIGHTS = {
  /** The chance given to an enemy keeping its course, against every other legal plot. */
  keepCourse: 0.5,
  /** Each hex of way a ship needs to a ramming position on the enemy it goes for (units). */
  perHex: 1.0,
  /** The chance that an enemy within reach rams next turn where it can, and that we can. */
  threat: 0.3,
  /** How much of that threat is lifted when a friend ends the turn close by, to ram the rammer where it stops. */
  support: 0.5,
  /** How near (hexes) a friend must end the turn to cover a ship so. */
  supportWithin: 2,
  opening: 0.2,
  /** A maximum-speed turn spent, each one spent making the rest dearer (units). */
  maxSpeed: 2.5,
  /** The least chance of a meeting for which a maximum-speed turn is spent. */
  maxSpeedMeeting: 0.15,
  /** Land, a wreck or the edge right ahead (units). */
  blockedAhead: 1.5,
  /** Running into a friend's path. */
  friendClash: 30,
  /** A rammer is left backing off, a sitting target: a share of an enemy ram's worth. */
  afterRam: 0.15,
  /** Turns of stone throwers' fire a place at the turn's end is reckoned to be under (or to keep an enemy under). */
  stones: 5,
  /** Going astern without a meeting to gain by it (units). */
  astern: 1.0,
  /** How much more its own losses weigh when it is ahead on the hull kept. */
  ahead: 1.5,
  /** How much more, ahead, when no enemy ship has stone throwers left to whittle the lead away. */
  aheadSafe: 3,
  /** How much less they weigh by the last turn when it is level or behind. */
  late: 0.6,
  /** How many of an enemy's likeliest ends of the turn the way to it is averaged over (0: its mean end alone). */
  chaseEnds: 8,
  /** How many of the places the best plots leave a ship at are looked at for the next turn (0: none). */
  lookAheadPlaces: 12,
  /** How many of the enemy's likeliest ends the next turn is reckoned from. */
  lookAheadEnds: 6,
  /** What the next turn's best meeting is worth against this turn's (it may not come). */
  nextTurn: 1.0,
  /** The least chance that an enemy's marines take the ship if they board it, for a better crew to rake its oars first. */
  rakeAgainst: 0.25,
};

/**
 * How much the side's own losses weigh against the enemy's: ahead on the share of hull kept, a win at the turn limit
 * is the side's to lose, so it risks less; level or behind, a battle that runs out is no win, so it risks more as the
 * turns run out.
 */
function caution(state: State, side: string): number {
  const ours = hullShare(state, side);
  const theirs = Math.max(0, ...state.sides.filter((s) => s.id !== side).map((s) => hullShare(state, s.id)));
  if (ours > theirs + 1e-9) {
    // A lead the enemy cannot whittle away from afar (no stone throwers afloat) is kept by keeping clear: every risk
    // taken then can only lose it, and the turn limit gives the win.
    const shelled = state.ships.some((s) => s.side !== side && active(s) && s.stoneThrowers > 0);
    return shelled ? WEIGHTS.ahead : WEIGHTS.aheadSafe;
  }
  return 1 - WEIGHTS.late * Math.min(1, (state.turn - 1) / Math.max(1, state.turnLimit - 1));
}

/** A stone thrower's hull damage a shot on average, by range (0 out of range). */
const STONE_DAMAGE: readonly number[] = Array.from({ length: 21 }, (_, range) => {
  const row = range > 0 ? firingRow('stoneThrower', range) : undefined;
  if (!row) return 0;
  let sum = 0;
  for (let die = 1; die <= 6; die++) sum += row.results.find((r) => die >= r.from)?.damage ?? 0;
  return sum / 6;
});

/** The facing from `from` that points most nearly at `to`. */
function bearing(from: Hex, to: Hex): Facing {
  let best: Facing = 0;
  let bestD = Number.POSITIVE_INFINITY;
  for (let f = 0; f < 6; f++) {
    const d = distance(neighbour(from, f as Facing), to);
    if (d < bestD) {
      bestD = d;
      best = f as Facing;
    }
  }
  return best;
}

/** A tenth of what a ram into an enemy's side is worth to the ship, on average over the enemies: the place weights' unit. */
function unitOf(pairs: Pair[]): number {
  if (pairs.length === 0) return 1;
  return Math.max(0.5, pairs.reduce((sum, p) => sum + Math.max(0, p.ram[0]), 0) / pairs.length / 10);
}

/** What one of our ships and one enemy are worth to each other this turn. */
interface Pair {
  readonly f: Forecast;
  /** Our ram into its side; bow to bow; its ram into our side (negative). With and without the full-speed bonus. */
  readonly ram: readonly [number, number];
  readonly headOn: readonly [number, number];
  readonly rammed: number;
  /** The farthest apart the two can start the turn and still meet in it. */
  readonly meetWithin: number;
  /** A turn of stone throwers' fire, per point of damage a stone does: its stones at us (negative), ours at it. */
  readonly shelled: number;
  readonly shelling: number;
  /** Our crew's rank less the enemy's: the better crew is first into a hex both make for at the same speed. */
  readonly rankDiff: number;
}

function pairsOf(scale: Scale, ship: ShipState, forecasts: Forecast[]): Pair[] {
  const stats = statsOf(ship);
  const top = ship.maxTurnsUsed < RULES.maxSpeedTurnsPerGame ? stats.maxSpeed : stats.cruisingSpeed;
  return forecasts.map((f) => {
    const e = f.ship;
    const theirBonus = e.wentMax ? RULES.fullSpeedRamBonus * 0.5 : 0;
    const ram = [sideRamValue(scale, ship, e, 0), sideRamValue(scale, ship, e, RULES.fullSpeedRamBonus)] as const;
    const headOn = [headOnValue(scale, ship, 0, e, theirBonus), headOnValue(scale, ship, RULES.fullSpeedRamBonus, e, theirBonus)] as const;
    return {
      f,
      ram,
      headOn,
      rammed: sideRamValue(scale, e, ship, theirBonus),
      meetWithin: top + f.reach + 1,
      shelled: -e.stoneThrowers * scale.worth(ship),
      shelling: ship.stoneThrowers * scale.worth(e),
      rankDiff: stats.rank - statsOf(e).rank,
    };
  });
}

interface Choice {
  readonly plot: ShipPlot;
  readonly score: number;
  readonly target: ShipState | null;
}

/** One way of weighing meetings (boarding ordered or not) as `choosePlot` scores plots against it. */
interface Judgement {
  readonly pairs: Pair[];
  readonly near: Pair[];
  readonly places: Map<number, { value: number; who: Pair | null }>;
  best: Choice | null;
  /** Every plot's score this turn, for the look at the next turn. */
  readonly scored: Scored[];
}

/** A plot as scored on this turn alone. */
/** Turns left to play, this one included (at least 1). */
const turnsLeft = (state: State): number => Math.max(1, state.turnLimit - state.turn + 1);

interface Scored {
  readonly plot: ShipPlot;
  readonly t: Track;
  readonly score: number;
  readonly free: number;
  /** What its end is worth for the next turn, as scored (counted by `free`). */
  readonly place: number;
  readonly who: Pair | null;
  readonly target: ShipState | null;
}

/** The next turn's look-ahead for a decision: the enemy's likeliest ends, found once per enemy. */
interface LookAhead {
  readonly ends: (p: Pair) => EnemyEnd[];
  /**
   * Whether a miss next turn is counted at this turn's place: against a lone enemy, level or behind. Ahead, or with
   * other enemies about (their threats are in the place, and the next turn looks at one enemy), the place stands as
   * it is: a meeting next turn is no way out of it, and a lead is kept by keeping clear.
   */
  readonly missCounted: boolean;
}

/**
 * Scores every legal plot of `ship` under each set of pairs (the same ship with different boarding orders)
 * and returns the best plot for each.
 */
function choosePlot(
  state: State,
  ship: ShipState,
  pairSets: Pair[][],
  friends: Track[],
  stops: (h: Hex) => boolean,
  blocked: (h: Hex) => boolean,
  chase: (p: Pair, circle: number) => ChaseMap,
  random: () => number,
  look: LookAhead | null = null,
): (Choice | null)[] {
  const stats = statsOf(ship);
  const circle = stats.turningCircle;
  const chaseOf = (p: Pair) => chase(p, circle);
  const judgements: Judgement[] = pairSets.map((pairs) => ({
    pairs,
    near: pairs.filter((p) => distance(ship.hex, p.f.ship.hex) <= p.meetWithin),
    places: new Map(),
    best: null,
    scored: [],
  }));
  const unit = unitOf(pairSets[0]);
  // The battle's last turn: nothing after it counts, neither the place a plot ends at nor a maximum-speed turn kept.
  const lastTurn = state.turn >= state.turnLimit;
  // Maximum-speed turns left unspent at the turn limit are wasted: as the turns run out towards their number they
  // cost less, and once there are no more turns than them, nothing, and may go on way alone.
  const spare = Math.max(0, RULES.maxSpeedTurnsPerGame - ship.maxTurnsUsed);
  const keep = Math.max(0, 1 - spare / turnsLeft(state));
  const maxCost = lastTurn ? 0 : unit * WEIGHTS.maxSpeed * (1 + ship.maxTurnsUsed) * keep;
  const plots = legalPlots(state, ship);
  const legalCount = plots.length;
  const friendEnds = friends.map((fr) => fr.hexes[PHASES]);
  for (const plot of plots) {
    const declaredMax = plot.steps !== 'B' && plot.steps.length > stats.cruisingSpeed;
    const speed = plot.steps === 'B' ? 1 : plot.steps.length;
    const t = trackOf(ship, plot, stops);
    const bonus = fullSpeedBonus(ship, declaredMax) > 0 ? 1 : 0;
    let common = 0;
    if (declaredMax) common -= maxCost;
    // Going astern leaves the ship slow and its stern first: only for a reason.
    if (plot.steps === 'B' && legalCount > 1 && !lastTurn) common -= unit * WEIGHTS.astern;
    for (const fr of friends) common -= WEIGHTS.friendClash * clash(t, fr);
    const end = t.hexes[PHASES];
    const facing = t.facings[PHASES];
    const since = sinceAfter(ship, plot, t, circle);
    const endKey = (keyOf(end) * 6 + facing) * 10 + since;
    const noise = 1e-3 * random();
    for (const j of judgements) {
      const { score: met, free, target } = meetings(t, bonus, speed, j.near);
      // A maximum-speed turn is one of three a battle: spent on a likely meeting, not on way alone.
      if (declaredMax && 1 - free < WEIGHTS.maxSpeedMeeting && keep > 0) continue;
      // Many plots end in the same hex, facing and straight run: its worth for the next turn is reckoned once.
      let place = j.places.get(endKey);
      if (!place) {
        place = lastTurn ? { value: 0, who: null } : placeValue(ship, end, facing, since, j.pairs, blocked, chaseOf, unit, friendEnds);
        j.places.set(endKey, place);
      }
      const score = met + free * place.value + common + noise;
      const chosenTarget = target ?? place.who?.f.ship ?? null;
      if (!j.best || score > j.best.score) j.best = { plot, score, target: chosenTarget };
      if (look && circle > 0) j.scored.push({ plot, t, score, free, place: place.value, who: place.who, target: chosenTarget });
    }
  }
  // A ship that turns every hex (no turning circle) is as near a ram as its hexes say, and has hundreds of plots
  // a turn: the look at the next turn is for ships with a turning circle.
  if (look && circle > 0 && !lastTurn) for (const j of judgements) j.best = lookAhead(state, ship, j, look, stops, maxCost, unit) ?? j.best;
  return judgements.map((j) => j.best);
}

/**
 * The plots rated best this turn, looked at again with the next turn's chances added: from where each leaves the
 * ship, its best plot next turn against the enemy it goes for, from each of that enemy's likeliest ends.
 */
function lookAhead(state: State, ship: ShipState, j: Judgement, look: LookAhead, stops: (h: Hex) => boolean, maxCost: number, unit: number): Choice | null {
  const ranked = [...j.scored].sort((a, b) => b.score - a.score);
  const seen = new Map<string, number>();
  let best: Choice | null = null;
  const nextMaxCost = maxCost + unit * WEIGHTS.maxSpeed;
  for (const c of ranked) {
    const after = shipAfter(ship, c.plot, c.t);
    const key = placeKey(after);
    let next = seen.get(key);
    if (next === undefined) {
      if (seen.size >= WEIGHTS.lookAheadPlaces) continue;
      next = 0;
      const who = c.who;
      if (who && c.free > 0.05) {
        const miss = look.missCounted ? c.place : 0;
        const cruising = statsOf(after).cruisingSpeed;
        const rate: RateNext = (t2, plot2, a, f) => {
          const declaredMax = plot2.steps !== 'B' && plot2.steps.length > cruising;
          const bonus = fullSpeedBonus(a, declaredMax) > 0 ? 1 : 0;
          const speed = plot2.steps === 'B' ? 1 : plot2.steps.length;
          const met = meetings(t2, bonus, speed, [{ ...who, f }]);
          return met.score + met.free * miss - (declaredMax ? nextMaxCost : 0);
        };
        next = nextTurnValue(state, after, look.ends(who), who.meetWithin, rate, stops, miss) - miss;
      }
      seen.set(key, next);
    }
    const score = c.score + WEIGHTS.nextTurn * c.free * next;
    if (!best || score > best.score) best = { plot: c.plot, score, target: c.target };
  }
  return best;
}

/** What a track's meetings with the forecast enemies are worth, phase by phase: the value, the chance it meets nobody, the ship it likeliest meets. */
function meetings(t: Track, bonus: number, speed: number, near: readonly Pair[]): { score: number; free: number; target: ShipState | null } {
  let free = 1;
  let score = 0;
  let target: ShipState | null = null;
  let targetChance = 0;
  for (let p = 1; p <= PHASES && free > 1e-6; p++) {
    let contact = 0;
    let value = 0;
    const here = keyOf(t.hexes[p]);
    for (const pair of near) {
      const f = pair.f;
      let chance = 0;
      let worth = 0;
      if (t.moved[p]) {
        const from = t.hexes[p - 1];
        const fromKey = keyOf(from);
        const swap = f.crosses[p].get(crossKey(here, fromKey)) ?? 0;
        chance += swap;
        worth += swap * pair.headOn[bonus];
        const there = f.occupies[p].get(here);
        if (there) {
          // The side of the enemy's hex we come across: its bow is a bow-to-bow meeting.
          const side = sideFrom(t.hexes[p], from);
          const racing = f.racers[p].get(here);
          const heading = t.facings[p];
          for (let fa = 0; fa < 6; fa++) {
            if (there[fa] === 0) continue;
            let waiting = there[fa];
            // It makes for the same hex this phase: a race. The faster is there first (then the better crew, then a
            // roll-off) and is rammed by the other; one going astern rams nobody.
            if (racing) {
              const ours = turnDistance(side, fa as Facing) === 0 ? pair.headOn[bonus] : pair.ram[bonus] + WEIGHTS.afterRam * pair.rammed;
              for (let v = 0; v < RACER_SPEEDS; v++)
                for (let s = 0; s < 6; s++) {
                  const c = racing[(v * 6 + s) * 6 + fa];
                  if (c === 0) continue;
                  waiting -= c;
                  const theirs = v === 0 ? 0 : turnDistance(s as Facing, heading) === 0 ? pair.headOn[0] : pair.rammed;
                  const first = raceFirst(speed, Math.max(1, v), pair.rankDiff);
                  chance += c;
                  worth += c * (first * theirs + (1 - first) * ours);
                }
            }
            if (waiting <= 1e-12) continue;
            chance += waiting;
            worth += waiting * (turnDistance(side, fa as Facing) === 0 ? pair.headOn[bonus] : pair.ram[bonus] + WEIGHTS.afterRam * pair.rammed);
          }
        }
      } else {
        const coming = f.arrives[p].get(here);
        if (coming) {
          const heading = t.facings[p];
          for (let k = 0; k < 36; k++) {
            const c = coming[k];
            if (c === 0) continue;
            chance += c;
            worth += c * (turnDistance(Math.floor(k / 6) as Facing, heading) === 0 ? pair.headOn[0] : pair.rammed);
          }
        }
      }
      if (chance > 0) {
        contact += chance;
        value += worth;
        if (chance > targetChance) {
          targetChance = chance;
          target = f.ship;
        }
      }
    }
    score += free * value;
    free *= Math.max(0, 1 - contact);
  }
  return { score, free, target };
}

/** The chance that our ship is first into a hex both make for: the faster, then the better crew, then a roll-off. */
function raceFirst(ours: number, theirs: number, rankDiff: number): number {
  if (ours !== theirs) return ours > theirs ? 1 : 0;
  return rankDiff > 0 ? 1 : rankDiff < 0 ? 0 : 0.5;
}

/** The side of hex `at` that `from` lies across (they are neighbours). */
function sideFrom(at: Hex, from: Hex): Facing {
  for (let f = 0; f < 6; f++) if (sameHex(neighbour(at, f as Facing), from)) return f as Facing;
  return 0;
}

/** Whether two tracks would put two ships in one hex (one of them is then stopped short). */
function clash(a: Track, b: Track): number {
  for (let p = 1; p <= PHASES; p++) {
    if (sameHex(a.hexes[p], b.hexes[p])) return 1;
    if (a.moved[p] && sameHex(a.hexes[p], b.hexes[p - 1]) && !b.moved[p]) return 1;
  }
  return 0;
}

/** What a ship's place at the turn's end is worth for the next turn. */
function placeValue(
  ship: ShipState,
  at: Hex,
  facing: Facing,
  since: number,
  pairs: Pair[],
  blocked: (h: Hex) => boolean,
  chase: (p: Pair) => ChaseMap,
  unit: number,
  friendEnds: readonly Hex[],
): { value: number; who: Pair | null } {
  const stats = statsOf(ship);
  const reach = ship.maxTurnsUsed < RULES.maxSpeedTurnsPerGame ? stats.maxSpeed : stats.cruisingSpeed;
  // The enemy to go for: the most worth ramming, less the way to it.
  let v = Number.NEGATIVE_INFINITY;
  let who: Pair | null = null;
  for (const p of pairs) {
    const g = 0.5 * Math.max(0, p.ram[0]) - unit * WEIGHTS.perHex * distanceTo(at, p.f.end.q, p.f.end.r);
    if (g > v) {
      v = g;
      who = p;
    }
  }
  // The way to it: the hexes to a ramming position on it, turning circle and obstacles counted.
  v = who ? -unit * WEIGHTS.perHex * chase(who)(at, facing, since) : 0;
  // A friend ending close by covers the ship: an enemy that rams it stops alongside, its own beam to that friend's
  // ram, so a squadron keeping together is the costlier to attack (a human admiral's mutual support).
  const covered = friendEnds.some((h) => distance(h, at) <= WEIGHTS.supportWithin) ? 1 - WEIGHTS.support : 1;
  for (const p of pairs) {
    const e = p.f.end;
    const d = distanceTo(at, e.q, e.r);
    if (d < 0.5) continue;
    const eStats = statsOf(p.f.ship);
    const eReach = p.f.ship.maxTurnsUsed < RULES.maxSpeedTurnsPerGame ? eStats.maxSpeed : eStats.cruisingSpeed;
    const towardThem = turnDistance(bearing(at, e.hex), facing);
    const towardUs = turnDistance(bearing(e.hex, at), e.facing);
    // Within its reach: on our beam or stern it may ram us there; ahead of us it meets our bow.
    if (d <= eReach + 0.5) v += WEIGHTS.threat * (towardThem >= 2 ? covered * p.rammed : Math.min(0, p.headOn[0]));
    // Within ours, with its beam or stern to us: a ram waiting to be made.
    if (d <= reach + 0.5 && towardUs >= 2 && towardThem <= 1) v += WEIGHTS.opening * Math.max(0, p.ram[0]);
  }
  // Stones are the only fire that holes a hull, turn after turn: out of the enemy's stone throwers' reach, ours in reach.
  let shelled = 0;
  let shelling = 0;
  for (const p of pairs) {
    if (p.shelled === 0 && p.shelling === 0) continue;
    const hit = STONE_DAMAGE[Math.min(STONE_DAMAGE.length - 1, Math.round(distanceTo(at, p.f.end.q, p.f.end.r)))];
    shelled += p.shelled * hit;
    shelling = Math.max(shelling, p.shelling * hit);
  }
  v += WEIGHTS.stones * (shelled + shelling);
  if (blocked(neighbour(at, facing))) v -= unit * WEIGHTS.blockedAhead;
  return { value: v, who };
}

/**
 * The way to a ramming position on an enemy, on average over where it may end the turn (its likeliest ends, each
 * hex and facing by its chance): a ship that moves at random is seldom at the mean of its ends, and the way to
 * any one of them may be long when the way to most is short.
 */
function spreadChase(f: Forecast, circle: number, grid: SeaGrid): ChaseMap {
  const ends: { chance: number; map: ChaseMap }[] = [];
  let mass = 0;
  for (const e of f.ends) {
    if (ends.length >= WEIGHTS.chaseEnds) break;
    ends.push({ chance: e.chance, map: chaseMap(e.hex, e.facing, circle, grid) });
    mass += e.chance;
  }
  if (mass <= 0) return chaseMap(f.end.hex, f.end.facing, circle, grid);
  return (at, facing, since) => {
    let sum = 0;
    for (const e of ends) sum += e.chance * e.map(at, facing, since);
    return sum / mass;
  };
}

/**
 * Whether a better crew rakes the oars of the enemy it goes for rather than ramming it: raking does no hull damage,
 * but the raked ship can never board its raker, so a ship whose marines might be taken by that enemy's rakes it
 * first and rams it safely after (unless the ram would likely sink it now).
 */
function shouldRake(ship: ShipState, target: ShipState | null): boolean {
  if (!target || statsOf(ship).rank <= statsOf(target).rank || target.rakedBy.includes(ship.id)) return false;
  if (boardingOdds(target, ship) < WEIGHTS.rakeAgainst) return false;
  return ramEffect(ship, target, 0).sinks < 0.5;
}

export const opponent: Opponent<State, Action> = (state, side, random) => {
  const enemyShips = state.ships.filter((s) => s.side !== side && active(s));
  const mine = state.ships.filter((s) => s.side === side && active(s));
  const startHull = (s: ShipState) => Math.max(1, state.startHull[s.side] ?? 1);
  const care = caution(state, side);
  /** The measure of what meetings are worth, with the ship being plotted ordered to board or not. */
  const scale = (boards: boolean): Scale => ({
    worth: (s) => (s.side === side ? care : 1) * (100 / startHull(s)),
    mine: (s) => s.side === side,
    // An enemy is reckoned likelier to board when its marines would win.
    boardsChance: (s, against) => (boardingOdds(s, against) > 0.6 ? 0.7 : 0.4),
    boards: () => boards,
    turnsLeft: turnsLeft(state),
  });
  if (state.stage === 'repulse') {
    const fight = state.repulses[0];
    const defender = state.ships.find((s) => s.id === fight.defender);
    const attacker = state.ships.find((s) => s.id === fight.attacker);
    // The repulse left the defender more than twice as strong: counter-boarding takes the attacker, unless our
    // marines are gone or the open holes, plugged only on a 6 in a fight, would sink the ship first.
    const afloatFor = defender ? statsOf(defender).hull - defender.damage - defender.holes : 0;
    const counter = defender && attacker ? boardingOdds(defender, attacker) > 0.5 && afloatFor > 0 : true;
    return { kind: 'repulse', ship: fight.defender, choice: counter ? 'counter-board' : 'cut' };
  }
  const forecasts = enemyShips.map((s) => forecast(state, s, WEIGHTS.keepCourse));
  const blocked = impassable(state.sea, state.wrecks);
  // Ramming positions on each enemy where it is likeliest to end the turn, by turning circle, each searched once.
  const grid = seaGrid(state.sea, state.wrecks);
  const chases = new Map<string, ChaseMap>();
  const chase = (p: Pair, circle: number): ChaseMap => {
    const key = `${p.f.ship.id}:${circle}`;
    let found = chases.get(key);
    if (!found) {
      found = WEIGHTS.chaseEnds > 0 ? spreadChase(p.f, circle, grid) : chaseMap(p.f.end.hex, p.f.end.facing, circle, grid);
      chases.set(key, found);
    }
    return found;
  };
  const endsFound = new Map<string, EnemyEnd[]>();
  const look: LookAhead | null =
    WEIGHTS.lookAheadPlaces > 0
      ? {
          missCounted: care <= 1 && enemyShips.length === 1,
          ends: (p) => {
            let found = endsFound.get(p.f.ship.id);
            if (!found) {
              found = enemyEnds(state, p.f.ship, WEIGHTS.keepCourse, WEIGHTS.lookAheadEnds);
              endsFound.set(p.f.ship.id, found);
            }
            return found;
          },
        }
      : null;
  const surrendered = state.ships.filter((s) => s.status === 'surrendered').map((s) => s.hex);
  const grappled = mine.filter((s) => fightOf(state, s.id)).map((s) => s.hex);
  const stops = (h: Hex) => surrendered.some((x) => sameHex(x, h)) || grappled.some((x) => sameHex(x, h));
  const nearest = (s: ShipState) => Math.min(...enemyShips.map((e) => distance(s.hex, e.hex)));
  const order = [...mine].sort((a, b) => nearest(a) - nearest(b) || (a.id < b.id ? -1 : 1));
  const friends: Track[] = [];
  const plots: ShipPlot[] = [];
  for (const ship of order) {
    // With boarding ordered and without: each changes what every meeting is worth; the better plot decides.
    const stats = statsOf(ship);
    const close = enemyShips.some((e) => distance(ship.hex, e.hex) <= stats.maxSpeed + statsOf(e).maxSpeed + 2);
    const pairSets = [pairsOf(scale(false), ship, forecasts)];
    if (close && marineCount(ship.marines) > 0) pairSets.push(pairsOf(scale(true), ship, forecasts));
    const [quiet, boarding] = choosePlot(state, ship, pairSets, friends, stops, blocked, chase, random, look);
    const boards = Boolean(boarding && (!quiet || boarding.score > quiet.score));
    const choice = boards ? boarding : quiet;
    if (!choice) continue;
    const target = choice.target;
    const others = [...enemyShips].sort((a, b) => distance(ship.hex, a.hex) - distance(ship.hex, b.hex)).map((e) => e.id);
    const targets = target ? [target.id, ...others.filter((id) => id !== target.id)].slice(0, 8) : others.slice(0, 8);
    // Every weapon hits harder in its short band: hold for it (they shoot in the last phase anyway).
    plots.push({ ...choice.plot, fire: 'close', targets, board: boards, rake: !boards && shouldRake(ship, target) });
    friends.push(trackOf(ship, choice.plot, stops));
  }
  // Ships in the order of the side's list, as a player would hand them in.
  plots.sort((a, b) => mine.findIndex((s) => s.id === a.ship) - mine.findIndex((s) => s.id === b.ship));
  return { kind: 'plot', plots };
};
