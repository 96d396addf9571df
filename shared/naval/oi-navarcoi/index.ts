/** Oi Navarcoi!: fleet battles of the classical era, squadrons of four stands on a measured table. */
export { oiNavarcoi } from './engine.ts';
export { type Action, ActionSchema } from './actions.ts';
export { type Setup, SetupSchema } from './setup.ts';
export { type State, StateSchema } from './state.ts';
export { RULES, loadRules } from './rules.ts';
export { scenarios as oiNavarcoiScenarios } from './scenarios.ts';
export { tableView } from './view.ts';
