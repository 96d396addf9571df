/**
 * The computer opponent. It plots the scenario's deployment; in its movement phase it weighs every candidate
 * order (each ship and each group in formation, a spread of moves ending "to contact", and each ship's charge aimed
 * at an enemy's centre or stern) by where the ships end: the expected worth of the attack a contact at the bow gives
 * (exact over the 36 throws of the two dice, with every modifier), an enemy bow near its own beam or stern (a
 * threat), the way it makes towards the nearest enemy, ending within an enemy's reach without striking (until the
 * last turns), and keeping within command distance of its flagship; it takes the best that beats staying put and
 * is legal, and ends its movement when none is. It fires whenever the odds favour it, and in close combat takes the
 * choice worth most on average. Values are in combat value, the measure of the victory rule.
 */
import type { Opponent } from '../ruleset.ts';
import { type Base, contactOf, distanceBetween, headingOf, headingVector, inForwardArc, lineAbreast, rightVector } from '../table/index.ts';
import type { Action } from './actions.ts';
import { candidateOrders, combatChoices, defaultFire } from './choices.ts';
import { attackerModifiers, defenderModifiers, lookup, sparedAsSmaller } from './combat.ts';
import { checkDeploy } from './deployment.ts';
import { planOrder } from './movement.ts';
import { contactForward, enemiesOf } from './positions.ts';
import { RULES, type Result } from './rules.ts';
import { type ShipState, type State, afloat, baseOf, combatValue, isFlagship, shipById } from './state.ts';

type Kind = 'ram' | 'rake' | 'board' | 'disengage' | 'missile';
type Order = Extract<Action, { kind: 'order' }>;

/** How far an enemy reaches in its own turn: a single ship's move and then a missile shot. */
const ENEMY_REACH = RULES.movement.single.distance + RULES.missileRange;
/** The share of an enemy's combat value it costs to end a move within its reach without striking anything. */
const WITHIN_REACH = 0.1;
/** The last turns of a battle, when holding off would run out the clock (a draw is no win): close regardless. */
const CLOSING_TURNS = 8;

/** What a result is worth to the attacking side: ships lost by the enemy less its own, in combat value. */
function worth(state: State, r: Result, attacker: ShipState, defender: ShipState, bowToBow: boolean, kind: Kind): number {
  if (r.on === null) return r.effect === 'ungrapple' && kind === 'disengage' ? 0.3 : 0;
  const target = r.on === 'attacker' ? attacker : defender;
  const other = r.on === 'attacker' ? defender : attacker;
  if (r.unlessSmaller && sparedAsSmaller(target, other, bowToBow && kind === 'ram')) return 0;
  const value = combatValue(target) * (isFlagship(state, target) ? RULES.victory.flagshipWeight : 1);
  let loss = 0;
  if (r.effect === 'sink' || r.effect === 'capture') loss = value;
  else if (r.effect === 'cripple') loss = target.crippled ? value : 0.5 * value;
  else if (r.effect === 'grapple') loss = attacker.grappledWith === defender.id ? value : 0.15 * value;
  return r.on === 'defender' ? loss : -loss;
}

/** The expected worth of one attack, exact over both dice. */
export function expectedWorth(state: State, attacker: ShipState, defender: ShipState, kind: Kind, supporters: number): number {
  const a = combatValue(attacker) + attackerModifiers(state, attacker, kind, supporters).reduce((n, m) => n + m.value, 0);
  const d = combatValue(defender) + defenderModifiers(state, attacker, defender, kind).reduce((n, m) => n + m.value, 0);
  const bowToBow = contactOf(baseOf(attacker), baseOf(defender))?.bowToBow ?? false;
  let sum = 0;
  for (let x = 1; x <= 6; x++) for (let y = 1; y <= 6; y++) sum += worth(state, lookup(kind, a + x - (d + y)).result, attacker, defender, bowToBow, kind);
  return sum / 36;
}

/** The mean worth to `attacker` of its close attacks on `defender` (a player that may pick any kind), and the best. */
function closeWorths(state: State, attacker: ShipState, defender: ShipState, supporters: number): { best: number; mean: number } {
  const worths = (['ram', 'rake', 'board'] as const).map((k) => expectedWorth(state, attacker, defender, k, supporters));
  return { best: Math.max(...worths), mean: worths.reduce((a, b) => a + b, 0) / worths.length };
}

