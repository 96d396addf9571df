/**
 * A processed phase's outcome as the map shows it, beside the orders' shapes: the centres that changed (taken,
 * rebelled, destroyed, rebuilt; special build centres that changed hands), each with its sentence for a hover or a
 * tap, and the units disbanded at once for want of a retreat, marked where they stood. Pure.
 */
import { controlChanges, type GameState, type PhaseEvent, type Unit, type Variant } from '../../../shared/index.ts';
import { controlText, disbandedText, eventText } from '../results/labels.ts';
import type { Glyph } from '../../../shared/drawing/glyphs.ts';
import { locationPoint } from '../../../shared/drawing/overlay.ts';

/** Province → what happened to its centre in the phase, in words (several sentences joined). */
export function centreChanges(variant: Variant, events: readonly PhaseEvent[], before: GameState, after: GameState): Map<string, string> {
  const out = new Map<string, string>();
  const add = (province: string, text: string) => out.set(province, out.has(province) ? `${out.get(province)} ${text}` : text);
  for (const e of events) if ('province' in e) add(e.province, eventText(variant, e));
  for (const c of controlChanges(before, after)) add(c.province, controlText(variant, c));
  return out;
}

/** A mark (the cross of a removal, in red) where each unit disbanded for want of a retreat stood; no order of its own (ref -1). */
export function disbandMarks(variant: Variant, disbanded: readonly Unit[]): Glyph[] {
  return disbanded.flatMap((u) => {
    const at = locationPoint(variant, u.at);
    return at
      ? [{ kind: 'mark' as const, symbol: 'disband' as const, at, power: u.power, outcome: 'success' as const, ref: -1, text: disbandedText(variant, u) }]
      : [];
  });
}
