/**
 * What the computer opponent expects a meeting of two ships to be worth, on average over the dice: the hull a
 * ram takes (with the water its hole lets in before it is plugged), the chance it sinks the target, the chance
 * of grapples and who takes whom in the boarding fight that follows. Values are in hundredths of a side's
 * starting hull, the measure victory is judged by: +10 is a tenth of the enemy fleet's hull gone.
 */
import { RULES } from './rules.ts';
import { type ShipState, marineCount, statsOf } from './state.ts';

/** Expected water an open hole lets in before it is plugged: 1 a turn while open, plugged on 5-6 (on 6 in a fight). */
const leakOf = (plugOn: number): number => {
  const open = (plugOn - 1) / 6;
  return open / (1 - open);
};
const LEAK_QUIET = leakOf(RULES.plugging.quietOn);

/** The water an open hole lets in beyond a quiet one's when its ship spends `rounds` turns in a boarding fight first (plugged only on a 6 there). */
function fightLeak(rounds: number): number {
  const open = (RULES.plugging.boardingFightOn - 1) / 6;
  const stillOpen = open ** rounds;
  return (open * (1 - stillOpen)) / (1 - open) + stillOpen * LEAK_QUIET - LEAK_QUIET;
}

/** How many enemies a ship's marines kill in a round, on average. */
export const meleeStrength = (s: ShipState): number =>
  s.marines.light * ((7 - RULES.marineKillsOn.light) / 6) +
  s.marines.medium * ((7 - RULES.marineKillsOn.medium) / 6) +
  s.marines.heavy * ((7 - RULES.marineKillsOn.heavy) / 6);

/** The chances of `k` kills from `n` marines each killing with chance `p`. */
function binomial(n: number, p: number): number[] {
  const out = [1];
  for (let i = 0; i < n; i++) {
    out.push(0);
    for (let k = out.length - 1; k >= 0; k--) out[k] = out[k] * (1 - p) + (k > 0 ? out[k - 1] * p : 0);
  }
  return out;
}

/** How a boarding fight ends: the defender surrenders, or the attacker is repulsed (else the grapples are cut), and how many rounds it lasts. */
interface FightEnd {
  readonly takes: number;
  readonly repulsed: number;
  readonly rounds: number;
}

const fightMemo = new Map<string, FightEnd>();

/**
 * A boarding fight round by round from `a` attacking marines against `d` (each killing with chance `pa`, `pd`),
 * as the rules end it: after a round the defender surrenders when outnumbered more than 2:1, the attacker is
 * repulsed when it is, and with no marines left on either ship the grapples are cut. Exact over the dice.
 */
function fightEnd(a: number, d: number, pa: number, pd: number): FightEnd {
  const key = `${a},${d},${pa},${pd}`;
  const known = fightMemo.get(key);
  if (known) return known;
  const ka = binomial(a, pa);
  const kd = binomial(d, pd);
  const ratio = RULES.surrenderRatio;
  let takes = 0;
  let repulsed = 0;
  let stay = 0;
  let later = 0;
  for (let i = 0; i < ka.length; i++)
    for (let j = 0; j < kd.length; j++) {
      const w = ka[i] * kd[j];
      if (w === 0) continue;
      const a2 = Math.max(0, a - j);
      const d2 = Math.max(0, d - i);
      if (a2 === 0 && d2 === 0) continue;
      if (a2 > ratio * d2) takes += w;
      else if (d2 > ratio * a2) repulsed += w;
      else if (a2 === a && d2 === d) stay += w;
      else {
        const next = fightEnd(a2, d2, pa, pd);
        takes += w * next.takes;
        repulsed += w * next.repulsed;
        later += w * next.rounds;
      }
    }
  // A round without a kill leaves the fight as it was: it goes on until one does.
  const out =
    stay < 1 ? { takes: takes / (1 - stay), repulsed: repulsed / (1 - stay), rounds: (1 + later) / (1 - stay) } : { takes: 0, repulsed: 0, rounds: 0 };
  fightMemo.set(key, out);
  return out;
}

