/**
 * Cases of external DATC files whose expectation contradicts a DATC v3.0
 * preference that this engine follows. The runner reports them as skipped.
 * Keyed by the case file's name, then the case id.
 */
const deviations: Record<string, Record<string, string>> = {
  'datc_v2.4_06.txt': {
    '6.G.8':
      'DATC v2.4 let a move ordered "via convoy" fall back to the land route when no convoy is there; v3.0 (issue 4.A.3) prefers no fallback, so the army stays in Belgium.',
  },
};

export function knownDeviations(fileName: string): Map<string, string> {
  return new Map(Object.entries(deviations[fileName] ?? {}));
}
