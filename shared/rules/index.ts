/**
 * The rules a variant plays with: the standard game, changed by each rule module its map data declares, in this
 * order (which is also the order of their steps at the Winter count: special build centres change hands, rebel
 * centres turn neutral, then the loans those changes ended are told). A variant with rules of its own adds its
 * modules here, in a folder named after it; the engine's core never imports them.
 */
import type { Variant } from '../variant/load.ts';
import type { RuleModule, Rules } from '../model.ts';
import { standardRules } from './standard.ts';
import { centreValues } from './diadochi/centre-values.ts';
import { buildCentres } from './diadochi/build-centres.ts';
import { destroyRebuild } from './diadochi/destroy-rebuild.ts';
import { rebels } from './diadochi/rebels.ts';
import { loans } from './diadochi/loans.ts';
import { fleetBuildLimit } from './diadochi/fleet-build-limit.ts';
import { selfSupportingVictory } from './diadochi/self-supporting-victory.ts';

export const RULE_MODULES: readonly RuleModule[] = [centreValues, buildCentres, destroyRebuild, rebels, loans, fleetBuildLimit, selfSupportingVictory];

/** The standard rules with every module the variant's data declares. */
export function composeRules(v: Variant): Rules {
  let rules = standardRules(v);
  for (const module of RULE_MODULES) {
    if (!module.declaredBy(v.data)) continue;
    rules = module.extend(rules, v);
    rules = { ...rules, names: [...rules.names, module.name] };
  }
  return rules;
}
