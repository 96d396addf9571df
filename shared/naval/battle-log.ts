/**
 * A battle's log as an engine call writes it (ship-to-ship, the Diadochi Naval Rules, Oi Navarcoi!): each line
 * carries the rolls made since the line before it. Wraps the dice the call is handed: rolls are numbered by the dice
 * when they number them (a recording stream), else by the battle's own count of its rolls.
 */
import type { Dice, RecordingDice, Roll } from './dice.ts';
import type { LogLine } from './ruleset.ts';

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

  /** How many rolls the battle has made, this call's included. */
  get rolls(): number {
    return this.rollCount;
  }
}
