/** How each ruleset's log names a hex, so the board's buttons use the same words. */
import type { BattleRulesetId } from './types.ts';
import { hexName as classisHexName } from '../../../shared/naval/classis/words.ts';
import type { Hex } from '../../../shared/naval/hex.ts';
import { toColumnRow } from '../../../shared/naval/hex.ts';

/** Ship-to-ship writes "column,row" from 0, as its log does (its words module would bring its rules table along). */
const shipToShipHexName = (h: Hex): string => {
  const { col, row } = toColumnRow(h);
  return `${col},${row}`;
};

export const hexNameFor = (ruleset: BattleRulesetId): ((h: Hex) => string) => (ruleset === 'classis' ? classisHexName : shipToShipHexName);
