/**
 * The turn of the year: after the Fall movement and its retreats, the Winter count (centres pass to the powers
 * occupying them, then whatever the variant's rules change at the count), the victory check, and the
 * adjustment phase, skipped when nobody has a build to place or a unit to remove; then Spring.
 */
import type { Variant } from '../variant/load.ts';
import { compileBoard, type Board } from '../state/board.ts';
import type { GameState, Phase } from '../state/schema.ts';
import { nextYear } from '../state/phase.ts';
import { stateWith } from '../state/copy.ts';
import { captureCentres, compileEconomy, copyEconomy, economyToState, hasBuildSite, supplyByPower, type Economy } from '../game/economy.ts';
import type { PhaseEvent } from './events.ts';

/**
 * After the movement and retreats of a season: Fall, or the Winter count. `known`: the position's board and
 * economy when the caller has them at hand (the count changes a copy; the caller's economy is left as it was).
 */
export function afterRetreats(v: Variant, state: GameState, events: PhaseEvent[], known?: { board: Board; eco: Economy }): GameState {
  if (state.phase.season === 'spring') return stateWith(state, { season: 'fall', year: state.phase.year, type: 'movement' });
  let b: Board;
  let before: Economy;
  if (known) ({ board: b, eco: before } = known);
  else {
    const board = compileBoard(v, state.units);
    const eco = compileEconomy(v, state);
    if (!board.ok || !eco.ok) throw new Error('internal: state became invalid after adjudication');
    b = board.value;
    before = eco.value;
  }
  const e = copyEconomy(before);
  for (const p of captureCentres(v, e, b)) {
    events.push({
      kind: 'centre-captured',
      province: v.provinceIds[p],
      from: before.owner[p] < 0 ? null : v.powers[before.owner[p]],
      to: v.powers[e.owner[p]],
    });
  }
  for (const step of v.rules.afterCapture) step(v, e, b, events, before);

  // The state after the count, in Winter: one copy, the economy's fields written into it (the same keys in the same
  // order as spreading them in, without copying the state once per step).
  const winter: Phase = { season: 'winter', year: state.phase.year, type: 'adjustment' };
  const counted = stateWith(state, winter);
  Object.assign(counted, economyToState(v, e));
  if (v.rules.victoryCheck === 'count') {
    const won = v.rules.victors(e, b);
    if (won.length > 0) return declareVictory(v, counted, won, events);
  }
  if (adjustmentNeeded(v, e, b)) return counted;
  return startOfYear(v, counted, events, { board: b, eco: e });
}

/** Whether any power has a build it could place or a unit it must remove. */
function adjustmentNeeded(v: Variant, eco: Economy, board: Board): boolean {
  const supply = supplyByPower(v, eco);
  const units = new Array<number>(v.powers.length).fill(0);
  for (let u = 0; u < board.count; u++) units[board.power[u]]++;
  for (let w = 0; w < v.powers.length; w++) {
    const diff = supply[w] - units[w];
    if (diff < 0) return true;
    if (diff > 0 && hasBuildSite(v, eco, board, w)) return true;
  }
  return false;
}

/**
 * After the (possibly skipped) adjustment phase: the victory check of variants that count after it, then Spring.
 * `known`: the position's board and economy, when the caller has them at hand.
 */
export function startOfYear(v: Variant, state: GameState, events: PhaseEvent[], known?: { board: Board; eco: Economy }): GameState {
  const phase: Phase = { season: 'spring', year: nextYear(v, state.phase.year), type: 'movement' };
  if (v.rules.victoryCheck === 'after-adjustments') {
    const board = known ? { ok: true as const, value: known.board } : compileBoard(v, state.units);
    const eco = known ? { ok: true as const, value: known.eco } : compileEconomy(v, state);
    if (board.ok && eco.ok) {
      const won = v.rules.victors(eco.value, board.value);
      if (won.length > 0) return declareVictory(v, state, won, events);
    }
  }
  return stateWith(state, phase);
}

function declareVictory(v: Variant, state: GameState, won: number[], events: PhaseEvent[]): GameState {
  const powers = won.map((w) => v.powers[w]);
  events.push({ kind: 'victory', powers });
  return { ...state, winners: powers };
}
