/**
 * The archive: a whole game as one JSON document (export and import), and a
 * game's phases as DATC text cases. An export made by a player of a game that
 * is still going on leaves out what that player may not see yet (the open
 * phase's orders, other powers' private press, names in an anonymous game, and so
 * until an ended game's result is final); `complete` says whether anything was left out.
 *
 * Everything an import may hold is bounded (IMPORT_LIMITS, archive-limits.ts):
 * every string, every list, the free-form `details` of log entries, so that a
 * 400 names the field too large, and no row it stores is larger than a page
 * of an export can hold. The export is written with the same schemas without
 * those bounds (`ExportEncoding`): a game played here is exported whole even
 * where it has more (say, submissions in a phase) than an import accepts.
 */
import { z } from 'zod';
import { IMPORT_LIMITS } from './archive-limits.ts';
import { TimestampSchema } from './common.ts';
import { CampaignSchema } from './campaign.ts';
import {
  DeadlinesSchema,
  GameOutcomeSchema,
  GameStatusSchema,
  PhaseKindSchema,
  PlayerStatusSchema,
  PowerAssignmentSchema,
  PressKindSchema,
  VariantIdSchema,
  RulebookSchema,
} from './games.ts';
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
import { BattleRecordSchema } from '../naval/record.ts';

export { EXPORT_LIMITS, IMPORT_BODY_LIMIT, IMPORT_LIMITS } from './archive-limits.ts';

export const EXPORT_FORMAT = 'diadochi-online/game';
export const EXPORT_VERSION = 1;

const UsernameRef = z.string().max(64).nullable().describe('Username on the exporting server; null when hidden or unknown');

/*
 * Every field that is stored in a column of its own is bounded as that column is
 * (power names 24 characters, centres 16, 32-bit integers …): an import that
 * does not fit is a 400 naming the field, not a database error.
 */
const PowerName = z.string().max(24);
/** A phase has no more decided seas than a map has seas. */
const DECIDED_PER_PHASE = 100;
const PhaseNumber = z.number().int().min(0).max(MAX_PHASE_INDEX);

export type JsonBounds = {
  /** Characters of one string (or key). */
  stringChars?: number;
  /** Entries of one array, keys of one object. */
  entries?: number;
  /** Levels of arrays and objects below the value. */
  depth?: number;
  /** Values and keys in all. */
  items?: number;
  /** Characters of the value written as JSON (about: escapes not counted). */
  chars?: number;
};

/**
 * The first place where a JSON value goes past `bounds`, as a path below it and
 * what is wrong; null when it fits. Iterative, and it stops at the first
 * problem: it walks values of any size and depth at no more than their cost.
 */
export function jsonOverBounds(value: unknown, bounds: JsonBounds): { path: (string | number)[]; message: string } | null {
  let items = 0;
  let chars = 0;
  const stack: { value: unknown; path: (string | number)[]; depth: number }[] = [{ value, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { value: v, path, depth } = stack.pop()!;
    items += 1;
    if (bounds.items !== undefined && items > bounds.items) return { path: [], message: `must hold at most ${bounds.items} values` };
    if (typeof v === 'string') {
      if (bounds.stringChars !== undefined && v.length > bounds.stringChars) return { path, message: `must be at most ${bounds.stringChars} characters` };
      chars += v.length + 2;
    } else if (v !== null && typeof v === 'object') {
      if (bounds.depth !== undefined && depth >= bounds.depth) return { path, message: `must be nested at most ${bounds.depth} levels deep` };
      const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
      if (bounds.entries !== undefined && entries.length > bounds.entries) return { path, message: `must have at most ${bounds.entries} entries` };
      chars += 2 + entries.length;
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        if (typeof key === 'string') {
          if (bounds.stringChars !== undefined && key.length > bounds.stringChars)
            return { path: [...path, key], message: `keys must be at most ${bounds.stringChars} characters` };
          chars += key.length + 3;
          items += 1;
        }
        stack.push({ value: item, path: [...path, key], depth: depth + 1 });
      }
    } else {
      chars += String(v).length;
    }
    if (bounds.chars !== undefined && chars > bounds.chars) return { path: [], message: `must be at most ${bounds.chars} characters as JSON` };
  }
  return null;
}

