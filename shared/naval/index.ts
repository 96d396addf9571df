/**
 * The registry of naval battle rulesets: each ruleset by its id, its shipped scenarios (id, title, where it comes
 * from, and the set-up itself), and what marks one decision of a battle for its clock (`decisionOf`).
 */
import { classis, classisScenarios } from './classis/index.ts';
import { diadochiNaval, scenarios as diadochiNavalScenarios } from './diadochi-naval/index.ts';
import { oiNavarcoi, oiNavarcoiScenarios } from './oi-navarcoi/index.ts';
import type { AnyRuleset, RulesetId } from './ruleset.ts';
import { shipToShip } from './ship-to-ship/index.ts';
import { scenarios as shipToShipScenarios } from './ship-to-ship/scenarios.ts';

export const RULESETS: Record<RulesetId, AnyRuleset> = {
  classis,
  'ship-to-ship': shipToShip,
  'diadochi-naval': diadochiNaval,
  'oi-navarcoi': oiNavarcoi,
};

export const RULESET_IDS = Object.keys(RULESETS) as RulesetId[];

export interface ScenarioInfo {
  readonly id: string;
  readonly title: string;
  /** The document it comes from and what was made of it, in one line. */
  readonly source: string;
  /** The set-up as the scenario file holds it (the ruleset's set-up schema reads it). */
  readonly setup: unknown;
}

/** A Classis scenario names its source as document, section and note. */
function classisSource(setup: unknown): string {
  const source = (setup as { source?: { document?: string; section?: string; note?: string } }).source;
  if (!source) return '';
  return [source.document, source.section, source.note].filter((part) => part).join('; ');
}

const titleOf = (setup: unknown): string => String((setup as { title?: unknown }).title ?? '');

export const SCENARIOS: Record<RulesetId, readonly ScenarioInfo[]> = {
  classis: Object.entries(classisScenarios).map(([id, setup]) => ({ id, title: titleOf(setup), source: classisSource(setup), setup })),
  'ship-to-ship': shipToShipScenarios.map(({ id, setup }) => ({ id, title: setup.title, source: setup.source, setup })),
  'diadochi-naval': diadochiNavalScenarios.map(({ id, setup }) => ({ id, title: setup.title, source: setup.source, setup })),
  'oi-navarcoi': oiNavarcoiScenarios.map(({ id, setup }) => ({ id, title: setup.title, source: setup.source, setup })),
};

/** A shipped scenario, or null when the ruleset has none by that id. */
export function scenarioOf(ruleset: RulesetId, id: string): ScenarioInfo | null {
  return SCENARIOS[ruleset].find((scenario) => scenario.id === id) ?? null;
}

/** What decision a battle waits for, for its clock (each ruleset's `decision`). */
export function decisionOf(ruleset: RulesetId, state: unknown): string {
  return RULESETS[ruleset].decision(state);
}

export type { AnyRuleset, RulesetId };
