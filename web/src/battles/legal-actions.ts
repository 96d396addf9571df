/**
 * One's legal actions, worked out in the browser by the battle's own ruleset engine (shared/naval, the same code
 * the server runs) from the state the page carries, as one's seat sees it. The server does not send them: in a
 * fleet battle of the ship-to-ship rules every plot of every ship is hundreds of kilobytes, and the state it sends
 * holds everything they depend on (tests/server/battles-legal-in-browser.test.ts checks that for every ruleset).
 * The server still checks every action sent against the whole state.
 */
import { RULESETS } from '../../../shared/naval/index.ts';
import type { BattleDetail } from './types.ts';

export interface LegalAction {
  readonly side: string;
  readonly action: unknown;
  /** The action in the engine's words. */
  readonly text: string;
}

/** What the viewer may do now: nothing unless the page says it is their side's turn. */
export function legalActionsOf(detail: BattleDetail): LegalAction[] {
  const side = detail.you.side;
  if (!detail.yourTurn || side === null || detail.status !== 'active' || detail.state === null || detail.state === undefined) return [];
  const ruleset = RULESETS[detail.ruleset];
  const state = detail.state;
  return ruleset.legalActions(state, side).map((action) => ({ side, action, text: ruleset.describe(state, action) }));
}