/** A ship's chance of a kill with each marine (its marines' kills a round over their number). */
const killChance = (s: ShipState): number => {
  const n = marineCount(s.marines);
  return n === 0 ? 0 : meleeStrength(s) / n;
};

/**
 * The chance that `a`'s marines, boarding `b`, take it: the fight to its end by the rules' surrender and repulse
 * (a repulsed boarder's ship is then most often taken by the counter-boarding, see `boardingLoss`).
 */
export function boardingOdds(a: ShipState, b: ShipState): number {
  return fightEnd(Math.min(marineCount(a.marines), 40), Math.min(marineCount(b.marines), 40), killChance(a), killChance(b)).takes;
}

/** The chance that `a`, boarding `b`, is thrown back (and then, most likely, counter-boarded and taken). */
export function boardingLoss(a: ShipState, b: ShipState): number {
  return fightEnd(Math.min(marineCount(a.marines), 40), Math.min(marineCount(b.marines), 40), killChance(a), killChance(b)).repulsed;
}

/** Chances that each ship is a rammer bow to bow (a tie makes both rammers). */
export function headOnOdds(mine: number, theirs: number): { mine: number; theirs: number } {
  let m = 0;
  let t = 0;
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++) {
      const x = a + Math.max(0, mine - theirs);
      const y = b + Math.max(0, theirs - mine);
      if (x >= y) m++;
      if (y >= x) t++;
    }
  return { mine: m / 36, theirs: t / 36 };
}

/** A ram's expected effect on its target: hull lost (the blow and the leak after), chance it sinks, hull left. */
export function ramEffect(rammer: ShipState, target: ShipState, bonus: number): { lost: number; sinks: number; left: number } {
  const hull = statsOf(target).hull;
  const remaining = Math.max(0, hull - target.damage);
  let lost = 0;
  let sinks = 0;
  let left = 0;
  for (let d = 1; d <= 6; d++) {
    const blow = Math.max(0, d + statsOf(rammer).ramModifier + bonus);
    if (blow >= remaining) {
      lost += remaining;
      sinks++;
    } else {
      const after = Math.min(remaining, blow + LEAK_QUIET);
      lost += after;
      left += remaining - after;
    }
  }
  return { lost: lost / 6, sinks: sinks / 6, left: left / 6 };
}

/** How the opponent weighs each side's hull: the share of its side's starting hull, in hundredths. */
export interface Scale {
  /** A hull point of this ship's side, in value. */
  readonly worth: (ship: ShipState) => number;
  /** Whether a ship is the opponent's own side. */
  readonly mine: (ship: ShipState) => boolean;
  /** Chance that an enemy ship has ordered boarding this turn. */
  readonly boardsChance: (ship: ShipState, against: ShipState) => number;
  /** Whether the opponent's own ship has ordered boarding. */
  readonly boards: (ship: ShipState) => boolean;
  /** Turns left in the battle (for what a ship's stone throwers may still do). */
  readonly turnsLeft: number;
}

/**
 * Hull points a ship's stone throwers may still knock off the other side before the battle ends, at long
 * range (a 6 is 1 damage), half of them: what sinking or taking it saves.
 */
export const artilleryThreat = (scale: Scale, ship: ShipState): number => (ship.stoneThrowers * scale.turnsLeft) / 12;

/** The value, to the opponent, of a hull point lost by `ship` (negative for its own ships). */
const signedWorth = (scale: Scale, ship: ShipState) => (scale.mine(ship) ? -scale.worth(ship) : scale.worth(ship));

/**
 * What grapples after `rammer` holes `target` are worth, on average: each side may want to board (the opponent's
 * own ships as ordered, enemies by chance); with both wanting it, or a corvus, the grapples hold, otherwise on
 * 4-6; then the stronger marines take the other ship (its hull left is lost to its side). A ship that was
 * boarded leaks more (its holes plug only on a 6).
 */
