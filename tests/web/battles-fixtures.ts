/**
 * Battles for the battle screens' tests, made by the real engines: a shipped scenario played by the computer on
 * both sides with the seeded dice, kept as the server keeps it (its record, its log entries) and answered as the
 * server's schemas shape a battle (BattleDetail, BattleSummary).
 */
import type { BattleDetail, BattleLogEntry, BattleSummary } from '../../shared/api/battles.ts';
import { commitmentOf, streamDice } from '../../shared/naval/dice.ts';
import { RULESETS, scenarioOf } from '../../shared/naval/index.ts';
import type { BattleRecord } from '../../shared/naval/record.ts';
import type { RulesetId } from '../../shared/naval/ruleset.ts';
import { fixtureId } from './api-fixtures.ts';

export const SEED = 'a-test-seed-of-sixteen-or-more-characters';
export const SALT = 'battle-salt';

/** A small deterministic random source for the computer's own choices. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x1_0000_0000;
  };
}

export interface Played {
  record: BattleRecord;
  /** The state after the last action. */
  state: unknown;
  /** The state after each action (0: the start). */
  states: unknown[];
}

/** Plays a shipped scenario, the computer for every side, for at most `most` actions (to the end if it comes first). */
export function playScenario(ruleset: RulesetId, scenario: string, most: number): Played {
  const r = RULESETS[ruleset];
  const setup = r.setupSchema.parse(scenarioOf(ruleset, scenario)!.setup);
  const dice = streamDice(SEED, SALT);
  const started = r.start(setup, dice);
  let state = started.state;
  const states = [state];
  const actions: BattleRecord['actions'] = [];
  const choose = random(7);
  for (let i = 0; i < most; i++) {
    const turn = r.turn(state);
    if (turn.kind === 'over') break;
    const side = turn.kind === 'side' ? turn.side : turn.waiting[0];
    const action = r.opponent(state, side, choose);
    const applied = r.apply(state, side, action, dice);
    if (!applied.ok) throw new Error(applied.error.message);
    actions.push({ side, action, log: applied.log as BattleRecord['start'] });
    state = applied.state;
    states.push(state);
  }
  const over = r.turn(state).kind === 'over';
  const record: BattleRecord = {
    format: 'naval-battle/1',
    ruleset,
    setup,
    salt: SALT,
    commitment: commitmentOf(SEED),
    ...(over ? { seed: SEED } : {}),
    start: started.log as BattleRecord['start'],
    actions,
  };
  return { record, state, states };
}

/** The record's log as GET …/log answers it. */
export function logEntries(record: BattleRecord): BattleLogEntry[] {
  const at = '2026-11-27T10:00:00.000Z';
  const r = RULESETS[record.ruleset];
  const setup = r.setupSchema.parse(record.setup);
  let state = r.start(setup, streamDice(SEED, SALT)).state;
  const dice = streamDice(
    SEED,
    SALT,
    record.start.reduce((n, l) => n + l.rolls.length, 0),
  );
  const entries: BattleLogEntry[] = [{ index: 0, side: null, by: 'start', action: null, text: null, hidden: false, note: null, lines: record.start, at }];
  record.actions.forEach((a, i) => {
    const text = r.describe(state, a.action);
    const applied = r.apply(state, a.side, a.action, dice);
    if (applied.ok) state = applied.state;
    entries.push({ index: i + 1, side: a.side, by: 'computer', action: a.action, text, hidden: false, note: null, lines: a.log, at });
  });
  return entries;
}

/** A battle as GET /api/battles/:id answers it, from a played state; `side` the viewer's seat. */
export function battleDetail(ruleset: RulesetId, played: Played, side: string | null, fields: Partial<BattleDetail> = {}): BattleDetail {
  const r = RULESETS[ruleset];
  const setup = played.record.setup;
  const sides = r.sides(setup);
  const viewState = r.redact(played.state, side);
  const turn = r.turn(played.state);
  const outcome = r.outcome(played.state);
  const yourTurn = side !== null && !outcome && ((turn.kind === 'side' && turn.side === side) || (turn.kind === 'simultaneous' && turn.waiting.includes(side)));
  return {
    ...battleSummary(ruleset as BattleSummary['ruleset'], sides, {
      status: outcome ? 'finished' : 'active',
      joined: side !== null,
      actionCount: played.record.actions.length,
      outcome,
    }),
    inviteCode: null,
    you: { side, umpire: false },
    setup,
    commitment: played.record.commitment,
    salt: SALT,
    seed: outcome ? SEED : null,
    nextRoll: 0,
    deadlineAt: outcome ? null : '2026-12-01T00:00:00.000Z',
    turn,
    state: viewState,
    board: r.board(viewState),
    yourTurn,
    ...fields,
  } as BattleDetail;
}

export function battleSummary(ruleset: BattleSummary['ruleset'], sides: { id: string; name: string }[], fields: Partial<BattleSummary> = {}): BattleSummary {
  return {
    id: fixtureId(3),
    title: 'Off Rhodes',
    ruleset,
    scenario: null,
    status: 'active',
    private: false,
    clock: { pace: 'correspondence', hoursPerTurn: 48 },
    sides,
    seats: sides.map((s, i) => ({
      id: fixtureId(i + 4),
      side: s.id,
      role: 'side' as const,
      player: 'human' as const,
      user: { id: fixtureId(i), username: `player${i}` },
      isYou: false,
    })),
    createdBy: { id: fixtureId(0), username: 'player0' },
    joined: false,
    actionCount: 0,
    outcome: null,
    imported: false,
    createdAt: '2026-11-27T09:00:00.000Z',
    startedAt: '2026-11-27T09:05:00.000Z',
    finishedAt: null,
    ...fields,
  };
}
