/**
 * Diadochi V rule 5, special build centres: provinces that are not supply centres, but whose controller may
 * build there as in a home centre. Control passes as a centre's ownership does: to the power whose unit stands
 * there at the Winter count. The map's data marks them (`buildCentre`); the stored state keeps their controllers
 * (`control`), which a new game takes from the map's starting owners.
 */
import { findPower, findProvince } from '../../variant/load.ts';
import type { RuleModule } from '../../model.ts';

export const buildCentres: RuleModule = {
  name: 'build-centres',
  summary: 'Special build centres supply nothing, but whoever holds one at the Winter count may build there.',
  declaredBy: (data) => data.provinces.some((p) => p.buildCentre),
  extend: (base, v) => ({
    ...base,
    stateParts: [
      ...base.stateParts,
      {
        read(v, state, eco, problems) {
          for (const [c, w] of Object.entries(state.control)) {
            const p = findProvince(v, c);
            const i = findPower(v, w);
            if (p < 0) problems.push(`control: unknown province "${c}"`);
            if (i < 0) problems.push(`control.${c}: unknown power "${w}"`);
            if (p < 0 || i < 0) continue;
            if (!v.isBuildCentre[p]) problems.push(`control: ${v.provinceNames[p]} is not a special build centre`);
            eco.control[p] = i;
          }
        },
        write(v, eco, out) {
          const control: Record<string, string> = {};
          for (let p = 0; p < v.provinceCount; p++) if (eco.control[p] >= 0) control[v.provinceIds[p]] = v.powers[eco.control[p]];
          out.control = control;
        },
        initial: (v) => ({ control: Object.fromEntries(Object.entries(v.data.start.owners).filter(([p]) => v.isBuildCentre[findProvince(v, p)])) }),
      },
    ],
    mayBuild: (eco, board, power, p) => (v.isBuildCentre[p] ? eco.control[p] === power && board.unitAt[p] < 0 : base.mayBuild(eco, board, power, p)),
    buildRefusal(eco, board, power, p) {
      if (!v.isBuildCentre[p]) return base.buildRefusal(eco, board, power, p);
      if (eco.control[p] !== power) return `${v.powers[power]} does not control the build centre ${v.provinceNames[p]}.`;
      return `${v.provinceNames[p]} is occupied.`;
    },
    afterCapture: [
      ...base.afterCapture,
      (v, eco, board) => {
        for (let u = 0; u < board.count; u++) {
          const p = board.province[u];
          if (v.isBuildCentre[p]) eco.control[p] = board.power[u];
        }
      },
    ],
  }),
};
