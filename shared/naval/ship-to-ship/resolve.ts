/**
 * A turn once every side has plotted: six movement phases (each ship moving in the phases its speed gives it),
 * after each phase the fire of the ships whose orders call for it and the rams of that phase with their
 * grappling; at the end of the turn the boarding fights, surrenders, hole plugging and sinking.
 */
import { type Aspect, type Hex, aspectOf, lineOfSight, sameHex } from '../hex.ts';
import { impassable } from '../sea.ts';
import { type CombatEffect, applyHits, chooseTarget, firingRow, firingRowName, meleeRound, sink } from './combat.ts';
import type { BattleLog } from '../battle-log.ts';
import { type Step, stepTo } from './plot.ts';
import { RULES, WEAPONS, type Weapon, movesInPhase } from './rules.ts';
import { type ShipPlot, type ShipState, type State, active, fightOf, marineCount, statsOf } from './state.ts';
import { judge } from './victory.ts';
import { plural } from '../../text/plural.ts';
import { WEAPON_NAMES, facingName, hexName, shipName, signed } from './words.ts';

/** One ship's turn as it unfolds. */
interface Voyage {
  readonly ship: ShipState;
  readonly plot: ShipPlot;
  readonly steps: readonly Step[];
  /** The speed declared: the steps plotted, -1 astern. */
  readonly speed: number;
  readonly declaredMax: boolean;
  done: number;
  moved: number;
  stopped: boolean;
  /** Why it stopped, for its move line. */
  stopReason: string;
  rammed: boolean;
  wasRammed: boolean;
  /** In a boarding fight when the turn began: freed from it, it may turn in place next turn. */
  readonly startedGrappled: boolean;
  readonly fired: Set<Weapon>;
}

interface Ram {
  readonly a: Voyage;
  readonly b: ShipState;
  readonly mutual: boolean;
}

export const PHASES = 6;

/** Resolves the turn on a copy of the state whose plots are all in; returns the next state. `afterPhase` watches each phase's end. */
export function resolveTurn(input: State, log: BattleLog, afterPhase?: (state: State, phase: number) => void): State {
  const state: State = structuredClone(input);
  log.line(`Turn ${state.turn}: every side has plotted; the plots are revealed and the ships move.`);
  const voyages = new Map<string, Voyage>();
  for (const ship of state.ships.filter(active)) {
    const plot = state.plots[ship.side]?.find((p) => p.ship === ship.id);
    // Every afloat ship is plotted (check holds it); a ship without one would simply hold its place.
    const orders: ShipPlot = plot ?? { ship: ship.id, steps: '', pivot: 0, fire: 'first', targets: [], board: false, rake: false };
    const steps = [...orders.steps] as Step[];
    const speed = orders.steps === 'B' ? -1 : steps.length;
    voyages.set(ship.id, {
      ship,
      plot: orders,
      steps,
      speed,
      declaredMax: speed > statsOf(ship).cruisingSpeed,
      done: 0,
      moved: 0,
      stopped: false,
      stopReason: '',
      rammed: false,
      wasRammed: false,
      startedGrappled: Boolean(fightOf(state, ship.id)),
      fired: new Set(),
    });
  }
  for (const v of voyages.values()) {
    if (v.plot.pivot !== 0) {
      v.ship.facing = ((((v.ship.facing + v.plot.pivot) % 6) + 6) % 6) as ShipState['facing'];
      log.line(`${shipName(v.ship)} turns in place to face ${facingName(v.ship.facing)}.`);
    }
    if (v.declaredMax) v.ship.maxTurnsUsed++;
  }

  for (let phase = 1; phase <= PHASES; phase++) {
    const rams = movePhase(state, voyages, phase, log);
    firePhase(state, voyages, phase, log);
    for (const ram of rams) resolveRam(state, voyages, ram, log);
    afterPhase?.(state, phase);
  }
  for (const v of voyages.values()) if (active(v.ship)) log.line(moveLine(v));

  const fought = boardingFights(state, log);
  plugHoles(state, fought, log);
  for (const ship of state.ships) if (active(ship) && ship.damage >= statsOf(ship).hull) sinkShip(state, ship, log, 'the water its open holes let in');
  nextTurn(state, voyages);
  return state;
}

function moveLine(v: Voyage): string {
  const where = `at ${hexName(v.ship.hex)} facing ${facingName(v.ship.facing)}`;
  const plotted = v.steps.length ? ` (plotted ${v.steps.join('')}, speed ${v.speed}${v.declaredMax ? ', maximum' : ''})` : '';
  if (v.moved === 0 && !v.stopped) return `${shipName(v.ship)} holds its place ${where}${plotted}.`;
  const went = v.speed < 0 ? 'backs one hex' : `goes ${plural(v.moved, 'hex', 'hexes')}`;
  return `${shipName(v.ship)} ${went}${plotted}${v.stopped ? `, stopped ${v.stopReason}` : ''}; now ${where}.`;
}

