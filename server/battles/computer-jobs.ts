/** What the computer's worker threads are asked (computer-pool.ts → computer-worker.ts) and what they answer. */
import type { RulesetId } from '../../shared/naval/ruleset.ts';

export type ComputerJob =
  /** The ruleset's opponent chooses `side`'s action, with the computer's own random numbers for this move. */
  | { id: number; kind: 'choose'; ruleset: RulesetId; state: unknown; side: string; battleId: string; actionCount: number }
  /** The first `limit` of `side`'s legal actions. */
  | { id: number; kind: 'legal'; ruleset: RulesetId; state: unknown; side: string; limit: number };

/** `ms`: how long the worker thought (not counting its start or the wait for it). */
export type ComputerAnswer = { id: number; ok: true; value: unknown; ms: number } | { id: number; ok: false; error: string };
