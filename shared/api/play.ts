/**
 * Game play on the wire: phases (positions, orders, results), order
 * submission, readiness and the supply table. Positions, orders and results
 * are the rules engine's own schemas (shared/index.ts), so what the server
 * stores is exactly what the engine produced.
 */
import { z } from 'zod';
import {
  GameStateSchema,
  LoanSchema,
  OrderResultSchema,
  OrderSchema,
  UnitSchema,
  PhaseEventSchema as EnginePhaseEventSchema,
  PowerSummarySchema,
} from '../index.ts';
import { ApiErrorSchema } from './errors.ts';
import { IdSchema, TimestampSchema } from './common.ts';
import { PhaseRefSchema, PlayerStatusSchema } from './games.ts';
import { SeaBattleSchema } from './campaign.ts';

export { GameStateSchema, OrderSchema, OrderResultSchema, LoanSchema };

/** What happened at the end of a phase besides the orders' results: the engine's own schema. */
export const PhaseEventSchema = EnginePhaseEventSchema.meta({ id: 'PhaseEvent' });

/** A power's line in the supply table: the engine's powerSummary. */
export const SupplyRowSchema = PowerSummarySchema.meta({ id: 'SupplyRow' });

/** A loan made or ended during a phase (Diadochi V), applied by the engine before adjudication. */
export const LoanActionSchema = z
  .object({
    action: z.enum(['lend', 'end']),
    centre: z.string(),
    from: z.string(),
    to: z.string(),
    /** The power that acted (the lender, or for `end` either side). */
    by: z.string(),
    at: TimestampSchema,
  })
  .meta({ id: 'LoanAction' });
export type LoanAction = z.infer<typeof LoanActionSchema>;

/** Public facts about one power in a phase; never what it ordered before the phase is processed. */
export const PowerPhaseStatusSchema = z
  .object({
    power: z.string(),
    /** Null for a seat nobody holds (an imported game's player without an account here). */
    playerStatus: PlayerStatusSchema.nullable(),
    /** The engine says this power has orders to give in this phase (powersToOrder). */
    mustOrder: z.boolean(),
    submitted: z.boolean(),
    ready: z.boolean(),
    missedDeadlines: z.number().int(),
  })
  .meta({ id: 'PowerPhaseStatus' });

/** One order as adjudicated: the engine's SubmittedOrder (structured), and its canonical text. */
export const AdjudicatedOrderSchema = z.object({ power: z.string(), order: OrderSchema, text: z.string() }).meta({ id: 'AdjudicatedOrder' });

/** held: a campaign movement phase whose orders are final, its results waiting for its contested seas' battles. */
export const PhaseStatusSchema = z.enum(['open', 'held', 'processed']);

export const PhaseSummarySchema = PhaseRefSchema.extend({
  status: PhaseStatusSchema,
  processedAt: TimestampSchema.nullable(),
  /** ENGINE_VERSION of the rules engine that adjudicated it (null while open, or when imported from an export that did not say). */
  engineVersion: z.number().int().nullable(),
}).meta({ id: 'PhaseSummary' });
export type PhaseSummary = z.infer<typeof PhaseSummarySchema>;

export const PhaseListSchema = z.object({ phases: z.array(PhaseSummarySchema) }).meta({ id: 'PhaseList' });

/**
 * A phase. `state` is the position the phase is (or was) adjudicated from:
 * `stateBefore` with the phase's loan actions applied. Orders, results and
 * the state after exist only once the phase is processed.
 */
export const PhaseDetailSchema = PhaseSummarySchema.extend({
  /** True while the game master has paused the clock (open phase only). */
  paused: z.boolean(),
  stateBefore: GameStateSchema,
  loanActions: z.array(LoanActionSchema),
  state: GameStateSchema,
  supply: z.array(SupplyRowSchema).describe('The supply table for `state`'),
  powers: z.array(PowerPhaseStatusSchema),
  orders: z.array(AdjudicatedOrderSchema).nullable(),
  results: z.array(OrderResultSchema).nullable(),
  events: z.array(PhaseEventSchema).nullable(),
  disbanded: z.array(UnitSchema).nullable().describe('Dislodged units disbanded at once, having nowhere to retreat'),
  stateAfter: GameStateSchema.nullable(),
  /** A campaign game's contested seas of this phase (shared/api/campaign.ts): fought, decided or waived before the results are out. */
  seas: z.array(SeaBattleSchema),
}).meta({ id: 'PhaseDetail' });
export type PhaseDetail = z.infer<typeof PhaseDetailSchema>;

