/** Small wording helpers shared by the pages (free of zod and of the log's sentences: the lobby loads them first). */
import type { Rulebook } from '../../../shared/index.ts';
import type { GameOutcome } from '../../../shared/api/games.ts';
import { plural } from '../../../shared/text/plural.ts';

export { plural };

/** How a game ended, in words: "Victory of Egypt", "Draw among Egypt, Syria and Rome", "Conceded to Egypt". */
export function outcomeText(outcome: GameOutcome): string {
  const powers = listInWords(outcome.powers);
  if (outcome.kind === 'victory') return outcome.powers.length > 1 ? `Shared victory of ${powers}` : `Victory of ${powers}`;
  if (outcome.kind === 'draw') return `Draw among ${powers}`;
  return `Conceded to ${powers}`;
}

/** "1 day", "12 hours", "90 minutes". */
export function duration(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) if (seconds % size === 0 && seconds >= size) return plural(seconds / size, name);
  return plural(seconds, 'second');
}

export const pressNames: Record<string, string> = { full: 'Full press', public: 'Public press only', none: 'Gunboat (no press)' };
/** A game's rule set (RULEBOOKS in shared/variant/options.ts) in words. */
export const rulesNames: Record<Rulebook, string> = { datc: 'Modern (the DATC’s answers where rulebooks differ)', '1971': 'The 1971 rulebook' };
/** The same, in a few words, for a line of settings. */
export const rulesShortNames: Record<Rulebook, string> = { datc: 'modern rules', '1971': '1971 rulebook' };

/** "in 3 hours", "2 days ago". */
export function relativeTime(iso: string, now = Date.now()): string {
  const diff = (new Date(iso).getTime() - now) / 1000;
  const abs = Math.abs(diff);
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (abs < 60) return rtf.format(Math.round(diff), 'second');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), 'hour');
  return rtf.format(Math.round(diff / 86400), 'day');
}

/**
 * A player's deadlines kept (their public page's reliability), as a share: rounded, but never 100 % with a
 * deadline missed nor 0 % with one kept. "Kept 47 of 50 deadlines (94 %)"; "No deadlines due yet".
 */
export function deadlinesKept(r: { phases: number; missed: number }): string {
  if (r.phases <= 0) return 'No deadlines due yet';
  const kept = Math.max(0, r.phases - r.missed);
  const share = Math.min(kept < r.phases ? 99 : 100, Math.max(kept > 0 ? 1 : 0, Math.round((kept / r.phases) * 100)));
  return `Kept ${kept} of ${plural(r.phases, 'deadline')} (${share}\u00a0%)`;
}

const SPAN_UNITS = [
  [86400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
] as const;

/**
 * A length of time in words, as people say it: its largest unit and the next one down, rounded there ("1 day
 * 8 hours", not "1 day 8 hours 10 minutes 19 seconds"): "1 hour", "2 days 6 hours", "1 hour 30 minutes", "45 seconds".
 */
export function spanInWords(seconds: number): string {
  const total = Math.round(Math.abs(seconds));
  const first = SPAN_UNITS.findIndex(([size]) => total >= size);
  if (first === -1) return '0 seconds';
  const [size, name] = SPAN_UNITS[first];
  const next = SPAN_UNITS[first + 1];
  if (!next) return plural(total, name);
  // Rounded to the smaller unit, which may carry into the larger ("1 hour 59.6 minutes" is "2 hours").
  const inSmall = Math.round(total / next[0]);
  const per = size / next[0];
  const big = Math.floor(inSmall / per);
  const small = inSmall % per;
  return small === 0 ? plural(big, name) : `${plural(big, name)} ${plural(small, next[1])}`;
}

/** "Egypt", "Egypt and Syria", "Egypt, Syria and Thrace". */
export function listInWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

// ───────────────────────────── time zone ─────────────────────────────

/** The zone the user chose for times (their account's preference), or undefined: the browser's own. Set by the session. */
let chosenZone: string | undefined;

/** Shows every time in `zone` from now on (null or a zone this browser does not know: the browser's own). */
export function showTimesIn(zone: string | null | undefined): void {
  chosenZone = zone && knownZone(zone) ? zone : undefined;
}

/** The zone times are shown in: the user's choice, or undefined for the browser's own. */
export const shownTimeZone = (): string | undefined => chosenZone;

/** The browser's own zone ("Europe/Amsterdam"). */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A date or time in the user's zone: `options` as for Intl.DateTimeFormat ("14 January 2026", "14 Jan 2026, 18:30"). */
export function dateInZone(iso: string, options: Intl.DateTimeFormatOptions, locale?: string): string {
  return new Date(iso).toLocaleString(locale, { ...options, timeZone: chosenZone });
}
