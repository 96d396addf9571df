import { z } from 'zod';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';
import { UsernameSchema } from './accounts.ts';
import { RULEBOOK_IDS } from '../variant/options.ts';
import { GAMES_PER_PAGE, MOST_GAMES_PER_LIST } from './list-limits.ts';
import { variantIds } from '../variants.ts';
import { CampaignSchema, CampaignSettingsSchema } from './campaign.ts';

function variantIdList(): [string, ...string[]] {
  const [first, ...rest] = variantIds();
  if (first === undefined) throw new Error('no variant is registered in shared/variants.ts');
  return [first, ...rest];
}

/**
 * Variant ids the API accepts: every variant the rules engine ships (shared/variants.ts, its one registry), so a
 * variant registered there can be played with no other list to update. GET /api/variants tells which.
 */
export const VARIANT_IDS: readonly [string, ...string[]] = variantIdList();
export const VariantIdSchema = z.enum(VARIANT_IDS, { error: `must be one of: ${VARIANT_IDS.join(', ')}` });
export type VariantId = z.infer<typeof VariantIdSchema>;

export const PressKindSchema = z.enum(['full', 'public', 'none']).describe('full: private and public messages; public: to everyone only; none: gunboat');
export const GameStatusSchema = z.enum(['forming', 'active', 'finished', 'cancelled']);
export const PlayerStatusSchema = z.enum(['active', 'civil-disorder', 'eliminated']);
export const PowerAssignmentSchema = z
  .enum(['random', 'preferences'])
  .describe('random; or preferences: players in random order each take the first free power of their list');
export const PhaseKindSchema = z.enum(['movement', 'retreat', 'adjustment']);
export const RulebookSchema = z
  .enum(RULEBOOK_IDS, { error: `must be one of: ${RULEBOOK_IDS.join(', ')}` })
  .describe(
    'Where rulebooks differ (DATC v3.0 section 4): datc plays the DATC v3.0 preferences; 1971 the 1971 rulebook (a convoy fails when any route is disrupted, an army adjacent to its destination goes by convoy only to swap places, civil-disorder removals by distance to home centres)',
  );

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;
const deadlineSeconds = z
  .number()
  .int('must be a whole number of seconds')
  .min(MINUTE, 'must be at least 60 seconds')
  .max(14 * DAY, 'must be at most 14 days (1209600 seconds)');

export const DeadlinesSchema = z
  .object({ movement: deadlineSeconds, retreat: deadlineSeconds, adjustment: deadlineSeconds })
  .describe('Seconds allowed for each kind of phase')
  .meta({ id: 'Deadlines' });

/** An IANA time zone the runtime knows ("Europe/Amsterdam"); the same check in Node and the browser. */
export const TimeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'must be a time zone such as "Europe/Amsterdam"')
  .describe('An IANA time zone');

export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const DeadlineClockSchema = z
  .object({
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM, e.g. "20:00"'),
    timeZone: TimeZoneSchema,
    daysOff: z
      .array(z.number().int().min(1, 'must be an ISO weekday, 1 (Monday) to 7 (Sunday)').max(7, 'must be an ISO weekday, 1 (Monday) to 7 (Sunday)'))
      .max(5, 'must leave at least two days a week on which deadlines may fall')
      .refine((days) => new Set(days).size === days.length, 'must not name a day twice')
      .default([])
      .describe('ISO weekdays (1 Monday … 7 Sunday) on which no deadline falls'),
  })
  .describe('Deadlines at a clock time: each phase falls due at the first such time, on a day that is not off, at least its duration after it opens')
  .meta({ id: 'DeadlineClock' });
export type DeadlineClock = z.infer<typeof DeadlineClockSchema>;

export const GraceSchema = z
  .object({
    seconds: z
      .number()
      .int()
      .min(0, 'must be 0 (no grace) or more')
      .max(7 * DAY, 'must be at most 7 days (604800 seconds)'),
    perPlayer: z.number().int().min(0).max(10, 'must be at most 10'),
  })
  .describe(
    'When a power whose player sent nothing misses the deadline, the deadline moves `seconds` later, once per phase, at most `perPlayer` times per seat',
  )
  .meta({ id: 'Grace' });
export const VoteRuleSchema = z.enum(['unanimous', 'majority']).describe('How many powers must agree for a pause, resume or extension vote to pass');

