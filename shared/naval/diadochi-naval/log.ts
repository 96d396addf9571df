/**
 * The log as it is written: each line carries the rolls made since the line before it. Wraps the dice an
 * engine call is handed: rolls are numbered by the dice when they number them (a recording stream), else by
 * the battle's own count of its rolls.
 */
import type { Dice, RecordingDice, Roll } from '../dice.ts';
import type { LogLine } from '../ruleset.ts';

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

  line(text: string, table?: { name: string; row: string }): void {
    this.lines.push(table ? { text, rolls: this.pending, table } : { text, rolls: this.pending });
    this.pending = [];
  }

  get rolls(): number {
    return this.rollCount;
  }
}

/** A length in cables for the log: "2.35 cables". */
export const cables = (d: number): string => `${Math.round(d * 100) / 100} cable${Math.abs(d - 1) < 1e-9 ? '' : 's'}`;
/** A signed modifier: "+2", "−1". */
export const signed = (n: number): string => (n >= 0 ? `+${n}` : `−${-n}`);
