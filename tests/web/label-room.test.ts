/**
 * The table writes only the names it has room for: a line abreast of ships a cable apart shows its flagship's name
 * and every other one that does not run into a name already written, never one over another; each ship still
 * says its name on hover and to a screen reader.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { State as DiadochiState } from '../../shared/naval/diadochi-naval/state.ts';
import TableSea from '../../web/src/battles/TableSea.svelte';
import { namesWithRoom } from '../../web/src/battles/label-room.ts';
import { tablePicture } from '../../web/src/battles/table-picture.ts';
import { tableBattle } from './table-fixtures.ts';

describe('names with room', () => {
  const inLine = (n: number, gap: number) => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, x: i * gap, y: 0, text: 'Menelaus’ 5', first: i === 3 }));

  it('writes every name where they are far apart', () => {
    expect(namesWithRoom(inLine(4, 20), 1).size).toBe(4);
  });

  it('in a crowded line writes the flagship first and leaves out names that would overlap', () => {
    const shown = namesWithRoom(inLine(8, 1), 1);
    expect(shown.has('s3')).toBe(true);
    // A name is about six units wide: those within it of a written one are left out.
    expect(shown.size).toBeLessThanOrEqual(2);
    for (const id of shown)
      for (const other of shown) if (id !== other) expect(Math.abs(Number(id.slice(1)) - Number(other.slice(1)))).toBeGreaterThanOrEqual(6);
  });

  it('does not leave out a name on another line', () => {
    const lines = [...inLine(2, 1), { id: 'below', x: 0, y: 5, text: 'Nike', first: false }];
    expect(namesWithRoom(lines, 1).has('below')).toBe(true);
  });
});

describe('the table board', () => {
  let target: HTMLElement;
  let component: ReturnType<typeof mount> | null = null;
  afterEach(() => {
    if (component) unmount(component);
    target.remove();
  });

  it('writes no name over another, and every ship keeps its name in words', () => {
    const { detail } = tableBattle('diadochi-naval', 'squadron-clash');
    target = document.createElement('div');
    document.body.appendChild(target);
    const picture = tablePicture('diadochi-naval', detail.state as DiadochiState);
    component = mount(TableSea, { target, props: { picture, sides: detail.sides } });
    flushSync();
    const written = target.querySelectorAll('text.name');
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(picture.pieces.length);
    for (const p of picture.pieces) {
      const drawn = target.querySelector(`g.piece[data-piece="${p.id}"]`)!;
      expect(drawn.getAttribute('aria-label') ?? drawn.querySelector('title')!.textContent).toMatch(new RegExp(`^${p.name}, `));
    }
  });
});
