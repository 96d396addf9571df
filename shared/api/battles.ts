/**
 * Naval battles over the API: creating one (a ruleset, a shipped scenario or a set-up of one's own, who plays each
 * side, an umpire, the clock), joining and leaving its seats, seeing it as one's seat may (the state with the other
 * side's secret plots removed, the board, whose turn, one's legal actions, the log), acting, and the archive (the
 * record of a battle, its verification, importing one).
 *
 * Set-ups, states and actions are each ruleset's own (shared/naval/<ruleset>/): here they are JSON values, checked by
 * the ruleset's schemas on the server, so one API serves every ruleset. The dice: shared/naval/dice.ts (the seed's
 * commitment is public from the start, the seed itself once the battle is over).
 */
import { z } from 'zod';
import { FacingSchema, HexSchema } from '../naval/hex.ts';
import { BattleRecordSchema, LogLineSchema, MAX_ACTIONS } from '../naval/record.ts';
import type { RulesetId } from '../naval/ruleset.ts';
import { SeaSchema } from '../naval/sea.ts';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';
import { ApiErrorSchema } from './errors.ts';

/**
 * The rulesets the API offers: the hex ones (Classis, ship-to-ship) and the measured-table ones (the Diadochi Naval
 * Rules, Oi Navarcoi!), whose state carries the table's positions and whose `board` is the hex picture fitted to it.
 */
export const BATTLE_RULESET_IDS = ['classis', 'ship-to-ship', 'diadochi-naval', 'oi-navarcoi'] as const satisfies readonly RulesetId[];
export const BattleRulesetIdSchema = z.enum(BATTLE_RULESET_IDS, { error: `must be one of: ${BATTLE_RULESET_IDS.join(', ')}` });
export type BattleRulesetId = z.infer<typeof BattleRulesetIdSchema>;

export const BattleStatusSchema = z
  .enum(['forming', 'active', 'finished', 'cancelled'])
  .describe('forming: waiting for players; active: being fought; finished: over (or imported); cancelled: abandoned before it started');
export type BattleStatus = z.infer<typeof BattleStatusSchema>;

/** Ids of sides and ships in set-ups: short, no spaces. */
const SideIdSchema = z.string().min(1).max(40);
/** What a player may add to the dice's public salt when taking a seat (any text: it is mixed in as it is). */
const EntropySchema = z
  .string()
  .max(64, 'must be at most 64 characters')
  .describe('Your own contribution to the dice: any text, mixed into the public salt when the battle starts');

export const UMPIRE_SEAT = 'umpire';

/** How long a side has for each decision: minutes in a live battle, hours by correspondence. */
export const BattleClockSchema = z
  .discriminatedUnion('pace', [
    z.object({ pace: z.literal('live'), minutesPerTurn: z.number().int().min(1, 'must be at least 1').max(120, 'must be at most 120').default(10) }),
    z.object({
      pace: z.literal('correspondence'),
      hoursPerTurn: z
        .number()
        .int()
        .min(1, 'must be at least 1')
        .max(14 * 24, 'must be at most 336 (14 days)')
        .default(48),
    }),
  ])
  .describe(
    'The time a side has to act once it must (Classis: each activation; ship-to-ship: each plotting turn; the table rulesets: each phase a side owes, orders or signals written together, a move, a fight). When it passes, the computer acts for the side, and the log says so.',
  )
  .meta({ id: 'BattleClock' });

// ───────────────────────────── requests ─────────────────────────────

export const BattleSeatRequestSchema = z
  .object({ side: SideIdSchema, player: z.enum(['human', 'computer']).describe('human: open for a player to take; computer: the computer plays it') })
  .meta({ id: 'BattleSeatRequest' });

export const CreateBattleRequestSchema = z
  .object({
    title: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
    ruleset: BattleRulesetIdSchema,
    scenario: z.string().min(1).max(60).optional().describe('A shipped scenario of the ruleset (GET /api/battle-rulesets); or send `setup`'),
    setup: z.unknown().optional().describe("A set-up of your own, as the ruleset's set-up schema takes it (a scenario file's contents); or send `scenario`"),
    seats: z.array(BattleSeatRequestSchema).max(8).default([]).describe('Who plays each side: sides not listed are open for a human'),
    umpire: z.boolean().default(false).describe('An umpire seat: sees everything as it happens (plots included), acts for no side'),
    join: z.string().min(1).max(40).optional().describe('The seat you take yourself: a side id, or "umpire"'),
    entropy: EntropySchema.optional(),
    private: z.boolean().default(false).describe('Unlisted; joining needs the invite code'),
    clock: BattleClockSchema.default({ pace: 'correspondence', hoursPerTurn: 48 }),
  })
  .refine((body) => (body.scenario === undefined) !== (body.setup === undefined), {
    message: 'send either a scenario id or a set-up, not both',
    path: ['scenario'],
  })
  .meta({ id: 'CreateBattleRequest' });
