/**
 * The standard game's rules, as hooks (hooks.ts): a centre supplies one unit
 * to its owner (or what the map's data says it supplies), a power builds in
 * its vacant home centres it still owns, any number of fleets, and wins by
 * owning the number of centres the map names, counted in Winter.
 * (Types only are imported: the variant loader builds these rules for every map.)
 */
import type { Variant } from '../variant/load.ts';
import type { Board } from '../state/board.ts';
import type { Economy, Rules } from '../model.ts';

/** Centres the power owns. */
export function centreCount(v: Variant, eco: Economy, power: number): number {
  let n = 0;
  for (const c of v.centres) if (eco.owner[c] === power) n++;
  return n;
}

export function unitCount(board: Board, power: number): number {
  let n = 0;
  for (let u = 0; u < board.count; u++) if (board.power[u] === power) n++;
  return n;
}

export function standardRules(v: Variant): Rules {
  return {
    names: [],
    stateParts: [],
    holder: (eco, centre) => eco.owner[centre],
    supplies: () => true,
    centreSupply: (_eco, centre, holder) => v.supplyTable[centre * v.powers.length + holder],
    keeps: (eco, centre, power) => eco.owner[centre] === power,
    ownerChanged: () => {},
    mayBuild: (eco, board, power, p) => v.homeOf[p] === power && eco.owner[p] === power && board.unitAt[p] < 0,
    buildRefusal(eco, board, power, p) {
      const name = v.provinceNames[p];
      if (v.homeOf[p] !== power) return `${name} is not one of ${v.powers[power]}'s home centres.`;
      if (eco.owner[p] !== power) return `${v.powers[power]} no longer owns its home centre ${name}.`;
      if (board.unitAt[p] >= 0) return `${name} is occupied.`;
      return `${v.powers[power]} cannot build in ${name}.`;
    },
    maxFleetBuilds: Infinity,
    movementOrders: [],
    afterCapture: [],
    victoryCheck: 'count',
    victors(eco) {
      const rule = v.data.rules.victory;
      // Every power's centres in one pass (checked at every Winter count).
      const centres = new Array<number>(v.powers.length).fill(0);
      for (const c of v.centres) if (eco.owner[c] >= 0) centres[eco.owner[c]]++;
      const out: number[] = [];
      for (let w = 0; w < v.powers.length; w++) if (centres[w] >= rule.count) out.push(w);
      return out;
    },
  };
}
