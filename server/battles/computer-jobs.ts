/** What the computer's worker threads are asked (computer-pool.ts → computer-worker.ts) and what they answer. */
import type { RulesetId } from '../../shared/naval/ruleset.ts';

/**
 * A started battle as a worker thinks about it: its state after `actionCount` actions, its dice (the secret seed,
 * the public salt, the next roll) and how long the worker may think (its own time, not the wait for it).
 */
export type BattleToThinkAbout = {
  ruleset: RulesetId;
  state: unknown;
  seed: string;
  salt: string;
  nextRoll: number;
  battleId: string;
  /** Actions taken so far (the computer's random numbers for a move are drawn from it). */
  actionCount: number;
  budgetMs: number;
};

/** A stretch of a battle fought by the computer on every side (computer-fight.ts); at least one move whatever the budget. */
export type FightRequest = BattleToThinkAbout;

/** The computer's moves after a change (computer-plan.ts); none is started once the budget is spent. */
export type PlanRequest = BattleToThinkAbout & {
  /** A player's action to take first; when the rules refuse it the plan is empty (the server refuses it under the lock). */
  first?: { side: string; action: unknown };
  /** Sides the computer plays. */
  computerSides: string[];
  /** Sides whose time ran out for `decision`: the computer acts for them while that decision is pending. */
  late?: { decision: string };
  maxMoves: number;
};

export type ComputerJob =
  /** `side`'s legal actions with the rules' words for each (GET /battles/:id?legalActions=true), at most `limit`. */
  | { id: number; kind: 'legal-described'; ruleset: RulesetId; state: unknown; side: string; limit: number }
  /** The computer's moves after a change (computer-plan.ts), thought out before the battle is locked. */
  | ({ id: number; kind: 'plan' } & PlanRequest)
  /** A started battle fought to its end by the computer on both sides (computer-fight.ts): a sea auto-resolved. */
  | ({ id: number; kind: 'fight' } & FightRequest)
  /** `battles` battles of the set-up fought on dice seeded by `seed` (shared/campaign/odds.ts): a chunk of a sea's odds. */
  | { id: number; kind: 'odds'; ruleset: RulesetId; setup: unknown; battles: number; seed: string };

/** `ms`: how long the worker thought (not counting its start or the wait for it). */
export type ComputerAnswer = { id: number; ok: true; value: unknown; ms: number } | { id: number; ok: false; error: string };