export type CreateBattleRequest = z.input<typeof CreateBattleRequestSchema>;

export const JoinBattleRequestSchema = z
  .object({
    seat: z.string().min(1).max(40).describe('A side id, or "umpire"'),
    inviteCode: z.string().max(64).optional().describe('Required for private battles'),
    entropy: EntropySchema.optional(),
  })
  .meta({ id: 'JoinBattleRequest' });
export type JoinBattleRequest = z.input<typeof JoinBattleRequestSchema>;

export const BattleActionRequestSchema = z
  .object({
    action: z.unknown().describe("One of the ruleset's actions (legalActions lists what is possible; a plot combines ships' choices)"),
    expected: z
      .number()
      .int()
      .min(0)
      .max(MAX_ACTIONS)
      .describe('The number of actions taken so far as you saw it (actionCount): 409 when the battle has moved on since'),
  })
  .meta({ id: 'BattleActionRequest' });
export type BattleActionRequest = z.input<typeof BattleActionRequestSchema>;

/** The largest record an import takes, and its JSON values (a long Classis battle has a few thousand actions). */
export const BATTLE_IMPORT_LIMITS = { bodyBytes: 4 * 1024 * 1024, jsonItems: 300_000, jsonKeys: 2_000 } as const;

export const ImportBattleRequestSchema = z
  .object({
    record: z.unknown().describe('A battle record (GET …/export of a finished battle): checked die by die and replayed before it is stored'),
    title: z.string().trim().min(1).max(120).optional().describe("The archive's title (default: the set-up's)"),
  })
  .meta({ id: 'ImportBattleRequest' });
export type ImportBattleRequest = z.input<typeof ImportBattleRequestSchema>;

export const BATTLE_LIST_FILTERS = ['open', 'active', 'finished', 'mine'] as const;
export const BATTLES_PER_PAGE = 20;
export const MOST_BATTLES_PER_LIST = 100;
export const ListBattlesQuerySchema = z.object({
  filter: z
    .enum(BATTLE_LIST_FILTERS, { error: `must be one of: ${BATTLE_LIST_FILTERS.join(', ')}` })
    .default('open')
    .describe('open: public battles waiting for players; active: public battles being fought; finished: the archive; mine: battles you sit in or created'),
  ruleset: BattleRulesetIdSchema.optional(),
  limit: z.coerce.number().int().min(1, 'must be at least 1').max(MOST_BATTLES_PER_LIST, `must be at most ${MOST_BATTLES_PER_LIST}`).default(BATTLES_PER_PAGE),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page'),
});
export type ListBattlesQuery = z.input<typeof ListBattlesQuerySchema>;

export const BattleIdParamsSchema = z.object({ battleId: IdSchema });
export const ViewBattleQuerySchema = z.object({
  inviteCode: z.string().max(64).optional().describe('Lets a non-member view a private battle'),
});
/** GET /api/battles/{id} alone: the page's own choice of what it carries. */
export const BattlePageQuerySchema = ViewBattleQuerySchema.extend({
  legalActions: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .describe(
      "true: the page lists your legal actions too (`legalActions`), for a client without the engine. The web client computes them itself from `state` with the ruleset's engine (shared/naval), which is why the page leaves them out by default: in a fleet battle of the ship-to-ship rules they are hundreds of kilobytes.",
    ),
});
export const BattleLogQuerySchema = z.object({
  after: z.coerce.number().int().min(0).max(MAX_ACTIONS).default(0).describe('Entries after this action number (0: from the start, which is entry 0)'),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

// ───────────────────────────── answers ─────────────────────────────

export const BattleScenarioSchema = z
  .object({ id: z.string(), title: z.string(), source: z.string().describe('Where it comes from: the document, and what was made of it') })
  .meta({ id: 'BattleScenario' });

export const BattleRulesetListSchema = z
  .object({
    rulesets: z.array(
      z.object({
        id: BattleRulesetIdSchema,
        title: z.string(),
        scenarios: z.array(BattleScenarioSchema),
      }),
    ),
  })
  .meta({ id: 'BattleRulesetList' });
export type BattleRulesetList = z.infer<typeof BattleRulesetListSchema>;

export const BattleSideSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** A campaign game's battle: the power the side stands for (a side of allies: its first power). */
    power: z.string().optional(),
    /** That power's colour on the game's map ("#CC3311"), which the battle's pages draw the side in. */
    colour: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional(),
  })
  .meta({ id: 'BattleSide' });
export type BattleSide = z.infer<typeof BattleSideSchema>;

