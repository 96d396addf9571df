/**
 * The battle's log (shared/naval/battle-log.ts: each line carries the rolls made since the line before it, so every
 * die sits on the line that says what it did) with Oi Navarcoi!'s own dice. The average die and the tests' totals are
 * worked out here, with the
 * numbers in words ("2d6 4+3 = 7, well trained +1, within 8" of the enemy −2: 6").
 */
import { BattleLog as SharedBattleLog } from '../battle-log.ts';
import { RULES } from './rules.ts';

/** The shared log (shared/naval/battle-log.ts) with the rules' own dice: several d6, and the average die. */
export class BattleLog extends SharedBattleLog {
  /** `n` d6 and their faces. */
  d6s(n: number, label: string): number[] {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(this.roll(n > 1 ? `${label} (${i + 1} of ${n})` : label));
    return out;
  }

  /** `n` average dice (2,3,3,4,4,5): the total and how it was read. */
  averageDice(n: number, label: string): { total: number; text: string } {
    const faces = this.d6s(n, `${label}, average die`);
    const values = faces.map((f) => RULES.averageDie[f - 1]);
    const total = values.reduce((a, b) => a + b, 0);
    const read = faces.map((f, i) => `d6 ${f}→${values[i]}`).join(' + ');
    return { total, text: `${n} average ${n === 1 ? 'die' : 'dice'} (${read}) = ${total}` };
  }
}

/** A modifier in words: "well trained +1". */
export interface Modifier {
  readonly name: string;
  readonly value: number;
}

export const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0');

/** A test's dice, modifiers and total in words. */
export function testText(faces: readonly number[], mods: readonly Modifier[]): { total: number; text: string } {
  const kept = mods.filter((m) => m.value !== 0);
  const natural = faces.reduce((a, b) => a + b, 0);
  const total = natural + kept.reduce((a, m) => a + m.value, 0);
  const dice = `${faces.length}d6 ${faces.join('+')} = ${natural}`;
  return { total, text: kept.length ? `${dice}, ${kept.map((m) => `${m.name} ${signed(m.value)}`).join(', ')}: ${total}` : dice };
}

/** Inches to one decimal, for the log. */
export const inches = (n: number): string => `${Math.round(n * 10) / 10}"`;

/** Half stands in words: 3 → "1½ stands". */
export function standsText(halves: number): string {
  const whole = Math.floor(halves / 2);
  const half = halves % 2 === 1;
  if (whole === 0 && half) return '½ stand';
  return `${whole}${half ? '½' : ''} stand${whole === 1 && !half ? '' : 's'}`;
}
