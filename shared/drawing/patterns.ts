/**
 * Per-power fills: a light tint of the power's colour AND a pattern of its
 * own, so owners can be told apart without telling colours apart.
 */

/**
 * Pattern strokes, drawn in an 8×8 tile, one per power in variant order: eight, each unlike the others (tested by
 * drawing the tiles, tests/engine/drawing-patterns.test.ts), so a variant of up to eight powers never repeats one.
 */
export const PATTERN_MARKS = [
  'M-2 2 L2 -2 M0 8 L8 0 M6 10 L10 6', // diagonal lines
  'M2 2 h0.01 M6 6 h0.01', // dots
  'M0 2 H8 M0 6 H8', // horizontal lines
  'M0 0 L8 8 M8 0 L0 8', // cross-hatch
  'M2 0 V8 M6 0 V8', // vertical lines
  'M-2 6 L2 10 M0 0 L8 8 M6 -2 L10 2', // diagonal, the other way
  'M0 4 Q2 2 4 4 T8 4', // waves
  'M2 2 h4 v4 h-4 Z', // small squares
];

/** The pattern of the power at `index` in its variant's order (beyond eight powers they repeat). */
export function patternMark(index: number): string {
  return PATTERN_MARKS[index % PATTERN_MARKS.length];
}

/** Mix a #rrggbb colour towards parchment (t = 0: parchment, 1: the colour). */
export function tint(colour: string, t: number, paper = '#f1e6c8'): string {
  const c = parseInt(colour.slice(1), 16);
  const p = parseInt(paper.slice(1), 16);
  const channel = (shift: number) => Math.round(((p >> shift) & 255) * (1 - t) + ((c >> shift) & 255) * t);
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, '0')).join('')}`;
}

/** A readable ink on a power's colour: dark on light colours, white on dark ones. */
export function inkOn(colour: string): string {
  const c = parseInt(colour.slice(1), 16);
  const [r, g, b] = [(c >> 16) & 255, (c >> 8) & 255, c & 255].map((x) => {
    const s = x / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.35 ? '#2a1d0c' : '#ffffff';
}
