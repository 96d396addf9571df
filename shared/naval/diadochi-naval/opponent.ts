/**
 * The computer opponent. It plots the scenario's deployment; in its movement phase it weighs every candidate
 * order (each ship and each group in formation, a spread of moves ending "to contact") by where the ships end:
 * the expected worth of the attack a contact at the bow gives (exact over the 36 throws of the two dice, with
 * every modifier), an enemy bow near its own beam or stern (a threat), the way it makes towards the nearest
 * enemy, and keeping within command distance of its flagship; it takes the best that beats staying put and is
 * legal, and ends its movement when none is. It fires whenever the odds favour it, and in close combat takes the
 * choice worth most on average. Values are in combat value, the measure of the victory rule.
 */
import type { Opponent } from '../ruleset.ts';
import { type Base, contactOf, distanceBetween, inForwardArc, straightAhead } from '../table/index.ts';
import type { Action } from './actions.ts';
import { candidateOrders, combatChoices, defaultFire } from './choices.ts';
import { attackerModifiers, defenderModifiers, lookup, sparedAsSmaller } from './combat.ts';
import { planOrder } from './movement.ts';
import { enemiesOf } from './positions.ts';
import { RULES, type Result } from './rules.ts';
import { type ShipState, type State, afloat, baseOf, combatValue, isFlagship, shipById } from './state.ts';

type Kind = 'ram' | 'rake' | 'board' | 'disengage' | 'missile';

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

/** How good a placing of the side's ships is: attacks at the bow, threats to beams and sterns, way made, command distance. */
function placingScore(state: State, side: string, moved: ReadonlySet<string>): number {
  let score = 0;
  const enemies = enemiesOf(state, side);
  for (const s of state.ships.filter((x) => moved.has(x.id))) {
    const b = baseOf(s);
    let nearest = Number.POSITIVE_INFINITY;
    for (const e of enemies) {
      const eb = baseOf(e);
      const d = distanceBetween(b, eb);
      nearest = Math.min(nearest, d);
      const c = d < 1e-6 ? contactOf(b, eb) : null;
      if (c?.aSide === 'front' && !s.crippled) {
        const best = Math.max(...(['ram', 'rake', 'board'] as const).map((k) => expectedWorth(state, s, e, k, 0)));
        score += Math.max(0.4, best + 0.4);
      }
      // An enemy bow that could reach this ship's beam or stern next turn: one abeam or astern of it, whose
      // forward arc it lies in (an enemy ahead of it meets its own ram first).
      if (!e.crippled && d <= RULES.movement.single.distance && inForwardArc(eb, b) && !inForwardArc(b, eb))
        score -= 0.35 * combatValue(e) * (d <= 2 ? 1.5 : 1);
      else if (!e.crippled && d <= 2 && inForwardArc(eb, b) && !straightAhead(b, eb) && straightAhead(eb, b)) score -= 0.05 * combatValue(e);
    }
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

function chooseOrder(state: State, side: string, random: () => number): Action {
  let best: { action: Action; gain: number } | null = null;
  const baseline = new Map<string, number>();
  for (const order of candidateOrders(state, side)) {
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

function chooseCombat(state: State, side: string): Action {
  let best: { action: Action; value: number } | null = null;
  for (const choice of combatChoices(state, side)) {
    let value = 0;
    for (const a of choice.attacks) {
      const ship = shipById(state, a.ship);
      const target = shipById(state, a.target);
      if (!ship || !target) continue;
      const supporters = state.ships.filter(
        (s) => s.side === side && s.id !== ship.id && afloat(s) && !s.crippled && !s.grappledWith && contactOf(baseOf(s), baseOf(target))?.aSide === 'front',
      ).length;
      value += expectedWorth(state, ship, target, a.attack, supporters);
    }
    if (!best || value > best.value) best = { action: choice, value };
  }
  return best?.action ?? { kind: 'combat', attacks: [] };
}

export const opponent: Opponent<State, Action> = (state, side, random) => {
  if (state.stage === 'deploy') {
    const own = state.ships.filter((s) => s.side === side);
    return { kind: 'deploy', placements: own.map((s) => ({ ship: s.id, x: s.x, y: s.y, heading: s.heading })) };
  }
  if (state.stage === 'orders') return chooseOrder(state, side, random);
  if (state.stage === 'fire') return chooseFire(state, side);
  return chooseCombat(state, side);
};
