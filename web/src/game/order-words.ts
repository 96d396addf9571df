/**
 * What the Orders tab says of my power's standing in words: why it has nothing to order, what takes it out of civil
 * disorder, and what Ready does while the clock is paused. Pure (the engine's own answers, no Svelte), so tested alone.
 */
import { orderOptions, type GameState, type Variant } from '../../../shared/index.ts';
import { plural } from '../lib/format.ts';

/** Why a power has nothing to order in this phase: in an adjustment, the builds it cannot use or that it has none to make. */
export function nothingToOrderWords(variant: Variant, state: GameState, power: string): string {
  const type = state.phase.type;
  if (type === 'retreat') return `${power} has no dislodged unit: nothing to order in this phase.`;
  if (type !== 'adjustment') return `${power} has nothing to order in this phase.`;
  const options = orderOptions(variant, state, power);
  // Builds are listed with their sites (a waive beside them): none listed, no free site.
  const sites = Object.values(options.byUnit)
    .flat()
    .filter((order) => order.kind === 'build').length;
  if (options.adjustment > 0 && sites === 0) {
    return (
      `${power} may build ${plural(options.adjustment, 'unit')}, but none of its home supply centres is free to build on ` +
      '(each must be its own and empty of units): the builds go unused, and there is nothing to order in this phase.'
    );
  }
  if (options.adjustment === 0) return `${power} has as many units as its centres supply: nothing to build or remove in this phase.`;
  return `${power} has nothing to order in this phase.`;
}

/**
 * A power in civil disorder: why, and what takes it back. Its player comes back by saving orders (or ticking Ready);
 * in a phase where it has nothing to order, that can only happen in the next phase where it has orders to give.
 */
export function civilDisorderWords(power: string, missedDeadlines: number, mustOrder: boolean): string {
  const missed = missedDeadlines > 0 ? `it missed ${plural(missedDeadlines, 'deadline')} in a row, and ` : '';
  const back = mustOrder
    ? 'Save orders (or tick Ready) to take it back.'
    : 'It has nothing to order in this phase: saving orders (or ticking Ready) in the next phase where it has orders to give takes it back.';
  return `${power} is in civil disorder: ${missed}its units hold when it has no orders. ${back}`;
}

/** What Ready does: the phase goes on once every power is ready, unless the game master has paused the clock. */
export function readyWords(paused: boolean, dirty: boolean): string {
  const when = paused
    ? 'the clock is paused, so the phase waits for the game master to resume it, even once every power is ready.'
    : 'the phase is processed as soon as every power is ready.';
  return `Ready: you are done; ${when}${dirty ? ' Ticking it saves your orders too.' : ''}`;
}
