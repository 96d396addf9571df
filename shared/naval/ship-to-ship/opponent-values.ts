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
const LEAK_FIGHTING = leakOf(RULES.plugging.boardingFightOn);

/** How many enemies a ship's marines kill in a round, on average. */
export const meleeStrength = (s: ShipState): number =>
  s.marines.light * ((7 - RULES.marineKillsOn.light) / 6) +
  s.marines.medium * ((7 - RULES.marineKillsOn.medium) / 6) +
  s.marines.heavy * ((7 - RULES.marineKillsOn.heavy) / 6);

/**
 * The chance that `a`'s marines take `b` in a boarding fight to its end. Both sides' kills land together each
 * round, so a crew's weight goes as its kills a round times its numbers (Lanchester's square law).
 */
export function boardingOdds(a: ShipState, b: ShipState): number {
  const sa = meleeStrength(a) * marineCount(a.marines);
  const sb = meleeStrength(b) * marineCount(b.marines);
  if (sa === 0 && sb === 0) return 0;
  return (sa * sa) / (sa * sa + sb * sb);
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
  const want = (s: ShipState, o: ShipState) => (scale.mine(s) ? (scale.boards(s) ? 1 : 0) : scale.boardsChance(s, o));
  const wr = want(rammer, target);
  const wt = want(target, rammer);
  const grapple = (s: ShipState) => (s.corvus ? 1 : (7 - RULES.grappleOn) / 6);
  const fight = wr * wt + wr * (1 - wt) * grapple(rammer) + (1 - wr) * wt * grapple(target);
  if (fight === 0) return 0;
  const rammerWins = boardingOdds(rammer, target);
  const targetWins = boardingOdds(target, rammer);
  const rammerLeft = Math.max(0, statsOf(rammer).hull - rammer.damage);
  // The defender of a repulse may cut the grapples instead of counter-boarding: a win as defender is a little less sure.
  const rammerAttacks = wr > 0 ? (wr * wt + wr * (1 - wt) * grapple(rammer)) / fight : 0;
  const sure = (attacking: number) => attacking + (1 - attacking) * 0.9;
  const taken = rammerWins * sure(rammerAttacks) * (targetLeft + artilleryThreat(scale, target)) * signedWorth(scale, target);
  const lost = targetWins * sure(1 - rammerAttacks) * (rammerLeft + artilleryThreat(scale, rammer)) * signedWorth(scale, rammer);
  // Ships held in a fight plug only on a 6: the target's holes (the ram's and any open) and the rammer's leak longer.
  const extra = LEAK_FIGHTING - LEAK_QUIET;
  const extraLeak =
    extra * Math.min(1 + target.holes, targetLeft) * signedWorth(scale, target) + extra * Math.min(rammer.holes, rammerLeft) * signedWorth(scale, rammer);
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
