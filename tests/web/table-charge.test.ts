/**
 * The Diadochi Naval Rules on the table board: a charge aimed by a click on the enemy ship (the enemy within reach is
 * a button on the table; the click turns the ship toward it and runs it until it touches, the engine's own plan), and
 * a whole line abreast dragged as one move, the engine checking its path as for a single ship and its refusal shown.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { diadochiNaval } from '../../shared/naval/diadochi-naval/engine.ts';
import type { State as DiadochiState } from '../../shared/naval/diadochi-naval/state.ts';
import { streamDice } from '../../shared/naval/dice.ts';
import TablePanel from '../../web/src/battles/TablePanel.svelte';
import TableSea from '../../web/src/battles/TableSea.svelte';
import { TableEntry } from '../../web/src/battles/table-entry.svelte.ts';
import { tablePicture } from '../../web/src/battles/table-picture.ts';
import { SALT, SEED } from './battles-fixtures.ts';
import { tableBattle } from './table-fixtures.ts';

const mounted: { component: ReturnType<typeof mount>; target: HTMLElement }[] = [];
afterEach(() => {
  for (const { component, target } of mounted.splice(0)) {
    unmount(component);
    target.remove();
  }
});

function show(render: (target: HTMLElement) => ReturnType<typeof mount>): HTMLElement {
  const target = document.createElement('div');
  document.body.appendChild(target);
  const component = render(target);
  mounted.push({ component, target });
  flushSync();
  return target;
}

// Antigonus' line abreast stands at y 3.5 cables heading north; one of Ptolemy's ships is brought 3 cables ahead of
// demetrius-1 (x 9), facing it.
const { detail, side } = tableBattle('diadochi-naval', 'squadron-clash', (state: DiadochiState) => {
  const enemy = state.ships.find((s) => s.id === 'menelaus-1')!;
  Object.assign(enemy, { x: 9, y: 6.5, heading: 180 });
});
const state = detail.state as DiadochiState;

describe('a Diadochi charge aimed by a click on the enemy', () => {
  it('rings the enemy within reach on the table; a click on it aims the charge, which the engine stops on contact', () => {
    const entry = new TableEntry(() => detail);
    entry.pickPiece('demetrius-1');
    flushSync();
    expect(entry.targets).toEqual(['menelaus-1']);
    const clicked: string[] = [];
    const table = show((target) =>
      mount(TableSea, {
        target,
        props: {
          picture: tablePicture('diadochi-naval', state),
          sides: detail.sides,
          pickable: entry.pickable,
          targets: entry.targets,
          ontarget: (p: string) => clicked.push(p),
        },
      }),
    );
    const enemy = table.querySelector<SVGGElement>('g.piece.target[data-piece="menelaus-1"]')!;
    expect(enemy.getAttribute('aria-label')).toMatch(/^Run at Menelaus’ 1/);
    // Ships out of reach are no target.
    expect(table.querySelector('g.piece.target[data-piece="menelaus-2"]')).toBeNull();
    enemy.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(clicked).toEqual(['menelaus-1']);

    const acted: unknown[] = [];
    const root = show((target) => mount(TablePanel, { target, props: { entry, unit: 'cable', busy: false, onact: (a: unknown) => acted.push(a) } }));
    entry.aim(clicked[0]);
    flushSync();
    expect(entry.planned!.target).toEqual({ id: 'menelaus-1', name: 'Menelaus’ 1' });
    expect(entry.planned!.refusal).toBeNull();
    // Straight ahead, as far as it goes before touching: no Oi Navarcoi! manoeuvres offered.
    expect(entry.numbers.turn).toBe(0);
    expect(entry.manoeuvres).toEqual([]);
    expect(root.querySelector('[role="radiogroup"][aria-label^="Attack on"]')).toBeNull();
    expect(root.querySelector('.verdict')!.textContent).toMatch(/^\s*Legal:/);
    // The ghost ends bow to bow: a cable short of the enemy's middle (each base a cable long).
    expect(entry.planned!.bases[0].y).toBeCloseTo(5.5, 3);
    Array.from(root.querySelectorAll('button'))
      .find((b) => b.textContent === 'Take this move')!
      .click();
    expect(acted).toHaveLength(1);
    const applied = diadochiNaval.apply(state, side, acted[0] as never, streamDice(SEED, SALT));
    expect(applied.ok).toBe(true);
    if (applied.ok) expect(applied.state.ships.find((s) => s.id === 'demetrius-1')!.y).toBeCloseTo(5.5, 3);
  });

  it('offers no target to a ship the enemy is out of reach of', () => {
    const entry = new TableEntry(() => detail);
    entry.pickPiece('demetrius-8');
    flushSync();
    expect(entry.targets).toEqual([]);
  });
});

describe('a Diadochi line dragged whole', () => {
  it('moves the eight ships as one order, and refuses a drag past the allowance with the engine’s reason', () => {
    const entry = new TableEntry(() => detail);
    const root = show((target) => mount(TablePanel, { target, props: { entry, unit: 'cable', busy: false, onact: () => {} } }));
    entry.pickPiece('demetrius-8');
    entry.pickPiece('demetrius-8');
    flushSync();
    const line = entry.mover!;
    expect(line.pieces).toHaveLength(8);
    // A cable straight ahead for the whole line (its middle dragged a cable north).
    entry.drag({ x: line.anchor.x, y: line.anchor.y + 1 });
    flushSync();
    expect(entry.planned!.refusal).toBeNull();
    expect(entry.planned!.action).toMatchObject({ kind: 'order', formation: 'abreast', ships: line.pieces });
    expect(diadochiNaval.check(state, side, entry.planned!.action as never)).toBeNull();
    expect(entry.planned!.bases.map((b) => b.y)).toEqual(line.bases.map((b) => b.y + 1));
    // Ten cables: past the line's allowance, refused by the engine, its reason on the panel.
    entry.drag({ x: line.anchor.x, y: line.anchor.y + 10 });
    flushSync();
    const refusal = diadochiNaval.check(state, side, entry.planned!.action as never);
    expect(refusal).not.toBeNull();
    expect(entry.planned!.refusal).toBe(refusal!.message);
    expect(root.querySelector('.refusal')!.textContent).toBe(`Refused: ${refusal!.message}`);
  });
});
