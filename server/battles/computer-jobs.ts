/** What the computer's worker threads are asked (computer-pool.ts → computer-worker.ts) and what they answer. */
import type { RulesetId } from '../../shared/naval/ruleset.ts';
import type { FightRequest } from './computer-fight.ts';
import type { PlanRequest } from './computer-plan.ts';

export type ComputerJob =
  /** The ruleset's opponent chooses `side`'s action, with the computer's own random numbers for this move. */
  | { id: number; kind: 'choose'; ruleset: RulesetId; state: unknown; side: string; battleId: string; actionCount: number }
  /** The first `limit` of `side`'s legal actions. */
  | { id: number; kind: 'legal'; ruleset: RulesetId; state: unknown; side: string; limit: number }
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
