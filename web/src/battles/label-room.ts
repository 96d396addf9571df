/**
 * Which names the table has room to write: a line abreast of eight ships a cable apart would write eight names
 * over each other ("MeneMeneMene…"). Names are placed in turn, the picked and the flagships first, and one whose
 * box would overlap a name already placed is left out (its piece still says it on hover and to a screen reader).
 * A greedy placement, as map labelling does at its simplest; good enough for a few dozen pieces.
 */
export interface NameToPlace {
  readonly id: string;
  /** The middle of the name as drawn. */
  readonly x: number;
  readonly y: number;
  readonly text: string;
  /** Placed before the others: a picked piece, a flagship. */
  readonly first: boolean;
}

/** A name's width in the drawing's units: about half a font size a character (the serif the board uses). */
const WIDTH_PER_CHARACTER = 0.55;

export function namesWithRoom(names: readonly NameToPlace[], fontSize: number): Set<string> {
  const ordered = [...names].sort((a, b) => Number(b.first) - Number(a.first));
  const placed: { x0: number; x1: number; y0: number; y1: number }[] = [];
  const shown = new Set<string>();
  for (const n of ordered) {
    const half = (n.text.length * WIDTH_PER_CHARACTER * fontSize) / 2;
    const box = { x0: n.x - half, x1: n.x + half, y0: n.y - fontSize, y1: n.y + fontSize * 0.25 };
    if (placed.some((p) => box.x0 < p.x1 && p.x0 < box.x1 && box.y0 < p.y1 && p.y0 < box.y1)) continue;
    placed.push(box);
    shown.add(n.id);
  }
  return shown;
}
