/**
 * The choices a side has, as lists the computer opponent and the random player draw from: orders for each
 * ship and each group standing in formation (unchecked: the engine's check decides), a side's fire (every
 * ship able to fire on a target of its own, the rest supporting), and its close combat (one attack a target,
 * all of one kind, the rest supporting).
 */
import { lineAbreast, lineAhead, straightColumn } from '../table/index.ts';
import type { Action, CloseAttack, DnLeg, Move } from './actions.ts';
import { closestTargets, contactForward, enemiesInContactForward } from './positions.ts';
import { RULES } from './rules.ts';
import { type ShipState, type State, afloat, baseOf, combatValue, shipById } from './state.ts';
import { contactOf } from '../table/index.ts';

type Order = Extract<Action, { kind: 'order' }>;

const movable = (state: State, s: ShipState, side: string) =>
  s.side === side && afloat(s) && !s.crippled && !s.grappledWith && !s.ordered && !state.squadrons.find((q) => q.id === s.squadron)?.halted;

/** The groups standing in formation: maximal lines abreast (left to right) and columns (leader first), 2–8 ships. */
export function groupsOf(state: State, side: string): { ships: string[]; formation: 'abreast' | 'ahead'; flagged: boolean }[] {
  const ships = state.ships.filter((s) => movable(state, s, side));
  const out: { ships: string[]; formation: 'abreast' | 'ahead'; flagged: boolean }[] = [];
  const max = RULES.movement.groupSize.max;
  // Who stands at whose right (line abreast) and who follows whom (line ahead), within a squadron.
  const rightOf = new Map<string, ShipState>();
  const follower = new Map<string, ShipState>();
  const hasLeft = new Set<string>();
  const hasLeader = new Set<string>();
  for (const a of ships)
    for (const b of ships) {
      if (a === b || a.squadron !== b.squadron) continue;
      if (lineAbreast([baseOf(a), baseOf(b)]).ok) {
        const c = contactOf(baseOf(a), baseOf(b));
        if (c?.aSide === 'right') {
          rightOf.set(a.id, b);
          hasLeft.add(b.id);
        }
      }
      if (lineAhead([baseOf(a), baseOf(b)], RULES.movement.lineAhead.bend).ok) {
        follower.set(a.id, b);
        hasLeader.add(b.id);
      }
    }
  for (const s of ships) {
    if (!hasLeft.has(s.id) && rightOf.has(s.id)) {
      const chain = [s];
      while (chain.length < max && rightOf.has(chain[chain.length - 1].id)) chain.push(rightOf.get(chain[chain.length - 1].id) as ShipState);
      out.push({ ships: chain.map((x) => x.id), formation: 'abreast', flagged: chain.some((x) => x.outOfFormation) });
    }
    if (!hasLeader.has(s.id) && follower.has(s.id)) {
      const chain = [s];
      while (chain.length < max && follower.has(chain[chain.length - 1].id)) chain.push(follower.get(chain[chain.length - 1].id) as ShipState);
      if (
        lineAhead(
          chain.map((x) => baseOf(x)),
          RULES.movement.lineAhead.bend,
        ).ok
      )
        out.push({ ships: chain.map((x) => x.id), formation: 'ahead', flagged: chain.some((x) => x.outOfFormation) });
    }
  }
  return out;
}

const legs = (...l: DnLeg[]): Move => ({ kind: 'legs', legs: l, charge: true });

