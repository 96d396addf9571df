/** Diadochi V rule 10: a power may build at most so many fleets in one adjustment phase (the map's `maxFleetBuilds`). */
import type { RuleModule } from '../../model.ts';

export const fleetBuildLimit: RuleModule = {
  name: 'fleet-build-limit',
  summary: 'A power may build only so many fleets in one adjustment phase.',
  declaredBy: (data) => data.rules.maxFleetBuilds !== undefined,
  extend: (base, v) => ({ ...base, maxFleetBuilds: v.data.rules.maxFleetBuilds ?? base.maxFleetBuilds }),
};
