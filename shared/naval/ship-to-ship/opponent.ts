/**
 * The computer opponent. For each ship it walks every legal plot against where the enemy would be if each
 * enemy ship kept its last speed and course, and scores it: a ram into a beam or stern first (more for a
 * heavier ram, a weakened target, the full-speed bonus), a head-on meeting only when its crew and ram are the
 * better; otherwise closing on the nearest enemy, bow towards it, never beam-on to an enemy close by, and not
 * spending a turn of maximum speed unless it buys a ram. It boards when its marines are the stronger, fires
 * at the first chance at the ship it closes on, counter-boards repulsed boarders, and keeps its own ships out
 * of each other's way. Holes are plugged by the rules themselves, every turn.
 */
import { type Facing, type Hex, aspectOf, distance, neighbour, sameHex, turnDistance } from '../hex.ts';
import type { Opponent } from '../ruleset.ts';
import { impassable } from '../sea.ts';
import type { Action } from './actions.ts';
import { type Step, legalPlots, stepTo } from './plot.ts';
import { RULES, movesInPhase } from './rules.ts';
import { type ShipPlot, type ShipState, type State, active, statsOf } from './state.ts';

const PHASES = 6;

/** Where a ship is after each phase (index 0: the turn's start), if it keeps its last speed straight on. */
function predict(ship: ShipState): { hex: Hex; facing: Facing }[] {
  const out = [{ hex: ship.hex, facing: ship.facing }];
  const steps: Step[] = ship.speed < 0 ? ['B'] : Array.from({ length: Math.max(0, ship.speed) }, () => 'F' as const);
  let done = 0;
  for (let p = 1; p <= PHASES; p++) {
    const last = out[p - 1];
    if (done < steps.length && movesInPhase(RULES, Math.abs(ship.speed), p)) out.push(stepTo(last.hex, last.facing, steps[done++]));
    else out.push(last);
  }
  return out;
}

/** How many enemies a ship's marines kill in a round, on average. */
const meleeStrength = (s: ShipState): number =>
  s.marines.light * ((7 - RULES.marineKillsOn.light) / 6) +
  s.marines.medium * ((7 - RULES.marineKillsOn.medium) / 6) +
  s.marines.heavy * ((7 - RULES.marineKillsOn.heavy) / 6);

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

/** What ramming `target` is worth: the share of its remaining hull the ram takes (and its hole), more for a sinking. */
function ramValue(rammer: ShipState, target: ShipState, bonus: number): number {
  const remaining = Math.max(1, statsOf(target).hull - target.damage);
  let v = 0;
  for (let d = 1; d <= 6; d++) {
    const dmg = Math.max(0, d + statsOf(rammer).ramModifier + bonus);
    v += dmg >= remaining ? 150 : (100 * (dmg + 0.5)) / remaining;
  }
  return v / 6;
}

function sinkChance(rammer: ShipState, target: ShipState, bonus: number): number {
  const remaining = statsOf(target).hull - target.damage;
  let n = 0;
  for (let d = 1; d <= 6; d++) if (d + statsOf(rammer).ramModifier + bonus >= remaining) n++;
  return n / 6;
}