/**
 * How good a placing of the side's ships is, for the ships `moved`: the attacks a contact at the bow gives now
 * (with the others at that enemy's bow supporting) less the enemy's reply on a ship lying at its bow, the missile
 * fire it may give at once less the fire it draws (the enemy fires in its own turn), enemy bows that could reach
 * its beam or stern next turn, the way still to go to the nearest enemy, and keeping within command distance.
 * The flagship counts double in every worth, so it keeps out of harm's way unless the odds favour it.
 */
function placingScore(state: State, side: string, moved: ReadonlySet<string>): number {
  let score = 0;
  const holdOff = state.turn <= state.turnLimit - CLOSING_TURNS;
  const enemies = enemiesOf(state, side).map((e) => ({ e, b: baseOf(e) }));
  const own = state.ships.filter((x) => x.side === side && afloat(x) && !x.crippled);
  for (const s of state.ships.filter((x) => moved.has(x.id))) {
    const b = baseOf(s);
    let nearest = Number.POSITIVE_INFINITY;
    let bowContact = false;
    let fire = Number.NEGATIVE_INFINITY;
    let exposed = 0;
    for (const { e, b: eb } of enemies) {
      const d = distanceBetween(b, eb);
      nearest = Math.min(nearest, d);
      const c = d < 1e-6 ? contactOf(b, eb) : null;
      if (c?.aSide === 'front' && !s.crippled) {
        bowContact = true;
        const supporters = own.filter((o) => o.id !== s.id && contactOf(baseOf(o), eb)?.aSide === 'front').length;
        score += closeWorths(state, s, e, supporters).best + 0.2;
      }
      // It must attack in its own phase (whatever the kind): its whole average reply counts.
      if (c?.bSide === 'front' && !e.crippled) score -= Math.max(0, closeWorths(state, e, s, 0).mean);
      if (!e.crippled && d <= RULES.missileRange + 1e-6) {
        if (inForwardArc(b, eb) && c === null) fire = Math.max(fire, expectedWorth(state, s, e, 'missile', 0));
        if (inForwardArc(eb, b) && c === null) score -= 0.7 * Math.max(0, expectedWorth(state, e, s, 'missile', 0));
      }
      // An enemy bow that could reach this ship's beam or stern next turn: one abeam or astern of it, whose
      // forward arc it lies in (an enemy ahead of it meets its own ram first).
      if (!e.crippled && d <= RULES.movement.single.distance && inForwardArc(eb, b) && !inForwardArc(b, eb)) score -= 0.2 * combatValue(e) * (d <= 2 ? 1.5 : 1);
      // Within an enemy's reach, ahead of it, and not in contact: it may close or shoot first in its own turn.
      if (holdOff && !e.crippled && c === null && d > 1e-6 && d <= ENEMY_REACH && inForwardArc(eb, b)) exposed += WITHIN_REACH * combatValue(e);
    }
    if (!bowContact && fire > 0) score += fire;
    // Striking now is worth the exposure (counted above); otherwise it waits outside reach for the enemy to come on.
    if (!bowContact) score -= exposed;
    if (Number.isFinite(nearest)) score -= 0.15 * nearest;
    const squadron = state.squadrons.find((q) => q.id === s.squadron);
    const flag = squadron?.flagship ? shipById(state, squadron.flagship) : undefined;
    if (flag && flag.id !== s.id && distanceBetween(b, baseOf(flag)) > RULES.command.flagshipDistance) score -= 0.3;
  }
  return score;
}

function withEnds(state: State, ships: readonly ShipState[], ends: readonly Base[]): State {
  const next = { ...state, ships: state.ships.map((s) => ({ ...s })) };
  ships.forEach((s, i) => {
    const t = next.ships.find((x) => x.id === s.id);
    if (t) Object.assign(t, { x: ends[i].x, y: ends[i].y, heading: ends[i].heading });
  });
  return next;
}

/**
 * Single-ship charges aimed at each enemy within a move's reach (and a little beyond, the bases' sizes): turned to
 * face its centre or the middle of its stern, then ahead to contact. The listed spread of turns (30° apart) often
 * runs past a beam or stern left open; these strike it.
 */
