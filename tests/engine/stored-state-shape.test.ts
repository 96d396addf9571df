import { describe, expect, it } from 'vitest';
import { getVariant } from '../../shared/variants.ts';
import { adjudicate } from '../../shared/game/process.ts';
import { GameStateSchema } from '../../shared/state/schema.ts';
import { randomGame } from '../support/random-game.ts';

/**
 * The server stores each next state as JSON, and a game's export, its replay and the byte-for-byte checks compare
 * that text. The engine makes the units of a movement phase's next state by copying a template (state/copy.ts,
 * for speed): they must still be plain objects whose JSON has the fields in the schema's order.
 */
describe('the next state as stored', () => {
  for (const id of ['standard', 'diadochi-v']) {
    it(`${id}: every unit after a movement phase is a plain { power, type, at } in that order, as the schema writes it`, () => {
      const v = getVariant(id)!;
      const phases = randomGame(v, 7, 30).filter((p) => p.state.phase.type === 'movement');
      expect(phases.length).toBeGreaterThan(10);
      for (const p of phases) {
        const r = adjudicate(v, p.state, p.orders);
        if (!r.ok) throw new Error(r.error.join('; '));
        const { next } = r.value;
        expect(next.units.length).toBeGreaterThan(0);
        for (const u of next.units) {
          expect(Object.getPrototypeOf(u)).toBe(Object.prototype);
          expect(Object.keys(u)).toEqual(['power', 'type', 'at']);
        }
        // What the schema makes of the stored text is the same text again: nothing the engine added or reordered.
        const text = JSON.stringify(next);
        expect(JSON.stringify(GameStateSchema.parse(JSON.parse(text)))).toBe(text);
      }
    });
  }
});