/** Where a ship or a wreck stands. */
function shipAt(state: State, h: Hex): ShipState | undefined {
  return state.ships.find((s) => s.status !== 'sunk' && sameHex(s.hex, h));
}

interface Intent {
  readonly v: Voyage;
  readonly step: Step;
  readonly to: Hex;
}

/** Moves every ship whose speed moves it in this phase; returns the rams the phase made. */
function movePhase(state: State, voyages: Map<string, Voyage>, phase: number, log: BattleLog): Ram[] {
  const intents: Intent[] = [];
  for (const v of voyages.values()) {
    if (!active(v.ship) || v.stopped || v.done >= v.steps.length || !movesInPhase(RULES, Math.abs(v.speed), phase)) continue;
    const step = v.steps[v.done++];
    const next = stepTo(v.ship.hex, v.ship.facing, step);
    // The turn is made whether or not the hex ahead turns out to be free.
    v.ship.facing = next.facing;
    if (step === 'L' || step === 'R') v.ship.sinceTurn = 0;
    intents.push({ v, step, to: next.hex });
  }
  const blocked = impassable(state.sea, state.wrecks);
  const go = (i: Intent) => {
    i.v.ship.hex = i.to;
    i.v.moved++;
    if (i.step === 'F') i.v.ship.sinceTurn++;
  };
  let pending = intents;
  for (let progress = true; progress && pending.length; ) {
    progress = false;
    const free = (i: Intent) => !blocked(i.to) && !shipAt(state, i.to);
    for (const i of [...pending]) {
      if (!free(i) || pending.some((o) => o !== i && sameHex(o.to, i.to))) continue;
      go(i);
      pending = pending.filter((o) => o !== i);
      progress = true;
    }
    if (progress) continue;
    // Two or more ships make for the same open hex: the first there takes it, the others meet it there.
    const contested = pending.find(free);
    if (contested) {
      const rivals = pending.filter((o) => sameHex(o.to, contested.to));
      const first = raceFor(rivals, log);
      go(first);
      pending = pending.filter((o) => o !== first);
      progress = true;
    }
  }
  const rams: Ram[] = [];
  for (const i of pending) {
    const other = blocked(i.to) ? undefined : shipAt(state, i.to);
    if (other && other.side !== i.v.ship.side && active(other) && i.step !== 'B') {
      const mutual = rams.find((r) => r.a.ship.id === other.id && r.b.id === i.v.ship.id);
      if (mutual) rams[rams.indexOf(mutual)] = { ...mutual, mutual: true };
      else rams.push({ a: i.v, b: other, mutual: false });
      continue;
    }
    i.v.stopped = true;
    const what = other ? `${shipName(other)}${other.status === 'surrendered' ? ' (surrendered)' : ''}` : 'a wreck';
    i.v.stopReason = `in phase ${phase}: ${what} blocks ${hexName(i.to)}`;
    log.line(`${shipName(i.v.ship)}${i.step === 'B' ? ', going astern,' : ''} finds ${hexName(i.to)} blocked by ${what} and stops for the rest of the turn.`);
  }
  return rams;
}

/** The ship that reaches a contested hex first: the faster, then the better crew, then a roll-off. */
function raceFor(rivals: Intent[], log: BattleLog): Intent {
  const key = (i: Intent) => [Math.abs(i.v.speed), statsOf(i.v.ship).rank];
  let best = rivals;
  for (const k of [0, 1]) {
    const top = Math.max(...best.map((i) => key(i)[k]));
    best = best.filter((i) => key(i)[k] === top);
  }
  const names = rivals.map((i) => i.v.ship.name).join(' and ');
  if (best.length === 1) {
    log.line(`${names} make for ${hexName(rivals[0].to)}: ${best[0].v.ship.name}, faster or better crewed, gets there first.`);
    return best[0];
  }
  for (;;) {
    const rolls = best.map((i) => log.roll(`${i.v.ship.name} race for ${hexName(i.to)}`));
    const top = Math.max(...rolls);
    const winners = best.filter((_, n) => rolls[n] === top);
    if (winners.length === 1) {
      log.line(
        `${names} make for ${hexName(rivals[0].to)} at the same speed with equal crews: roll-off ${rolls.join(' against ')}, ${winners[0].v.ship.name} gets there first.`,
      );
      return winners[0];
    }
    best = winners;
  }
}