/** `schema`, refused with an issue at the offending path when its value (or those of `fields` together) goes past `bounds`. */
function withinBounds<T extends z.ZodType>(schema: T, bounds: JsonBounds, fields?: readonly string[]): T {
  return schema.check((ctx) => {
    const value = ctx.value as Record<string, unknown>;
    const problem = jsonOverBounds(fields ? Object.fromEntries(fields.map((field) => [field, value[field]])) : value, bounds);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, path: problem.path, message: problem.message });
  }) as T;
}

const L = IMPORT_LIMITS;
const entries = (n: number) => `must have at most ${n} entries`;
const characters = (n: number) => `must be at most ${n} characters`;

/**
 * The archive's schemas, with the import's bounds or (`bounded` false, for writing exports)
 * without them; the same fields in the same order either way.
 */
function archiveSchemas(bounded: boolean) {
  const list = <T extends z.ZodType>(item: T, max: number) => (bounded ? z.array(item).max(max, entries(max)) : z.array(item));
  const text = (max: number) => (bounded ? z.string().max(max, characters(max)) : z.string());
  const named = <T extends z.ZodType>(schema: T, id: string) => (bounded ? schema.meta({ id }) : schema);
  const bound = <T extends z.ZodType>(schema: T, bounds: JsonBounds, fields?: readonly string[]) => (bounded ? withinBounds(schema, bounds, fields) : schema);

  const submission = named(
    z.object({
      power: PowerName,
      /** As PUT …/orders accepts it. */
      text: text(L.submissionTextChars),
      orders: bound(list(AcceptedOrderSchema, L.ordersPerSubmission), { stringChars: L.orderTextChars }),
      ready: z.boolean(),
      byGameMaster: z.boolean(),
      submittedAt: TimestampSchema,
    }),
    'ExportedSubmission',
  );

  /** The fleets (their locations) the sea's battle sank to the last ship: they leave the board after the phase. */
  const destroyed = list(z.string().min(1).max(20), 64);
  /** The game master's two sides, where three or more powers met (absent: each power a side). */
  const seaSides = list(list(PowerName, 24), 2).optional();
  /**
   * The battle that decided a sea, as its record is exported (shared/naval/record.ts, seed revealed: it is over),
   * bounded in actions and as a whole.
   */
  const battle = bounded
    ? withinBounds(BattleRecordSchema.extend({ actions: BattleRecordSchema.shape.actions.max(L.battleActions, entries(L.battleActions)) }), {
        chars: L.battleChars,
        items: L.battleItems,
      })
    : BattleRecordSchema;
  const decidedSea = z.object({
    /** The sea's province id. */
    province: z.string().max(40),
    outcome: z.union([
      z.object({ winner: PowerName, unit: z.string().max(40).optional(), destroyed: destroyed.optional() }).strict(),
      z.object({ standoff: z.literal(true), destroyed: destroyed.optional() }).strict(),
    ]),
    /** Who decided it: its battle, the game master or the computer (absent: not said). */
    by: z.enum(['battle', 'game-master', 'computer']).optional(),
    sides: seaSides,
    /** The battle fought for it (by the players, or by the computer), which the import replays; absent when none was. */
    battle: battle.optional(),
  });
  /** A held phase's sea still to be fought or decided when the export was made (or being fought: its battle is not exported). */
  const awaitingSea = z.object({ province: z.string().max(40), sides: seaSides });

  const phaseRecordFields = {
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
    submissions: bound(list(submission, L.submissionsPerPhase), { chars: L.submissionCharsPerPhase, items: L.submissionItemsPerPhase }),
    /**
     * ENGINE_VERSION (shared/version.ts) of the engine that adjudicated the phase;
     * null while open or unknown; absent in exports made before versions were recorded.
     */
    engineVersion: z.number().int().min(1).nullable().optional(),
    /**
     * A campaign game's movement phase: the seas decided by battles (or by the game master, or the computer), as the
     * engine adjudicated the phase with them (its decided provinces); absent when none was, and in older exports.
     */
    decided: list(decidedSea, DECIDED_PER_PHASE).optional(),
    /** A phase held for its sea battles (status `held`): when it was held, its seas waived and those still awaited. */
    heldAt: TimestampSchema.optional(),
    waived: list(z.object({ province: z.string().max(40) }), DECIDED_PER_PHASE).optional(),
    awaiting: list(awaitingSea, DECIDED_PER_PHASE).optional(),
  };
  // What the engine made of the phase (positions, orders, results …): the engine's own schemas, bounded as a whole.
  const engineFields = ['stateBefore', 'loanActions', 'orders', 'results', 'events', 'disbanded', 'stateAfter'] as const;
  const phaseBounds: JsonBounds = { stringChars: L.reasonChars, entries: L.entriesPerPhase, chars: L.phaseChars, items: L.phaseItems };

  const phase = named(bound(z.object({ ...phaseRecordFields, status: PhaseStatusSchema }), phaseBounds, engineFields), 'ExportedPhase');
  const discardedPhase = bound(
    z.object({ ...phaseRecordFields, rollback: z.number().int().min(0).max(1_000_000), discardedAt: TimestampSchema }),
    phaseBounds,
    engineFields,
  );

  const press = z.object({
    phaseIndex: PhaseNumber.nullable(),
    fromPower: PowerName.nullable(),
    gameMaster: z.boolean(),
    sender: UsernameRef,
    to: z.union([z.literal('all'), z.array(PowerName).max(L.pressRecipients)]),
    body: z.string().max(L.pressBodyChars),
    sentAt: TimestampSchema,
  });
  const loan = z.object({
    centre: z.string().max(16),
    lender: PowerName,
    borrower: PowerName,
    status: z.enum(['active', 'returned', 'cancelled']),
    startedInPhase: PhaseNumber,
    endedInPhase: PhaseNumber.nullable(),
    endReason: z.string().max(80).nullable(),
    createdAt: TimestampSchema,
  });
  const vote = z.object({ power: PowerName, kind: z.enum(['draw', 'concede']), powers: z.array(PowerName).max(24), phaseIndex: PhaseNumber });
  const gmAction = z.object({
    action: z.string().max(40),
    actor: UsernameRef,
    details: bound(z.record(text(64), z.unknown()), { depth: L.detailsDepth, items: L.detailsItems, chars: L.detailsChars }),
    at: TimestampSchema,
  });

  const game = z.object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exportedAt: TimestampSchema,
    /** ENGINE_VERSION of the exporting server (absent in exports made before versions were recorded). */
    engineVersion: z.number().int().min(1).optional(),
    /** True when nothing was left out: the game's result was final (an ended game keeps its secrets until then). */
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
      outcome: bound(GameOutcomeSchema, { stringChars: 24, entries: 24 }).nullable(),
      /** A campaign game's sea battles: ruleset, fleet lists and hours (absent for an ordinary game, and in older exports). */
      campaign: CampaignSchema.optional(),
    }),
    gameMaster: UsernameRef,
    players: list(z.object({ power: PowerName, username: UsernameRef, status: PlayerStatusSchema, missedDeadlines: z.number().int().min(0).max(1000) }), 24),
    /** In order; the last one is open in a game still going on. */
    phases: z.array(phase).min(1, 'must have at least one phase').max(L.phases, entries(L.phases)),
    press: list(press, L.press),
    loans: list(loan, L.loans),
    votes: list(vote, L.votes),
    gmLog: list(gmAction, L.gmLog),
    /** Phases a game master's roll-back discarded; `rollback` is the index of that action in gmLog. */
    discardedPhases: list(discardedPhase, L.discardedPhases),
  });
  // The battles of all its seas together.
  const withBattles = bounded
    ? game.check((ctx) => {
        const count = ctx.value.phases.reduce((n, phase) => n + (phase.decided ?? []).filter((sea) => sea.battle).length, 0);
        if (count > L.battles) ctx.issues.push({ code: 'custom', input: ctx.value, path: ['phases'], message: `must hold at most ${L.battles} battles` });
      })
    : game;
  return { submission, phase, discardedPhase, press, loan, vote, gmAction, game: named(withBattles, 'ExportedGame') };
}

const bounded = archiveSchemas(true);

export const ExportedSubmissionSchema = bounded.submission;
export const ExportedPhaseSchema = bounded.phase;
export type ExportedPhase = z.infer<typeof ExportedPhaseSchema>;
export const ExportedGameSchema = bounded.game;
export type ExportedGame = z.infer<typeof ExportedGameSchema>;

/** The same document without the import's bounds: what the server writes an export with, piece by piece. */
export const ExportEncoding = archiveSchemas(false);

export const ImportGameRequestSchema = z
  .object({
    export: ExportedGameSchema,
    private: z.boolean().default(false).describe('Unlisted while it is going on (finished games are public)'),
  })
  .meta({ id: 'ImportGameRequest' });
