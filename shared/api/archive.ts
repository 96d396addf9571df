/**
 * The archive: a whole game as one JSON document (export and import), and a
 * game's phases as DATC text cases. An export made by a player of a game that
 * is still going on leaves out what that player may not see yet (the open
 * phase's orders, other powers' private press); `complete` says so.
 */
import { z } from 'zod';
import { TimestampSchema } from './common.ts';
import { DeadlinesSchema, GameOutcomeSchema, GameStatusSchema, PhaseKindSchema, PlayerStatusSchema, PowerAssignmentSchema, PressKindSchema, VariantIdSchema, RulebookSchema } from './games.ts';
import {
  AcceptedOrderSchema,
  AdjudicatedOrderSchema,
  GameStateSchema,
  LoanActionSchema,
  OrderResultSchema,
  PhaseEventSchema,
  MAX_PHASE_INDEX,
  PhaseStatusSchema,
} from './play.ts';
import { UnitSchema } from '../index.ts';

export const EXPORT_FORMAT = 'diadochi-online/game';
export const EXPORT_VERSION = 1;

const UsernameRef = z.string().max(64).nullable().describe('Username on the exporting server; null when hidden or unknown');

/*
 * Every field that is stored in a column of its own is bounded as that column is
 * (power names 24 characters, centres 16, 32-bit integers …): an import that
 * does not fit is a 400 naming the field, not a database error.
 */
const PowerName = z.string().max(24);
const PhaseNumber = z.number().int().min(0).max(MAX_PHASE_INDEX);

export const ExportedSubmissionSchema = z.object({
  power: PowerName,
  text: z.string(),
  orders: z.array(AcceptedOrderSchema),
  ready: z.boolean(),
  byGameMaster: z.boolean(),
  submittedAt: TimestampSchema,
});

const PhaseRecordFields = {
  index: PhaseNumber,
  name: z.string().max(64),
  kind: PhaseKindSchema,
  deadlineAt: TimestampSchema.nullable(),
  processedAt: TimestampSchema.nullable(),
  stateBefore: GameStateSchema,
  loanActions: z.array(LoanActionSchema),
  orders: z.array(AdjudicatedOrderSchema).nullable(),
  results: z.array(OrderResultSchema).nullable(),
  events: z.array(PhaseEventSchema).nullable(),
  disbanded: z.array(UnitSchema).nullable(),
  stateAfter: GameStateSchema.nullable(),
  /** Every submission made in the phase (processed phases only). */
  submissions: z.array(ExportedSubmissionSchema),
  /**
   * ENGINE_VERSION (shared/version.ts) of the engine that adjudicated the phase;
   * null while open or unknown; absent in exports made before versions were recorded.
   */
  engineVersion: z.number().int().min(1).nullable().optional(),
};

export const ExportedPhaseSchema = z.object({ ...PhaseRecordFields, status: PhaseStatusSchema }).meta({ id: 'ExportedPhase' });
export type ExportedPhase = z.infer<typeof ExportedPhaseSchema>;

export const ExportedGameSchema = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exportedAt: TimestampSchema,
    /** ENGINE_VERSION of the exporting server (absent in exports made before versions were recorded). */
    engineVersion: z.number().int().min(1).optional(),
    /** False when the exporter could not see everything (a player's export of a game still going on). */
    complete: z.boolean(),
    game: z.object({
      name: z.string().min(1).max(80),
      variant: VariantIdSchema,
      status: GameStatusSchema.extract(['active', 'finished']),
      press: PressKindSchema,
      anonymous: z.boolean(),
      deadlines: DeadlinesSchema,
      maxMissedDeadlines: z.number().int().min(1).max(10),
      powerAssignment: PowerAssignmentSchema,
      /** The rule set the game was played under (exports made before it was recorded: datc, the only one then). */
      rules: RulebookSchema.default('datc'),
      createdAt: TimestampSchema,
      startedAt: TimestampSchema.nullable(),
      finishedAt: TimestampSchema.nullable(),
      pausedAt: TimestampSchema.nullable(),
      outcome: GameOutcomeSchema.nullable(),
    }),
    gameMaster: UsernameRef,
    players: z.array(
      z.object({ power: PowerName, username: UsernameRef, status: PlayerStatusSchema, missedDeadlines: z.number().int().min(0).max(1000) }),
    ),
    /** In order; the last one is open in a game still going on. */
    phases: z.array(ExportedPhaseSchema).min(1, 'must have at least one phase').max(5000),
    press: z.array(
      z.object({
        phaseIndex: PhaseNumber.nullable(),
        fromPower: PowerName.nullable(),
        gameMaster: z.boolean(),
        sender: UsernameRef,
        to: z.union([z.literal('all'), z.array(PowerName).max(24)]),
        body: z.string().max(4000),
        sentAt: TimestampSchema,
      }),
    ),
    loans: z.array(
      z.object({
        centre: z.string().max(16),
        lender: PowerName,
        borrower: PowerName,
        status: z.enum(['active', 'returned', 'cancelled']),
        startedInPhase: PhaseNumber,
        endedInPhase: PhaseNumber.nullable(),
        endReason: z.string().max(80).nullable(),
        createdAt: TimestampSchema,
      }),
    ),
    votes: z.array(z.object({ power: PowerName, kind: z.enum(['draw', 'concede']), powers: z.array(PowerName).max(24), phaseIndex: PhaseNumber })),
    gmLog: z.array(z.object({ action: z.string().max(40), actor: UsernameRef, details: z.record(z.string(), z.unknown()), at: TimestampSchema })),
    /** Phases a game master's roll-back discarded; `rollback` is the index of that action in gmLog. */
    discardedPhases: z.array(
      z.object({ ...PhaseRecordFields, rollback: z.number().int().min(0).max(1_000_000), discardedAt: TimestampSchema }),
    ),
  })
  .meta({ id: 'ExportedGame' });
export type ExportedGame = z.infer<typeof ExportedGameSchema>;

export const ImportGameRequestSchema = z
  .object({
    export: ExportedGameSchema,
    private: z.boolean().default(false).describe('Unlisted while it is going on (finished games are public)'),
  })
  .meta({ id: 'ImportGameRequest' });

/** Imports can be large: a long game is megabytes of positions. */
export const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;