/** Each ship whose fire orders call for it now shoots each of its weapons not yet shot this turn. */
function firePhase(state: State, voyages: Map<string, Voyage>, phase: number, log: BattleLog): void {
  const effects: CombatEffect[] = [];
  const seeThrough = impassable({ ...state.sea, reefs: [] });
  const sight = (a: Hex, b: Hex) => lineOfSight(a, b, (h) => seeThrough(h) && !sameHex(h, a) && !sameHex(h, b));
  for (const v of voyages.values()) {
    if (!active(v.ship) || v.plot.fire === 'hold') continue;
    const silenced = (fightOf(state, v.ship.id)?.rounds ?? 0) > 0;
    for (const weapon of WEAPONS) {
      const count = weapon === 'bow' ? v.ship.bows : weapon === 'catapult' ? v.ship.catapults : v.ship.stoneThrowers;
      if (count === 0 || v.fired.has(weapon) || (weapon !== 'bow' && silenced)) continue;
      const target = chooseTarget(state, v.ship, v.plot, weapon, phase === PHASES, sight);
      if (!target) continue;
      v.fired.add(weapon);
      const row = firingRow(weapon, target.range);
      if (!row) continue;
      const dice = Array.from({ length: count }, () => log.roll(`${v.ship.name} ${weapon} at ${target.ship.name}`));
      let kills = 0;
      let damage = 0;
      for (const d of dice) {
        const hit = row.results.find((r) => d >= r.from);
        if (hit) {
          kills += hit.kills;
          damage += hit.damage;
        }
      }
      effects.push({ target: target.ship, kills, damage });
      const what = [kills ? plural(kills, 'kill') : '', damage ? `${damage} hull damage` : ''].filter(Boolean).join(' and ') || 'no effect';
      log.line(
        `${shipName(v.ship)}'s ${plural(count, WEAPON_NAMES[weapon])} shoot${count === 1 ? 's' : ''} at ${shipName(target.ship)} at range ${target.range}: ${dice.join(', ')}: ${what}.`,
        { name: 'Firing', row: firingRowName(row) },
      );
    }
  }
  // Every shot of a phase is loosed before any loss counts: the fire is simultaneous.
  for (const e of effects) applyHits(state, e, log);
}

const ASPECT_WORDS: Record<Aspect, string> = { bow: 'bow to bow', 'bow-beam': 'on the bow beam', 'quarter-beam': 'on the quarter', stern: 'in the stern' };

function resolveRam(state: State, voyages: Map<string, Voyage>, ram: Ram, log: BattleLog): void {
  const a = ram.a.ship;
  const b = ram.b;
  if (!active(a) || !active(b)) return;
  const vb = voyages.get(b.id);
  const aspect = aspectOf(b.hex, b.facing, a.hex) ?? 'bow';
  let rammers: ShipState[] = [a];
  if (ram.mutual || aspect === 'bow') {
    const ra = statsOf(a).rank;
    const rb = statsOf(b).rank;
    const da = log.roll(`${a.name} head-on`);
    const db = log.roll(`${b.name} head-on`);
    const ta = da + Math.max(0, ra - rb);
    const tb = db + Math.max(0, rb - ra);
    rammers = ta > tb ? [a] : tb > ta ? [b] : [a, b];
    const crewNote = ra === rb ? '' : ` (${ra > rb ? a.name : b.name}'s better crew +${Math.abs(ra - rb)})`;
    log.line(
      `${shipName(a)} and ${shipName(b)} meet bow to bow: ${a.name} ${da}${ra > rb ? ` +${ra - rb} = ${ta}` : ''}, ${b.name} ${db}${rb > ra ? ` +${rb - ra} = ${tb}` : ''}${crewNote}: ${rammers.length === 2 ? 'a tie, each rams the other' : `${rammers[0].name} rams`}.`,
      { name: 'Head-on ram', row: 'd6 each, the better crew adds 1 a level; higher rams, a tie both' },
    );
  }
  for (const rammer of rammers) {
    const target = rammer === a ? b : a;
    if (!active(rammer) || !active(target)) continue;
    const rv = voyages.get(rammer.id);
    const tv = rammer === a ? vb : ram.a;
    const where = rammers.length === 2 || rammer !== a ? 'bow to bow' : ASPECT_WORDS[aspect];
    if (rv?.plot.rake && statsOf(rammer).rank > statsOf(target).rank && !(rv.rammed || rv.wasRammed)) {
      rake(state, rv, target, log);
      continue;
    }
    const stats = statsOf(rammer);
    const die = log.roll(`${rammer.name} ram damage`);
    const full = rammer.wentMax && rv?.declaredMax ? RULES.fullSpeedRamBonus : 0;
    const damage = Math.max(0, die + stats.ramModifier + full);
    target.damage += damage;
    target.holes++;
    for (const v of [rv, tv]) if (v) v.stopped = true;
    if (rv) {
      rv.rammed = true;
      rv.stopReason ||= `by its ram on ${target.name}`;
    }
    if (tv) {
      tv.wasRammed = true;
      tv.stopReason ||= `when ${rammer.name} rammed it`;
    }
    const hull = statsOf(target).hull;
    const sum = `die ${die} ${signed(stats.ramModifier).replace(/^([+-])/, '$1 ')} ram${full ? ` + ${full} full speed` : ''} = ${damage} damage`;
    const sinks = target.damage >= hull;
    log.line(
      `${shipName(rammer)} rams ${shipName(target)} ${where}: ${sum}, ${target.damage} in all against hull ${hull}: ${sinks ? `${target.name} sinks` : `${target.name} is holed`}.`,
      { name: 'Ship characteristics', row: `${stats.name}: ram ${signed(stats.ramModifier)}; ${statsOf(target).name}: hull ${hull}` },
    );
    if (sinks) sinkShip(state, target, log, `${rammer.name}'s ram`);
    else grapple(state, rammer, target, voyages, log);
  }
}