/** Chances that each ship is a rammer bow to bow (a tie makes both rammers). */
function headOnOdds(mine: number, theirs: number): { mine: number; theirs: number } {
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

interface Enemy {
  readonly ship: ShipState;
  readonly path: { hex: Hex; facing: Facing }[];
}

function scorePlot(
  ship: ShipState,
  plot: ShipPlot,
  enemies: Enemy[],
  friends: Hex[][],
  blocked: (h: Hex) => boolean,
): { score: number; target: ShipState | null } {
  const stats = statsOf(ship);
  const steps = [...plot.steps] as Step[];
  const speed = plot.steps === 'B' ? -1 : steps.length;
  const declaredMax = speed > stats.cruisingSpeed;
  let hex = ship.hex;
  let facing = ((ship.facing + plot.pivot + 6) % 6) as Facing;
  let done = 0;
  let score = 0;
  const path: Hex[] = [hex];
  for (let p = 1; p <= PHASES; p++) {
    if (done < steps.length && movesInPhase(RULES, Math.abs(speed), p)) {
      const next = stepTo(hex, facing, steps[done++]);
      const hit = enemies.find((e) => sameHex(e.path[p].hex, next.hex) || sameHex(e.path[p - 1].hex, next.hex));
      if (hit && steps[done - 1] !== 'B') {
        const at = sameHex(hit.path[p].hex, next.hex) ? hit.path[p] : hit.path[p - 1];
        const aspect = aspectOf(at.hex, at.facing, hex);
        const bonus = ship.wentMax && declaredMax ? RULES.fullSpeedRamBonus : 0;
        if (aspect === 'bow') {
          // Bow to bow either may be the rammer: the value of ramming it, less that of being rammed, by the odds.
          const odds = headOnOdds(stats.rank, statsOf(hit.ship).rank);
          const theirBonus = hit.ship.wentMax ? RULES.fullSpeedRamBonus : 0;
          score += odds.mine * ramValue(ship, hit.ship, bonus) - odds.theirs * ramValue(hit.ship, ship, theirBonus);
        } else {
          score += 40 + ramValue(ship, hit.ship, bonus) + (aspect === 'stern' ? 5 : 0);
          // Rammed ships lie alongside: a ship whose marines would lose a boarding fight thinks twice.
          const outmatched = meleeStrength(hit.ship) > 1.5 * meleeStrength(ship);
          if (outmatched && !ship.corvus) score -= 35 * (1 - sinkChance(ship, hit.ship, bonus));
        }
        if (declaredMax && !bonus) score -= 4;
        return { score: score + friendClash(path, friends), target: hit.ship };
      }
      hex = next.hex;
      facing = next.facing;
    }
    path.push(hex);
  }
  score += friendClash(path, friends);
  if (declaredMax) score -= 12;
  const foes = enemies.map((e) => ({ e, d: distance(hex, e.path[PHASES].hex) })).sort((a, b) => a.d - b.d);
  const nearest = foes[0];
  if (!nearest) return { score, target: null };
  score -= 3 * nearest.d;
  const toward = bearing(hex, nearest.e.path[PHASES].hex);
  const off = turnDistance(toward, facing);
  score += off === 0 ? 6 : off === 1 ? 3 : 0;
  for (const { e, d } of foes) {
    if (d > 3) break;
    // An enemy close by on our beam or stern can ram us next turn; one whose bow we face cannot do it cheaply.
    const side = turnDistance(bearing(hex, e.path[PHASES].hex), facing);
    if (side >= 2) score -= d <= 1 ? 30 : 18;
    // Standing across an enemy's bow invites its ram.
    const across = turnDistance(bearing(e.path[PHASES].hex, hex), e.path[PHASES].facing);
    if (across <= 1 && side >= 2) score -= 10;
    // Lying close to a ship whose marines would take ours invites its grapples.
    if (d <= 1 && meleeStrength(e.ship) > 1.5 * meleeStrength(ship)) score -= 15;
  }
  if (blocked(neighbour(hex, facing))) score -= 5;
  return { score, target: nearest.e.ship };
}

function friendClash(path: Hex[], friends: Hex[][]): number {
  let s = 0;
  for (const f of friends) for (let p = 0; p < path.length; p++) if (f[p] && sameHex(f[p], path[p])) s -= 80;
  return s;
}

/** The friendly ship's hexes phase by phase under the plot chosen for it. */
function pathOf(ship: ShipState, plot: ShipPlot): Hex[] {
  const steps = [...plot.steps] as Step[];
  const speed = plot.steps === 'B' ? -1 : steps.length;
  let hex = ship.hex;
  let facing = ((ship.facing + plot.pivot + 6) % 6) as Facing;
  let done = 0;
  const out = [hex];
  for (let p = 1; p <= PHASES; p++) {
    if (done < steps.length && movesInPhase(RULES, Math.abs(speed), p)) {
      const next = stepTo(hex, facing, steps[done++]);
      hex = next.hex;
      facing = next.facing;
    }
    out.push(hex);
  }
  return out;
}

export const opponent: Opponent<State, Action> = (state, side, random) => {
  if (state.stage === 'repulse') {
    // The repulse left the defender more than twice as strong: counter-boarding can take the attacker.
    return { kind: 'repulse', ship: state.repulses[0].defender, choice: 'counter-board' };
  }
  const blocked = impassable(state.sea, state.wrecks);
  const enemies: Enemy[] = state.ships.filter((s) => s.side !== side && active(s)).map((s) => ({ ship: s, path: predict(s) }));
  const friends: Hex[][] = [];
  const plots: ShipPlot[] = [];
  const mine = state.ships.filter((s) => s.side === side && active(s));
  for (const ship of mine) {
    let best: ShipPlot | null = null;
    let bestScore = Number.NEGATIVE_INFINITY;
    let bestTarget: ShipState | null = null;
    for (const plot of legalPlots(state, ship)) {
      const { score, target } = scorePlot(ship, plot, enemies, friends, blocked);
      const noisy = score + random();
      if (noisy > bestScore) {
        bestScore = noisy;
        best = plot;
        bestTarget = target;
      }
    }
    if (!best) continue;
    const target = bestTarget;
    const board = target ? meleeStrength(ship) > 1.25 * meleeStrength(target) : false;
    // Raking does no hull damage, and a battle is won by sinking and taking ships: it rams.
    const chosen: ShipPlot = { ...best, fire: 'first', targets: target ? [target.id] : [], board, rake: false };
    plots.push(chosen);
    friends.push(pathOf(ship, chosen));
  }
  return { kind: 'plot', plots };
};
