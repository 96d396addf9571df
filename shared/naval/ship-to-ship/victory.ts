/**
 * Who has won. The 2007 rules set no victory conditions; this ruleset's: a side is beaten when it has no ship
 * afloat and free (all sunk or surrendered), or when the hull still afloat falls below the scenario's share of
 * what it began with; the last side not beaten wins. At the turn limit the side keeping the largest share of
 * its hull wins (equal shares: nobody).
 */
import type { Outcome } from '../ruleset.ts';
import { type State, active, statsOf } from './state.ts';

/** Hull points a side still has afloat and free: each such ship's hull less its damage. */
export function hullAfloat(state: State, side: string): number {
  return state.ships.filter((s) => s.side === side && active(s)).reduce((sum, s) => sum + Math.max(0, statsOf(s).hull - s.damage), 0);
}

export const hullShare = (state: State, side: string): number => {
  const start = state.startHull[side] ?? 0;
  return start === 0 ? 0 : hullAfloat(state, side) / start;
};

const pct = (x: number) => `${Math.round(x * 100)}%`;

export function judge(state: State): Outcome | null {
  const beaten = (side: string) => {
    const afloat = state.ships.some((s) => s.side === side && active(s));
    return !afloat || hullShare(state, side) < state.breakBelow;
  };
  const standing = state.sides.filter((s) => !beaten(s.id));
  const name = (id: string) => state.sides.find((s) => s.id === id)?.name ?? id;
  const shares = state.sides.map((s) => `${s.name} ${pct(hullShare(state, s.id))}`).join(', ');
  if (standing.length === 0) return { winner: null, reason: `every fleet is sunk, taken or broken in the same turn (hull left: ${shares})` };
  if (standing.length === 1) {
    const losers = state.sides.filter((s) => s.id !== standing[0].id).map((s) => s.name);
    const why = state.breakBelow > 0 ? `sunk, taken or below ${pct(state.breakBelow)} of their hull` : 'all sunk or taken';
    return { winner: standing[0].id, reason: `${losers.join(' and ')}: ${why} (hull left: ${shares}); ${name(standing[0].id)} wins` };
  }
  if (state.turn >= state.turnLimit) {
    const ranked = [...standing].sort((a, b) => hullShare(state, b.id) - hullShare(state, a.id));
    const best = hullShare(state, ranked[0].id);
    const tied = ranked.filter((s) => hullShare(state, s.id) === best);
    if (tied.length > 1) return { winner: null, reason: `turn limit ${state.turnLimit} reached with equal shares of hull left (${shares}): nobody wins` };
    return { winner: ranked[0].id, reason: `turn limit ${state.turnLimit} reached: ${ranked[0].name} keeps the largest share of its hull (${shares})` };
  }
  return null;
}