/** No game has more phases than this (a phase number past it is refused, not looked up: the column is 32-bit). */
export const MAX_PHASE_INDEX = 100_000;

export const PhaseIndexSchema = z
  .number({ error: 'must be a phase number' })
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(MAX_PHASE_INDEX, `must be at most ${MAX_PHASE_INDEX}`);

export const PhaseParamsSchema = z.object({
  gameId: IdSchema,
  index: z.coerce.number({ error: 'must be a phase number' }).pipe(PhaseIndexSchema),
});

// ───────────────────────────── orders ─────────────────────────────

export const OrdersInputSchema = z
  .union([
    z.string().max(20_000, 'must be at most 20000 characters').describe('One order per line, e.g. "A Gad - Had"; blank lines are ignored'),
    z.array(OrderSchema).max(200, 'must be at most 200 orders').describe("Structured orders (the engine's Order JSON)"),
  ])
  .meta({ id: 'OrdersInput' });

export const SubmitOrdersRequestSchema = z
  .object({
    orders: OrdersInputSchema,
    ready: z.boolean().default(false).describe('Done for this phase: it ends early when every power that must order is ready'),
  })
  .meta({ id: 'SubmitOrdersRequest' });
export type SubmitOrdersRequest = z.input<typeof SubmitOrdersRequestSchema>;

export const AcceptedOrderSchema = z
  .object({
    input: z.string().describe('As given'),
    text: z.string().describe('In canonical notation'),
    order: OrderSchema,
    unit: z.string().optional().describe('Location of the unit ordered (or built)'),
  })
  .meta({ id: 'AcceptedOrder' });

/** The engine's verdict on one submitted order (checkOrders). */
export const CheckedOrderSchema = z
  .discriminatedUnion('accepted', [
    AcceptedOrderSchema.extend({ accepted: z.literal(true) }),
    z.object({ accepted: z.literal(false), input: z.string(), reason: z.string() }),
  ])
  .meta({ id: 'CheckedOrder' });
export type CheckedOrder = z.infer<typeof CheckedOrderSchema>;

export const OrderSubmissionSchema = z
  .object({
    id: IdSchema,
    phaseIndex: z.number().int(),
    power: z.string(),
    text: z.string(),
    orders: z.array(AcceptedOrderSchema),
    ready: z.boolean(),
    byGameMaster: z.boolean(),
    submittedAt: TimestampSchema,
  })
  .meta({ id: 'OrderSubmission' });
export type OrderSubmission = z.infer<typeof OrderSubmissionSchema>;

/** Your power's orders for the open phase: the one that counts, and every earlier submission. */
export const MyOrdersSchema = z
  .object({
    phase: PhaseRefSchema,
    power: z.string(),
    mustOrder: z.boolean(),
    current: OrderSubmissionSchema.nullable(),
    history: z.array(OrderSubmissionSchema).describe('Newest first, the current one included'),
  })
  .meta({ id: 'MyOrders' });

export const SubmitOrdersResponseSchema = z
  .object({
    submission: OrderSubmissionSchema,
    checked: z.array(CheckedOrderSchema),
    /** The phase was processed at once because every power that must order is now ready. */
    phaseProcessed: z.boolean(),
  })
  .meta({ id: 'SubmitOrdersResponse' });

/** 422 `orders_rejected`: nothing was stored; `orders` has the verdict on each order (in the order given). */
export const OrdersRejectedSchema = ApiErrorSchema.extend({ orders: z.array(CheckedOrderSchema).optional() }).meta({ id: 'OrdersRejected' });

export const SetReadyRequestSchema = z.object({ ready: z.boolean() }).meta({ id: 'SetReadyRequest' });
export const ReadyResponseSchema = z.object({ power: z.string(), ready: z.boolean(), phaseProcessed: z.boolean() }).meta({ id: 'ReadyResponse' });
