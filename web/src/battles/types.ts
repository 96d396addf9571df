/** The wire's battle types, as the battle screens use them. */
import type { z } from 'zod';
import type { BattleRulesetIdSchema } from '../../../shared/api/battles.ts';

export type BattleRulesetId = z.infer<typeof BattleRulesetIdSchema>;
export type {
  BattleBoard,
  BattleDetail,
  BattleLog,
  BattleLogEntry,
  BattleSeat,
  BattleSummary,
  BattleTurn,
  CreateBattleRequest,
  ExportedBattle,
} from '../../../shared/api/battles.ts';