function grappleValue(scale: Scale, rammer: ShipState, target: ShipState, targetLeft: number): number {
  // A ship whose oars the other raked can never board it.
  const want = (s: ShipState, o: ShipState) => (s.rakedBy.includes(o.id) ? 0 : scale.mine(s) ? (scale.boards(s) ? 1 : 0) : scale.boardsChance(s, o));
  const wr = want(rammer, target);
  const wt = want(target, rammer);
  const grapple = (s: ShipState) => (s.corvus ? 1 : (7 - RULES.grappleOn) / 6);
  const fight = wr * wt + wr * (1 - wt) * grapple(rammer) + (1 - wr) * wt * grapple(target);
  if (fight === 0) return 0;
  const rammerLeft = Math.max(0, statsOf(rammer).hull - rammer.damage);
  const rammerAttacks = wr > 0 ? (wr * wt + wr * (1 - wt) * grapple(rammer)) / fight : 0;
  // Who takes whom, as attacker or as defender: a repulsed boarder is counter-boarded, the fight then already
  // won more than 2:1 (a little less sure: the defender may cut the grapples instead).
  const counter = 0.9;
  const fightOn = fightEnd(Math.min(marineCount(rammer.marines), 40), Math.min(marineCount(target.marines), 40), killChance(rammer), killChance(target));
  const rounds =
    rammerAttacks * fightOn.rounds +
    (1 - rammerAttacks) *
      fightEnd(Math.min(marineCount(target.marines), 40), Math.min(marineCount(rammer.marines), 40), killChance(target), killChance(rammer)).rounds;
  const rammerWins = rammerAttacks * boardingOdds(rammer, target) + (1 - rammerAttacks) * counter * boardingLoss(target, rammer);
  const targetWins = rammerAttacks * counter * boardingLoss(rammer, target) + (1 - rammerAttacks) * boardingOdds(target, rammer);
  const taken = rammerWins * (targetLeft + artilleryThreat(scale, target)) * signedWorth(scale, target);
  const lost = targetWins * (rammerLeft + artilleryThreat(scale, rammer)) * signedWorth(scale, rammer);
  // Ships held in a fight plug only on a 6, for as long as it lasts: the target's holes (the ram's and any open) and
  // the rammer's leak longer, which matters only for a ship that is not taken.
  const extra = fightLeak(rounds);
  const extraLeak =
    (1 - rammerWins) * extra * Math.min(1 + target.holes, targetLeft) * signedWorth(scale, target) +
    (1 - targetWins) * extra * Math.min(rammer.holes, rammerLeft) * signedWorth(scale, rammer);
  return fight * (taken + lost + extraLeak);
}

/** The value of `rammer` ramming `target` on its side or stern (not bow to bow). */
export function sideRamValue(scale: Scale, rammer: ShipState, target: ShipState, bonus: number): number {
  const e = ramEffect(rammer, target, bonus);
  const sinkWorth = 0.25 * Math.max(0, statsOf(target).hull - target.damage) + artilleryThreat(scale, target);
  return (
    (e.lost + e.sinks * sinkWorth) * signedWorth(scale, target) + (1 - e.sinks) * grappleValue(scale, rammer, target, e.left / Math.max(1e-9, 1 - e.sinks))
  );
}

/** The value of two ships meeting bow to bow: each may be the rammer by the head-on roll, both on a tie. */
export function headOnValue(scale: Scale, a: ShipState, aBonus: number, b: ShipState, bBonus: number): number {
  const odds = headOnOdds(statsOf(a).rank, statsOf(b).rank);
  return odds.mine * sideRamValue(scale, a, b, aBonus) + odds.theirs * sideRamValue(scale, b, a, bBonus);
}

/** The full-speed ram bonus a ship gets if it declares maximum speed this turn. */
export const fullSpeedBonus = (ship: ShipState, declaresMax: boolean): number => (ship.wentMax && declaresMax ? RULES.fullSpeedRamBonus : 0);
