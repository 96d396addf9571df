/**
 * What the computer opponent plays for in each scenario, by the scenario's goals (flow.ts `judge`): a side the
 * clock favours (the defender of Defending the land, Bottled up's invaders, the Amphibious invaders, the Convoy's
 * escort) keeps its fleet whole and strikes only where the enemy must fail (a flank, a rear, an unformed
 * enemy); every other side closes and fights. The Convoy's raiders hunt the freighters; the Bottled up attackers
 * go for the squadrons still at anchor (taken in the rear from the sea) as readily as for those launched.
 */
import type { Squadron, State } from './state.ts';

/** `hurry`: the clock is against it (it loses or draws if nothing more happens); `hold`: the clock is for it. */
export type Stance = 'attack' | 'hurry' | 'hold';

/** Whether `side` wins if nothing more happens, so that it fights only at an advantage. */
export function stanceOf(state: State, side: string): Stance {
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

/** How much reaching enemy `e` is worth beyond fighting it, in inches of rowing (0 for none). */
export function goalWeight(e: Squadron): number {
  if (e.freighters) return 30;
  // A squadron at anchor lies bows on the beach: an attack from the sea takes it in the rear, and routing it runs aground.
  if (e.status === 'anchored') return 6;
  return 0;
}
