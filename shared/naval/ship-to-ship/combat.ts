/** Missile fire and the marines' melee: targets, the firing table, who dies first, and the boarding round. */
import { type Hex, distance } from '../hex.ts';
import type { BattleLog } from '../battle-log.ts';
import { type FiringRow, MARINE_CLASSES, type MarineClass, RULES, type Weapon } from './rules.ts';
import { LIGHTEST_FIRST, type ShipPlot, type ShipState, type State, active, statsOf } from './state.ts';
import { plural } from '../../text/plural.ts';
import { WEAPON_NAMES, shipName } from './words.ts';

/** The firing table's row for a weapon at a range, or null out of range. */
export const firingRow = (weapon: Weapon, range: number): FiringRow | undefined =>
  RULES.firing.find((r) => r.weapon === weapon && range >= r.minRange && range <= r.maxRange);

export const firingRowName = (row: FiringRow): string =>
  `${WEAPON_NAMES[row.weapon]}, range ${row.minRange}-${row.maxRange}: ${row.results
    .map((r) => `${r.from === 6 ? '6' : `${r.from}-6`} ${[r.damage ? `${r.damage} damage` : '', r.kills ? `${r.kills} kill` : ''].filter(Boolean).join(' & ')}`)
    .join(', ')}`;

/** The longest reach of a weapon, and the end of its short range (its first band). */
export function reach(weapon: Weapon): { short: number; long: number } {
  const rows = RULES.firing.filter((r) => r.weapon === weapon).sort((x, y) => x.minRange - y.minRange);
  return { short: rows[0]?.maxRange ?? 0, long: Math.max(0, ...rows.map((r) => r.maxRange)) };
}

/**
 * The ship a weapon shoots at now, if its orders call for it: the first named target in range, else the
 * nearest enemy in range (by id among equals). Holding for short range, it shoots only within its first band
 * until the turn's last phase.
 */
export function chooseTarget(
  state: State,
  ship: ShipState,
  plot: ShipPlot,
  weapon: Weapon,
  lastPhase: boolean,
  sight: (a: Hex, b: Hex) => boolean,
): { ship: ShipState; range: number } | null {
  const { short } = reach(weapon);
  const candidates = state.ships
    .filter((t) => t.side !== ship.side && active(t))
    .map((t) => ({ ship: t, range: distance(ship.hex, t.hex) }))
    .filter((c) => firingRow(weapon, c.range) && (plot.fire !== 'close' || lastPhase || c.range <= short) && sight(ship.hex, c.ship.hex));
  for (const id of plot.targets) {
    const named = candidates.find((c) => c.ship.id === id);
    if (named) return named;
  }
  candidates.sort((x, y) => x.range - y.range || (x.ship.id < y.ship.id ? -1 : 1));
  return candidates[0] ?? null;
}

export interface CombatEffect {
  readonly target: ShipState;
  readonly kills: number;
  readonly damage: number;
}

/** Kills fall on the bows first, then the artillery (catapults, then stone throwers), then the marines, lightest first. */
export function killCrew(ship: ShipState, kills: number): string[] {
  const lost: string[] = [];
  for (let k = 0; k < kills; k++) {
    if (ship.bows > 0) {
      ship.bows--;
      lost.push('bow');
    } else if (ship.catapults > 0) {
      ship.catapults--;
      lost.push('catapult');
    } else if (ship.stoneThrowers > 0) {
      ship.stoneThrowers--;
      lost.push('stone thrower');
    } else {
      const cls = LIGHTEST_FIRST.find((c) => ship.marines[c] > 0);
      if (!cls) break;
      ship.marines[cls]--;
      lost.push(`${cls} marine`);
    }
  }
  return lost;
}

export function sink(state: State, ship: ShipState): void {
  ship.status = 'sunk';
  ship.holes = 0;
  state.wrecks.push({ ...ship.hex });
  state.fights = state.fights.filter((f) => f.attacker !== ship.id && f.defender !== ship.id);
  state.repulses = state.repulses.filter((f) => f.attacker !== ship.id && f.defender !== ship.id);
}

/** A phase's hits on one ship, once every shot of the phase is loosed. */
export function applyHits(state: State, e: CombatEffect, log: BattleLog): void {
  const t = e.target;
  if (!active(t) || (e.kills === 0 && e.damage === 0)) return;
  const lost = killCrew(t, e.kills);
  t.damage += e.damage;
  const hull = statsOf(t).hull;
  const parts = [lost.length ? `loses ${summarise(lost)}` : '', e.damage ? `takes ${e.damage} hull damage (${t.damage} of ${hull})` : ''].filter(Boolean);
  if (parts.length)
    log.line(`${shipName(t)} ${parts.join(' and ')}.`, { name: 'Casualties', row: 'bows first, then artillery, then marines (lightest first)' });
  if (t.damage >= hull) {
    sink(state, t);
    log.line(`${shipName(t)} sinks with all hands under the stones (damage ${t.damage} against hull ${hull}); its wreck stays, a hazard no ship may enter.`);
  }
}

function summarise(lost: string[]): string {
  const counts = new Map<string, number>();
  for (const l of lost) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].map(([what, n]) => plural(n, what)).join(', ');
}

/** One round of hand to hand: every marine of both ships rolls, by class; both sides' kills land together. */
export function meleeRound(a: ShipState, d: ShipState, log: BattleLog): void {
  const strike = (s: ShipState, foe: ShipState): number => {
    let kills = 0;
    for (const cls of MARINE_CLASSES) {
      const n = s.marines[cls];
      if (n === 0) continue;
      const need = RULES.marineKillsOn[cls];
      const dice = Array.from({ length: n }, () => log.roll(`${s.name} ${cls} marine`));
      const k = dice.filter((x) => x >= need).length;
      kills += k;
      log.line(`${shipName(s)}'s ${plural(n, `${cls} marine`)} strike at ${foe.name}'s: ${dice.join(', ')}: ${plural(k, 'kill')}.`, {
        name: 'Marine melee',
        row: `${cls}: kills on ${need === 6 ? '6' : `${need}-6`}`,
      });
    }
    return kills;
  };
  const byAttacker = strike(a, d);
  const byDefender = strike(d, a);
  for (const [ship, kills] of [
    [d, byAttacker],
    [a, byDefender],
  ] as const) {
    const lost = killMarines(ship, kills);
    if (lost.length) log.line(`${shipName(ship)} loses ${summarise(lost)}.`, { name: 'Casualties', row: 'melee: lightest marines first' });
  }
}

/** Melee casualties fall on marines only, the lightest first. */
export function killMarines(ship: ShipState, kills: number): string[] {
  const lost: string[] = [];
  for (let k = 0; k < kills; k++) {
    const cls: MarineClass | undefined = LIGHTEST_FIRST.find((c) => ship.marines[c] > 0);
    if (!cls) break;
    ship.marines[cls]--;
    lost.push(`${cls} marine`);
  }
  return lost;
}