/** Orders worth considering: for every ship and every group, a spread of moves (unchecked). */
export function candidateOrders(state: State, side: string): Order[] {
  const m = RULES.movement;
  const out: Order[] = [];
  for (const g of groupsOf(state, side)) {
    if (g.flagged) {
      out.push({ kind: 'order', ships: g.ships, formation: g.formation, move: { kind: 'reform' } });
      continue;
    }
    if (g.formation === 'abreast') {
      const frontage = g.ships.reduce((n, id) => n + (shipById(state, id) ? RULES.baseWidth : 0), 0);
      const wheel = Math.min(90, ((m.lineAbreast.distance / frontage) * 180) / Math.PI);
      out.push(
        { kind: 'order', ships: g.ships, formation: 'abreast', move: legs({ kind: 'ahead', distance: m.lineAbreast.distance }) },
        { kind: 'order', ships: g.ships, formation: 'abreast', move: legs({ kind: 'ahead', distance: m.lineAbreast.distance / 2 }) },
        {
          kind: 'order',
          ships: g.ships,
          formation: 'abreast',
          move: legs({ kind: 'oblique', degrees: m.lineAbreast.slant, distance: m.lineAbreast.distance }),
        },
        {
          kind: 'order',
          ships: g.ships,
          formation: 'abreast',
          move: legs({ kind: 'oblique', degrees: -m.lineAbreast.slant, distance: m.lineAbreast.distance }),
        },
        { kind: 'order', ships: g.ships, formation: 'abreast', move: legs({ kind: 'wheel', degrees: wheel }) },
        { kind: 'order', ships: g.ships, formation: 'abreast', move: legs({ kind: 'wheel', degrees: -wheel }) },
        { kind: 'order', ships: g.ships, formation: 'abreast', move: legs({ kind: 'wheel', degrees: wheel / 2 }) },
        { kind: 'order', ships: g.ships, formation: 'abreast', move: legs({ kind: 'wheel', degrees: -wheel / 2 }) },
        { kind: 'order', ships: g.ships, formation: 'abreast', move: { kind: 'legs', legs: [{ kind: 'back', distance: m.lineAbreast.back }], charge: false } },
        { kind: 'order', ships: g.ships, formation: 'abreast', move: { kind: 'change', degrees: 90 } },
        { kind: 'order', ships: g.ships, formation: 'abreast', move: { kind: 'change', degrees: -90 } },
      );
    } else {
      const d = m.lineAhead.distance;
      out.push(
        { kind: 'order', ships: g.ships, formation: 'ahead', move: legs({ kind: 'ahead', distance: d }) },
        { kind: 'order', ships: g.ships, formation: 'ahead', move: legs({ kind: 'ahead', distance: d / 2 }) },
        { kind: 'order', ships: g.ships, formation: 'ahead', move: legs({ kind: 'turn', degrees: 45 }, { kind: 'ahead', distance: d }) },
        { kind: 'order', ships: g.ships, formation: 'ahead', move: legs({ kind: 'turn', degrees: -45 }, { kind: 'ahead', distance: d }) },
        {
          kind: 'order',
          ships: g.ships,
          formation: 'ahead',
          move: legs({ kind: 'ahead', distance: d / 2 }, { kind: 'turn', degrees: 90 }, { kind: 'ahead', distance: d / 2 }),
        },
        {
          kind: 'order',
          ships: g.ships,
          formation: 'ahead',
          move: legs({ kind: 'ahead', distance: d / 2 }, { kind: 'turn', degrees: -90 }, { kind: 'ahead', distance: d / 2 }),
        },
      );
      const bases = g.ships
        .map((id) => shipById(state, id))
        .filter((s): s is ShipState => s !== undefined)
        .map((s) => baseOf(s));
      if (straightColumn(bases))
        out.push(
          { kind: 'order', ships: g.ships, formation: 'ahead', move: { kind: 'change', degrees: 90 } },
          { kind: 'order', ships: g.ships, formation: 'ahead', move: { kind: 'change', degrees: -90 } },
        );
    }
  }
  for (const s of state.ships.filter((x) => movable(state, x, side))) {
    for (const turn of [0, 30, -30, 60, -60, 90, -90, 135, -135, 180]) {
      const pre: DnLeg[] = turn ? [{ kind: 'turn', degrees: turn }] : [];
      out.push({ kind: 'order', ships: [s.id], formation: 'single', move: legs(...pre, { kind: 'ahead', distance: m.single.distance }) });
      out.push({ kind: 'order', ships: [s.id], formation: 'single', move: legs(...pre, { kind: 'ahead', distance: m.single.distance / 2 }) });
    }
    out.push({ kind: 'order', ships: [s.id], formation: 'single', move: { kind: 'legs', legs: [{ kind: 'back', distance: m.single.back }], charge: false } });
  }
  return out;
}

/** Every ship able to fire takes a target of its own if it has one, the stronger ships first; the rest support. */
export function defaultFire(state: State, side: string): Extract<Action, { kind: 'fire' }> {
  const shooters = state.ships.filter((s) => s.side === side).sort((a, b) => combatValue(b) - combatValue(a));
  const taken = new Set<string>();
  const attacks: { ship: string; target: string }[] = [];
  for (const s of shooters) {
    const target = closestTargets(state, s).find((t) => !taken.has(t.id));
    if (target) {
      taken.add(target.id);
      attacks.push({ ship: s.id, target: target.id });
    }
  }
  return { kind: 'fire', attacks };
}

/**
 * Close combat choices: for each kind of attack, every enemy at a bow attacked by the strongest ship facing it
 * (grappled ships boarding their partner, or all trying to disengage in the last choice), the rest supporting.
 */
export function combatChoices(state: State, side: string): Extract<Action, { kind: 'combat' }>[] {
  const own = state.ships.filter((s) => s.side === side && afloat(s) && !s.crippled).sort((a, b) => combatValue(b) - combatValue(a));
  const build = (kind: 'ram' | 'rake' | 'board', grappledKind: 'board' | 'disengage', includeCrippled: boolean) => {
    const attacks: CloseAttack[] = [];
    const used = new Set<string>();
    const targets = new Set<string>();
    for (const s of own.filter((x) => x.grappledWith)) {
      const partner = shipById(state, s.grappledWith ?? '');
      if (!partner || !afloat(partner) || targets.has(partner.id)) continue;
      attacks.push({ ship: s.id, target: partner.id, attack: grappledKind });
      used.add(s.id);
      targets.add(partner.id);
    }
    for (const s of own) {
      if (used.has(s.id) || s.grappledWith) continue;
      const enemies = enemiesInContactForward(state, s).filter((e) => !targets.has(e.id) && (includeCrippled || !e.crippled));
      if (enemies.length === 0) continue;
      // The one whose bow it strikes best first: non-crippled, then the weakest.
      const target = enemies.sort((a, b) => Number(a.crippled) - Number(b.crippled) || combatValue(a) - combatValue(b))[0];
      if (!contactForward(s, target)) continue;
      attacks.push({ ship: s.id, target: target.id, attack: kind });
      used.add(s.id);
      targets.add(target.id);
    }
    return { kind: 'combat' as const, attacks };
  };
  const choices = [
    build('ram', 'board', true),
    build('rake', 'board', true),
    build('board', 'board', true),
    build('ram', 'disengage', false),
    build('ram', 'board', false),
  ];
  const seen = new Set<string>();
  return choices.filter((c) => {
    const key = JSON.stringify(c.attacks);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
