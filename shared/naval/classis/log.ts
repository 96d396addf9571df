/**
 * The battle log as the engine writes it: each line takes the dice rolled since the line before, so every
 * die sits on the line it decided. Given dice that record their rolls (the battle's stream, a test's fixed
 * dice) the lines take them from there with their place in the stream; other dice are wrapped and their rolls
 * numbered from 0.
 */
import type { Dice, RecordingDice, Roll } from '../dice.ts';
import type { LogLine } from '../ruleset.ts';

function isRecording(dice: Dice): dice is RecordingDice {
  return typeof (dice as Partial<RecordingDice>).take === 'function';
}

function recordingOf(dice: Dice): RecordingDice {
  if (isRecording(dice)) return dice;
  let next = 0;
  let pending: Roll[] = [];
  return {
    roll(sides, label) {
      const value = dice.roll(sides, label);
      pending.push({ index: next++, sides, value, label: label.slice(0, 120) });
      return value;
    },
    take() {
      const out = pending;
      pending = [];
      return out;
    },
    get next() {
      return next;
    },
  };
}

export class BattleLog {
  readonly lines: LogLine[] = [];
  readonly dice: RecordingDice;

  constructor(dice: Dice) {
    this.dice = recordingOf(dice);
  }

  roll(sides: number, label: string): number {
    return this.dice.roll(sides, label);
  }

  /** A line, with the rolls made since the last line. */
  say(text: string, table?: { name: string; row: string }): void {
    const rolls = this.dice.take();
    this.lines.push(table ? { text, rolls, table } : { text, rolls });
  }
}
