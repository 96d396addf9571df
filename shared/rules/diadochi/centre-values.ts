/**
 * Diadochi V rule 4, double and triple centres: a centre may supply more than one unit, and more to one power
 * than to the others (Rome supplies three to Rome, one to anyone else). A centre worth more to one power gives
 * that only when the power both owns and holds it: owned by another power it acts as a single centre, and lent
 * to another power it supplies what it would supply its owner (rules/diadochi/loans.ts), no more. What each
 * centre supplies to whom is the map's data (`centre.supply`, `centre.supplyFor`).
 */
import type { RuleModule } from '../../model.ts';

export const centreValues: RuleModule = {
  name: 'centre-values',
  summary: 'Centres may supply two or three units, some more to one power; a centre lent or taken supplies no more than it would its owner.',
  declaredBy: (data) => data.provinces.some((p) => p.centre && (p.centre.supply > 1 || p.centre.supplyFor !== undefined)),
  extend: (base) => ({
    ...base,
    centreSupply: (eco, centre, holder) => Math.min(base.centreSupply(eco, centre, holder), base.centreSupply(eco, centre, eco.owner[centre])),
  }),
};
