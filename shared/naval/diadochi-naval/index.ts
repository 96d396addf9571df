/** The Diadochi Naval Rules (W. L. Greene, 2018): ship by ship on a measured table, distances in cables. */
export { diadochiNaval } from './engine.ts';
export { type Action, ActionSchema } from './actions.ts';
export { type Setup, SetupSchema } from './setup.ts';
export { type State, StateSchema } from './state.ts';
export { RULES, loadRules } from './rules.ts';
export { scenarios } from './scenarios.ts';
export { tableView, type TableView } from './view.ts';
