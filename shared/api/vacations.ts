/**
 * Vacations: a player declares an absence, optionally naming a sitter who plays their seats meanwhile. Games that
 * honour vacations move deadlines that fall in an absence; a sitter acts as the absent player's power in each of
 * their games (orders, readiness, that power's press) except where the sitter plays too or runs the game, since
 * nobody controls two powers of one game.
 */
import { z } from 'zod';
import { UsernameSchema } from './accounts.ts';
import { IdSchema, TimestampSchema, UserRefSchema } from './common.ts';

export const VACATION_LIMITS = {
  /** Longest single absence. */
  maxDays: 30,
  /** Most days of absence in any 365 days. */
  maxDaysPerYear: 60,
  /** Most absences declared that have not ended yet. */
  maxUpcoming: 10,
  /** A start this far in the past is taken as "now" (a form filled in a few minutes ago). */
  startToleranceMinutes: 10,
} as const;

const DAY_MS = 24 * 3600 * 1000;

export const DeclareVacationRequestSchema = z
  .object({
    startsAt: TimestampSchema.describe('When the absence begins (not in the past)'),
    endsAt: TimestampSchema.describe(`When it ends: after the start, at most ${VACATION_LIMITS.maxDays} days later`),
    sitter: UsernameSchema.optional().describe('A user who plays your seats meanwhile (not you)'),
  })
  .superRefine((body, ctx) => {
    const length = Date.parse(body.endsAt) - Date.parse(body.startsAt);
    if (length <= 0) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    else if (length > VACATION_LIMITS.maxDays * DAY_MS)
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: `an absence lasts at most ${VACATION_LIMITS.maxDays} days` });
  })
  .meta({ id: 'DeclareVacationRequest' });
export type DeclareVacationRequest = z.infer<typeof DeclareVacationRequestSchema>;

/** Whether the sitter acts in one of the absent player's games, and why not where not. */
export const VacationGameSchema = z.object({
  gameId: IdSchema,
  name: z.string(),
  power: z.string().nullable(),
  /**
   * `sits`: the sitter plays this seat during the absence. `sitter-plays`: the sitter holds a seat in this game
   * (never two powers of one game). `sitter-runs`: the sitter is its game master. `unless-sitter-plays`: an
   * anonymous game, which does not say whether the sitter plays in it: they sit unless they do.
   */
  sitter: z.enum(['sits', 'sitter-plays', 'sitter-runs', 'unless-sitter-plays']),
  /** The reason in words. */
  note: z.string(),
});

export const VacationSchema = z
  .object({
    id: IdSchema,
    startsAt: TimestampSchema,
    endsAt: TimestampSchema,
    sitter: UserRefSchema.nullable(),
    createdAt: TimestampSchema,
    /** Each game of yours not yet over, and whether the sitter plays your seat there (empty without a sitter). */
    games: z.array(VacationGameSchema),
  })
  .meta({ id: 'Vacation' });
export type Vacation = z.infer<typeof VacationSchema>;

/** Someone's absence in which you are the sitter, and the seats you play meanwhile. */
export const SittingSchema = z.object({
  vacationId: IdSchema,
  for: UserRefSchema,
  startsAt: TimestampSchema,
  endsAt: TimestampSchema,
  games: z.array(z.object({ gameId: IdSchema, name: z.string(), power: z.string() })),
});

export const VacationListSchema = z
  .object({
    /** Your absences that have not ended, soonest first. */
    vacations: z.array(VacationSchema),
    /** Absences (not ended) in which you sit for someone. */
    sitting: z.array(SittingSchema),
    /** The most days of absence (taken in the last year, or declared) in any 365 days, against `limits.maxDaysPerYear`. */
    mostDaysInAYear: z.number(),
    limits: z.object({ maxDays: z.number(), maxDaysPerYear: z.number(), maxUpcoming: z.number() }),
  })
  .meta({ id: 'VacationList' });
export type VacationList = z.infer<typeof VacationListSchema>;

export const VacationParamsSchema = z.object({ vacationId: IdSchema });