/** Correspondence settings of a game: the clock, absences, votes and who may take a seat. */
export const CorrespondenceSettingsSchema = z
  .object({
    grace: GraceSchema.default({ seconds: DAY, perPlayer: 2 }),
    deadlineClock: DeadlineClockSchema.nullable().default(null),
    honourVacations: z
      .boolean()
      .default(true)
      .describe("A deadline that falls in a player's declared absence moves to its end (unless a sitter plays the seat)"),
    voteRule: VoteRuleSchema.default('unanimous'),
    seatApproval: z.boolean().default(true).describe("Taking a seat offered for replacement needs the game master's approval"),
    minDeadlinesKept: z
      .number()
      .int()
      .min(0)
      .max(100, 'must be a percentage, 0 to 100')
      .default(0)
      .describe('Percentage of deadlines a user must have kept to join or take a seat'),
    minFinishedGames: z
      .number()
      .int()
      .min(0)
      .max(1000, 'must be at most 1000')
      .default(0)
      .describe('Finished games a user must have played to join or take a seat'),
  })
  .meta({ id: 'CorrespondenceSettings' });
export type CorrespondenceSettings = z.infer<typeof CorrespondenceSettingsSchema>;
const CORRESPONDENCE_DEFAULTS = CorrespondenceSettingsSchema.parse({});

export const PowerIdSchema = z.string().regex(/^[A-Z][A-Za-z-]{1,23}$/, 'must be a power name such as "England"');
const PowerPreferencesSchema = z
  .array(PowerIdSchema)
  .max(24)
  .refine((list) => new Set(list).size === list.length, 'must not name a power twice')
  .describe('Powers you would like, best first');

export const CreateGameRequestSchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters'),
    variant: VariantIdSchema,
    deadlines: DeadlinesSchema.default({ movement: DAY, retreat: DAY / 2, adjustment: DAY / 2 }),
    press: PressKindSchema.default('full'),
    anonymous: z.boolean().default(false),
    private: z.boolean().default(false).describe('Unlisted; joining needs the invite code'),
    maxMissedDeadlines: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(10, 'must be at most 10')
      .default(2)
      .describe('Missed deadlines in a row before a power falls into civil disorder'),
    powerAssignment: PowerAssignmentSchema.default('random'),
    rules: RulebookSchema.default('datc'),
    autoStart: z.boolean().default(true).describe('Start as soon as the last seat is taken'),
    gameMaster: UsernameSchema.optional().describe(
      'A user asked to be the game master: they become it by accepting (the creator runs the game until then, and when omitted)',
    ),
    joinAsPlayer: z.boolean().default(true).describe('The creator takes a seat'),
    powerPreferences: PowerPreferencesSchema.default([]).describe("The creator's preferences when joining"),
    correspondence: CorrespondenceSettingsSchema.default(CORRESPONDENCE_DEFAULTS),
    campaign: CampaignSettingsSchema.nullable()
      .default(null)
      .describe("Campaign play: the game's sea fights are fought out as naval battles of this ruleset; null for an ordinary game"),
  })
  .meta({ id: 'CreateGameRequest' });
export type CreateGameRequest = z.input<typeof CreateGameRequestSchema>;

export const PowerSchema = z.object({ id: z.string(), adjective: z.string(), colour: z.string() }).meta({ id: 'Power' });

/** How a finished game ended. A concession names the one power conceded to. */
export const GameOutcomeSchema = z
  .object({
    kind: z.enum(['victory', 'draw', 'concession']),
    powers: z.array(z.string()).describe('victory: the winners; draw: every survivor; concession: the power conceded to'),
  })
  .meta({ id: 'GameOutcome' });
export type GameOutcome = z.infer<typeof GameOutcomeSchema>;

export const GameSummarySchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    variant: z.string(),
    status: GameStatusSchema,
    seats: z.number().int(),
    playerCount: z.number().int(),
    press: PressKindSchema,
    anonymous: z.boolean(),
    private: z.boolean(),
    deadlines: DeadlinesSchema,
    rules: RulebookSchema,
    gameMaster: UserRefSchema,
    createdAt: TimestampSchema,
    startedAt: TimestampSchema.nullable(),
    finishedAt: TimestampSchema.nullable(),
    /** Whether the requesting user has a seat in it. */
    joined: z.boolean(),
    /** How the game ended; null until it has. */
    outcome: GameOutcomeSchema.nullable(),
    /** Set while the game master has paused the clock: when the pause began, or the deadline was last changed during it (what resuming adds to the deadline counts from there). */
    pausedAt: TimestampSchema.nullable(),
    /**
     * A finished game's result is final from then on: until that moment the game master may still re-open it, and
     * its secrets (private press, the names in an anonymous game) stay hidden. Null while the game goes on.
     */
    finalAt: TimestampSchema.nullable(),
    /** The game was imported from an export: its history was played elsewhere. */
    imported: z.boolean(),
    /** The requesting user is asked to take over as its game master (accept or decline: POST/DELETE …/gm/invitation). */
    invitedYou: z.boolean(),
  })
  .meta({ id: 'GameSummary' });
