/**
 * Diadochi V rule 6, rebel centres: at the Winter count, after the captures, a rebel centre not garrisoned by a
 * unit of its owner becomes neutral again (and a loan of it ends). The map's data marks them (`centre.rebel`).
 */
import type { RuleModule } from '../../model.ts';

export const rebels: RuleModule = {
  name: 'rebels',
  summary: 'A rebel centre its owner does not garrison at the Winter count becomes neutral again.',
  declaredBy: (data) => data.provinces.some((p) => p.centre?.rebel),
  extend: (base) => ({
    ...base,
    afterCapture: [
      ...base.afterCapture,
      (v, eco, board, events) => {
        for (const c of v.centres) {
          if (!v.isRebel[c] || eco.owner[c] < 0) continue;
          const u = board.unitAt[c];
          if (u >= 0 && board.power[u] === eco.owner[c]) continue;
          const from = v.powers[eco.owner[c]];
          eco.owner[c] = -1;
          v.rules.ownerChanged(eco, c);
          events.push({ kind: 'centre-rebelled', province: v.provinceIds[c], from });
        }
      },
    ],
  }),
};