export const BattleSeatSchema = z
  .object({
    id: IdSchema,
    /** The side played, or null for the umpire's seat. */
    side: z.string().nullable(),
    role: z.enum(['side', 'umpire']),
    player: z.enum(['human', 'computer']),
    /** Who sits there; null while open (and for the computer), or when hidden. */
    user: UserRefSchema.nullable(),
    /** A player sits there whose name this viewer may not see (an anonymous campaign game's battle): taken, not open. */
    hidden: z.literal(true).optional(),
    isYou: z.boolean(),
  })
  .meta({ id: 'BattleSeat' });
export type BattleSeat = z.infer<typeof BattleSeatSchema>;

export const BattleOutcomeSchema = z
  .object({ winner: z.string().nullable().describe('The winning side, or null when nobody won'), reason: z.string() })
  .meta({ id: 'BattleOutcome' });

export const BattleSummarySchema = z
  .object({
    id: IdSchema,
    title: z.string(),
    ruleset: BattleRulesetIdSchema,
    /** The shipped scenario it was made from; null for a set-up of one's own (or an import). */
    scenario: z.string().nullable(),
    status: BattleStatusSchema,
    private: z.boolean(),
    clock: BattleClockSchema,
    sides: z.array(BattleSideSchema),
    seats: z.array(BattleSeatSchema),
    createdBy: UserRefSchema.nullable(),
    /** You hold a seat in it. */
    joined: z.boolean(),
    actionCount: z.number().int(),
    outcome: BattleOutcomeSchema.nullable(),
    imported: z.boolean(),
    createdAt: TimestampSchema,
    startedAt: TimestampSchema.nullable(),
    finishedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'BattleSummary' });
export type BattleSummary = z.infer<typeof BattleSummarySchema>;

export const BattleListSchema = z.object({ battles: z.array(BattleSummarySchema), nextCursor: z.string().nullable() }).meta({ id: 'BattleList' });
export type BattleList = z.infer<typeof BattleListSchema>;

/** Who must act now (shared/naval/ruleset.ts `Turn`). */
export const BattleTurnSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('side'), side: z.string(), prompt: z.string() }),
    z.object({ kind: z.literal('simultaneous'), sides: z.array(z.string()), waiting: z.array(z.string()), prompt: z.string() }),
    z.object({ kind: z.literal('over') }),
  ])
  .meta({ id: 'BattleTurn' });
export type BattleTurn = z.infer<typeof BattleTurnSchema>;

/** The board as drawn (shared/naval/ruleset.ts `BoardView`). */
export const BattleBoardSchema = z
  .object({
    sea: SeaSchema,
    counters: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        side: z.string(),
        type: z.string(),
        hex: HexSchema,
        facing: FacingSchema,
        marks: z.array(z.string()),
        squadron: z.string().optional(),
        flagship: z.boolean().optional(),
        sunk: z.boolean().optional(),
      }),
    ),
    wrecks: z.array(HexSchema),
    wind: FacingSchema.optional(),
  })
  .meta({ id: 'BattleBoard' });
export type BattleBoard = z.infer<typeof BattleBoardSchema>;

export const BattleLegalActionSchema = z
  .object({ side: z.string(), action: z.unknown(), text: z.string().describe('The action in words') })
  .meta({ id: 'BattleLegalAction' });

export const BattleDetailSchema = BattleSummarySchema.extend({
  /** Shown to those who sit in a private battle (and its creator), to pass on; null otherwise. */
  inviteCode: z.string().nullable(),
  /** Your seats: the side you play (null if none), and whether you are the umpire. */
  you: z.object({ side: z.string().nullable(), umpire: z.boolean() }),
  /** The set-up it was fought from (public). */
  setup: z.unknown(),
  /** SHA-256 of the secret seed, published when the battle was created. */
  commitment: z.string(),
  /** The public salt of the dice: fixed when the battle starts (null before). */
  salt: z.string().nullable(),
  /** The seed, revealed once the battle is over: anyone can then check every die. */
  seed: z.string().nullable(),
  /** The number the next die will have. */
  nextRoll: z.number().int(),
  /** When the side (or sides) to act must have acted; null when no clock runs. */
  deadlineAt: TimestampSchema.nullable(),
  /** Null before the battle starts. */
  turn: BattleTurnSchema.nullable(),
  /** The state as your seat may see it (the other side's plots not yet resolved left out); null before the start. */
  state: z.unknown(),
  board: BattleBoardSchema.nullable(),
  /**
   * You must act now: your side is to act (or, plotting, has not yet). Your legal actions are then the ruleset's for
   * `state` and your side (`legalActions(state, side)`; the state as you see it holds everything they depend on), and
   * the server checks every action against the whole state.
   */
  yourTurn: z.boolean(),
  /** What you may do now (empty when it is not your turn): only when asked for (GET with `legalActions=true`). */
  legalActions: z.array(BattleLegalActionSchema).optional(),
}).meta({ id: 'BattleDetail' });
export type BattleDetail = z.infer<typeof BattleDetailSchema>;