function aimedCharges(state: State, side: string): Order[] {
  const out: Order[] = [];
  const reach = RULES.movement.single.distance + 1.5;
  const enemies = enemiesOf(state, side);
  for (const s of state.ships) {
    if (s.side !== side || !afloat(s) || s.crippled || s.grappledWith || s.ordered) continue;
    if (state.squadrons.find((q) => q.id === s.squadron)?.halted) continue;
    for (const e of enemies) {
      if (Math.hypot(e.x - s.x, e.y - s.y) > reach) continue;
      const ahead = headingVector(e.heading);
      const half = RULES.shipTypes[e.type].length / 2;
      for (const aim of [
        { x: e.x, y: e.y },
        { x: e.x - ahead.x * half, y: e.y - ahead.y * half },
      ]) {
        let turn = headingOf({ x: aim.x - s.x, y: aim.y - s.y }) - s.heading;
        while (turn > 180) turn -= 360;
        while (turn <= -180) turn += 360;
        const legs = Math.abs(turn) > 1e-6 ? [{ kind: 'turn' as const, degrees: turn }] : [];
        out.push({
          kind: 'order',
          ships: [s.id],
          formation: 'single',
          move: { kind: 'legs', legs: [...legs, { kind: 'ahead', distance: RULES.movement.single.distance }], charge: true },
        });
      }
    }
  }
  return out;
}

function chooseOrder(state: State, side: string, random: () => number): Action {
  let best: { action: Action; gain: number } | null = null;
  const baseline = new Map<string, number>();
  for (const order of [...candidateOrders(state, side), ...aimedCharges(state, side)]) {
    const plan = planOrder(state, side, order.ships, order.formation, order.move);
    if (!plan.ok) continue;
    const moved = new Set(plan.plan.ships.map((s) => s.id));
    const key = [...moved].sort().join(',');
    if (!baseline.has(key)) baseline.set(key, placingScore(state, side, moved));
    const after = placingScore(withEnds(state, plan.plan.ships, plan.plan.end), side, moved);
    // Reforming is worth its penalty's removal; ties are broken by the opponent's own random numbers.
    const bonus = order.move.kind === 'reform' ? 0.5 : 0;
    const gain = after + bonus - (baseline.get(key) ?? 0) + random() * 1e-3;
    if (!best || gain > best.gain) best = { action: order, gain };
  }
  if (best && best.gain > 0.05) return best.action;
  return { kind: 'end-movement' };
}

function chooseFire(state: State, side: string): Action {
  const all = defaultFire(state, side);
  const attacks = all.attacks.filter((a) => {
    const ship = shipById(state, a.ship);
    const target = shipById(state, a.target);
    return ship && target && expectedWorth(state, ship, target, 'missile', 0) >= 0;
  });
  return { kind: 'fire', attacks };
}

type CloseAttacks = Extract<Action, { kind: 'combat' }>['attacks'];

/** The expected worth of a side's close attacks, each supported as the engine counts it (ships at the target's bow attacking nothing, each once). */
function combatValueOf(state: State, side: string, attacks: CloseAttacks): number {
  const attackers = new Set(attacks.map((a) => a.ship));
  const used = new Set<string>();
  let value = 0;
  for (const a of attacks) {
    const ship = shipById(state, a.ship);
    const target = shipById(state, a.target);
    if (!ship || !target) continue;
    let supporters = 0;
    if (a.attack !== 'disengage')
      for (const s of state.ships)
        if (s.side === side && !attackers.has(s.id) && !used.has(s.id) && afloat(s) && !s.crippled && !s.grappledWith && contactForward(s, target)) {
          used.add(s.id);
          supporters++;
        }
    value += expectedWorth(state, ship, target, a.attack, supporters);
  }
  return value;
}

/**
 * The close combat worth most on average. Each listed choice (one kind for every attack) is improved a step at a
 * time while that pays: an attack's kind changed (each ship picks its own: a trieres boards the hepteres it
 * would only break its ram on), or the attack on a target handed to another ship at its bow, the first one
 * supporting instead. Both keep every ship that must attack attacking or supporting.
 */