/** A better crew's oar rake: the raked ship loses speed and handling; the raker slips past and goes on. */
function rake(state: State, rv: Voyage, target: ShipState, log: BattleLog): void {
  const raker = rv.ship;
  target.raked++;
  if (!target.rakedBy.includes(raker.id)) target.rakedBy.push(raker.id);
  const s = statsOf(target);
  const blocked = impassable(state.sea, state.wrecks);
  const slip = [1, -1]
    .map((side) => stepTo(raker.hex, ((((raker.facing + side) % 6) + 6) % 6) as ShipState['facing'], 'F').hex)
    .find((h) => !blocked(h) && !shipAt(state, h));
  let slipped = '';
  if (slip) {
    raker.hex = slip;
    slipped = ` and slips sideways to ${hexName(slip)}`;
  } else {
    rv.stopped = true;
    rv.stopReason = `with no room to slip past ${target.name}`;
    slipped = ', but has no room to slip past and stops';
  }
  log.line(
    `${shipName(raker)}, the better crew, rakes the oars of ${shipName(target)} instead of ramming${slipped}: ${target.name} now cruises at ${s.cruisingSpeed}, has no maximum speed, turning circle ${s.turningCircle}, and can never board ${raker.name}.`,
    { name: 'Oar rake', row: '-1 cruising speed, no maximum speed, +1 turning circle' },
  );
}

/** After a ram the ship not sunk: grappling if either wants it (certain with a corvus or when both want it, else 4-6). */
function grapple(state: State, rammer: ShipState, target: ShipState, voyages: Map<string, Voyage>, log: BattleLog): void {
  if (fightOf(state, rammer.id) || fightOf(state, target.id)) return;
  const wants = (s: ShipState, other: ShipState) => (voyages.get(s.id)?.plot.board ?? false) && !s.rakedBy.includes(other.id);
  const rw = wants(rammer, target);
  const tw = wants(target, rammer);
  if (!rw && !tw) return;
  const [attacker, defender] = rw ? [rammer, target] : [target, rammer];
  let how: string;
  let row: string;
  if (rw && tw) {
    how = 'both want to board: grappled';
    row = 'both wish to board: automatic';
  } else if (attacker.corvus) {
    how = `${attacker.name} drops its corvus: grappled`;
    row = 'corvus: automatic';
  } else {
    const d = log.roll(`${attacker.name} grapple`);
    const ok = d >= RULES.grappleOn;
    how = `${attacker.name} throws grapples: ${d}, ${ok ? 'grappled' : 'they miss'}`;
    row = `${RULES.grappleOn}-6 on a d6`;
    if (!ok) {
      log.line(`${shipName(attacker)} tries to board ${shipName(defender)}: ${how}.`, { name: 'Boarding', row });
      return;
    }
  }
  state.fights.push({ attacker: attacker.id, defender: defender.id, rounds: 0 });
  log.line(`${shipName(attacker)} tries to board ${shipName(defender)}: ${how}; the marines fight at the end of the turn.`, { name: 'Boarding', row });
}

export function sinkShip(state: State, ship: ShipState, log: BattleLog, cause: string): void {
  sink(state, ship);
  log.line(
    `${shipName(ship)} sinks with all hands from ${cause} (damage ${ship.damage} against hull ${statsOf(ship).hull}); its wreck stays at ${hexName(ship.hex)}, a hazard no ship may enter.`,
  );
}