export const BattleLogEntrySchema = z
  .object({
    /** 0: the start; then each action in order, from 1. */
    index: z.number().int(),
    side: z.string().nullable(),
    /** Who took the action: a player, the computer playing its seat, or the computer acting for a side whose time ran out. */
    by: z.enum(['start', 'player', 'computer', 'deadline']),
    /** The action, and in words; null while it is another side's plot not yet resolved. */
    action: z.unknown(),
    text: z.string().nullable(),
    hidden: z.boolean(),
    /** Said by the server, not the rules (not part of the record): e.g. that the computer acted because time ran out. */
    note: z.string().nullable(),
    lines: z.array(LogLineSchema),
    at: TimestampSchema,
  })
  .meta({ id: 'BattleLogEntry' });
export type BattleLogEntry = z.infer<typeof BattleLogEntrySchema>;

export const BattleLogSchema = z
  .object({
    entries: z.array(BattleLogEntrySchema),
    actionCount: z.number().int(),
    next: z.number().int().nullable().describe('`after` for the next page; null at the end'),
  })
  .meta({ id: 'BattleLog' });
export type BattleLog = z.infer<typeof BattleLogSchema>;

/** A battle's record (shared/naval/record.ts): the seed only once the battle is over. */
export const ExportedBattleSchema = BattleRecordSchema.meta({ id: 'ExportedBattle' });
export type ExportedBattle = z.infer<typeof ExportedBattleSchema>;

export const BattleVerificationSchema = z
  .object({
    battleId: IdSchema,
    ok: z.boolean(),
    /** What does not match, each naming where. */
    problems: z.array(z.string()),
    rolls: z.number().int(),
    actions: z.number().int(),
    commitment: z.string(),
    seed: z.string(),
    salt: z.string(),
  })
  .meta({ id: 'BattleVerification' });
export type BattleVerification = z.infer<typeof BattleVerificationSchema>;

/** The umpire's notes: theirs alone while the battle is fought, everyone's once it is over. */
export const BattleNoteRequestSchema = z
  .object({ text: z.string().trim().min(1, 'is required').max(2_000, 'must be at most 2000 characters') })
  .meta({ id: 'BattleNoteRequest' });
export type BattleNoteRequest = z.input<typeof BattleNoteRequestSchema>;

export const BattleNoteSchema = z
  .object({
    id: IdSchema,
    author: UserRefSchema.nullable(),
    text: z.string(),
    actionCount: z.number().int().describe('Actions taken when it was written'),
    at: TimestampSchema,
  })
  .meta({ id: 'BattleNote' });
export type BattleNote = z.infer<typeof BattleNoteSchema>;

export const BattleNotesSchema = z.object({ notes: z.array(BattleNoteSchema) }).meta({ id: 'BattleNotes' });
export type BattleNotes = z.infer<typeof BattleNotesSchema>;

/** Notes kept per battle at most. */
export const MAX_BATTLE_NOTES = 500;

/** A 409 of POST …/actions: the battle moved on since you looked (`actionCount` is where it stands), or is not being fought. */
export const BattleActionConflictSchema = ApiErrorSchema.extend({ actionCount: z.number().int().optional() }).meta({ id: 'BattleActionConflict' });

/** A 422 of the import: the record does not check out; `problems` names each mismatch (die, replay, commitment). */
/** 422 `action_refused`: the battle's rules refused the action and nothing changed; `refusal.code` is the ruleset's own reason. */
export const BattleActionRefusedSchema = ApiErrorSchema.extend({
  refusal: z.object({ code: z.string().max(80), message: z.string().max(2_000) }).optional(),
}).meta({ id: 'BattleActionRefused' });

export const BattleImportRefusedSchema = ApiErrorSchema.extend({ problems: z.array(z.string()).optional() }).meta({ id: 'BattleImportRefused' });

/** The live event on `battle:<id>`: something changed; fetch GET /api/battles/{id} (and its log after what you have). */
export const BattleChangedEventSchema = z.object({
  type: z.literal('battle.changed'),
  battleId: IdSchema,
  what: z.enum(['created', 'joined', 'left', 'started', 'acted', 'finished', 'cancelled']),
  status: BattleStatusSchema,
  actionCount: z.number().int(),
});
export type BattleChangedEvent = z.infer<typeof BattleChangedEventSchema>;

export { SideIdSchema as BattleSideIdSchema };
