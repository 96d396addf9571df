/**
 * Diadochi V rule 13, victory: a power wins with so many units supported by centres it owns and has not lent out
 * (lent-in supply does not count), checked once the adjustments of a year are made, not at the Winter count.
 */
import { keptSupply, unitCount } from '../../game/economy.ts';
import type { RuleModule } from '../../model.ts';

export const selfSupportingVictory: RuleModule = {
  name: 'self-supporting-victory',
  summary: 'A power wins with enough units supported by centres it owns and has not lent out, once the adjustments are made.',
  declaredBy: (data) => data.rules.victory.type === 'self-supporting-units',
  extend: (base, v) => ({
    ...base,
    victoryCheck: 'after-adjustments',
    victors(eco, board) {
      const out: number[] = [];
      for (let w = 0; w < v.powers.length; w++) if (Math.min(unitCount(board, w), keptSupply(v, eco, w)) >= v.data.rules.victory.count) out.push(w);
      return out;
    },
  }),
};