function chooseCombat(state: State, side: string): Action {
  let best: { attacks: CloseAttacks; value: number } | null = null;
  for (const choice of combatChoices(state, side)) {
    let attacks = choice.attacks;
    let value = combatValueOf(state, side, attacks);
    for (let round = 0; round < 4; round++) {
      let improved = false;
      for (let i = 0; i < attacks.length; i++) {
        const a = attacks[i];
        const ship = shipById(state, a.ship);
        const target = shipById(state, a.target);
        if (!ship || !target) continue;
        const variants: CloseAttacks = [];
        const kinds = ship.grappledWith ? (['board', 'disengage'] as const) : (['ram', 'rake', 'board'] as const);
        for (const k of kinds) if (k !== a.attack) variants.push({ ...a, attack: k });
        if (!ship.grappledWith) {
          const busy = new Set(attacks.map((x) => x.ship));
          for (const c of state.ships)
            if (c.side === side && !busy.has(c.id) && afloat(c) && !c.crippled && !c.grappledWith && contactForward(c, target))
              for (const k of ['ram', 'rake', 'board'] as const) variants.push({ ship: c.id, target: a.target, attack: k });
        }
        for (const v of variants) {
          const next = attacks.map((x, j) => (j === i ? v : x));
          const nextValue = combatValueOf(state, side, next);
          if (nextValue > value + 1e-9) {
            attacks = next;
            value = nextValue;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
    if (!best || value > best.value) best = { attacks, value };
  }
  return { kind: 'combat', attacks: best?.attacks ?? [] };
}

/**
 * The scenario's deployment with each squadron's flagship taken out of its line abreast (the line closed up) and
 * placed astern of the line's middle: a flagship lost counts double and costs the squadron a point of command,
 * so it follows the line rather than leading it. The scenario's own deployment when that does not fit.
 */
function deployment(state: State, side: string): Extract<Action, { kind: 'deploy' }> {
  const own = state.ships.filter((s) => s.side === side);
  const scenario: Extract<Action, { kind: 'deploy' }> = {
    kind: 'deploy',
    placements: own.map((s) => ({ ship: s.id, x: s.x, y: s.y, heading: s.heading })),
  };
  const placed = new Map(own.map((s) => [s.id, { x: s.x, y: s.y, heading: s.heading }]));
  for (const squadron of state.squadrons.filter((q) => q.side === side && q.flagship)) {
    const ships = own.filter((s) => s.squadron === squadron.id);
    const flag = ships.find((s) => s.id === squadron.flagship);
    const line = lineAbreast(ships.map((s) => baseOf(s)));
    if (!flag || ships.length < 3 || !line.ok) continue;
    const order = line.indices.map((i) => ships[i]);
    const at = order.indexOf(flag);
    const right = rightVector(flag.heading);
    const ahead = headingVector(flag.heading);
    // The ships right of the flagship close up by its width; it goes astern of the line's middle.
    for (const s of order.slice(at + 1)) placed.set(s.id, { x: s.x - right.x * RULES.baseWidth, y: s.y - right.y * RULES.baseWidth, heading: s.heading });
    const rest = order.filter((s) => s !== flag).map((s) => placed.get(s.id) ?? s);
    const mid = { x: rest.reduce((n, p) => n + p.x, 0) / rest.length, y: rest.reduce((n, p) => n + p.y, 0) / rest.length };
    const back = Math.max(...ships.map((s) => RULES.shipTypes[s.type].length)) + 1;
    placed.set(flag.id, { x: mid.x - ahead.x * back, y: mid.y - ahead.y * back, heading: flag.heading });
  }
  const plotted: Extract<Action, { kind: 'deploy' }> = {
    kind: 'deploy',
    placements: own.map((s) => ({ ship: s.id, ...(placed.get(s.id) ?? s) })),
  };
  return checkDeploy(state, side, plotted.placements) === null ? plotted : scenario;
}

export const opponent: Opponent<State, Action> = (state, side, random) => {
  if (state.stage === 'deploy') return deployment(state, side);
  if (state.stage === 'orders') return chooseOrder(state, side, random);
  if (state.stage === 'fire') return chooseFire(state, side);
  return chooseCombat(state, side);
};
