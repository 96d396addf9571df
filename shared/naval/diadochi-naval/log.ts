/**
 * The Diadochi Naval Rules' numbers in the log's words (the log itself is shared/naval/battle-log.ts).
 */

/** A length in cables for the log: "2.35 cables". */
export const cables = (d: number): string => `${Math.round(d * 100) / 100} cable${Math.abs(d - 1) < 1e-9 ? '' : 's'}`;
/** A signed modifier: "+2", "−1". */
export const signed = (n: number): string => (n >= 0 ? `+${n}` : `−${-n}`);
