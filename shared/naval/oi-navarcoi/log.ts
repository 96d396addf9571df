/**
 * The battle's log as it is written: each line carries the rolls made since the line before it, so every die
 * sits on the line that says what it did. The average die and the tests' totals are worked out here, with the
 * numbers in words ("2d6 4+3 = 7, well trained +1, within 8" of the enemy −2: 6").
 */
import type { Dice, RecordingDice, Roll } from '../dice.ts';
import type { LogLine } from '../ruleset.ts';
import { RULES } from './rules.ts';

const isRecording = (d: Dice): d is RecordingDice => typeof (d as Partial<RecordingDice>).take === 'function';

export class BattleLog {
  readonly lines: LogLine[] = [];
  private pending: Roll[] = [];

  constructor(
    private readonly dice: Dice,
    /** Rolls the battle had made before this call. */
    private rollCount: number,
  ) {}

  roll(label: string, sides = 6): number {
    const value = this.dice.roll(sides, label);
    if (isRecording(this.dice)) this.pending.push(...this.dice.take());
    else this.pending.push({ index: this.rollCount, sides, value, label: label.slice(0, 120) });
    this.rollCount++;
    return value;
  }

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

  line(text: string, table?: { name: string; row: string }): void {
    this.lines.push(table ? { text, rolls: this.pending, table } : { text, rolls: this.pending });
    this.pending = [];
  }

  get rolls(): number {
    return this.rollCount;
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
