/** The ship-to-ship rules of 2007: hex, secret simultaneous plotting. */
export { shipToShip } from './engine.ts';
export { type Action, ActionSchema } from './actions.ts';
export { type Setup, SetupSchema } from './setup.ts';
export { type State, StateSchema } from './state.ts';
export { RULES, loadRules } from './rules.ts';
