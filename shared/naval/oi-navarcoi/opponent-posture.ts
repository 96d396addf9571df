/**
 * What the computer opponent plays for in each scenario, by the scenario's goals (flow.ts `judge`): a side the
 * clock favours (the defender of Defending the land, Bottled up's invaders, the Amphibious invaders, the Convoy's
 * escort) keeps its fleet whole and strikes only where the enemy must fail (a flank, a rear, an unformed
 * enemy); every other side closes and fights. Whatever the scenario, once one fleet has lost half its squadrons
 * nightfall would send it away (flow.ts), so it must fight on and the other has the clock. The Convoy's raiders hunt
 * the freighters; the Bottled up attackers go for the squadrons still at anchor (taken in the rear from the sea) as
 * readily as for those launched.
 */
import { beaten } from './events.ts';
import { type Squadron, type State, inBattle, sideOf } from './state.ts';

/** `hurry`: the clock is against it (it loses or draws if nothing more happens); `hold`: the clock is for it. */
export type Stance = 'attack' | 'hurry' | 'hold';

/** What `side` plays for: `hold` where it wins if nothing more happens (it fights only at an advantage), `hurry` where it would lose or draw. */
export function stanceOf(state: State, side: string): Stance {
  // Nightfall sends a beaten fleet away (flow.ts): with one fleet beaten the clock is for the other, and the beaten
  // one must fight on even where its scenario would have it hold.
  const beatenSides = state.sides.filter((s) => beaten(state, s.id));
  if (beatenSides.length === 1 && beatenSides[0].id !== side) return 'hold';
  const stance = scenarioStance(state, side);
  return beatenSides.length === 1 && stance === 'hold' ? 'hurry' : stance;
}

/** The stance the scenario's goals give while neither fleet is beaten. */
function scenarioStance(state: State, side: string): Stance {
  const role = state.sides.find((s) => s.id === side)?.role;
  switch (state.scenario) {
    case 'defending-land':
    case 'convoy':
      return role === 'defender' ? 'hold' : 'hurry';
    case 'bottled-up':
    case 'amphibious':
      return role === 'invader' ? 'hold' : 'hurry';
    default:
      return 'attack';
  }
}

/**
 * Where the turn limit gives the battle to the fleet that lost the smaller share of its squadrons (the Clash, the
 * Meeting, the Ambush), the score decides the posture as it would a human admiral's: a fleet ahead on that share has
 * the clock for it (it holds off and strikes only where the enemy must fail: in the logs, fleets ahead lost the battle
 * in even fights they had no need of); one behind hurries in its last turns. Level, or behind with turns to spare, it
 * closes and fights (opponent.ts asks a level fleet for an edge in its attacks until its last turns).
 */
export function scoredStance(state: State, side: string): Stance {
  const stance = stanceOf(state, side);
  if (stance !== 'attack') return stance;
  const lead = scoreLead(state, side);
  return lead > 0 ? 'hold' : lead < 0 && turnsLeft(state) <= SCORE_TURNS ? 'hurry' : 'attack';
}

/**
 * The last turns, where the score must be pressed: behind, a fleet hurries only in these (before, it fights as one
 * level does); level, it asks an edge of its attacks until these (opponent.ts).
 */
export const SCORE_TURNS = 4;

/** Turns left to play, this one included. */
export const turnsLeft = (state: State): number => state.turnLimit - state.turn + 1;

/** The enemy's share of squadrons lost less ours, as the turn limit counts it (positive: we are ahead). */
export function scoreLead(state: State, side: string): number {
  const share = (id: string) => {
    const n = sideOf(state, id).startSquadrons;
    return n ? state.squadrons.filter((q) => q.side === id && !q.freighters && !inBattle(q)).length / n : 0;
  };
  const enemy = state.sides.find((s) => s.id !== side)?.id;
  return enemy === undefined ? 0 : share(enemy) - share(side);
}

/** How much reaching enemy `e` is worth beyond fighting it, in inches of rowing (0 for none). */
export function goalWeight(e: Squadron): number {
  if (e.freighters) return 30;
  // A squadron at anchor lies bows on the beach: an attack from the sea takes it in the rear, and routing it runs aground.
  if (e.status === 'anchored') return 6;
  return 0;
}
