import type { Variant } from '../variant/load.ts';
import type { Phase, PhaseType, Season } from './schema.ts';

const seasonNames: Record<Season, string> = { spring: 'Spring', fall: 'Fall', winter: 'Winter' };
const typeNames: Record<PhaseType, string> = { movement: 'Movement', retreat: 'Retreat', adjustment: 'Adjustment' };

/**
 * "240 BC" or "1901": years as the variant's calendar shows them. A calendar counting down to 1 BC goes on to
 * 1 AD (there is no year 0): the years stored as 0, -1, … are shown as 1 AD, 2 AD, ….
 */
export function yearName(variant: Variant, year: number): string {
  const { era, step } = variant.data.rules.calendar;
  if (!era) return String(year);
  return step === -1 && year < 1 ? `${1 - year} AD` : `${year} ${era}`;
}

/** "Spring 240 BC Movement", "Winter 1901 Adjustment". */
export function phaseName(variant: Variant, phase: Phase): string {
  return `${seasonNames[phase.season]} ${yearName(variant, phase.year)} ${typeNames[phase.type]}`;
}

export function firstPhase(variant: Variant): Phase {
  return { season: 'spring', year: variant.data.rules.calendar.startYear, type: 'movement' };
}

export function nextYear(variant: Variant, year: number): number {
  return year + variant.data.rules.calendar.step;
}

/**
 * Parse "Spring 1901, Movement", "Fall 240 BC Retreat", "Winter 1901 Adjustments".
 * An adjustment phase is always in Winter, even when written "Fall 1901, Adjustment" (as jDip files do).
 * In a variant whose calendar counts down to 1 BC, "1 AD" is the year after it, as `yearName` writes it.
 */
export function parsePhase(text: string, variant?: Variant): Phase | undefined {
  const m = /^\s*(spring|summer|fall|autumn|winter)\s+(\d+)\s*(bc|ad|bce|ce)?\s*,?\s*(movement|moves?|retreats?|adjustments?|builds?)\s*$/i.exec(text);
  if (!m) return undefined;
  const word = m[4].toLowerCase();
  const type: PhaseType = word.startsWith('move') ? 'movement' : word.startsWith('retreat') ? 'retreat' : 'adjustment';
  const s = m[1].toLowerCase();
  const season: Season = type === 'adjustment' ? 'winter' : s === 'spring' ? 'spring' : s === 'winter' ? 'winter' : 'fall';
  const afterChrist = /^(ad|ce)$/i.test(m[3] ?? '');
  const year = afterChrist && variant?.data.rules.calendar.step === -1 ? 1 - Number(m[2]) : Number(m[2]);
  return { season, year, type };
}