/** One round of every boarding fight; returns the ships that fought. */
function boardingFights(state: State, log: BattleLog): Set<string> {
  const fought = new Set<string>();
  for (const fight of [...state.fights]) {
    const a = state.ships.find((s) => s.id === fight.attacker);
    const d = state.ships.find((s) => s.id === fight.defender);
    if (!a || !d || !active(a) || !active(d)) {
      state.fights = state.fights.filter((f) => f !== fight);
      continue;
    }
    fought.add(a.id);
    fought.add(d.id);
    meleeRound(a, d, log);
    fight.rounds++;
    const am = marineCount(a.marines);
    const dm = marineCount(d.marines);
    const ratio = RULES.surrenderRatio;
    if (am === 0 && dm === 0) {
      state.fights = state.fights.filter((f) => f !== fight);
      log.line(`No marines are left on ${a.name} or ${d.name}: the grapples are cut and the ships drift apart.`);
    } else if (am > ratio * dm) {
      state.fights = state.fights.filter((f) => f !== fight);
      d.status = 'surrendered';
      d.takenBy = a.side;
      log.line(`${shipName(d)} surrenders: ${am} marines against ${dm}, more than ${ratio} to 1.`, {
        name: 'Surrender',
        row: `attacker's marines more than ${ratio}:1`,
      });
    } else if (dm > ratio * am) {
      state.fights = state.fights.filter((f) => f !== fight);
      state.repulses.push(fight);
      log.line(
        `${shipName(a)}'s boarders are repulsed: ${dm} marines against ${am}, more than ${ratio} to 1; ${d.name} may cut the grapples or counter-board.`,
        {
          name: 'Repulse',
          row: `defender's marines more than ${ratio}:1`,
        },
      );
    } else log.line(`The fight on ${d.name} goes on: ${a.name} ${am} marines, ${d.name} ${dm}.`);
  }
  return fought;
}

/** Each open hole: a d6 to plug it (5-6, only 6 while the ship is in a boarding fight); each still open lets in 1 damage. */
function plugHoles(state: State, fought: Set<string>, log: BattleLog): void {
  for (const ship of state.ships) {
    if (!active(ship) || ship.holes === 0) continue;
    const inFight = fought.has(ship.id) || Boolean(fightOf(state, ship.id));
    const need = inFight ? RULES.plugging.boardingFightOn : RULES.plugging.quietOn;
    const dice = Array.from({ length: ship.holes }, (_, i) => log.roll(`${ship.name} plug hole ${i + 1}`));
    const plugged = dice.filter((d) => d >= need).length;
    ship.holes -= plugged;
    ship.plugged += plugged;
    ship.damage += ship.holes;
    const needs = need === 6 ? '6' : `${need}-6`;
    log.line(
      `${shipName(ship)} tries to plug ${plural(dice.length, 'hole')} (needs ${needs}${inFight ? ', in a boarding fight' : ''}): ${dice.join(', ')}: ${plugged} plugged${ship.holes ? `, ${ship.holes} still open let${ship.holes === 1 ? 's' : ''} in ${ship.holes} damage (${ship.damage} of hull ${statsOf(ship).hull})` : ''}.`,
      { name: 'Plugging holes', row: inFight ? `boarding fight ongoing: ${needs}` : `no boarding fight: ${needs}` },
    );
  }
}

/** What this turn leaves each ship for the next: its speed, the ram's aftermath, the free turns. */
function nextTurn(state: State, voyages: Map<string, Voyage>): void {
  for (const v of voyages.values()) {
    const s = v.ship;
    if (!active(s)) continue;
    const grappled = Boolean(fightOf(state, s.id));
    const backedNow = s.afterRam === 'must-back';
    s.speed = v.stopped || grappled ? 0 : v.speed;
    s.wentMax = v.declaredMax;
    if (grappled) {
      s.afterRam = 'none';
      s.pivot = 'none';
    } else if (v.rammed) {
      s.afterRam = 'must-back';
      s.pivot = 'none';
    } else if (backedNow) {
      s.afterRam = 'backed-off';
      s.pivot = 'one';
    } else {
      s.afterRam = 'none';
      s.pivot = v.wasRammed || v.startedGrappled ? 'any' : 'none';
    }
  }
  state.plots = {};
  state.plotted = [];
  const outcome = judge(state);
  state.outcome = outcome;
  state.stage = outcome ? 'over' : state.repulses.length ? 'repulse' : 'plot';
  if (!outcome) state.turn++;
}
