/**
 * The rules engine's public surface, used by the server and the web client.
 * Pure and deterministic: no I/O, runs in Node and in the browser.
 */
export { ok, err, type Result } from './result.ts';
export { ENGINE_VERSION } from './version.ts';

export { MapDataSchema, type MapData } from './variant/schema.ts';
export { findProvince, findPower, findLocation, type Variant } from './variant/load.ts';
export { loadVariant } from './variant/checked.ts';
export { defaultRuleOptions, RULEBOOKS, RULEBOOK_IDS, rulebookOptions, type RuleOptions, type Rulebook } from './variant/options.ts';
export { getVariant, variantIds } from './variants.ts';

export {
  GameStateSchema,
  PhaseSchema,
  UnitSchema,
  LoanSchema,
  type GameState,
  type GameStateInput,
  type Phase,
  type Unit,
  type DislodgedUnit,
  type Loan,
  type PhaseType,
  type Season,
} from './state/schema.ts';
export { frozenState, readState } from './state/checked.ts';
export { phaseName, yearName, parsePhase, firstPhase } from './state/phase.ts';
export { compileBoard, locationName, describeUnit, type Board } from './state/board.ts';

export { OrderSchema, type Order, type OrderInput, type UnitRef } from './orders/types.ts';
export { parseOrder } from './orders/parse.ts';
export { formatOrder } from './orders/format.ts';
export { legalMovementOrders, moveTargets } from './phases/movement/legal.ts';
export { legalBuilds } from './phases/adjustment/index.ts';
export { orderOptions, type OrderOptions } from './orders/options.ts';

export { OrderResultSchema, ResultCode, type OrderResult } from './phases/results.ts';
export { resultsAsNow } from './phases/results-then.ts';
export { retreatOptions } from './phases/retreat/check.ts';

export {
  adjudicate,
  initialState,
  PhaseEventSchema,
  type AdjudicateOptions,
  type DecidedOutcome,
  type DecidedProvince,
  type SubmittedOrder,
  type PhaseOutcome,
  type PhaseEvent,
} from './game/process.ts';
export { contestedSeas, type ContestedSea, type ContestedSupport, type ContestedUnit } from './game/contested-seas.ts';
export { checkOrders, type CheckedOrder } from './game/check-orders.ts';
export { powerSummary, type PowerSummary } from './game/summary.ts';
export { PowerSummarySchema } from './game/summary-schema.ts';
export { loansChangeable, lendCentre, endLoanOf } from './rules/diadochi/loans.ts';
export { RULE_MODULES } from './rules/index.ts';
export type { Rules, RuleModule } from './model.ts';
export { controlChanges, type ControlChange } from './game/control.ts';
export { powersToOrder, survivors } from './game/duties.ts';

export { parseDatcFile, formatDatcCase, type DatcCase } from './datc/format.ts';
export { runCase, caseToState, type CaseReport } from './datc/run.ts';
export { runDatcText, variantByName } from './datc/suite.ts';
export { phaseToDatcCase, datcPhase } from './datc/export.ts';