export type GameSummary = z.infer<typeof GameSummarySchema>;

export const PlayerSchema = z
  .object({
    id: IdSchema,
    /** Null in anonymous games, except for yourself, until the game ends (the game master sees all). */
    user: UserRefSchema.nullable(),
    power: z.string().nullable(),
    status: PlayerStatusSchema,
    missedDeadlines: z.number().int(),
    isYou: z.boolean(),
  })
  .meta({ id: 'Player' });
export type Player = z.infer<typeof PlayerSchema>;

export const PhaseRefSchema = z
  .object({
    index: z.number().int(),
    /** The engine's name, e.g. "Spring 1901 Movement". */
    name: z.string(),
    kind: PhaseKindSchema,
    deadlineAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'PhaseRef' });
export type PhaseRef = z.infer<typeof PhaseRefSchema>;

export const GameDetailSchema = GameSummarySchema.extend({
  maxMissedDeadlines: z.number().int(),
  powerAssignment: PowerAssignmentSchema,
  autoStart: z.boolean(),
  correspondence: CorrespondenceSettingsSchema,
  powers: z.array(PowerSchema),
  players: z.array(PlayerSchema),
  /** Shown to the players and the game master of a private game; null otherwise. */
  inviteCode: z.string().nullable(),
  /** Your preference list when you have a seat. */
  yourPowerPreferences: z.array(z.string()).nullable(),
  /** The phase being played (the last one once the game has ended); null before the game starts. */
  currentPhase: PhaseRefSchema.nullable(),
  /** The game was imported from an export. */
  imported: z.boolean(),
  /**
   * The game master also plays a power (which one, the game does not say in an anonymous game): they are a player
   * first, and their tools that could give them an advantage need the other players' consent.
   */
  gameMasterPlays: z.boolean(),
  /** The user the creator asked to be the game master, until they accept or decline (shown to the two of them and administrators). */
  invitedGameMaster: UserRefSchema.nullable(),
  /** The power you sit for now, for a player away on a declared absence, and until when (shared/api/vacations.ts); null otherwise. */
  sittingFor: z
    .object({ power: z.string(), until: z.iso.datetime({ offset: true }) })
    .nullable()
    .optional(),
  /** Campaign play (shared/api/campaign.ts): the battle ruleset, the fleet lists and the battles' time; null for an ordinary game. */
  campaign: CampaignSchema.nullable(),
}).meta({ id: 'GameDetail' });
export type GameDetail = z.infer<typeof GameDetailSchema>;

export const GAME_LIST_FILTERS = ['open', 'active', 'finished', 'mine'] as const;
export const ListGamesQuerySchema = z.object({
  filter: z
    .enum(GAME_LIST_FILTERS, { error: `must be one of: ${GAME_LIST_FILTERS.join(', ')}` })
    .default('open')
    .describe('open: waiting for players; active; finished; mine: games you play or master (needs log-in)'),
  variant: VariantIdSchema.optional(),
  limit: z.coerce.number().int().min(1, 'must be at least 1').max(MOST_GAMES_PER_LIST, `must be at most ${MOST_GAMES_PER_LIST}`).default(GAMES_PER_PAGE),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page'),
});
export type ListGamesQuery = z.input<typeof ListGamesQuerySchema>;

export const GameListSchema = z.object({ games: z.array(GameSummarySchema), nextCursor: z.string().nullable() }).meta({ id: 'GameList' });

export const GameIdParamsSchema = z.object({ gameId: IdSchema });
export const ViewGameQuerySchema = z.object({
  inviteCode: z.string().max(64).optional().describe('Lets a non-member view a private game'),
});

export const JoinGameRequestSchema = z
  .object({
    inviteCode: z.string().max(64).optional().describe('Required for private games'),
    powerPreferences: PowerPreferencesSchema.default([]),
  })
  .meta({ id: 'JoinGameRequest' });
export type JoinGameRequest = z.input<typeof JoinGameRequestSchema>;

export const VariantInfoSchema = z
  .object({
    id: VariantIdSchema,
    /** False while the rules engine does not ship the variant: games cannot be created in it yet. */
    available: z.boolean(),
    powers: z.array(PowerSchema),
  })
  .meta({ id: 'VariantInfo' });
export const VariantListSchema = z.object({ variants: z.array(VariantInfoSchema) }).meta({ id: 'VariantList' });
