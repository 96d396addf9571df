/**
 * A battle as it is kept, exported and checked: the ruleset, the set-up, the dice's public salt and the
 * commitment to the seed, what was logged at the start, and every action in order with the log it made.
 * Once the battle is over the seed is revealed and anyone can replay it (`verify`): the seed must match the
 * commitment, every logged die must be that roll of the stream, and replaying the actions must give the same
 * log, roll for roll.
 */
import { z } from 'zod';
import { type Roll, RollSchema, commitmentOf, rollAt, streamDice } from './dice.ts';
import type { AnyRuleset, LogLine, Outcome, RulesetId } from './ruleset.ts';

/** Limits of a battle record (an export, an import): a long Classis battle has a few thousand actions. */
export const MAX_ACTIONS = 20_000;
export const MAX_LOG_LINES_PER_ACTION = 400;

export const LogLineSchema = z
  .object({
    text: z.string().max(2_000),
    rolls: z.array(RollSchema).max(200),
    table: z
      .object({ name: z.string().max(120), row: z.string().max(200) })
      .strict()
      .optional(),
  })
  .strict();

export const BattleRecordSchema = z
  .object({
    format: z.literal('naval-battle/1'),
    ruleset: z.enum(['classis', 'ship-to-ship', 'diadochi-naval', 'oi-navarcoi']),
    setup: z.unknown(),
    salt: z.string().min(1).max(400),
    commitment: z.string().regex(/^[0-9a-f]{64}$/, 'the SHA-256 of the seed, 64 hex digits'),
    /** Revealed when the battle ends. */
    seed: z.string().min(16).max(200).optional(),
    start: z.array(LogLineSchema).max(MAX_LOG_LINES_PER_ACTION),
    actions: z
      .array(
        z
          .object({
            side: z.string().min(1).max(40),
            action: z.unknown(),
            log: z.array(LogLineSchema).max(MAX_LOG_LINES_PER_ACTION),
          })
          .strict(),
      )
      .max(MAX_ACTIONS),
  })
  .strict();
export type BattleRecord = z.infer<typeof BattleRecordSchema>;

export interface Verification {
  readonly ok: boolean;
  /** What does not match, each naming where ("action 12, roll 40: logged 6, the seed gives 3"). */
  readonly problems: readonly string[];
  /** How many dice were checked. */
  readonly rolls: number;
  readonly actions: number;
}

const MAX_PROBLEMS = 50;

/** Checks a finished battle's record against its revealed seed, roll by roll, and by replaying it. */
export function verify(ruleset: AnyRuleset, record: BattleRecord): Verification {
  const problems: string[] = [];
  const note = (p: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  const done = (rolls: number) => ({ ok: problems.length === 0, problems, rolls, actions: record.actions.length });
  if (record.ruleset !== ruleset.id) note(`the record is of ${record.ruleset}, not ${ruleset.id}`);
  const seed = record.seed;
  if (seed === undefined) {
    note('the seed is not revealed yet: it is revealed when the battle ends');
    return done(0);
  }
  if (commitmentOf(seed) !== record.commitment) note('the seed does not match the commitment published when the battle was created');

  // Every logged die against the stream, in order.
  let expected = 0;
  const checkRolls = (where: string, log: readonly LogLine[]) => {
    for (const line of log)
      for (const r of line.rolls) {
        if (r.index !== expected) note(`${where}: roll numbered ${r.index} where ${expected} comes next`);
        const truth = rollAt(seed, record.salt, r.index, r.sides);
        if (truth !== r.value) note(`${where}, roll ${r.index} (d${r.sides}, ${r.label}): logged ${r.value}, the seed gives ${truth}`);
        expected = r.index + 1;
      }
  };
  checkRolls('start', record.start);
  record.actions.forEach((a, i) => checkRolls(`action ${i + 1}`, a.log));

  // Replaying gives the same log.
  const setup = ruleset.setupSchema.safeParse(record.setup);
  if (!setup.success) {
    note(`the set-up does not load: ${setup.error.issues[0]?.message ?? 'invalid'}`);
    return done(expected);
  }
  const dice = streamDice(seed, record.salt);
  const started = ruleset.start(setup.data, dice);
  compareLogs('start', record.start, started.log, note);
  let state = started.state;
  for (const [i, a] of record.actions.entries()) {
    const action = ruleset.actionSchema.safeParse(a.action);
    if (!action.success) {
      note(`action ${i + 1} does not load: ${action.error.issues[0]?.message ?? 'invalid'}`);
      break;
    }
    const applied = ruleset.apply(state, a.side, action.data, dice);
    if (!applied.ok) {
      note(`action ${i + 1} is refused on replay: ${applied.error.message}`);
      break;
    }
    compareLogs(`action ${i + 1}`, a.log, applied.log, note);
    state = applied.state;
  }
  return done(expected);
}

function compareLogs(where: string, logged: readonly LogLine[], replayed: readonly LogLine[], note: (p: string) => void) {
  const a = logged.map(lineText);
  const b = replayed.map(lineText);
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if (a[i] !== b[i]) {
      note(`${where}, log line ${i + 1}: logged "${a[i] ?? '(nothing)'}", replay gives "${b[i] ?? '(nothing)'}"`);
      return;
    }
}

const lineText = (l: LogLine) => `${l.text} [${l.rolls.map((r: Roll) => `${r.index}:d${r.sides}=${r.value}`).join(' ')}]`;

/** What replaying a checked record gives: the set-up, the state at its end, each action in words, the outcome, the next die's index. */
export interface Replayed {
  readonly setup: unknown;
  readonly state: unknown;
  readonly texts: string[];
  readonly outcome: Outcome | null;
  readonly nextRoll: number;
}

/**
 * A record checked (`verify`, its seed revealed) and replayed, as an import stores it; or its problems (a replay the
 * engine cannot make included: never an exception).
 */
export function replayRecord(ruleset: AnyRuleset, record: BattleRecord): { ok: true; replayed: Replayed; seed: string } | { ok: false; problems: string[] } {
  try {
    const verification = verify(ruleset, record);
    if (!verification.ok) return { ok: false, problems: [...verification.problems] };
    if (record.seed === undefined) return { ok: false, problems: ['the seed is not revealed'] };
    const setup = ruleset.setupSchema.parse(record.setup);
    const dice = streamDice(record.seed, record.salt);
    let state = ruleset.start(setup, dice).state;
    const texts: string[] = [];
    for (const entry of record.actions) {
      // verify() loaded and replayed each of these without a refusal.
      const action = ruleset.actionSchema.parse(entry.action);
      texts.push(ruleset.describe(state, action));
      const applied = ruleset.apply(state, entry.side, action, dice);
      if (!applied.ok) return { ok: false, problems: [`an action is refused on replay: ${applied.error.message}`] };
      state = applied.state;
    }
    return { ok: true, replayed: { setup, state, texts, outcome: ruleset.outcome(state), nextRoll: dice.next }, seed: record.seed };
  } catch (error) {
    return { ok: false, problems: [`the rules could not replay it: ${(error as Error).message}`] };
  }
}

export type { RulesetId };
