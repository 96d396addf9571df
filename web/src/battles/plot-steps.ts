/**
 * Plotting one ship's move in the ship-to-ship rules, a step at a time: which steps may follow the ones chosen
 * (some legal plot of the turn continues that way), where each leads, and whether the steps so far are a whole plot.
 */
import { type Facing, type Hex, turn } from '../../../shared/naval/hex.ts';
import { type Step, stepTo } from '../../../shared/naval/ship-to-ship/plot.ts';

export interface PlotMove {
  readonly steps: string;
  readonly pivot: number;
}

export type { Step };

/** The legal plots' moves of one ship, from the turn's legal actions. */
export function pivotsOf(legal: readonly PlotMove[]): number[] {
  return [...new Set(legal.map((p) => p.pivot))].sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
}

/** The steps that may come next after `steps` with this pivot. */
export function nextSteps(legal: readonly PlotMove[], pivot: number, steps: string): Step[] {
  const out = new Set<Step>();
  for (const p of legal) if (p.pivot === pivot && p.steps.length > steps.length && p.steps.startsWith(steps)) out.add(p.steps[steps.length] as Step);
  return (['F', 'L', 'R', 'B'] as const).filter((s) => out.has(s));
}

/** Whether the steps with this pivot are one of the legal plots. */
export const isWholePlot = (legal: readonly PlotMove[], pivot: number, steps: string): boolean => legal.some((p) => p.pivot === pivot && p.steps === steps);

/** The hexes a plot passes through (the start first) and where and how it ends. */
export function walkPlot(from: { hex: Hex; facing: Facing }, pivot: number, steps: string): { hexes: Hex[]; end: { hex: Hex; facing: Facing } } {
  let here = { hex: from.hex, facing: turn(from.facing, pivot) };
  const hexes = [here.hex];
  for (const s of steps) {
    here = stepTo(here.hex, here.facing, s as Step);
    hexes.push(here.hex);
  }
  return { hexes, end: here };
}

/** Where each possible next step leads from the end of the steps so far. */
export function nextHexes(from: { hex: Hex; facing: Facing }, legal: readonly PlotMove[], pivot: number, steps: string): { step: Step; hex: Hex }[] {
  const { end } = walkPlot(from, pivot, steps);
  return nextSteps(legal, pivot, steps).map((step) => ({ step, hex: stepTo(end.hex, end.facing, step).hex }));
}

export const STEP_WORDS: Record<Step, string> = { F: 'Ahead', L: 'Turn left', R: 'Turn right', B: 'Astern' };
