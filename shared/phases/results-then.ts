/**
 * Results as an older engine recorded them, read as this engine writes them. A stored phase keeps what the engine
 * that adjudicated it said (its `engineVersion`); whoever shows or compares it reads it through here, so that
 * nothing downstream parses sentences to learn what a code now says.
 */
import type { OrderResult } from './results.ts';

/** Version 6 counted unused builds and named the "no free build site" waive: before, only the sentence said so. */
function asOfVersion6(result: OrderResult): OrderResult {
  if (result.parsed?.kind !== 'waive' && !/^waive$/i.test(result.order)) return result;
  const count = /(\d+) builds? not used/.exec(result.reason);
  if (!count) return result;
  const unused = Number(count[1]);
  if (result.code === 'waived' && /no free build site/i.test(result.reason)) return { ...result, code: 'no-build-site', unused };
  if (result.code === 'unordered') return { ...result, unused };
  return result;
}

/** The results of a phase recorded by engine version `recorded` (null: before versions were recorded), as this engine writes them. */
export function resultsAsNow(results: readonly OrderResult[], recorded: number | null): OrderResult[] {
  if (recorded !== null && recorded >= 6) return [...results];
  return results.map(asOfVersion6);
}
