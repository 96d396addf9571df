/**
 * The battle as it was after each action, replayed in the browser: the engine from the set-up, each step fed the
 * dice its log lines recorded (`fixedDice`). The server keeps no state per action, and the log already holds every
 * action and every die, so the replay needs nothing more from it: the verification page replays the same way.
 */
import type { BattleLogEntry } from '../../../shared/api/battles.ts';
import { fixedDice } from '../../../shared/naval/dice.ts';
import type { AnyRuleset, BoardView, LogLine } from '../../../shared/naval/ruleset.ts';

export interface Replay<View = BoardView> {
  /** The board after entry i (0: the start); as many as the entries that could be replayed. */
  readonly boards: View[];
  /** Why the replay stopped early (an action not yet shown, a refusal), or null when it went to the end. */
  readonly stopped: string | null;
}

const rollsOf = (lines: readonly LogLine[]) => lines.flatMap((l) => l.rolls);

/**
 * Replays the entries in order (from entry 0, the start), stopping at the first that cannot be: a hidden plot, a gap.
 * Each state is drawn by `view`: the ruleset's hex board unless told otherwise (the table rulesets' own picture).
 */
export function replayBattle<View = BoardView>(
  ruleset: AnyRuleset,
  setup: unknown,
  entries: readonly BattleLogEntry[],
  view: (state: unknown) => View = (state) => ruleset.board(state) as View,
): Replay<View> {
  const boards: View[] = [];
  const parsed = ruleset.setupSchema.safeParse(setup);
  if (!parsed.success) return { boards, stopped: 'the set-up does not load' };
  if (entries[0]?.index !== 0) return { boards, stopped: 'the log does not start at the start' };
  let state: unknown;
  try {
    const rolls = rollsOf(entries[0].lines);
    state = ruleset.start(
      parsed.data,
      fixedDice(
        rolls.map((r) => r.value),
        rolls[0]?.index ?? 0,
      ),
    ).state;
  } catch (e) {
    return { boards, stopped: `the start does not replay: ${e instanceof Error ? e.message : String(e)}` };
  }
  boards.push(view(state));
  for (const entry of entries.slice(1)) {
    if (entry.index !== boards.length) return { boards, stopped: `action ${boards.length} is missing from the log` };
    if (entry.hidden || entry.action === null || entry.side === null) return { boards, stopped: `action ${entry.index} is not shown yet` };
    const action = ruleset.actionSchema.safeParse(entry.action);
    if (!action.success) return { boards, stopped: `action ${entry.index} does not load` };
    const rolls = rollsOf(entry.lines);
    try {
      const applied = ruleset.apply(
        state,
        entry.side,
        action.data,
        fixedDice(
          rolls.map((r) => r.value),
          rolls[0]?.index ?? 0,
        ),
      );
      if (!applied.ok) return { boards, stopped: `action ${entry.index} is refused on replay: ${applied.error.message}` };
      state = applied.state;
    } catch (e) {
      return { boards, stopped: `action ${entry.index} does not replay: ${e instanceof Error ? e.message : String(e)}` };
    }
    boards.push(view(state));
  }
  return { boards, stopped: null };
}
